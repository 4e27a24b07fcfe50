// Request builder: turns a Prompt into an OpenAI-compatible JSON body and the Config into curl
// header lines. The generation parameters and the parsed --extra-args are prepared once; each
// build_body() copies that base and adds the prompt.
#include "workload/request_builder.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "workload/synthetic/png_image.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

bool same_header_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    return lower(x) == lower(y);
  });
}

// Appends the text of one message content (a string or a list of parts) to pieces.
void collect_text(const Json& content, std::vector<std::string_view>& pieces) {
  if (content.is_string()) {
    pieces.emplace_back(content.get_ref<const std::string&>());
    return;
  }
  if (!content.is_array()) return;
  for (const auto& part : content) {
    if (!part.is_object()) continue;
    if (part.contains("text") && part["text"].is_string()) {
      pieces.emplace_back(part["text"].get_ref<const std::string&>());
    }
  }
}

// All message contents joined with "\n", for a messages prompt sent to the completions API.
std::string join_contents(const Json& messages) {
  std::vector<std::string_view> pieces;
  for (const auto& message : messages) {
    if (!message.is_object()) continue;
    const auto content = message.find("content");
    if (content != message.end()) collect_text(*content, pieces);
  }
  std::string joined;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (i > 0) joined += '\n';
    joined += pieces[i];
  }
  return joined;
}

Json parse_prompt_json(const std::string& text, std::string_view what) {
  try {
    return Json::parse(text);
  } catch (const Json::exception& error) {  // parse_error, or out_of_range for 1e999
    throw std::invalid_argument(std::string("prompt ") + std::string(what) +
                                " is not valid JSON: " + error.what());
  }
}

}  // namespace

struct RequestBuilder::Impl {
  ApiKind api_kind = ApiKind::kChat;  // the body's shape
  Json base;                          // model and generation parameters from the Config
  Json extra;                         // parsed --extra-args object (empty object when none)
  int image_width = 512;              // --image-width, --image-height
  int image_height = 512;

  // The user message of a text prompt, with its synthetic images: a plain string without images;
  // with them, chat's text and image_url parts, or the Responses API's input_text and
  // input_image parts.
  Json user_content(const Prompt& prompt, uint64_t request) const {
    if (prompt.synthetic_images <= 0) return prompt.text;
    const bool chat = api_kind == ApiKind::kChat;
    Json parts = Json::array({{{"type", chat ? "text" : "input_text"}, {"text", prompt.text}}});
    for (int32_t i = 0; i < prompt.synthetic_images; ++i) {
      const uint64_t seed = prompt.image_seed ^ (request * 0x9E3779B97F4A7C15ull) ^
                            (static_cast<uint64_t>(i) * 0xBF58476D1CE4E5B9ull);
      std::string url = png_data_url(image_width, image_height, seed);
      if (chat) {
        parts.push_back({{"type", "image_url"}, {"image_url", {{"url", std::move(url)}}}});
      } else {
        parts.push_back({{"type", "input_image"}, {"image_url", std::move(url)}});
      }
    }
    return parts;
  }

  // Embeddings and rerank: the texts a prompt carries, and its own text.
  void add_pooling_inputs(const Prompt& prompt, Json& body) const {
    if (api_kind == ApiKind::kEmbeddings) {
      if (!prompt.texts.empty()) {
        body["input"] = prompt.texts;
      } else {
        body["input"] = Json::array({prompt_text(prompt)});
      }
      return;
    }
    body["query"] = prompt_text(prompt);
    body["documents"] = prompt.texts.empty() ? Json::array({prompt_text(prompt)})
                                             : Json(prompt.texts);
  }

  // Applies --extra-args: top-level keys replace the body's; a null value removes the key
  // (JSON merge patch, RFC 7386, at the top level only).
  void apply_extra(Json& body) const {
    for (const auto& [key, value] : extra.items()) {
      if (value.is_null()) {
        body.erase(key);
      } else {
        body[key] = value;
      }
    }
  }
};

RequestBuilder::RequestBuilder(const Config& config, const std::string& model)
    : impl_(std::make_unique<Impl>()) {
  impl_->api_kind = config.target.api_kind;
  impl_->image_width = config.workload.image_width;
  impl_->image_height = config.workload.image_height;
  Json& base = impl_->base;
  base = Json::object();
  base["model"] = model;
  if (config.target.api_kind == ApiKind::kResponses) {
    // The Responses API names max_tokens max_output_tokens and has no stream_options: usage
    // comes with response.completed.
    if (config.body.max_tokens) base["max_output_tokens"] = *config.body.max_tokens;
    if (config.body.temperature) base["temperature"] = *config.body.temperature;
    if (config.body.top_p) base["top_p"] = *config.body.top_p;
    base["stream"] = config.body.stream;
  } else if (generates_text(config.target.api_kind)) {
    if (config.body.max_tokens) base["max_tokens"] = *config.body.max_tokens;
    if (config.body.min_tokens) base["min_tokens"] = *config.body.min_tokens;
    if (config.body.temperature) base["temperature"] = *config.body.temperature;
    if (config.body.top_p) base["top_p"] = *config.body.top_p;
    if (config.body.top_k) base["top_k"] = *config.body.top_k;
    if (config.body.frequency_penalty) base["frequency_penalty"] = *config.body.frequency_penalty;
    if (config.body.repetition_penalty)
      base["repetition_penalty"] = *config.body.repetition_penalty;
    if (config.body.logprobs) base["logprobs"] = true;
    if (config.body.n_choices) base["n"] = *config.body.n_choices;
    if (config.body.seed_in_body) base["seed"] = config.load.seed;
    if (!config.body.stop.empty()) base["stop"] = config.body.stop;
    if (!config.body.stop_token_ids.empty()) base["stop_token_ids"] = config.body.stop_token_ids;
    if (config.body.ignore_eos.value_or(false)) base["ignore_eos"] = true;
    base["stream"] = config.body.stream;
    if (config.body.stream) base["stream_options"] = {{"include_usage", true}};
  }

  impl_->extra = Json::object();
  if (!config.body.extra_args.empty()) {
    try {
      impl_->extra = Json::parse(config.body.extra_args);
    } catch (const Json::exception& error) {  // parse_error, or out_of_range for 1e999
      throw std::invalid_argument("--extra-args must be a JSON object: " +
                                  std::string(error.what()));
    }
    if (!impl_->extra.is_object()) {
      throw std::invalid_argument("--extra-args must be a JSON object: got a JSON " +
                                  std::string(impl_->extra.type_name()));
    }
  }

  std::vector<std::pair<std::string, std::string>> headers = {
      {"Content-Type", "application/json"},
      {"Accept", config.body.stream && generates_text(config.target.api_kind) ? "text/event-stream"
                                                                              : "application/json"},
  };
  if (!config.target.api_key.empty())
    headers.emplace_back("Authorization", "Bearer " + config.target.api_key);
  for (const auto& extra :
       config.target.headers) {  // (clang 14 cannot capture structured bindings)
    const auto existing = std::find_if(headers.begin(), headers.end(), [&](const auto& header) {
      return same_header_name(header.first, extra.first);
    });
    if (existing != headers.end()) {
      *existing = extra;
    } else {
      headers.push_back(extra);
    }
  }
  for (const auto& [name, value] : headers) header_lines_.push_back(name + ": " + value);
  const bool user_expect = std::any_of(headers.begin(), headers.end(), [](const auto& header) {
    return same_header_name(header.first, "Expect");
  });
  if (!user_expect) header_lines_.emplace_back("Expect:");
}

RequestBuilder::~RequestBuilder() = default;
RequestBuilder::RequestBuilder(RequestBuilder&&) noexcept = default;
RequestBuilder& RequestBuilder::operator=(RequestBuilder&&) noexcept = default;

std::string RequestBuilder::build_body(const Prompt& prompt, uint64_t request) const {
  Json body;
  if (!prompt.body_json.empty()) {
    body = parse_prompt_json(prompt.body_json, "body");
    if (!body.is_object()) throw std::invalid_argument("prompt body is not a JSON object");
    for (const auto& [key, value] : impl_->base.items()) {
      if (key != "stream_options" && !body.contains(key)) body[key] = value;
    }
    // stream_options is only valid on a streaming request, and the body may decide streaming.
    const auto stream = body.find("stream");
    if (stream != body.end() && *stream == true && !body.contains("stream_options")) {
      body["stream_options"] = {{"include_usage", true}};
    }
  } else {
    body = impl_->base;
    const ApiKind kind = impl_->api_kind;
    if (!generates_text(kind)) {
      impl_->add_pooling_inputs(prompt, body);
    } else if (!prompt.messages_json.empty()) {
      Json messages = parse_prompt_json(prompt.messages_json, "messages");
      if (kind == ApiKind::kChat) {
        body["messages"] = std::move(messages);
      } else if (kind == ApiKind::kResponses) {
        body["input"] = std::move(messages);
      } else {
        body["prompt"] = join_contents(messages);
      }
    } else if (!prompt.token_ids.empty()) {
      body["prompt"] = prompt.token_ids;  // --tokenize-prompt (the completions API)
    } else if (kind == ApiKind::kChat) {
      body["messages"] = Json::array({{{"role", "user"}, {"content", impl_->user_content(prompt, request)}}});
    } else if (kind == ApiKind::kResponses) {
      if (prompt.synthetic_images > 0) {
        body["input"] =
            Json::array({{{"role", "user"}, {"content", impl_->user_content(prompt, request)}}});
      } else {
        body["input"] = prompt.text;
      }
    } else {
      body["prompt"] = prompt.text;
    }
    if (prompt.target_output_tokens >= 0 && generates_text(kind)) {
      body[kind == ApiKind::kResponses ? "max_output_tokens" : "max_tokens"] =
          prompt.target_output_tokens;
    }
  }
  impl_->apply_extra(body);
  return body.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string prompt_text(const Prompt& prompt) {
  if (!prompt.text.empty() || prompt.messages_json.empty()) return prompt.text;
  const Json messages = Json::parse(prompt.messages_json, nullptr, false);
  return messages.is_array() ? join_contents(messages) : prompt.text;
}

std::vector<std::string> server_header_lines(const TargetConfig& target) {
  std::vector<std::string> lines;
  const bool own_authorization = std::any_of(
      target.headers.begin(), target.headers.end(),
      [](const auto& header) { return same_header_name(header.first, "Authorization"); });
  if (!target.api_key.empty() && !own_authorization) {
    lines.push_back("Authorization: Bearer " + target.api_key);
  }
  for (const auto& [name, value] : target.headers) lines.push_back(name + ": " + value);
  return lines;
}

std::string mask_secret(const std::string& secret) {
  if (secret.empty()) return "";
  constexpr size_t kShownChars = 3;
  constexpr size_t kMinLengthToShow = 8;
  if (secret.size() < kMinLengthToShow) return "***";
  return secret.substr(0, kShownChars) + "***";
}

}  // namespace llmperf
