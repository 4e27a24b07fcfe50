// SSE chunk and JSON body formatting for llmperf-mock. Tokens are pre-escaped, so events are built
// with appends and fmt::format_to into the connection's reused buffer.
#include "openai_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace llmperf::mock {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

void append_usage(std::string& out, const ResponsePlan& plan) {
  fmt::format_to(std::back_inserter(out),
                 R"("usage":{{"prompt_tokens":{},"completion_tokens":{},"total_tokens":{})",
                 plan.prompt_tokens, plan.completion_tokens,
                 plan.prompt_tokens + plan.completion_tokens);
  if (plan.cached_tokens) {
    fmt::format_to(std::back_inserter(out), R"(,"prompt_tokens_details":{{"cached_tokens":{}}})",
                   *plan.cached_tokens);
  }
  if (plan.reasoning_details) {
    fmt::format_to(std::back_inserter(out),
                   R"(,"completion_tokens_details":{{"reasoning_tokens":{}}})",
                   plan.reasoning_tokens);
  }
  out += '}';
}

// Opens a chat delta (or a completions choice's text): `{"index":0,"delta":{"KEY":"`.
void append_delta_open(std::string& out, const ResponsePlan& plan, bool reasoning) {
  if (plan.endpoint != Endpoint::kChat) {
    out += R"({"index":0,"text":")";
    return;
  }
  out += R"({"index":0,"delta":{")";
  out += reasoning ? plan.reasoning_key : "content";
  out += R"(":")";
}

std::string_view finish_reason(const ResponsePlan& plan) {
  return plan.finish_stop ? R"("stop")" : R"("length")";
}

}  // namespace

std::int64_t reasoning_chunks(const ResponsePlan& plan) {
  return ceil_div(plan.reasoning_tokens, plan.tokens_per_chunk);
}

std::int64_t count_chunks(const ResponsePlan& plan) {
  return reasoning_chunks(plan) +
         ceil_div(plan.completion_tokens - plan.reasoning_tokens, plan.tokens_per_chunk);
}

ChunkTokens chunk_tokens(const ResponsePlan& plan, std::int64_t chunk) {
  const std::int64_t reasoning = reasoning_chunks(plan);
  if (chunk < reasoning) {
    const std::int64_t first = chunk * plan.tokens_per_chunk;
    return {first, std::min(first + plan.tokens_per_chunk, plan.reasoning_tokens), true};
  }
  const std::int64_t first = plan.reasoning_tokens + (chunk - reasoning) * plan.tokens_per_chunk;
  return {first, std::min(first + plan.tokens_per_chunk, plan.completion_tokens), false};
}

std::int64_t tokens_before(const ResponsePlan& plan, std::int64_t chunk) {
  if (chunk <= 0) return 0;
  if (chunk >= plan.chunk_count) return plan.completion_tokens;
  return chunk_tokens(plan, chunk).first;
}

void append_token_text(std::string& out, const Vocabulary& vocabulary, std::int64_t first,
                       std::int64_t last) {
  for (std::int64_t i = first; i < last; ++i) {
    out += vocabulary.escaped(static_cast<std::size_t>(i));
  }
}

void append_event_prefix(std::string& out, const ResponsePlan& plan,
                         std::string_view model_escaped) {
  const bool chat = plan.endpoint == Endpoint::kChat;
  fmt::format_to(std::back_inserter(out),
                 R"(data: {{"id":"{}{}","object":"{}","created":{},"model":"{}","choices":[)",
                 chat ? "chatcmpl-" : "cmpl-", plan.seq,
                 chat ? "chat.completion.chunk" : "text_completion", plan.created_s, model_escaped);
}

void append_role_event(std::string& out, std::string_view prefix) {
  out += prefix;
  out += R"({"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})";
  out += "\n\n";
}

void append_content_event(std::string& out, std::string_view prefix, const ResponsePlan& plan,
                          const Vocabulary& vocabulary, std::int64_t chunk) {
  out += prefix;
  const bool chat = plan.endpoint == Endpoint::kChat;
  const ChunkTokens tokens = chunk_tokens(plan, chunk);
  append_delta_open(out, plan, tokens.reasoning);
  append_token_text(out, vocabulary, tokens.first, tokens.last);
  out += chat ? R"("},"finish_reason":)" : R"(","finish_reason":)";
  if (chunk + 1 < plan.chunk_count) {
    out += "null}]}\n\n";
    return;
  }
  out += finish_reason(plan);
  out += "}]";
  if (plan.usage_on_finish) {
    out += ',';
    append_usage(out, plan);
  }
  out += "}\n\n";
}

void append_text_event(std::string& out, std::string_view prefix, const ResponsePlan& plan,
                       std::string_view text) {
  out += prefix;
  const bool chat = plan.endpoint == Endpoint::kChat;
  out += chat ? R"({"index":0,"delta":{"content":")" : R"({"index":0,"text":")";
  out += text;
  out += chat ? R"("},"finish_reason":null}]})" : R"(","finish_reason":null}]})";
  out += "\n\n";
}

void append_usage_event(std::string& out, std::string_view prefix, const ResponsePlan& plan) {
  out += prefix;
  out += "],";
  append_usage(out, plan);
  out += "}\n\n";
}

void append_done_event(std::string& out) { out += "data: [DONE]\n\n"; }

void append_malformed_events(std::string& out) { out += "this is not sse\ndata: {not json\n\n"; }

void append_error_line(std::string& out) {
  out += R"(error: {"message":"injected stream error","code":500})";
  out += "\n\n";
}

void append_full_body(std::string& out, const ResponsePlan& plan, const Vocabulary& vocabulary,
                      std::string_view model_escaped, std::string_view extra_text) {
  const bool chat = plan.endpoint == Endpoint::kChat;
  fmt::format_to(std::back_inserter(out),
                 R"({{"id":"{}{}","object":"{}","created":{},"model":"{}","choices":[{{"index":0,)",
                 chat ? "chatcmpl-" : "cmpl-", plan.seq,
                 chat ? "chat.completion" : "text_completion", plan.created_s, model_escaped);
  if (chat) {
    out += R"("message":{"role":"assistant",)";
    if (plan.reasoning_tokens > 0) {
      fmt::format_to(std::back_inserter(out), R"("{}":")", plan.reasoning_key);
      append_token_text(out, vocabulary, 0, plan.reasoning_tokens);
      out += R"(",)";
    }
    out += R"("content":")";
  } else {
    out += R"("text":")";
  }
  append_token_text(out, vocabulary, plan.reasoning_tokens, plan.completion_tokens);
  out += extra_text;
  out += chat ? R"("},"finish_reason":)" : R"(","finish_reason":)";
  out += finish_reason(plan);
  out += "}]";
  if (plan.usage_in_body) {
    out += ',';
    append_usage(out, plan);
  }
  out += '}';
}

std::string error_body(std::string_view message, std::string_view type, int code) {
  return fmt::format(R"({{"error":{{"message":"{}","type":"{}","code":{}}}}})",
                     json_escape(message), json_escape(type), code);
}

}  // namespace llmperf::mock
