// The embeddings API (/v1/embeddings): {"input": [texts]}, answered by one body holding one
// vector per input (protocol/pooling_response.h). Never streamed; no generation parameters.
#include <fmt/format.h>

#include "workload/api/api_adapters.h"
#include "workload/api/body_parts.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

class EmbeddingsApi final : public PoolingApi {
 public:
  ApiKind kind() const override { return ApiKind::kEmbeddings; }

  // A batch's texts (--batch-size), or the prompt's own text.
  void add_prompt(const Prompt& prompt, uint64_t, const BodySettings&, Json& body) const override {
    body["input"] = prompt.texts.empty() ? Json::array({prompt_text(prompt)}) : Json(prompt.texts);
  }

  // One well-formed vector per input.
  BodyVerdict decode_body(std::string_view body, int64_t items, DecodedChunk& out) const override {
    PoolingResponse pooled;
    decode_pooling_response(PoolingKind::kEmbeddings, body, pooled);
    pooling_facts(pooled, out);
    if (pooled.items != items) {
      return {ErrorKind::kItemCount,
              fmt::format("response holds {} vectors for {} inputs", pooled.items, items)};
    }
    if (pooled.bad_items > 0) {
      return {ErrorKind::kItemCount,
              fmt::format("response holds {} malformed vectors of {} (empty, not numbers, or of "
                          "another dimension)",
                          pooled.bad_items, pooled.items)};
    }
    return {};
  }
};

}  // namespace

const ApiAdapter& embeddings_api() {
  static const EmbeddingsApi api;
  return api;
}

}  // namespace llmperf
