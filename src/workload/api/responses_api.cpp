// OpenAI's Responses API (/v1/responses): {"input": ..., "max_output_tokens"}, answered by typed
// events (protocol/responses_decoder.h), the stream closed by response.completed (or
// response.incomplete) with the usage.
#include <utility>

#include "protocol/responses_decoder.h"
#include "workload/api/api_adapters.h"
#include "workload/api/body_parts.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

class ResponsesApi final : public ApiAdapter {
 public:
  ApiKind kind() const override { return ApiKind::kResponses; }

  // max_tokens is named max_output_tokens, and there are no stream_options: usage comes with
  // response.completed. The other sampling parameters are not sent.
  void add_settings(const BodySettings& settings, Json& base) const override {
    if (settings.max_tokens) base["max_output_tokens"] = *settings.max_tokens;
    if (settings.temperature) base["temperature"] = *settings.temperature;
    if (settings.top_p) base["top_p"] = *settings.top_p;
    base["stream"] = settings.stream;
  }

  void add_prompt(const Prompt& prompt, uint64_t request, const BodySettings& settings,
                  Json& body) const override {
    if (!prompt.messages_json.empty()) {
      body["input"] = parse_prompt_json(prompt.messages_json, "messages");
    } else if (!prompt.token_ids.empty()) {
      body["prompt"] = prompt.token_ids;  // (validation allows --tokenize-prompt on completions)
    } else if (prompt.synthetic_images > 0) {
      // With images, one user message of an input_text part and one input_image part per image.
      Json parts = Json::array({{{"type", "input_text"}, {"text", prompt.text}}});
      for (int32_t i = 0; i < prompt.synthetic_images; ++i) {
        parts.push_back({{"type", "input_image"},
                         {"image_url", synthetic_image_url(prompt, request, i, settings)}});
      }
      body["input"] = Json::array({{{"role", "user"}, {"content", std::move(parts)}}});
    } else {
      body["input"] = prompt.text;
    }
    if (prompt.target_output_tokens >= 0) body["max_output_tokens"] = prompt.target_output_tokens;
  }

  void decode_event(std::string_view event, std::string_view data,
                    DecodedChunk& out) const override {
    decode_responses_event(event, data, out);
  }

  std::string_view stream_end() const override { return "response.completed"; }

  BodyVerdict decode_body(std::string_view body, int64_t, DecodedChunk& out) const override {
    decode_responses_event("", body, out);
    return output_verdict(out);
  }
};

}  // namespace

const ApiAdapter& responses_api() {
  static const ResponsesApi api;
  return api;
}

}  // namespace llmperf
