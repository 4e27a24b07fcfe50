// Parses chat/completions request bodies with nlohmann_json. prompt_tokens counts code points in
// every message's content (strings, or the text of {"type":"text"} parts) or in the prompt.
#include "openai_request.h"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

namespace llmperf::mock {
namespace {

using nlohmann::json;

std::int64_t content_code_points(const json& content) {
  if (content.is_string()) return count_code_points(content.get_ref<const std::string&>());
  std::int64_t total = 0;
  if (content.is_array()) {
    for (const json& part : content) {
      if (!part.is_object()) continue;
      const auto text = part.find("text");
      if (text != part.end() && text->is_string()) {
        total += count_code_points(text->get_ref<const std::string&>());
      }
    }
  }
  return total;
}

std::variant<std::int64_t, std::string> chat_prompt_tokens(const json& body) {
  const auto messages = body.find("messages");
  if (messages == body.end()) return std::string("missing required field 'messages'");
  if (!messages->is_array()) return std::string("'messages' must be an array");
  std::int64_t total = 0;
  for (const json& message : *messages) {
    if (!message.is_object()) return std::string("each entry of 'messages' must be an object");
    const auto content = message.find("content");
    if (content != message.end()) total += content_code_points(*content);
  }
  return total;
}

std::variant<std::int64_t, std::string> completion_prompt_tokens(const json& body) {
  const auto prompt = body.find("prompt");
  if (prompt == body.end()) return std::string("missing required field 'prompt'");
  if (prompt->is_string()) return count_code_points(prompt->get_ref<const std::string&>());
  if (!prompt->is_array()) return std::string("'prompt' must be a string or an array");
  std::int64_t total = 0;
  for (const json& item : *prompt) {
    if (item.is_string()) {
      total += count_code_points(item.get_ref<const std::string&>());
    } else if (item.is_number_integer()) {
      ++total;
    } else if (item.is_array()) {
      total += static_cast<std::int64_t>(item.size());
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

CompletionParse parse_completion_request(Endpoint endpoint, std::string_view body) {
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

  auto prompt =
      endpoint == Endpoint::kChat ? chat_prompt_tokens(doc) : completion_prompt_tokens(doc);
  if (auto* problem = std::get_if<std::string>(&prompt)) return std::move(*problem);
  request.prompt_tokens = std::get<std::int64_t>(prompt);
  return request;
}

}  // namespace llmperf::mock
