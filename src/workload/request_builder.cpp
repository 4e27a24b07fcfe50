// Request builder: turns a Prompt into an OpenAI-compatible JSON body and the request's
// sections into curl header lines. The generation parameters and the parsed --extra-args are
// prepared once; each build_body() copies that base and adds the prompt. What differs from one API
// to another is its adapter's (workload/api/).
#include "workload/request_builder.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "workload/api/body_parts.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

bool same_header_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    return lower(x) == lower(y);
  });
}

// The body's share of the request's sections.
BodySettings body_settings(const RequestSections& request, const std::string& model) {
  BodySettings settings;
  settings.model = model;
  settings.stream = request.body.stream;
  settings.max_tokens = request.body.max_tokens;
  settings.min_tokens = request.body.min_tokens;
  settings.temperature = request.body.temperature;
  settings.top_p = request.body.top_p;
  settings.top_k = request.body.top_k;
  settings.frequency_penalty = request.body.frequency_penalty;
  settings.repetition_penalty = request.body.repetition_penalty;
  settings.logprobs = request.body.logprobs;
  settings.n_choices = request.body.n_choices;
  if (request.body.seed_in_body) settings.seed = request.seed;
  settings.stop = request.body.stop;
  settings.stop_token_ids = request.body.stop_token_ids;
  settings.ignore_eos = request.body.ignore_eos.value_or(false);
  settings.image_width = request.image_width;
  settings.image_height = request.image_height;
  return settings;
}

}  // namespace

struct RequestBuilder::Impl {
  const ApiAdapter* api = nullptr;  // the body's shape
  BodySettings settings;            // the model, generation parameters, images' size
  Json base;                        // the keys every request carries: model and the settings
  Json extra;                       // parsed --extra-args object (empty object when none)

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

RequestBuilder::RequestBuilder(const RequestSections& request, const std::string& model)
    : impl_(std::make_unique<Impl>()) {
  impl_->api = &api_adapter(request.target.api_kind);
  impl_->settings = body_settings(request, model);
  Json& base = impl_->base;
  base = Json::object();
  base["model"] = model;
  impl_->api->add_settings(impl_->settings, base);

  impl_->extra = Json::object();
  if (!request.body.extra_args.empty()) {
    try {
      impl_->extra = Json::parse(request.body.extra_args);
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
      {"Accept", request.body.stream && generates_text(request.target.api_kind)
                     ? "text/event-stream"
                     : "application/json"},
  };
  if (!request.target.api_key.empty())
    headers.emplace_back("Authorization", "Bearer " + request.target.api_key);
  for (const auto& extra :
       request.target.headers) {  // (clang 14 cannot capture structured bindings)
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
    impl_->api->add_prompt(prompt, request, impl_->settings, body);
  }
  impl_->apply_extra(body);
  return body.dump(-1, ' ', false, Json::error_handler_t::replace);
}

const ApiAdapter& RequestBuilder::adapter() const { return *impl_->api; }

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
