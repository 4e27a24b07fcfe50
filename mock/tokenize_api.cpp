// The mock's tokenize API (see tokenize_api.h): request shapes told apart by their fields, every
// answer computed with the mock's tokenizer.
#include "tokenize_api.h"

#include "openai_format.h"
#include "openai_request.h"
#include "tokenizer.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace llmperf::mock {
namespace {

using nlohmann::json;

ApiReply not_found(std::string_view path) {
  return {404, error_body(std::string("no route for POST ") + std::string(path), "not_found", 404)};
}

// vLLM's validation error (nested error object since vLLM 0.10.1).
ApiReply vllm_bad_request(std::string_view message) {
  return {400, error_body(message, "Bad Request", 400)};
}

ApiReply json_reply(const json& value) { return {200, value.dump()}; }

bool flag(const json& body, const char* key, bool fallback) {
  const auto found = body.find(key);
  return found != body.end() && found->is_boolean() ? found->get<bool>() : fallback;
}

ApiReply vllm_tokenize(const json& body, std::int64_t max_model_len) {
  std::vector<TokenId> tokens;
  if (const auto messages = body.find("messages"); messages != body.end()) {
    const auto text = apply_chat_template(*messages, flag(body, "add_generation_prompt", true));
    if (!text) return vllm_bad_request("'messages' must be an array of message objects");
    tokens = tokenize(*text, true);  // the chat request's count: BOS + the templated text
  } else if (const auto prompt = body.find("prompt"); prompt != body.end()) {
    if (!prompt->is_string()) return vllm_bad_request("'prompt' must be a string");
    tokens =
        tokenize(prompt->get_ref<const std::string&>(), flag(body, "add_special_tokens", true));
  } else {
    return vllm_bad_request("1 validation error: 'prompt' or 'messages' is required");
  }
  return json_reply({{"count", tokens.size()},
                     {"max_model_len", max_model_len},
                     {"tokens", tokens},
                     {"token_strs", nullptr}});
}

ApiReply llamacpp_tokenize(const json& body) {
  const auto content = body.find("content");
  if (content == body.end()) return json_reply({{"tokens", json::array()}});
  if (!content->is_string())
    return {500, error_body("content must be a string", "server_error", 500)};
  return json_reply({{"tokens", tokenize(content->get_ref<const std::string&>(),
                                         flag(body, "add_special", false))}});
}

// TGI's token list: BOS first (TGI always adds special tokens), offsets in code points.
json tgi_tokens(std::string_view text, bool bos) {
  json out = json::array();
  if (bos)
    out.push_back({{"id", tokenize("", true).front()}, {"text", ""}, {"start", 0}, {"stop", 0}});
  std::int64_t chars_before = 0;
  std::size_t last_end = 0;
  for (const TokenSpan& token : tokenize_spans(text)) {
    chars_before += count_code_points(text.substr(last_end, token.begin - last_end));
    const std::int64_t chars = count_code_points(text.substr(token.begin, token.end - token.begin));
    out.push_back({{"id", token.id},
                   {"text", std::string(text.substr(token.begin, token.end - token.begin))},
                   {"start", chars_before},
                   {"stop", chars_before + chars}});
    chars_before += chars;
    last_end = token.end;
  }
  return out;
}

ApiReply tgi_tokenize(const json& body) {
  const auto inputs = body.find("inputs");
  if (inputs == body.end() || !inputs->is_string()) {
    return {422, "Failed to deserialize the JSON body into the target type: missing field `inputs`",
            "text/plain; charset=utf-8"};
  }
  return json_reply(tgi_tokens(inputs->get_ref<const std::string&>(), true));
}

ApiReply tgi_chat_tokenize(const json& body) {
  const auto messages = body.find("messages");
  const auto text = messages == body.end() ? std::nullopt : apply_chat_template(*messages, true);
  if (!text) return {422, error_body("messages is required", "validation", 422)};
  // The template text starts with BOS, as Llama templates do; TGI tokenizes it without adding
  // special tokens.
  const std::string templated = "<s>" + *text;
  return json_reply(
      {{"tokenize_response", tgi_tokens(templated, false)}, {"templated_text", templated}});
}

ApiReply detokenize_reply(const json& body, bool vllm_shape) {
  const auto tokens = body.find("tokens");
  if (tokens == body.end() || !tokens->is_array()) {
    if (vllm_shape) return vllm_bad_request("1 validation error: 'tokens' is required");
    return json_reply({{"content", ""}});
  }
  std::vector<TokenId> ids;
  for (const json& token : *tokens) {
    if (!token.is_number_integer()) return vllm_bad_request("'tokens' must be integers");
    ids.push_back(token.get<TokenId>());
  }
  const std::optional<std::string> text = detokenize(ids);
  if (!text) return vllm_bad_request("a token id is out of the vocabulary");
  return json_reply({{vllm_shape ? "prompt" : "content", *text}});
}

}  // namespace

std::optional<ApiReply> answer_tokenize_api(TokenizeApi api, std::string_view path,
                                            std::string_view body_text,
                                            std::int64_t max_model_len) {
  if (path != "/tokenize" && path != "/detokenize" && path != "/apply-template" &&
      path != "/chat_tokenize") {
    return std::nullopt;
  }
  if (api == TokenizeApi::kNone) return not_found(path);
  json body;
  try {
    body = json::parse(body_text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e999
    return ApiReply{400, error_body(std::string("body is not valid JSON: ") + e.what(),
                                    "invalid_request_error", 400)};
  }
  if (!body.is_object()) return vllm_bad_request("the body must be a JSON object");
  const bool all = api == TokenizeApi::kAll;

  if (path == "/tokenize") {
    if (api == TokenizeApi::kVllm ||
        (all && (body.contains("prompt") || body.contains("messages")))) {
      return vllm_tokenize(body, max_model_len);
    }
    if (api == TokenizeApi::kTgi || (all && body.contains("inputs"))) return tgi_tokenize(body);
    if (api == TokenizeApi::kLlamaCpp || (all && body.contains("content"))) {
      return llamacpp_tokenize(body);
    }
    return vllm_bad_request("1 validation error: 'prompt' or 'messages' is required");
  }
  if (path == "/detokenize") {
    if (api == TokenizeApi::kTgi) return not_found(path);
    const bool vllm_shape = api == TokenizeApi::kVllm || (all && body.contains("model"));
    return detokenize_reply(body, vllm_shape);
  }
  if (path == "/apply-template") {
    if (!all && api != TokenizeApi::kLlamaCpp) return not_found(path);
    const auto messages = body.find("messages");
    const auto text = messages == body.end() ? std::nullopt : apply_chat_template(*messages, true);
    if (!text)
      return ApiReply{400, error_body("'messages' is required", "invalid_request_error", 400)};
    return json_reply({{"prompt", *text}});
  }
  // /chat_tokenize
  if (!all && api != TokenizeApi::kTgi) return not_found(path);
  return tgi_chat_tokenize(body);
}

}  // namespace llmperf::mock
