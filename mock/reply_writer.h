// The bytes of a generated reply in the shape of the endpoint it answers: chat/completions SSE
// chunks and objects (openai_format.h) or Responses API events and objects (responses_api.h).
// The connection decides when each part is due; the writer decides what it looks like.
#pragma once

#include "openai_format.h"
#include "responses_api.h"
#include "vocabulary.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace llmperf::mock {

// Formats the reply to one ResponsePlan; reused by a connection from reply to reply.
class ReplyWriter {
 public:
  // Starts the reply to `plan`, which must stay alive and unchanged until the reply is written.
  void begin(const ResponsePlan& plan, const Vocabulary& vocabulary,
             std::string_view model_escaped);

  // Stream: the events sent with the headers (chat's role chunk, responses' created and
  // in_progress).
  void append_open(std::string& out);
  // Stream: content chunk `chunk`, preceded by `injected` (a fault's JSON-safe text) if any.
  void append_chunk(std::string& out, std::int64_t chunk, std::string_view injected);
  // Stream: what follows the last chunk (usage chunk and [DONE], or response.completed).
  void append_close(std::string& out);
  // Stream: the --fault-error-event-rate failure, which ends the stream.
  void append_error(std::string& out);
  // Non-stream: the whole object; `extra_text` (JSON-safe) ends the generated text.
  void append_body(std::string& out, std::string_view extra_text);

 private:
  bool responses() const { return plan_->endpoint == Endpoint::kResponses; }

  const ResponsePlan* plan_ = nullptr;      // the reply being written
  const Vocabulary* vocabulary_ = nullptr;  // the generated tokens' text
  std::string_view model_escaped_;          // model name, JSON-escaped
  std::string prefix_;                      // chat/completions: start shared by every event
  ResponsesStream responses_;               // responses: event sequence numbers
};

}  // namespace llmperf::mock
