// What several API adapters share (see body_parts.h).
#include "workload/api/body_parts.h"

#include <stdexcept>
#include <utility>
#include <vector>

#include "workload/synthetic/png_image.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

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

}  // namespace

Json parse_prompt_json(const std::string& text, std::string_view what) {
  try {
    return Json::parse(text);
  } catch (const Json::exception& error) {  // parse_error, or out_of_range for 1e999
    throw std::invalid_argument(std::string("prompt ") + std::string(what) +
                                " is not valid JSON: " + error.what());
  }
}

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

std::string prompt_text(const Prompt& prompt) {
  if (!prompt.text.empty() || prompt.messages_json.empty()) return prompt.text;
  const Json messages = Json::parse(prompt.messages_json, nullptr, false);
  return messages.is_array() ? join_contents(messages) : prompt.text;
}

std::string synthetic_image_url(const Prompt& prompt, uint64_t request, int32_t index,
                                const BodySettings& settings) {
  const uint64_t seed = prompt.image_seed ^ (request * 0x9E3779B97F4A7C15ull) ^
                        (static_cast<uint64_t>(index) * 0xBF58476D1CE4E5B9ull);
  return png_data_url(settings.image_width, settings.image_height, seed);
}

void ChoicesApi::add_settings(const BodySettings& settings, Json& base) const {
  if (settings.max_tokens) base["max_tokens"] = *settings.max_tokens;
  if (settings.min_tokens) base["min_tokens"] = *settings.min_tokens;
  if (settings.temperature) base["temperature"] = *settings.temperature;
  if (settings.top_p) base["top_p"] = *settings.top_p;
  if (settings.top_k) base["top_k"] = *settings.top_k;
  if (settings.frequency_penalty) base["frequency_penalty"] = *settings.frequency_penalty;
  if (settings.repetition_penalty) base["repetition_penalty"] = *settings.repetition_penalty;
  if (settings.logprobs) base["logprobs"] = true;
  if (settings.n_choices) base["n"] = *settings.n_choices;
  if (settings.seed) base["seed"] = *settings.seed;
  if (!settings.stop.empty()) base["stop"] = settings.stop;
  if (!settings.stop_token_ids.empty()) base["stop_token_ids"] = settings.stop_token_ids;
  if (settings.ignore_eos) base["ignore_eos"] = true;
  base["stream"] = settings.stream;
  if (settings.stream) base["stream_options"] = {{"include_usage", true}};
}

BodyVerdict output_verdict(const DecodedChunk& decoded) {
  if (decoded.has_output) return {};
  return {ErrorKind::kNoOutput, "response carried no generated output"};
}

void pooling_facts(const PoolingResponse& pooled, DecodedChunk& out) {
  out.clear();
  out.valid_json = pooled.valid_json;
  out.response_id = pooled.response_id;
  out.has_error = pooled.has_error;
  out.error_message = pooled.error_message;
  out.has_usage = pooled.prompt_tokens >= 0;
  out.prompt_tokens = pooled.prompt_tokens;
}

void ChoicesApi::decode_event(std::string_view, std::string_view data, DecodedChunk& out) const {
  decode_chunk(data, out);
}

std::string_view ChoicesApi::stream_end() const { return "[DONE]"; }

BodyVerdict ChoicesApi::decode_body(std::string_view body, int64_t, DecodedChunk& out) const {
  decode_chunk(body, out);
  return output_verdict(out);
}

void PoolingApi::add_settings(const BodySettings&, Json&) const {}

void PoolingApi::decode_event(std::string_view, std::string_view data, DecodedChunk& out) const {
  decode_chunk(data, out);  // (not reached: record.stream is false for these APIs)
}

std::string_view PoolingApi::stream_end() const { return "[DONE]"; }

}  // namespace llmperf
