// Parses chat/completions/responses request bodies with nlohmann_json. prompt_tokens is what the
// mock's tokenizer counts: BOS + the ChatML text of the messages (chat, and responses after its
// input became messages) plus --image-tokens per image part, or BOS + the prompt's tokens
// (completions; a token-id array counts one per id); on request, the ids themselves.
#include "openai_request.h"

#include "tokenizer.h"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <array>
#include <span>

namespace llmperf::mock {
namespace {

using nlohmann::json;

// First id of the pseudo tokens that stand for an image in kept prompt ids; far above every id
// the tokenizer produces, so an image never matches text in the prefix cache.
constexpr TokenId kImageIdBase = TokenId{1} << 40;

// FNV-1a, 64 bits: a stable hash of an image's URL.
std::uint64_t image_url_hash(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

// The URL of an image part: chat's {"image_url":{"url":...}} or responses' {"image_url":"..."};
// empty when it has none.
std::string_view image_url_of(const json& part) {
  const auto url = part.find("image_url");
  if (url == part.end()) return {};
  if (url->is_string()) return url->get_ref<const std::string&>();
  if (url->is_object()) {
    const auto inner = url->find("url");
    if (inner != url->end() && inner->is_string()) return inner->get_ref<const std::string&>();
  }
  return {};
}

// Image parts of the messages' array contents (type "image_url" or "input_image"). With `ids`,
// appends `image_tokens` ids per image, derived from its URL, so the same image is the same ids.
std::int64_t count_images(const json& messages, std::int64_t image_tokens,
                          std::vector<TokenId>* ids) {
  std::int64_t images = 0;
  for (const json& message : messages) {
    const auto content = message.find("content");
    if (content == message.end() || !content->is_array()) continue;
    for (const json& part : *content) {
      if (!part.is_object()) continue;
      const auto type = part.find("type");
      if (type == part.end() || (*type != "image_url" && *type != "input_image")) continue;
      ++images;
      if (ids == nullptr) continue;
      const TokenId base = kImageIdBase + static_cast<TokenId>(image_url_hash(image_url_of(part)) >> 32);
      for (std::int64_t k = 0; k < image_tokens; ++k) ids->push_back(base + k);
    }
  }
  return images;
}

// Counts the chat prompt's tokens: BOS + the ChatML text + `image_tokens` per image; with `ids`,
// also stores them (the text's ids, then the images').
std::variant<std::int64_t, std::string> messages_tokens(const json& messages,
                                                        std::int64_t image_tokens,
                                                        CompletionRequest& out,
                                                        std::vector<TokenId>* ids) {
  constexpr const char* kNotObjects = "each entry of 'messages' must be an object";
  std::int64_t text_tokens = 0;
  if (ids == nullptr) {
    const std::optional<std::int64_t> tokens = mock::chat_prompt_tokens(messages);
    if (!tokens) return std::string(kNotObjects);
    text_tokens = *tokens;
  } else {
    const std::optional<std::string> text = apply_chat_template(messages, true);
    if (!text) return std::string(kNotObjects);
    *ids = tokenize(*text, true);
    text_tokens = static_cast<std::int64_t>(ids->size());
  }
  out.images = count_images(messages, image_tokens, ids);
  return text_tokens + out.images * image_tokens;
}

std::variant<std::int64_t, std::string> chat_request_tokens(const json& body,
                                                            std::int64_t image_tokens,
                                                            CompletionRequest& out,
                                                            std::vector<TokenId>* ids) {
  const auto messages = body.find("messages");
  if (messages == body.end()) return std::string("missing required field 'messages'");
  if (!messages->is_array()) return std::string("'messages' must be an array");
  return messages_tokens(*messages, image_tokens, out, ids);
}

// A Responses API request as chat messages: "instructions" becomes a system message, then "input"
// follows: a string is one user message; an array holds message objects whose content is a
// string or input_text / input_image parts (whose "text" the chat template reads).
std::variant<json, std::string> responses_messages(const json& body) {
  json messages = json::array();
  if (const auto instructions = body.find("instructions");
      instructions != body.end() && !instructions->is_null()) {
    if (!instructions->is_string()) return std::string("'instructions' must be a string");
    messages.push_back({{"role", "system"}, {"content", *instructions}});
  }
  const auto input = body.find("input");
  if (input == body.end()) return std::string("missing required field 'input'");
  if (input->is_string()) {
    messages.push_back({{"role", "user"}, {"content", *input}});
  } else if (input->is_array()) {
    for (const json& item : *input) {
      if (!item.is_object()) return std::string("each entry of 'input' must be an object");
      messages.push_back(item);
    }
  } else {
    return std::string("'input' must be a string or an array");
  }
  return messages;
}

std::variant<std::int64_t, std::string> responses_request_tokens(const json& body,
                                                                 std::int64_t image_tokens,
                                                                 CompletionRequest& out,
                                                                 std::vector<TokenId>* ids) {
  auto messages = responses_messages(body);
  if (auto* problem = std::get_if<std::string>(&messages)) return std::move(*problem);
  return messages_tokens(std::get<json>(messages), image_tokens, out, ids);
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

std::optional<std::string> read_max_tokens(const json& body, Endpoint endpoint,
                                           CompletionRequest& out) {
  static constexpr std::array<const char*, 2> kChatKeys = {"max_tokens", "max_completion_tokens"};
  static constexpr std::array<const char*, 1> kResponsesKeys = {"max_output_tokens"};
  const std::span<const char* const> keys = endpoint == Endpoint::kResponses
                                                ? std::span<const char* const>(kResponsesKeys)
                                                : std::span<const char* const>(kChatKeys);
  for (const char* key : keys) {
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

CompletionParse parse_completion_request(Endpoint endpoint, std::string_view body, PromptIds ids,
                                         std::int64_t image_tokens) {
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
  if (auto problem = read_max_tokens(doc, endpoint, request)) return *std::move(problem);
  if (const auto ignore_eos = doc.find("ignore_eos");
      ignore_eos != doc.end() && ignore_eos->is_boolean()) {
    request.ignore_eos = ignore_eos->get<bool>();
  }

  std::vector<TokenId>* kept = ids == PromptIds::kKeep ? &request.prompt_ids : nullptr;
  std::variant<std::int64_t, std::string> prompt;
  switch (endpoint) {
    case Endpoint::kChat:
      prompt = chat_request_tokens(doc, image_tokens, request, kept);
      break;
    case Endpoint::kResponses:
      prompt = responses_request_tokens(doc, image_tokens, request, kept);
      break;
    default:
      prompt = completion_request_tokens(doc, kept);
      break;
  }
  if (auto* problem = std::get_if<std::string>(&prompt)) return std::move(*problem);
  request.prompt_tokens = std::get<std::int64_t>(prompt);
  return request;
}

}  // namespace llmperf::mock
