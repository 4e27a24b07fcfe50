// Responses API decoder: one event's JSON (or a whole non-stream body) -> DecodedChunk through a
// SAX handler. The handler judges each container from its path (root, response, usage,
// output[i], ...; sax_support.h keeps the stack) and gathers what it sees into pending facts; only
// at the end, once the event's "type" is known wherever it appeared, does it decide what the event
// means. Names in the anonymous namespace carry a Responses prefix: CI builds src/protocol as one
// unity source.
#include "protocol/responses_decoder.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>

#include "protocol/sax_support.h"

namespace llmperf {

namespace {

using sax_support::code_points;
using sax_support::key_is;

// What an event means, from the data's "type" (else the SSE event name).
enum class ResponsesEventType : uint8_t {
  kBody,            // no type and no event name: a whole non-stream Responses body
  kAnswerDelta,     // output_text / refusal / function_call_arguments delta
  kReasoningDelta,  // reasoning_text / reasoning_summary_text / reasoning delta
  kStarted,         // response.created / in_progress / queued: carries the id
  kCompleted,       // response.completed
  kIncomplete,      // response.incomplete
  kFailed,          // response.failed
  kError,           // error
  kOther,           // anything else: valid JSON, no facts
};

ResponsesEventType classify_responses_type(std::string_view type) {
  using T = ResponsesEventType;
  if (type.empty()) return T::kBody;
  if (key_is(type, "response.output_text.delta")) return T::kAnswerDelta;
  if (key_is(type, "response.reasoning_summary_text.delta")) return T::kReasoningDelta;
  if (key_is(type, "response.reasoning_text.delta")) return T::kReasoningDelta;
  if (key_is(type, "response.function_call_arguments.delta")) return T::kAnswerDelta;
  if (key_is(type, "response.refusal.delta")) return T::kAnswerDelta;
  if (key_is(type, "response.reasoning.delta")) return T::kReasoningDelta;
  if (key_is(type, "response.created")) return T::kStarted;
  if (key_is(type, "response.in_progress")) return T::kStarted;
  if (key_is(type, "response.queued")) return T::kStarted;
  if (key_is(type, "response.completed")) return T::kCompleted;
  if (key_is(type, "response.incomplete")) return T::kIncomplete;
  if (key_is(type, "response.failed")) return T::kFailed;
  if (key_is(type, "error")) return T::kError;
  return T::kOther;
}

// Keys the decoder cares about; everything else is kOther.
enum class ResponsesKey : uint8_t {
  kOther,
  kType,
  kDelta,
  kResponse,
  kId,
  kStatus,
  kUsage,
  kInputTokens,    // also prompt_tokens
  kOutputTokens,   // also completion_tokens
  kInputDetails,   // input_tokens_details, prompt_tokens_details
  kOutputDetails,  // output_tokens_details, completion_tokens_details
  kCachedTokens,
  kReasoningTokens,
  kIncompleteDetails,
  kReason,
  kError,
  kMessage,
  kCode,
  kObject,
  kOutput,
  kContent,
  kSummary,
  kText,
  kRefusal,
  kArguments,
};

ResponsesKey classify_responses_key(std::string_view key) {
  using K = ResponsesKey;
  switch (key.size()) {
    case 2:
      if (key_is(key, "id")) return K::kId;
      break;
    case 4:
      if (key_is(key, "type")) return K::kType;
      if (key_is(key, "text")) return K::kText;
      if (key_is(key, "code")) return K::kCode;
      break;
    case 5:
      if (key_is(key, "delta")) return K::kDelta;
      if (key_is(key, "usage")) return K::kUsage;
      if (key_is(key, "error")) return K::kError;
      break;
    case 6:
      if (key_is(key, "status")) return K::kStatus;
      if (key_is(key, "reason")) return K::kReason;
      if (key_is(key, "object")) return K::kObject;
      if (key_is(key, "output")) return K::kOutput;
      break;
    case 7:
      if (key_is(key, "message")) return K::kMessage;
      if (key_is(key, "content")) return K::kContent;
      if (key_is(key, "summary")) return K::kSummary;
      if (key_is(key, "refusal")) return K::kRefusal;
      break;
    case 8:
      if (key_is(key, "response")) return K::kResponse;
      break;
    case 9:
      if (key_is(key, "arguments")) return K::kArguments;
      break;
    case 12:
      if (key_is(key, "input_tokens")) return K::kInputTokens;
      break;
    case 13:
      if (key_is(key, "output_tokens")) return K::kOutputTokens;
      if (key_is(key, "cached_tokens")) return K::kCachedTokens;
      if (key_is(key, "prompt_tokens")) return K::kInputTokens;
      break;
    case 16:
      if (key_is(key, "reasoning_tokens")) return K::kReasoningTokens;
      break;
    case 17:
      if (key_is(key, "completion_tokens")) return K::kOutputTokens;
      break;
    case 18:
      if (key_is(key, "incomplete_details")) return K::kIncompleteDetails;
      break;
    case 20:
      if (key_is(key, "input_tokens_details")) return K::kInputDetails;
      break;
    case 21:
      if (key_is(key, "output_tokens_details")) return K::kOutputDetails;
      if (key_is(key, "prompt_tokens_details")) return K::kInputDetails;
      break;
    case 25:
      if (key_is(key, "completion_tokens_details")) return K::kOutputDetails;
      break;
    default:
      break;
  }
  return K::kOther;
}

// What a JSON container is, judged from its path.
enum class ResponsesScope : uint8_t {
  kIgnored,            // anything not listed below
  kRoot,               // the top-level object
  kResponse,           // root.response (stream events)
  kUsage,              // <response>.usage
  kInputDetails,       // <response>.usage.input_tokens_details
  kOutputDetails,      // <response>.usage.output_tokens_details
  kIncompleteDetails,  // <response>.incomplete_details
  kError,              // <response>.error object
  kOutput,             // root.output array (non-stream body)
  kItem,               // an element of root.output
  kItemContent,        // item.content array
  kItemSummary,        // item.summary array
  kPart,               // an element of item.content or item.summary
};

// What an output item is, from its "type".
enum class ResponsesItemType : uint8_t { kUnknown, kMessage, kReasoning, kFunctionCall };

// The facts of one response object: the root of a non-stream body, or a stream event's
// "response" (the root also stands in for it when a server sends those fields flat).
struct ResponsesFacts {
  std::string id;                 // "id" (copied only when the caller wants it)
  std::string status;             // "status"
  std::string incomplete_reason;  // incomplete_details.reason
  bool has_usage = false;         // usage held input or output tokens
  int64_t input_tokens = -1;      // usage.input_tokens (or prompt_tokens)
  int64_t output_tokens = -1;     // usage.output_tokens (or completion_tokens)
  int64_t cached_tokens = -1;     // usage.input_tokens_details.cached_tokens
  int64_t reasoning_tokens = -1;  // usage.output_tokens_details.reasoning_tokens
  bool has_error = false;         // a non-null "error" object or string
  std::string error_message;      // error.message, or the error string
  std::string error_code;         // error.code (strings and integers)
};

// One open container on the path from the root.
struct ResponsesFrame {
  ResponsesScope scope = ResponsesScope::kIgnored;  // what this container is
  ResponsesKey key = ResponsesKey::kOther;          // the key of the value being read
  uint8_t owner = 0;  // response-object scopes: facts_ index (0 root, 1 root.response)
};

// SAX handler: the hooks of sax_support::SaxHandler. Interesting paths are at most 5 containers
// deep; anything deeper is ignored.
class ResponsesHandler
    : public sax_support::SaxHandler<ResponsesHandler, ResponsesFrame, 8, classify_responses_key> {
 public:
  // Clears `out`, keeping its inputs.
  explicit ResponsesHandler(DecodedChunk& out) : out_(out) { out_.clear(); }

  // Completes `out` once the handler has seen a whole, valid JSON payload.
  void finish(std::string_view event_name, std::string_view data) {
    if (!root_is_object()) {
      out_.clear();
      return;
    }
    out_.valid_json = true;
    const ResponsesEventType type = has_type_ ? type_ : classify_responses_type(event_name);
    // Answer text gathered in out_.content: the delta's range, then message items' texts.
    if (out_.want_content) {
      if (type == ResponsesEventType::kAnswerDelta && delta_chars_ > 0) {
        if (out_.content.size() != delta_size_) {
          out_.content =
              out_.content.substr(std::min(delta_begin_, out_.content.size()), delta_size_);
        }
      } else if (type == ResponsesEventType::kBody) {
        erase_delta();
      } else {
        out_.content.clear();
      }
    }
    // A stream event's "response" object, else its root fields.
    const ResponsesFacts& response = has_response_ ? facts_[1] : facts_[0];
    switch (type) {
      case ResponsesEventType::kAnswerDelta:
      case ResponsesEventType::kReasoningDelta:
        if (delta_chars_ > 0) {
          out_.has_output = true;
          out_.output_chars = delta_chars_;
          (type == ResponsesEventType::kAnswerDelta ? out_.has_answer : out_.has_reasoning) = true;
        }
        break;
      case ResponsesEventType::kStarted:
        take_id(response);
        break;
      case ResponsesEventType::kCompleted:
      case ResponsesEventType::kIncomplete:
        take_id(response);
        take_usage(response);
        out_.completed = true;
        if (type == ResponsesEventType::kCompleted) {
          out_.finish_reason = "stop";
        } else {
          set_incomplete_reason(response);
        }
        break;
      case ResponsesEventType::kFailed:
        take_id(response);
        take_usage(response);
        set_error(response, data);
        break;
      case ResponsesEventType::kError:
        set_error(facts_[0], data);
        break;
      case ResponsesEventType::kBody:
        finish_body(data);
        break;
      case ResponsesEventType::kOther:
        break;
    }
    // A top-level error ({"error": {...}} or vLLM's {"object": "error"}) is one whatever the type.
    if (!out_.has_error && (facts_[0].has_error || object_is_error_)) set_error(facts_[0], data);
  }

 private:
  friend SaxHandler;
  using Frame = ResponsesFrame;
  using K = ResponsesKey;
  using S = ResponsesScope;

  Frame object_in(const Frame& parent) {
    switch (parent.scope) {
      case S::kRoot:
      case S::kResponse: {
        const uint8_t owner = parent.scope == S::kRoot ? 0 : 1;
        if (parent.key == K::kResponse && parent.scope == S::kRoot) {
          has_response_ = true;
          return {S::kResponse, K::kOther, 1};
        }
        if (parent.key == K::kUsage) return {S::kUsage, K::kOther, owner};
        if (parent.key == K::kError) {
          facts_[owner].has_error = true;
          return {S::kError, K::kOther, owner};
        }
        if (parent.key == K::kIncompleteDetails) return {S::kIncompleteDetails, K::kOther, owner};
        break;
      }
      case S::kUsage:
        if (parent.key == K::kInputDetails) return {S::kInputDetails, K::kOther, parent.owner};
        if (parent.key == K::kOutputDetails) return {S::kOutputDetails, K::kOther, parent.owner};
        break;
      case S::kOutput:
        start_item();
        return {S::kItem};
      case S::kItemContent:
      case S::kItemSummary:
        part_in_summary_ = parent.scope == S::kItemSummary;
        return {S::kPart};
      default:
        break;
    }
    return {};
  }

  Frame array_in(const Frame& parent) {
    if (parent.scope == S::kRoot && parent.key == K::kOutput) return {S::kOutput};
    if (parent.scope == S::kItem && parent.key == K::kContent) return {S::kItemContent};
    if (parent.scope == S::kItem && parent.key == K::kSummary) return {S::kItemSummary};
    return {};
  }

  void on_end_object(const Frame& closing) {
    if (closing.scope == S::kItem) end_item();
  }

  void on_string(const Frame& in, std::string_view value) {
    switch (in.scope) {
      case S::kRoot:
        switch (in.key) {
          case K::kType:
            type_ = classify_responses_type(value);
            has_type_ = true;
            break;
          case K::kDelta:
            set_delta(value);
            break;
          case K::kObject:
            object_is_error_ = value == "error";
            break;
          case K::kMessage:
            root_message_.assign(value);
            break;
          case K::kCode:
            root_code_.assign(value);
            break;
          default:
            response_string(facts_[0], in.key, value);
            break;
        }
        break;
      case S::kResponse:
        response_string(facts_[1], in.key, value);
        break;
      case S::kError:
        if (in.key == K::kMessage) facts_[in.owner].error_message.assign(value);
        if (in.key == K::kCode) facts_[in.owner].error_code.assign(value);
        break;
      case S::kIncompleteDetails:
        if (in.key == K::kReason) facts_[in.owner].incomplete_reason.assign(value);
        break;
      case S::kItem:
        if (in.key == K::kType) {
          if (value == "message") {
            item_type_ = ResponsesItemType::kMessage;
          } else if (value == "reasoning") {
            item_type_ = ResponsesItemType::kReasoning;
          } else if (value == "function_call") {
            item_type_ = ResponsesItemType::kFunctionCall;
          } else {
            item_type_ = ResponsesItemType::kUnknown;
          }
        } else if (in.key == K::kArguments) {
          item_arguments_chars_ += code_points(value);
        }
        break;
      case S::kPart:
        if (in.key == K::kText || in.key == K::kRefusal) {
          const int64_t chars = code_points(value);
          if (part_in_summary_) {
            item_summary_chars_ += chars;
          } else {
            item_content_chars_ += chars;
            if (out_.want_content) out_.content.append(value);
          }
        }
        break;
      default:
        break;
    }
  }

  // Token counts (and codes) may come as floats.
  void on_float(const Frame& in, const sax_support::JsonFloat& value) {
    int64_t rounded = 0;
    if (counts_tokens(in) && value.rounded(rounded)) on_integer(in, rounded);
  }

  static bool counts_tokens(const Frame& frame) {
    return frame.scope == S::kUsage || frame.scope == S::kInputDetails ||
           frame.scope == S::kOutputDetails ||
           (frame.scope == S::kError && frame.key == K::kCode) ||
           (frame.scope == S::kRoot && frame.key == K::kCode);
  }

  void on_integer(const Frame& in, int64_t value) {
    ResponsesFacts& facts = facts_[in.owner];
    switch (in.scope) {
      case S::kUsage:
        if (in.key == K::kInputTokens) {
          facts.input_tokens = value;
          facts.has_usage = true;
        } else if (in.key == K::kOutputTokens) {
          facts.output_tokens = value;
          facts.has_usage = true;
        }
        break;
      case S::kInputDetails:
        if (in.key == K::kCachedTokens) facts.cached_tokens = value;
        break;
      case S::kOutputDetails:
        if (in.key == K::kReasoningTokens) facts.reasoning_tokens = value;
        break;
      case S::kError:
        if (in.key == K::kCode) facts.error_code = std::to_string(value);
        break;
      case S::kRoot:
        if (in.key == K::kCode) root_code_ = std::to_string(value);
        break;
      default:
        break;
    }
  }

  // A string field of a response object (root or root.response).
  void response_string(ResponsesFacts& facts, ResponsesKey key, std::string_view value) {
    if (key == ResponsesKey::kId) {
      if (out_.want_response_id) facts.id.assign(value);
    } else if (key == ResponsesKey::kStatus) {
      facts.status.assign(value);
    } else if (key == ResponsesKey::kError) {
      facts.has_error = true;
      facts.error_message.assign(value);
    }
  }

  // The root "delta" string; a repeated key replaces the earlier value, as in a DOM.
  void set_delta(std::string_view value) {
    delta_chars_ = code_points(value);
    if (!out_.want_content) return;
    erase_delta();
    delta_begin_ = out_.content.size();
    delta_size_ = value.size();
    out_.content.append(value);
  }

  // Removes root.delta's text from out_.content (with want_content).
  void erase_delta() {
    if (delta_begin_ < out_.content.size()) out_.content.erase(delta_begin_, delta_size_);
    delta_size_ = 0;
  }

  void start_item() {
    item_type_ = ResponsesItemType::kUnknown;
    item_content_chars_ = 0;
    item_summary_chars_ = 0;
    item_arguments_chars_ = 0;
    item_content_begin_ = out_.content.size();
  }

  // An output item is complete: its texts count by its type, known only now.
  void end_item() {
    switch (item_type_) {
      case ResponsesItemType::kMessage:
        body_answer_chars_ += item_content_chars_;
        return;  // keeps its text in out_.content
      case ResponsesItemType::kReasoning:
        body_reasoning_chars_ += item_content_chars_ + item_summary_chars_;
        break;
      case ResponsesItemType::kFunctionCall:
        body_answer_chars_ += item_arguments_chars_;
        break;
      case ResponsesItemType::kUnknown:
        break;
    }
    if (out_.want_content) out_.content.resize(item_content_begin_);
  }

  void take_id(const ResponsesFacts& facts) {
    if (!out_.want_response_id) return;
    out_.response_id = !facts.id.empty() ? facts.id : facts_[0].id;
  }

  void take_usage(const ResponsesFacts& facts) {
    const ResponsesFacts& usage = facts.has_usage ? facts : facts_[0];
    out_.has_usage = usage.has_usage;
    out_.prompt_tokens = usage.input_tokens;
    out_.completion_tokens = usage.output_tokens;
    out_.cached_tokens = usage.cached_tokens;
    out_.reasoning_tokens = usage.reasoning_tokens;
  }

  void set_incomplete_reason(const ResponsesFacts& facts) {
    const std::string& reason =
        !facts.incomplete_reason.empty() ? facts.incomplete_reason : facts_[0].incomplete_reason;
    if (reason == "max_output_tokens") {
      out_.finish_reason = "length";
    } else {
      out_.finish_reason = reason.empty() ? "incomplete" : reason;
    }
  }

  // has_error with the best message: the error object's message, then the top-level message (the
  // `error` event's own shape), then the codes, then an excerpt of the payload.
  void set_error(const ResponsesFacts& facts, std::string_view data) {
    out_.has_error = true;
    const std::initializer_list<const std::string*> candidates = {
        &facts.error_message, &facts_[0].error_message, &root_message_,
        &facts.error_code,    &facts_[0].error_code,    &root_code_};
    for (const std::string* text : candidates) {
      if (!text->empty()) {
        out_.error_message = *text;
        return;
      }
    }
    out_.error_message = error_message_from_body(data);
  }

  // A whole non-stream Responses body.
  void finish_body(std::string_view data) {
    const ResponsesFacts& body = facts_[0];
    take_id(body);
    take_usage(body);
    out_.output_chars = body_answer_chars_ + body_reasoning_chars_;
    out_.has_answer = body_answer_chars_ > 0;
    out_.has_reasoning = body_reasoning_chars_ > 0;
    out_.has_output = out_.output_chars > 0;
    if (body.status == "completed") {
      out_.completed = true;
      out_.finish_reason = "stop";
    } else if (body.status == "incomplete") {
      out_.completed = true;
      set_incomplete_reason(body);
    } else if (body.status == "failed") {
      set_error(body, data);
    }
  }

  DecodedChunk& out_;
  bool has_type_ = false;                                // root.type was present
  ResponsesEventType type_ = ResponsesEventType::kBody;  // root.type, classified
  bool has_response_ = false;                            // root.response was an object
  std::array<ResponsesFacts, 2> facts_;                  // [0] the root, [1] root.response
  bool object_is_error_ = false;  // root.object == "error" (vLLM error style)
  std::string root_message_;      // root.message (the `error` event's shape)
  std::string root_code_;         // root.code
  int64_t delta_chars_ = 0;       // code points of root.delta
  size_t delta_begin_ = 0;        // with want_content: root.delta's place in content
  size_t delta_size_ = 0;         // ... and its size in bytes
  // The output item being read (non-stream body).
  ResponsesItemType item_type_ = ResponsesItemType::kUnknown;
  int64_t item_content_chars_ = 0;    // code points of its content[] text / refusal parts
  int64_t item_summary_chars_ = 0;    // code points of its summary[] texts
  int64_t item_arguments_chars_ = 0;  // code points of its arguments (function_call)
  size_t item_content_begin_ = 0;     // out_.content's size when the item began
  bool part_in_summary_ = false;      // the part being read is in summary[], not content[]
  int64_t body_answer_chars_ = 0;     // answer code points of the items read so far
  int64_t body_reasoning_chars_ = 0;  // reasoning code points of the items read so far
};

}  // namespace

void decode_responses_event(std::string_view event_name, std::string_view data, DecodedChunk& out) {
  const auto finish = [&](ResponsesHandler& handler) { handler.finish(event_name, data); };
  if (!sax_support::sax_decode<ResponsesHandler>(data, finish, out)) out.clear();
}

}  // namespace llmperf
