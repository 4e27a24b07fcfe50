// The completions API (/v1/completions): {"prompt": "..."} (or token ids, --tokenize-prompt),
// answered as chat is (choices[].text), the stream closed by "data: [DONE]".
#include "workload/api/api_adapters.h"
#include "workload/api/body_parts.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

class CompletionsApi final : public ChoicesApi {
 public:
  ApiKind kind() const override { return ApiKind::kCompletions; }

  // A prompt of messages is sent as their contents joined; synthetic images are not sent
  // (validation refuses --image-num here).
  void add_prompt(const Prompt& prompt, uint64_t, const BodySettings&, Json& body) const override {
    if (!prompt.messages_json.empty()) {
      body["prompt"] = join_contents(parse_prompt_json(prompt.messages_json, "messages"));
    } else if (!prompt.token_ids.empty()) {
      body["prompt"] = prompt.token_ids;
    } else {
      body["prompt"] = prompt.text;
    }
    if (prompt.target_output_tokens >= 0) body["max_tokens"] = prompt.target_output_tokens;
  }
};

}  // namespace

const ApiAdapter& completions_api() {
  static const CompletionsApi api;
  return api;
}

}  // namespace llmperf
