// The chat completions API (/v1/chat/completions): {"messages": [...]}, answered by chunks of
// choices[].delta (or one body of choices[].message), the stream closed by "data: [DONE]".
#include "workload/api/api_adapters.h"
#include "workload/api/body_parts.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

class ChatApi final : public ChoicesApi {
 public:
  ApiKind kind() const override { return ApiKind::kChat; }

  void add_prompt(const Prompt& prompt, uint64_t request, const BodySettings& settings,
                  Json& body) const override {
    if (!prompt.messages_json.empty()) {
      body["messages"] = parse_prompt_json(prompt.messages_json, "messages");
    } else if (!prompt.token_ids.empty()) {
      body["prompt"] = prompt.token_ids;  // (validation allows --tokenize-prompt on completions)
    } else {
      body["messages"] =
          Json::array({{{"role", "user"}, {"content", user_content(prompt, request, settings)}}});
    }
    if (prompt.target_output_tokens >= 0) body["max_tokens"] = prompt.target_output_tokens;
  }

 private:
  // The user message of a text prompt: a plain string, or with synthetic images a text part and
  // one image_url part per image.
  static Json user_content(const Prompt& prompt, uint64_t request, const BodySettings& settings) {
    if (prompt.synthetic_images <= 0) return prompt.text;
    Json parts = Json::array({{{"type", "text"}, {"text", prompt.text}}});
    for (int32_t i = 0; i < prompt.synthetic_images; ++i) {
      parts.push_back(
          {{"type", "image_url"},
           {"image_url", {{"url", synthetic_image_url(prompt, request, i, settings)}}}});
    }
    return parts;
  }
};

}  // namespace

const ApiAdapter& chat_api() {
  static const ChatApi api;
  return api;
}

}  // namespace llmperf
