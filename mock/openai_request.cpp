// Parses chat/completions request bodies with nlohmann_json. prompt_tokens is what the mock's
// tokenizer counts: BOS + the ChatML text of the messages (chat), or BOS + the prompt's tokens
// (completions; a token-id array counts one per id); on request, the ids themselves.
#include "openai_request.h"

#include "tokenizer.h"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

namespace llmperf::mock {
namespace {

using nlohmann::json;

// Counts the chat prompt's tokens; with `ids`, also stores them (BOS + the ChatML text).
std::variant<std::int64_t, std::string> chat_request_tokens(const json& body,
                                                            std::vector<TokenId>* ids) {
  const auto messages = body.find("messages");
  if (messages == body.end()) return std::string("missing required field 'messages'");
  if (!messages->is_array()) return std::string("'messages' must be an array");
  constexpr const char* kNotObjects = "each entry of 'messages' must be an object";
  if (ids == nullptr) {
    const std::optional<std::int64_t> tokens = mock::chat_prompt_tokens(*messages);
    if (!tokens) return std::string(kNotObjects);
    return *tokens;
  }
  const std::optional<std::string> text = apply_chat_template(*messages, true);
  if (!text) return std::string(kNotObjects);
  *ids = tokenize(*text, true);
  return static_cast<std::int64_t>(ids->size());
}

// A string prompt counts BOS + its tokens; a token-id array counts its ids (sent as they are).
// With `ids`, the ids are stored too, in prompt order (an id that is not an integer as -1).
std::variant<std::int64_t, std::string> completion_request_tokens(const json& body,
                                                                  std::vector<TokenId>* ids) {
  const auto prompt = body.find("prompt");
  if (prompt == body.end()) return std::string("missing required field 'prompt'");
  const auto text_tokens = [ids](const json& text) {
    const std::vector<TokenId> tokens = tokenize(text.get_ref<const std::string&>(), true);
    if (ids != nullptr) ids->insert(ids->end(), tokens.begin(), tokens.end());
    return static_cast<std::int64_t>(tokens.size());
  };
  const auto keep_id = [ids](const json& id) {
    if (ids != nullptr) ids->push_back(id.is_number_integer() ? id.get<TokenId>() : -1);
  };
  if (prompt->is_string()) return text_tokens(*prompt);
  if (!prompt->is_array()) return std::string("'prompt' must be a string or an array");
  std::int64_t total = 0;
  for (const json& item : *prompt) {
    if (item.is_string()) {
      total += text_tokens(item);
    } else if (item.is_number_integer()) {
      ++total;
      keep_id(item);
    } else if (item.is_array()) {
      total += static_cast<std::int64_t>(item.size());
      for (const json& id : item) keep_id(id);
    } else {
      return std::string("'prompt' array entries must be strings or token ids");
    }
  }
  return total;
}

std::optional<std::string> read_max_tokens(const json& body, CompletionRequest& out) {
  for (const char* key : {"max_tokens", "max_completion_tokens"}) {
    const auto value = body.find(key);
    if (value == body.end() || value->is_null()) continue;
    if (!value->is_number_integer() || value->get<std::int64_t>() < 1) {
      return fmt::format("'{}' must be a positive integer", key);
    }
    out.max_tokens = value->get<std::int64_t>();
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::int64_t count_code_points(std::string_view text) {
  std::int64_t count = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  }
  return count;
}

CompletionParse parse_completion_request(Endpoint endpoint, std::string_view body, PromptIds ids) {
  json doc;
  try {
    doc = json::parse(body);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e999
    return std::string("request body is not valid JSON: ") + e.what();
  }
  if (!doc.is_object()) return std::string("request body must be a JSON object");

  CompletionRequest request;
  if (const auto stream = doc.find("stream"); stream != doc.end() && !stream->is_null()) {
    if (!stream->is_boolean()) return std::string("'stream' must be a boolean");
    request.stream = stream->get<bool>();
  }
  if (const auto options = doc.find("stream_options");
      options != doc.end() && options->is_object()) {
    const auto include = options->find("include_usage");
    request.include_usage =
        include != options->end() && include->is_boolean() && include->get<bool>();
  }
  if (auto problem = read_max_tokens(doc, request)) return *std::move(problem);
  if (const auto ignore_eos = doc.find("ignore_eos");
      ignore_eos != doc.end() && ignore_eos->is_boolean()) {
    request.ignore_eos = ignore_eos->get<bool>();
  }

  std::vector<TokenId>* kept = ids == PromptIds::kKeep ? &request.prompt_ids : nullptr;
  auto prompt = endpoint == Endpoint::kChat ? chat_request_tokens(doc, kept)
                                            : completion_request_tokens(doc, kept);
  if (auto* problem = std::get_if<std::string>(&prompt)) return std::move(*problem);
  request.prompt_tokens = std::get<std::int64_t>(prompt);
  return request;
}

}  // namespace llmperf::mock
