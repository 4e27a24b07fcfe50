// Chunk decoder: one OpenAI-compatible JSON payload -> DecodedChunk through a SAX handler.
// The handler tracks where it is with a small fixed stack of scopes (root, choices[i], delta, ...)
// and maps keys to a closed enum, so decoding allocates no DOM and copies no keys. The fast
// JsonScanner (json_scanner.h) drives it first; payloads it gives up on are parsed again with
// nlohmann's sax_parse, which decides validity. What counts as output is DESIGN §3 (TTFT) and
// §5 (server variants).
#include "protocol/chunk_decoder.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "protocol/json_scanner.h"

namespace llmperf {

namespace {

using Json = nlohmann::json;

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
  kIgnored,    // anything not listed below
  kRoot,       // the top-level object
  kChoices,    // root.choices array
  kChoice,     // an element of root.choices
  kDelta,      // choices[i].delta (stream)
  kMessage,    // choices[i].message (non-stream)
  kToolCalls,  // delta.tool_calls or message.tool_calls array
  kToolCall,   // an element of tool_calls
  kFunction,   // tool_calls[j].function
  kUsage,      // root.usage
  kUsageDetails,  // root.usage.prompt_tokens_details
  kCompletionDetails,  // root.usage.completion_tokens_details
  kError,      // root.error object
};

// key == literal as a fixed-length memcmp, which compiles to a few integer compares (this runs for
// every key of every chunk; string_view's operator== may become a call to memcmp).
template <size_t N>
bool is(std::string_view key, const char (&literal)[N]) {
  return key.size() == N - 1 && std::memcmp(key.data(), literal, N - 1) == 0;
}

Key classify_key(std::string_view key) {
  switch (key.size()) {
    case 2:
      if (is(key, "id")) return Key::kId;
      break;
    case 4:
      if (is(key, "text")) return Key::kText;
      if (is(key, "name")) return Key::kName;
      break;
    case 5:
      if (is(key, "delta")) return Key::kDelta;
      if (is(key, "usage")) return Key::kUsage;
      if (is(key, "error")) return Key::kError;
      break;
    case 6:
      if (is(key, "object")) return Key::kObject;
      break;
    case 7:
      if (is(key, "content")) return Key::kContent;
      if (is(key, "choices")) return Key::kChoices;
      if (is(key, "message")) return Key::kMessage;
      break;
    case 8:
      if (is(key, "function")) return Key::kFunction;
      break;
    case 9:
      if (is(key, "reasoning")) return Key::kReasoning;
      if (is(key, "arguments")) return Key::kArguments;
      break;
    case 10:
      if (is(key, "tool_calls")) return Key::kToolCalls;
      break;
    case 13:
      if (is(key, "finish_reason")) return Key::kFinishReason;
      if (is(key, "prompt_tokens")) return Key::kPromptTokens;
      if (is(key, "cached_tokens")) return Key::kCachedTokens;
      break;
    case 16:
      if (is(key, "reasoning_tokens")) return Key::kReasoningTokens;
      break;
    case 25:
      if (is(key, "completion_tokens_details")) return Key::kCompletionTokensDetails;
      break;
    case 17:
      if (is(key, "reasoning_content")) return Key::kReasoningContent;
      if (is(key, "completion_tokens")) return Key::kCompletionTokens;
      break;
    case 21:
      if (is(key, "prompt_tokens_details")) return Key::kPromptTokensDetails;
      break;
    default:
      break;
  }
  return Key::kOther;
}

int64_t count_code_points(std::string_view text) {
  int64_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

// Longest prefix of `text` of at most `max_bytes` bytes that does not split a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut);
}

// SAX handler, driven by JsonScanner or by nlohmann (duck-typed interface, no virtual calls).
class ChunkHandler {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  explicit ChunkHandler(DecodedChunk& out) : out_(out) {}

  bool null() { return true; }
  bool boolean(bool /*value*/) { return true; }
  bool number_float(number_float_t /*value*/, const string_t& /*text*/) { return true; }
  bool float_number(std::string_view /*text*/) { return true; }
  bool binary(binary_t& /*value*/) { return true; }
  bool number_integer(number_integer_t value) { return integer(value); }
  bool number_unsigned(number_unsigned_t value) {
    return integer(static_cast<int64_t>(std::min<number_unsigned_t>(value, INT64_MAX)));
  }

  bool string(std::string_view value) {
    if (depth_ == 0) return true;
    const Frame& frame = top();
    switch (frame.scope) {
      case Scope::kDelta:
      case Scope::kMessage:
        if (frame.key == Key::kContent) {
          add_answer(value);
          add_content(value);
        } else if (frame.key == Key::kReasoningContent || frame.key == Key::kReasoning) {
          add_output(value);
          if (!value.empty()) out_.has_reasoning = true;
        }
        break;
      case Scope::kChoice:
        if (frame.key == Key::kText) {
          add_answer(value);
          add_content(value);
        } else if (frame.key == Key::kFinishReason && frame.index == 0) {
          out_.finish_reason.assign(value);
        }
        break;
      case Scope::kFunction:
        if (frame.key == Key::kArguments || frame.key == Key::kName) add_answer(value);
        break;
      case Scope::kRoot:
        if (frame.key == Key::kError) {
          out_.has_error = true;
          out_.error_message.assign(value);
        } else if (frame.key == Key::kObject) {
          object_is_error_ = value == "error";
        } else if (frame.key == Key::kMessage) {
          root_message_.assign(value);
        } else if (frame.key == Key::kId && out_.want_response_id) {
          out_.response_id.assign(value);
        }
        break;
      case Scope::kError:
        if (frame.key == Key::kMessage) out_.error_message.assign(value);
        break;
      default:
        break;
    }
    return true;
  }

  bool start_object(std::size_t /*elements*/) {
    Scope scope = Scope::kIgnored;
    uint32_t index = 0;
    if (depth_ == 0) {
      scope = Scope::kRoot;
      root_is_object_ = true;
    } else {
      Frame& parent = top();
      switch (parent.scope) {
        case Scope::kRoot:
          if (parent.key == Key::kUsage) scope = Scope::kUsage;
          if (parent.key == Key::kError) {
            scope = Scope::kError;
            out_.has_error = true;
          }
          break;
        case Scope::kUsage:
          if (parent.key == Key::kPromptTokensDetails) scope = Scope::kUsageDetails;
          if (parent.key == Key::kCompletionTokensDetails) scope = Scope::kCompletionDetails;
          break;
        case Scope::kChoices:
          scope = Scope::kChoice;
          index = parent.index++;
          break;
        case Scope::kChoice:
          if (parent.key == Key::kDelta) scope = Scope::kDelta;
          if (parent.key == Key::kMessage) scope = Scope::kMessage;
          break;
        case Scope::kToolCalls:
          scope = Scope::kToolCall;
          break;
        case Scope::kToolCall:
          if (parent.key == Key::kFunction) scope = Scope::kFunction;
          break;
        default:
          break;
      }
    }
    push(scope, index);
    return true;
  }

  bool start_array(std::size_t /*elements*/) {
    Scope scope = Scope::kIgnored;
    if (depth_ > 0) {
      const Frame& parent = top();
      if (parent.scope == Scope::kRoot && parent.key == Key::kChoices) {
        scope = Scope::kChoices;
      } else if ((parent.scope == Scope::kDelta || parent.scope == Scope::kMessage) &&
                 parent.key == Key::kToolCalls) {
        scope = Scope::kToolCalls;
      }
    }
    push(scope, 0);
    return true;
  }

  bool key(std::string_view name) {
    top().key = classify_key(name);
    return true;
  }

  bool end_object() {
    --depth_;
    return true;
  }
  bool end_array() {
    --depth_;
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& /*error*/) {
    return false;
  }

  bool root_is_object() const { return root_is_object_; }
  bool object_is_error() const { return object_is_error_; }
  const std::string& root_message() const { return root_message_; }

 private:
  // One open container on the path from the root.
  struct Frame {
    Scope scope = Scope::kIgnored;  // what this container is
    Key key = Key::kOther;          // the key of the value being read (objects only)
    uint32_t index = 0;             // choices: elements seen; choice: its position in choices
  };
  // Interesting paths are at most 7 containers deep; anything deeper is ignored.
  static constexpr size_t kMaxDepth = 8;

  Frame& top() { return depth_ <= kMaxDepth ? frames_[depth_ - 1] : overflow_; }

  void push(Scope scope, uint32_t index) {
    ++depth_;
    if (depth_ <= kMaxDepth) {
      frames_[depth_ - 1] = Frame{scope, Key::kOther, index};
    } else {
      overflow_ = Frame{};
    }
  }

  bool integer(int64_t value) {
    if (depth_ == 0) return true;
    const Frame& frame = top();
    if (frame.scope == Scope::kUsageDetails) {
      if (frame.key == Key::kCachedTokens) out_.cached_tokens = value;
      return true;
    }
    if (frame.scope == Scope::kCompletionDetails) {
      if (frame.key == Key::kReasoningTokens) out_.reasoning_tokens = value;
      return true;
    }
    if (frame.scope != Scope::kUsage) return true;
    if (frame.key == Key::kPromptTokens) {
      out_.prompt_tokens = value;
      out_.has_usage = true;
    } else if (frame.key == Key::kCompletionTokens) {
      out_.completion_tokens = value;
      out_.has_usage = true;
    }
    return true;
  }

  void add_output(std::string_view text) {
    if (text.empty()) return;
    out_.has_output = true;
    out_.output_chars += count_code_points(text);
  }

  void add_answer(std::string_view text) {
    add_output(text);
    if (!text.empty()) out_.has_answer = true;
  }

  void add_content(std::string_view text) {
    if (out_.want_content) out_.content.append(text);
  }

  DecodedChunk& out_;
  std::array<Frame, kMaxDepth> frames_{};  // open containers, root first
  Frame overflow_;                         // stands in for every container deeper than kMaxDepth
  size_t depth_ = 0;                       // number of open containers
  bool root_is_object_ = false;            // the payload's top-level value is an object
  bool object_is_error_ = false;           // root.object == "error" (vLLM error style)
  std::string root_message_;               // root.message (vLLM error style), usually empty
};

// Text of a JSON value for a message: strings as-is, anything else serialised.
std::string json_text(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Completes `out` once `handler` has seen a whole, valid JSON payload.
void finish(const ChunkHandler& handler, std::string_view payload, DecodedChunk& out) {
  if (!handler.root_is_object()) {
    out.clear();
    return;
  }
  out.valid_json = true;
  if (handler.object_is_error()) out.has_error = true;
  if (out.has_error && out.error_message.empty()) {
    out.error_message =
        handler.root_message().empty() ? error_message_from_body(payload) : handler.root_message();
  }
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
  out.clear();
  ChunkHandler fast(out);
  if (JsonScanner<ChunkHandler>(payload, fast).scan()) {
    finish(fast, payload, out);
    return;
  }
  out.clear();
  ChunkHandler handler(out);
  bool ok = false;
  try {
    ok = Json::sax_parse(payload.begin(), payload.end(), &handler);
  } catch (...) {
    ok = false;
  }
  if (ok) {
    finish(handler, payload, out);
  } else {
    out.clear();
  }
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
