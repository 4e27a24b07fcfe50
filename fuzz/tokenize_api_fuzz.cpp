// libFuzzer target: the tokenize API parsers read answers from whatever answers on the tokenize
// URL (another server, a proxy's error page), so for every shape each parser must return nullopt
// or a consistent value, never crash or throw. The first input byte splits the rest into the text
// that was tokenized and the answer body. Checked: TGI's byte offsets stay inside the text, one
// per id; llama.cpp's count is its number of ids and TGI's counts at least its text ids; the
// request bodies built from the text are JSON that carries it (when it is valid UTF-8). The ids
// and counts of vLLM's and llama.cpp's answers, read as they stream by, are those their document
// holds (nlohmann's DOM, the reference).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/tokenize_api.h"

namespace {

using llmperf::TokenizeShape;
namespace api = llmperf::tokenize_api;

using Json = nlohmann::json;

// An integer within int64, as a token id or a count must be.
std::optional<int64_t> document_integer(const Json& value) {
  if (!value.is_number_integer()) return std::nullopt;
  if (value.is_number_unsigned() && value.get<uint64_t>() > uint64_t{INT64_MAX})
    return std::nullopt;
  return value.get<int64_t>();
}

// The ids of root.tokens, each an integer or an object's "id", read from the document.
std::optional<std::vector<int64_t>> document_ids(const Json& doc) {
  if (!doc.is_object()) return std::nullopt;
  const auto tokens = doc.find("tokens");
  if (tokens == doc.end() || !tokens->is_array()) return std::nullopt;
  std::vector<int64_t> ids;
  for (const Json& token : *tokens) {
    std::optional<int64_t> id;
    if (!token.is_object()) {
      id = document_integer(token);
    } else if (const auto field = token.find("id"); field != token.end()) {
      id = document_integer(*field);
    }
    if (!id) return std::nullopt;
    ids.push_back(*id);
  }
  return ids;
}

void check_against_document(std::string_view body) {
  const Json doc = Json::parse(body, nullptr, false);
  const std::optional<std::vector<int64_t>> ids =
      doc.is_discarded() ? std::nullopt : document_ids(doc);
  const auto tokens = api::parse_tokens(TokenizeShape::kLlamaCpp, body, {});
  if (tokens.has_value() != ids.has_value() || (ids && tokens->ids != *ids)) std::abort();
  std::optional<int64_t> count;
  if (!doc.is_discarded() && doc.is_object() && doc.contains("count")) {
    count = document_integer(doc.at("count"));
    if (count && *count < 0) count.reset();
  } else if (ids) {
    count = static_cast<int64_t>(ids->size());
  }
  if (api::parse_count(TokenizeShape::kVllm, body) != count) std::abort();
}

void check_answers(TokenizeShape shape, std::string_view body, std::string_view text) {
  const auto tokens = api::parse_tokens(shape, body, text);
  const auto count = api::parse_count(shape, body);
  (void)api::parse_detokenized(shape, body);
  if (count && *count < 0) std::abort();
  if (const auto context = api::parse_max_model_len(body); context && *context <= 0) std::abort();
  if (!tokens) return;
  if (!tokens->ends.empty() && tokens->ends.size() != tokens->ids.size()) std::abort();
  for (const size_t end : tokens->ends) {
    if (end > text.size()) std::abort();
  }
  if (shape == TokenizeShape::kLlamaCpp && count != static_cast<int64_t>(tokens->ids.size())) {
    std::abort();
  }
  if (shape == TokenizeShape::kTgi &&
      (!count || *count < static_cast<int64_t>(tokens->ids.size()))) {
    std::abort();
  }
}

// The body is JSON whatever the text; it holds the text itself when the text is valid UTF-8.
void check_body(const std::string& body, const char* key, std::string_view text) {
  const nlohmann::json doc = nlohmann::json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) std::abort();
  const auto field = doc.find(key);
  if (field == doc.end() || !field->is_string()) std::abort();
  bool valid_utf8 = true;
  try {
    (void)nlohmann::json(text).dump();
  } catch (const nlohmann::json::type_error&) {
    valid_utf8 = false;
  }
  if (valid_utf8 && field->get<std::string>() != text) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const size_t split = std::min<size_t>(data[0], rest.size());
  const std::string_view text = rest.substr(0, split);
  const std::string_view body = rest.substr(split);

  for (const TokenizeShape shape :
       {TokenizeShape::kVllm, TokenizeShape::kLlamaCpp, TokenizeShape::kTgi}) {
    check_answers(shape, body, text);
    // The whole input as an answer too (texts are often empty in the corpus's real answers).
    check_answers(shape, rest, text);
  }
  (void)api::parse_applied_template(body);
  check_against_document(body);
  check_against_document(rest);

  check_body(api::tokenize_body(TokenizeShape::kVllm, "m", text, true), "prompt", text);
  check_body(api::tokenize_body(TokenizeShape::kLlamaCpp, "m", text, false), "content", text);
  check_body(api::tokenize_body(TokenizeShape::kTgi, "m", text, true), "inputs", text);
  check_body(api::chat_body(text, "x"), "model", text);
  return 0;
}
