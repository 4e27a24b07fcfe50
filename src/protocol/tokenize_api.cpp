// Tokenize API bodies and answers (see tokenize_api.h), with nlohmann_json. Every number is range
// checked before it is read: nlohmann's get<int64_t>() of 1e30 is undefined behaviour.
#include "protocol/tokenize_api.h"

#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

using Json = nlohmann::json;

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
  Json body = {{"tokens", ids}};
  if (shape == TokenizeShape::kVllm) body["model"] = model;
  return body.dump();
}

std::optional<TokenList> parse_tokens(TokenizeShape shape, std::string_view body,
                                      std::string_view text) {
  const std::optional<Json> doc = parse(body);
  if (!doc) return std::nullopt;
  if (shape == TokenizeShape::kTgi) return tgi_tokens(*doc, text);
  if (!doc->is_object()) return std::nullopt;
  const auto tokens = doc->find("tokens");
  if (tokens == doc->end() || !tokens->is_array()) return std::nullopt;
  TokenList out;
  out.ids.reserve(tokens->size());
  for (const Json& token : *tokens) {
    const auto id = token_id(token);
    if (!id) return std::nullopt;
    out.ids.push_back(*id);
  }
  return out;
}

std::optional<int64_t> parse_count(TokenizeShape shape, std::string_view body) {
  const std::optional<Json> doc = parse(body);
  if (!doc) return std::nullopt;
  if (shape == TokenizeShape::kTgi) {
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
  if (!doc->is_object()) return std::nullopt;
  if (shape == TokenizeShape::kVllm) {
    const auto count = doc->find("count");
    if (count != doc->end()) {
      const auto value = integer(*count);
      if (!value || *value < 0) return std::nullopt;
      return value;
    }
  }
  const auto tokens = parse_tokens(shape, body, {});
  if (!tokens) return std::nullopt;
  return static_cast<int64_t>(tokens->ids.size());
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
