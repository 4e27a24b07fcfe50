// Responses API events and objects for llmperf-mock (see responses_api.h). Like the chat chunks,
// they are built by appends of pre-escaped tokens into the connection's reused buffer.
#include "responses_api.h"

#include <fmt/format.h>

#include <iterator>

namespace llmperf::mock {
namespace {

// The reply has a reasoning item (output_index 0).
bool has_reasoning(const ResponsePlan& plan) { return plan.reasoning_tokens > 0; }
// The reply has a message item (output_index 1 after a reasoning item, else 0).
bool has_message(const ResponsePlan& plan) {
  return plan.completion_tokens > plan.reasoning_tokens;
}
int message_index(const ResponsePlan& plan) { return has_reasoning(plan) ? 1 : 0; }

// Opens the event `type`: its `event:` line and its data up to the sequence_number; the caller
// appends the remaining fields and calls close_event.
void open_event(std::string& out, ResponsesStream& stream, std::string_view type) {
  fmt::format_to(std::back_inserter(out),
                 "event: {0}\ndata: {{\"type\":\"{0}\",\"sequence_number\":{1}", type,
                 stream.sequence++);
}

void close_event(std::string& out) { out += "}\n\n"; }

void append_reasoning_item(std::string& out, const ResponsePlan& plan, const Vocabulary& vocabulary,
                           bool done) {
  fmt::format_to(std::back_inserter(out), R"({{"id":"rs_{}","type":"reasoning","summary":[],)",
                 plan.seq);
  if (!done) {
    out += R"("content":[],"status":"in_progress"})";
    return;
  }
  out += R"("content":[{"type":"reasoning_text","text":")";
  append_token_text(out, vocabulary, 0, plan.reasoning_tokens);
  out += R"("}],"status":"completed"})";
}

void append_output_text_part(std::string& out, const ResponsePlan& plan,
                             const Vocabulary& vocabulary, bool done, std::string_view extra_text) {
  out += R"({"type":"output_text","text":")";
  if (done) {
    append_token_text(out, vocabulary, plan.reasoning_tokens, plan.completion_tokens);
    out += extra_text;
  }
  out += R"(","annotations":[]})";
}

void append_message_item(std::string& out, const ResponsePlan& plan, const Vocabulary& vocabulary,
                         bool done, std::string_view extra_text = {}) {
  fmt::format_to(std::back_inserter(out),
                 R"({{"id":"msg_{}","type":"message","status":"{}","role":"assistant","content":[)",
                 plan.seq, done ? "completed" : "in_progress");
  if (done) append_output_text_part(out, plan, vocabulary, true, extra_text);
  out += "]}";
}

void append_response_usage(std::string& out, const ResponsePlan& plan) {
  if (!plan.usage_in_body) {
    out += "null";
    return;
  }
  fmt::format_to(std::back_inserter(out),
                 R"({{"input_tokens":{},"input_tokens_details":{{"cached_tokens":{}}},)"
                 R"("output_tokens":{},"output_tokens_details":{{"reasoning_tokens":{}}},)"
                 R"("total_tokens":{}}})",
                 plan.prompt_tokens, plan.cached_tokens.value_or(0), plan.completion_tokens,
                 plan.reasoning_tokens, plan.prompt_tokens + plan.completion_tokens);
}

// The response object; `finished` adds the output items, the final status and the usage.
void append_response(std::string& out, const ResponsePlan& plan, const Vocabulary& vocabulary,
                     std::string_view model_escaped, bool finished,
                     std::string_view extra_text = {}) {
  const std::string_view status =
      !finished ? "in_progress" : (plan.incomplete ? "incomplete" : "completed");
  fmt::format_to(std::back_inserter(out),
                 R"({{"id":"resp_{}","object":"response","created_at":{},"status":"{}",)"
                 R"("error":null,"incomplete_details":{},"model":"{}","output":[)",
                 plan.seq, plan.created_s, status,
                 finished && plan.incomplete ? R"({"reason":"max_output_tokens"})" : "null",
                 model_escaped);
  if (finished) {
    if (has_reasoning(plan)) append_reasoning_item(out, plan, vocabulary, true);
    if (has_reasoning(plan) && has_message(plan)) out += ',';
    if (has_message(plan)) append_message_item(out, plan, vocabulary, true, extra_text);
  }
  out += R"(],"usage":)";
  if (finished) {
    append_response_usage(out, plan);
  } else {
    out += "null";
  }
  out += '}';
}

void append_delta(std::string& out, ResponsesStream& stream, const ResponsePlan& plan,
                  bool reasoning, std::string_view text) {
  open_event(out, stream,
             reasoning ? "response.reasoning_text.delta" : "response.output_text.delta");
  fmt::format_to(std::back_inserter(out),
                 R"(,"item_id":"{}_{}","output_index":{},"content_index":0,"delta":")",
                 reasoning ? "rs" : "msg", plan.seq, reasoning ? 0 : message_index(plan));
  out += text;
  out += '"';
  close_event(out);
}

// output_item.added/done of the reasoning or the message item.
void append_item_event(std::string& out, ResponsesStream& stream, const ResponsePlan& plan,
                       const Vocabulary& vocabulary, bool reasoning, bool done) {
  open_event(out, stream, done ? "response.output_item.done" : "response.output_item.added");
  fmt::format_to(std::back_inserter(out), R"(,"output_index":{},"item":)",
                 reasoning ? 0 : message_index(plan));
  if (reasoning) {
    append_reasoning_item(out, plan, vocabulary, done);
  } else {
    append_message_item(out, plan, vocabulary, done);
  }
  close_event(out);
}

void append_content_part_event(std::string& out, ResponsesStream& stream, const ResponsePlan& plan,
                               const Vocabulary& vocabulary, bool done) {
  open_event(out, stream, done ? "response.content_part.done" : "response.content_part.added");
  fmt::format_to(std::back_inserter(out),
                 R"(,"item_id":"msg_{}","output_index":{},"content_index":0,"part":)", plan.seq,
                 message_index(plan));
  append_output_text_part(out, plan, vocabulary, done, {});
  close_event(out);
}

// reasoning_text.done or output_text.done, with the item's whole text.
void append_text_done(std::string& out, ResponsesStream& stream, const ResponsePlan& plan,
                      const Vocabulary& vocabulary, bool reasoning) {
  open_event(out, stream, reasoning ? "response.reasoning_text.done" : "response.output_text.done");
  fmt::format_to(std::back_inserter(out),
                 R"(,"item_id":"{}_{}","output_index":{},"content_index":0,"text":")",
                 reasoning ? "rs" : "msg", plan.seq, reasoning ? 0 : message_index(plan));
  if (reasoning) {
    append_token_text(out, vocabulary, 0, plan.reasoning_tokens);
  } else {
    append_token_text(out, vocabulary, plan.reasoning_tokens, plan.completion_tokens);
  }
  out += '"';
  close_event(out);
}

}  // namespace

void append_responses_open(std::string& out, ResponsesStream& stream, const ResponsePlan& plan,
                           const Vocabulary& vocabulary, std::string_view model_escaped) {
  for (const std::string_view type : {"response.created", "response.in_progress"}) {
    open_event(out, stream, type);
    out += R"(,"response":)";
    append_response(out, plan, vocabulary, model_escaped, false);
    close_event(out);
  }
}

void append_responses_chunk(std::string& out, ResponsesStream& stream, const ResponsePlan& plan,
                            const Vocabulary& vocabulary, std::int64_t chunk,
                            std::string_view injected) {
  const ChunkTokens tokens = chunk_tokens(plan, chunk);
  const std::int64_t first_of_item = tokens.reasoning ? 0 : reasoning_chunks(plan);
  const std::int64_t last_of_item =
      tokens.reasoning ? reasoning_chunks(plan) - 1 : plan.chunk_count - 1;
  if (chunk == first_of_item) {
    append_item_event(out, stream, plan, vocabulary, tokens.reasoning, false);
    if (!tokens.reasoning) append_content_part_event(out, stream, plan, vocabulary, false);
  }
  if (!injected.empty()) append_delta(out, stream, plan, tokens.reasoning, injected);
  std::string text;
  append_token_text(text, vocabulary, tokens.first, tokens.last);
  append_delta(out, stream, plan, tokens.reasoning, text);
  if (chunk == last_of_item) {
    append_text_done(out, stream, plan, vocabulary, tokens.reasoning);
    if (!tokens.reasoning) append_content_part_event(out, stream, plan, vocabulary, true);
    append_item_event(out, stream, plan, vocabulary, tokens.reasoning, true);
  }
}

void append_responses_close(std::string& out, ResponsesStream& stream, const ResponsePlan& plan,
                            const Vocabulary& vocabulary, std::string_view model_escaped) {
  open_event(out, stream, plan.incomplete ? "response.incomplete" : "response.completed");
  out += R"(,"response":)";
  append_response(out, plan, vocabulary, model_escaped, true);
  close_event(out);
}

void append_responses_error(std::string& out, ResponsesStream& stream) {
  open_event(out, stream, "error");
  out += R"(,"code":"server_error","message":"injected stream error","param":null)";
  close_event(out);
}

void append_responses_body(std::string& out, const ResponsePlan& plan, const Vocabulary& vocabulary,
                           std::string_view model_escaped, std::string_view extra_text) {
  append_response(out, plan, vocabulary, model_escaped, true, extra_text);
}

}  // namespace llmperf::mock
