// Tokenize API bodies and answers (see tokenize_api.h), with nlohmann_json. Every number is range
// checked before it is read: nlohmann's get<int64_t>() of 1e30 is undefined behaviour. The token
// lists of vLLM's and llama.cpp's answers, which prompt preparation reads by the thousand, are read
// by a SAX handler (sax_support.h) as the numbers go by; the other answers through nlohmann's DOM.
// Names in the anonymous namespace carry a Token prefix: CI builds src/protocol as one unity
// source.
#include "protocol/tokenize_api.h"

#include <fmt/format.h>

#include <iterator>
#include <nlohmann/json.hpp>

#include "protocol/sax_support.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;
using sax_support::key_is;

// The keys of a vLLM or llama.cpp /tokenize answer the reader cares about.
enum class TokenKey : uint8_t { kOther, kTokens, kCount, kId };

TokenKey classify_token_key(std::string_view key) {
  if (key_is(key, "tokens")) return TokenKey::kTokens;
  if (key_is(key, "count")) return TokenKey::kCount;
  if (key_is(key, "id")) return TokenKey::kId;
  return TokenKey::kOther;
}

// What a container is, judged from its path.
enum class TokenScope : uint8_t {
  kIgnored,  // anything not listed below
  kRoot,     // the top-level object
  kList,     // root.tokens
  kPiece,    // an object in the list (llama.cpp's with_pieces: {"id","piece"})
};

struct TokenFrame {
  TokenScope scope = TokenScope::kIgnored;
  TokenKey key = TokenKey::kOther;
};

// A field's state: absent, a usable value, or present but not one (which refuses the answer).
enum class TokenField : uint8_t { kAbsent, kGood, kBad };

// Reads {"tokens":[ids or {"id":N,...}], "count":N, ...} as nlohmann's DOM and the checks of
// parse_tokens would: the last of a repeated key counts; a token that is not an integer within
// int64 (or an object without one as its "id") makes the list bad.
class TokenListHandler
    : public sax_support::SaxHandler<TokenListHandler, TokenFrame, 3, classify_token_key> {
 public:
  // Appends the ids to `ids` (cleared first) when `keep_ids`, else only counts them.
  TokenListHandler(bool keep_ids, std::vector<int64_t>& ids) : keep_ids_(keep_ids), ids_(ids) {
    ids_.clear();
  }

  bool is_object() const { return root_is_object(); }
  TokenField tokens() const { return tokens_; }
  int64_t token_count() const { return token_count_; }
  TokenField count_field() const { return count_; }
  int64_t count() const { return count_value_; }

  // Hides the base's, which saturates: a number past int64 is refused as a float would be, not
  // clamped.
  bool number_unsigned(number_unsigned_t value) {
    if (value > static_cast<number_unsigned_t>(INT64_MAX)) {
      return number_float(static_cast<number_float_t>(value), string_t());
    }
    return number_integer(static_cast<int64_t>(value));
  }

 private:
  friend SaxHandler;
  using Frame = TokenFrame;
  using S = TokenScope;
  using K = TokenKey;

  Frame object_in(const Frame& parent) {
    if (parent.scope == S::kList) {
      piece_id_.reset();
      return {S::kPiece};
    }
    value_in(parent);
    return {};
  }

  Frame array_in(const Frame& parent) {
    if (parent.scope == S::kRoot && parent.key == K::kTokens) {
      tokens_ = TokenField::kGood;
      token_count_ = 0;
      ids_.clear();
      return {S::kList};
    }
    value_in(parent);
    return {};
  }

  // An integer within int64: a token, a piece's id or the count (not below 0); anywhere else it
  // is a value like any other.
  void on_integer(const Frame& in, int64_t value) {
    if (in.scope == S::kList) {
      add(value);
    } else if (in.scope == S::kPiece && in.key == K::kId) {
      piece_id_ = value;
    } else if (in.scope == S::kRoot && in.key == K::kCount && value >= 0) {
      count_ = TokenField::kGood;
      count_value_ = value;
    } else {
      value_in(in);
    }
  }
  void on_float(const Frame& in, const sax_support::JsonFloat& /*value*/) { value_in(in); }
  void on_string(const Frame& in, std::string_view /*value*/) { value_in(in); }
  void on_scalar(const Frame& in) { value_in(in); }

  void on_end_object(const Frame& closing) {
    if (closing.scope != S::kPiece) return;
    if (piece_id_) {
      add(*piece_id_);
    } else {
      tokens_ = TokenField::kBad;
    }
  }

  // A value that is not an integer a field can hold (or a container), in `in`.
  void value_in(const Frame& in) {
    switch (in.scope) {
      case S::kRoot:
        if (in.key == K::kTokens) tokens_ = TokenField::kBad;
        if (in.key == K::kCount) count_ = TokenField::kBad;
        break;
      case S::kList:
        tokens_ = TokenField::kBad;
        break;
      case S::kPiece:
        if (in.key == K::kId) piece_id_.reset();
        break;
      default:
        break;
    }
  }

  void add(int64_t id) {
    ++token_count_;
    if (keep_ids_) ids_.push_back(id);
  }

  bool keep_ids_;
  std::vector<int64_t>& ids_;
  TokenField tokens_ = TokenField::kAbsent;
  int64_t token_count_ = 0;
  TokenField count_ = TokenField::kAbsent;
  int64_t count_value_ = 0;
  std::optional<int64_t> piece_id_;  // of the piece being read, when its last "id" is usable
};

std::optional<Json> parse(std::string_view body) {
  Json doc = Json::parse(body, nullptr, false);
  if (doc.is_discarded()) return std::nullopt;
  return doc;
}

std::optional<int64_t> integer(const Json& value) {
  if (value.is_number_unsigned()) {
    const auto v = value.get<uint64_t>();
    if (v > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(v);
  }
  if (value.is_number_integer()) return value.get<int64_t>();
  return std::nullopt;
}

// A token id: an integer, or an object with an integer "id" (llama.cpp's with_pieces, TGI).
std::optional<int64_t> token_id(const Json& token) {
  if (token.is_object()) {
    const auto id = token.find("id");
    return id == token.end() ? std::nullopt : integer(*id);
  }
  return integer(token);
}

std::optional<std::string> string_field(const Json& doc, const char* key) {
  if (!doc.is_object()) return std::nullopt;
  const auto found = doc.find(key);
  if (found == doc.end() || !found->is_string()) return std::nullopt;
  return found->get<std::string>();
}

// Byte offsets of character offsets in one text, walked forward from the last one asked (TGI's
// offsets only grow), from the start again when one goes back: linear in the text, not
// quadratic.
class CharOffsets {
 public:
  explicit CharOffsets(std::string_view text) : text_(text) {}
  // Byte offset after `chars` code points (the text's size when it has fewer).
  size_t byte_offset(int64_t chars) {
    if (chars < chars_) chars_ = 0, bytes_ = 0;
    while (bytes_ < text_.size() && chars_ < chars) {
      ++bytes_;
      while (bytes_ < text_.size() && (static_cast<unsigned char>(text_[bytes_]) & 0xC0) == 0x80) {
        ++bytes_;
      }
      ++chars_;
    }
    return bytes_;
  }

 private:
  std::string_view text_;
  int64_t chars_ = 0;  // characters walked so far
  size_t bytes_ = 0;   // ... and the bytes they span
};

// TGI's token list: ids without the zero-width (special) tokens, ends as byte offsets.
std::optional<TokenList> tgi_tokens(const Json& list, std::string_view text) {
  if (!list.is_array()) return std::nullopt;
  TokenList out;
  CharOffsets offsets(text);
  for (const Json& token : list) {
    if (!token.is_object()) return std::nullopt;
    const auto id = token_id(token);
    const auto start_field = token.find("start");
    const auto stop_field = token.find("stop");
    if (!id || start_field == token.end() || stop_field == token.end()) return std::nullopt;
    const int64_t start = integer(*start_field).value_or(-1);
    const int64_t stop = integer(*stop_field).value_or(-1);
    if (start < 0 || stop < start) return std::nullopt;
    if (stop == start) continue;  // a special token (BOS): not part of the text
    out.ids.push_back(*id);
    out.ends.push_back(offsets.byte_offset(stop));
  }
  return out;
}

}  // namespace

std::string_view tokenize_shape_name(TokenizeShape shape) {
  switch (shape) {
    case TokenizeShape::kVllm:
      return "vLLM/SGLang";
    case TokenizeShape::kLlamaCpp:
      return "llama.cpp";
    case TokenizeShape::kTgi:
      return "TGI";
  }
  return "?";
}

namespace tokenize_api {

std::string tokenize_body(TokenizeShape shape, std::string_view model, std::string_view text,
                          bool add_special) {
  Json body;
  switch (shape) {
    case TokenizeShape::kVllm:
      body = {{"model", model}, {"prompt", text}, {"add_special_tokens", add_special}};
      break;
    case TokenizeShape::kLlamaCpp:
      body = {{"content", text}, {"add_special", add_special}};
      break;
    case TokenizeShape::kTgi:
      body = {{"inputs", text}};
      break;
  }
  return body.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string chat_body(std::string_view model, std::string_view text) {
  const Json body = {{"model", model},
                     {"messages", Json::array({{{"role", "user"}, {"content", text}}})},
                     {"add_generation_prompt", true}};
  return body.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string detokenize_body(TokenizeShape shape, std::string_view model,
                            const std::vector<int64_t>& ids) {
  // Written directly: a DOM of a thousand ids would cost a thousand values to build and free.
  std::string body = "{";
  if (shape == TokenizeShape::kVllm) {
    body += "\"model\":";
    body += Json(model).dump(-1, ' ', false, Json::error_handler_t::replace);
    body += ',';
  }
  body += "\"tokens\":[";
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) body += ',';
    fmt::format_to(std::back_inserter(body), "{}", ids[i]);
  }
  body += "]}";
  return body;
}

std::optional<TokenList> parse_tokens(TokenizeShape shape, std::string_view body,
                                      std::string_view text) {
  if (shape == TokenizeShape::kTgi) {
    const std::optional<Json> doc = parse(body);
    if (!doc) return std::nullopt;
    return tgi_tokens(*doc, text);
  }
  TokenList out;
  bool good = false;
  const bool keep_ids = true;
  sax_support::sax_decode<TokenListHandler>(
      body,
      [&](const TokenListHandler& answer) {
        good = answer.is_object() && answer.tokens() == TokenField::kGood;
      },
      keep_ids, out.ids);
  if (!good) return std::nullopt;
  return out;
}

std::optional<int64_t> parse_count(TokenizeShape shape, std::string_view body) {
  if (shape == TokenizeShape::kTgi) {
    const std::optional<Json> doc = parse(body);
    if (!doc) return std::nullopt;
    const Json* list = &*doc;
    if (doc->is_object()) {
      const auto response = doc->find("tokenize_response");
      if (response == doc->end()) return std::nullopt;
      list = &*response;
    }
    if (!list->is_array()) return std::nullopt;
    for (const Json& token : *list) {
      if (!token_id(token)) return std::nullopt;
    }
    return static_cast<int64_t>(list->size());
  }
  std::optional<int64_t> count;
  std::vector<int64_t> no_ids;
  const bool keep_ids = false;
  sax_support::sax_decode<TokenListHandler>(
      body,
      [&](const TokenListHandler& answer) {
        if (!answer.is_object()) return;
        // vLLM's "count" when present (the chat form's count includes the template).
        if (shape == TokenizeShape::kVllm && answer.count_field() != TokenField::kAbsent) {
          if (answer.count_field() == TokenField::kGood) count = answer.count();
          return;
        }
        if (answer.tokens() == TokenField::kGood) count = answer.token_count();
      },
      keep_ids, no_ids);
  return count;
}

std::optional<std::string> parse_detokenized(TokenizeShape shape, std::string_view body) {
  const std::optional<Json> doc = parse(body);
  if (!doc) return std::nullopt;
  if (shape == TokenizeShape::kLlamaCpp) return string_field(*doc, "content");
  if (auto prompt = string_field(*doc, "prompt")) return prompt;
  return string_field(*doc, "text");  // SGLang
}

std::optional<int64_t> parse_max_model_len(std::string_view body) {
  const std::optional<Json> doc = parse(body);
  if (!doc || !doc->is_object()) return std::nullopt;
  const auto found = doc->find("max_model_len");
  if (found == doc->end()) return std::nullopt;
  const std::optional<int64_t> value = integer(*found);
  if (!value || *value <= 0) return std::nullopt;
  return value;
}

std::optional<std::string> parse_applied_template(std::string_view body) {
  const std::optional<Json> doc = parse(body);
  if (!doc) return std::nullopt;
  return string_field(*doc, "prompt");
}

}  // namespace tokenize_api
}  // namespace llmperf
