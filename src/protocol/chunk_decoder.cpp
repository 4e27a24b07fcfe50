// Chunk decoder: one OpenAI-compatible JSON payload -> DecodedChunk through a SAX handler.
// The handler judges each container from its path (root, choices[i], delta, ...) and maps keys to a
// closed enum, so decoding allocates no DOM and copies no keys. sax_support.h holds the stack of
// containers and the drivers: the fast JsonScanner first, nlohmann's sax_parse (which decides
// validity) for payloads the scanner gives up on. What counts as output is DESIGN §3 (TTFT) and
// §5 (server variants).
#include "protocol/chunk_decoder.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "protocol/sax_support.h"

namespace llmperf {

namespace {

using Json = nlohmann::json;
using sax_support::code_points;
using sax_support::key_is;

// Keys the decoder cares about; everything else is kOther.
enum class Key : uint8_t {
  kOther,
  kChoices,
  kDelta,
  kMessage,
  kContent,
  kReasoningContent,
  kReasoning,
  kText,
  kToolCalls,
  kFunction,
  kArguments,
  kName,
  kUsage,
  kPromptTokens,
  kCompletionTokens,
  kPromptTokensDetails,
  kCachedTokens,
  kCompletionTokensDetails,
  kReasoningTokens,
  kFinishReason,
  kError,
  kObject,
  kId,
};

// What a JSON container is, judged from its path.
enum class Scope : uint8_t {
  kIgnored,            // anything not listed below
  kRoot,               // the top-level object
  kChoices,            // root.choices array
  kChoice,             // an element of root.choices
  kDelta,              // choices[i].delta (stream)
  kMessage,            // choices[i].message (non-stream)
  kToolCalls,          // delta.tool_calls or message.tool_calls array
  kToolCall,           // an element of tool_calls
  kFunction,           // tool_calls[j].function
  kUsage,              // root.usage
  kUsageDetails,       // root.usage.prompt_tokens_details
  kCompletionDetails,  // root.usage.completion_tokens_details
  kError,              // root.error object
};

Key classify_chunk_key(std::string_view key) {
  switch (key.size()) {
    case 2:
      if (key_is(key, "id")) return Key::kId;
      break;
    case 4:
      if (key_is(key, "text")) return Key::kText;
      if (key_is(key, "name")) return Key::kName;
      break;
    case 5:
      if (key_is(key, "delta")) return Key::kDelta;
      if (key_is(key, "usage")) return Key::kUsage;
      if (key_is(key, "error")) return Key::kError;
      break;
    case 6:
      if (key_is(key, "object")) return Key::kObject;
      break;
    case 7:
      if (key_is(key, "content")) return Key::kContent;
      if (key_is(key, "choices")) return Key::kChoices;
      if (key_is(key, "message")) return Key::kMessage;
      break;
    case 8:
      if (key_is(key, "function")) return Key::kFunction;
      break;
    case 9:
      if (key_is(key, "reasoning")) return Key::kReasoning;
      if (key_is(key, "arguments")) return Key::kArguments;
      break;
    case 10:
      if (key_is(key, "tool_calls")) return Key::kToolCalls;
      break;
    case 13:
      if (key_is(key, "finish_reason")) return Key::kFinishReason;
      if (key_is(key, "prompt_tokens")) return Key::kPromptTokens;
      if (key_is(key, "cached_tokens")) return Key::kCachedTokens;
      break;
    case 16:
      if (key_is(key, "reasoning_tokens")) return Key::kReasoningTokens;
      break;
    case 25:
      if (key_is(key, "completion_tokens_details")) return Key::kCompletionTokensDetails;
      break;
    case 17:
      if (key_is(key, "reasoning_content")) return Key::kReasoningContent;
      if (key_is(key, "completion_tokens")) return Key::kCompletionTokens;
      break;
    case 21:
      if (key_is(key, "prompt_tokens_details")) return Key::kPromptTokensDetails;
      break;
    default:
      break;
  }
  return Key::kOther;
}

// Longest prefix of `text` of at most `max_bytes` bytes that does not split a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut);
}

// One open container on the path from the root.
struct ChunkFrame {
  Scope scope = Scope::kIgnored;  // what this container is
  Key key = Key::kOther;          // the key of the value being read (objects only)
  uint32_t index = 0;             // choices: elements seen; choice: its position in choices
};

// SAX handler: the hooks of sax_support::SaxHandler. Interesting paths are at most 7 containers
// deep; anything deeper is ignored.
class ChunkHandler
    : public sax_support::SaxHandler<ChunkHandler, ChunkFrame, 8, classify_chunk_key> {
 public:
  // Clears `out`, keeping its inputs.
  explicit ChunkHandler(DecodedChunk& out) : out_(out) { out_.clear(); }

  // Completes `out` once the handler has seen a whole, valid JSON payload.
  void finish(std::string_view payload) {
    if (!root_is_object()) {
      out_.clear();
      return;
    }
    out_.valid_json = true;
    if (object_is_error_) out_.has_error = true;
    if (out_.has_error && out_.error_message.empty()) {
      out_.error_message = root_message_.empty() ? error_message_from_body(payload) : root_message_;
    }
  }

 private:
  friend SaxHandler;
  using Frame = ChunkFrame;

  Frame object_in(Frame& parent) {
    switch (parent.scope) {
      case Scope::kRoot:
        if (parent.key == Key::kUsage) return {Scope::kUsage};
        if (parent.key == Key::kError) {
          out_.has_error = true;
          return {Scope::kError};
        }
        break;
      case Scope::kUsage:
        if (parent.key == Key::kPromptTokensDetails) return {Scope::kUsageDetails};
        if (parent.key == Key::kCompletionTokensDetails) return {Scope::kCompletionDetails};
        break;
      case Scope::kChoices:
        return {Scope::kChoice, Key::kOther, parent.index++};
      case Scope::kChoice:
        if (parent.key == Key::kDelta) return {Scope::kDelta};
        if (parent.key == Key::kMessage) return {Scope::kMessage};
        break;
      case Scope::kToolCalls:
        return {Scope::kToolCall};
      case Scope::kToolCall:
        if (parent.key == Key::kFunction) return {Scope::kFunction};
        break;
      default:
        break;
    }
    return {};
  }

  Frame array_in(const Frame& parent) {
    if (parent.scope == Scope::kRoot && parent.key == Key::kChoices) return {Scope::kChoices};
    if ((parent.scope == Scope::kDelta || parent.scope == Scope::kMessage) &&
        parent.key == Key::kToolCalls) {
      return {Scope::kToolCalls};
    }
    return {};
  }

  void on_string(const Frame& in, std::string_view value) {
    switch (in.scope) {
      case Scope::kDelta:
      case Scope::kMessage:
        if (in.key == Key::kContent) {
          add_answer(value);
          add_content(value);
        } else if (in.key == Key::kReasoningContent || in.key == Key::kReasoning) {
          add_output(value);
          if (!value.empty()) out_.has_reasoning = true;
        }
        break;
      case Scope::kChoice:
        if (in.key == Key::kText) {
          add_answer(value);
          add_content(value);
        } else if (in.key == Key::kFinishReason && in.index == 0) {
          out_.finish_reason.assign(value);
        }
        break;
      case Scope::kFunction:
        if (in.key == Key::kArguments || in.key == Key::kName) add_answer(value);
        break;
      case Scope::kRoot:
        if (in.key == Key::kError) {
          out_.has_error = true;
          out_.error_message.assign(value);
        } else if (in.key == Key::kObject) {
          object_is_error_ = value == "error";
        } else if (in.key == Key::kMessage) {
          root_message_.assign(value);
        } else if (in.key == Key::kId && out_.want_response_id) {
          out_.response_id.assign(value);
        }
        break;
      case Scope::kError:
        if (in.key == Key::kMessage) out_.error_message.assign(value);
        break;
      default:
        break;
    }
  }

  void on_integer(const Frame& in, int64_t value) {
    if (in.scope == Scope::kUsageDetails) {
      if (in.key == Key::kCachedTokens) out_.cached_tokens = value;
      return;
    }
    if (in.scope == Scope::kCompletionDetails) {
      if (in.key == Key::kReasoningTokens) out_.reasoning_tokens = value;
      return;
    }
    if (in.scope != Scope::kUsage) return;
    if (in.key == Key::kPromptTokens) {
      out_.prompt_tokens = value;
      out_.has_usage = true;
    } else if (in.key == Key::kCompletionTokens) {
      out_.completion_tokens = value;
      out_.has_usage = true;
    }
  }

  void add_output(std::string_view text) {
    if (text.empty()) return;
    out_.has_output = true;
    out_.output_chars += code_points(text);
  }

  void add_answer(std::string_view text) {
    add_output(text);
    if (!text.empty()) out_.has_answer = true;
  }

  void add_content(std::string_view text) {
    if (out_.want_content) out_.content.append(text);
  }

  DecodedChunk& out_;
  bool object_is_error_ = false;  // root.object == "error" (vLLM error style)
  std::string root_message_;      // root.message (vLLM error style), usually empty
};

// Text of a JSON value for a message: strings as-is, anything else serialised.
std::string json_text(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

void DecodedChunk::clear() {
  valid_json = false;
  has_output = false;
  has_answer = false;
  has_reasoning = false;
  output_chars = 0;
  has_usage = false;
  prompt_tokens = -1;
  completion_tokens = -1;
  has_error = false;
  error_message.clear();
  finish_reason.clear();
  response_id.clear();
  cached_tokens = -1;
  reasoning_tokens = -1;
  completed = false;
  content.clear();
}

void decode_chunk(std::string_view payload, DecodedChunk& out) {
  const auto finish = [payload](ChunkHandler& handler) { handler.finish(payload); };
  if (!sax_support::sax_decode<ChunkHandler>(payload, finish, out)) out.clear();
}

std::string error_message_from_body(std::string_view body, size_t max_chars) {
  const std::string_view trimmed = trim(body);
  std::string message;
  const Json json = Json::parse(trimmed.begin(), trimmed.end(), nullptr, false);
  if (json.is_object()) {
    const auto error = json.find("error");
    const auto text = json.find("message");
    const auto detail = json.find("detail");
    if (error != json.end() && error->is_object() && error->contains("message")) {
      message = json_text(error->at("message"));
    } else if (error != json.end() && !error->is_null()) {
      message = json_text(*error);
    } else if (text != json.end() && !text->is_null()) {
      message = json_text(*text);
    } else if (detail != json.end() && !detail->is_null()) {
      message = json_text(*detail);
    }
  }
  if (message.empty()) message.assign(trimmed);
  std::replace_if(
      message.begin(), message.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; },
      ' ');
  message.resize(utf8_prefix(message, max_chars).size());
  return message;
}

}  // namespace llmperf
