// Dispatch of a generated reply's parts to the chat/completions or the Responses API formatter.
#include "reply_writer.h"

namespace llmperf::mock {

void ReplyWriter::begin(const ResponsePlan& plan, const Vocabulary& vocabulary,
                        std::string_view model_escaped) {
  plan_ = &plan;
  vocabulary_ = &vocabulary;
  model_escaped_ = model_escaped;
  prefix_.clear();
  responses_ = ResponsesStream{};
  if (plan.stream && !responses()) append_event_prefix(prefix_, plan, model_escaped);
}

void ReplyWriter::append_open(std::string& out) {
  if (responses()) {
    append_responses_open(out, responses_, *plan_, *vocabulary_, model_escaped_);
  } else if (plan_->role_chunk) {
    append_role_event(out, prefix_);
  }
}

void ReplyWriter::append_chunk(std::string& out, std::int64_t chunk, std::string_view injected) {
  if (responses()) {
    append_responses_chunk(out, responses_, *plan_, *vocabulary_, chunk, injected);
    return;
  }
  if (!injected.empty()) append_text_event(out, prefix_, *plan_, injected);
  append_content_event(out, prefix_, *plan_, *vocabulary_, chunk);
}

void ReplyWriter::append_close(std::string& out) {
  if (responses()) {
    append_responses_close(out, responses_, *plan_, *vocabulary_, model_escaped_);
    return;
  }
  if (plan_->usage_chunk) append_usage_event(out, prefix_, *plan_);
  append_done_event(out);
}

void ReplyWriter::append_error(std::string& out) {
  if (responses()) {
    append_responses_error(out, responses_);
    return;
  }
  append_error_line(out);
  append_done_event(out);
}

void ReplyWriter::append_body(std::string& out, std::string_view extra_text) {
  if (responses()) {
    append_responses_body(out, *plan_, *vocabulary_, model_escaped_, extra_text);
  } else {
    append_full_body(out, *plan_, *vocabulary_, model_escaped_, extra_text);
  }
}

}  // namespace llmperf::mock
