// The rerank API (/v1/rerank): {"query", "documents": [texts]}, answered by one body holding a
// score per document (protocol/pooling_response.h). Never streamed; no generation parameters.
#include <fmt/format.h>

#include "workload/api/api_adapters.h"
#include "workload/api/body_parts.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

class RerankApi final : public PoolingApi {
 public:
  ApiKind kind() const override { return ApiKind::kRerank; }

  // The prompt's text is the query; its texts the documents (--documents), or the query itself.
  void add_prompt(const Prompt& prompt, uint64_t, const BodySettings&, Json& body) const override {
    body["query"] = prompt_text(prompt);
    body["documents"] =
        prompt.texts.empty() ? Json::array({prompt_text(prompt)}) : Json(prompt.texts);
  }

  // At least one score, and no more than the documents (a reply may hold fewer: top_n), each
  // numeric.
  BodyVerdict decode_body(std::string_view body, int64_t items, DecodedChunk& out) const override {
    PoolingResponse pooled;
    decode_pooling_response(PoolingKind::kRerank, body, pooled);
    pooling_facts(pooled, out);
    if (pooled.items == 0 || pooled.items > items) {
      return {ErrorKind::kItemCount,
              fmt::format("response holds {} scores for {} documents", pooled.items, items)};
    }
    if (pooled.bad_items > 0) {
      return {ErrorKind::kItemCount,
              fmt::format("response holds {} malformed scores of {} (no numeric relevance_score)",
                          pooled.bad_items, pooled.items)};
    }
    return {};
  }
};

}  // namespace

const ApiAdapter& rerank_api() {
  static const RerankApi api;
  return api;
}

}  // namespace llmperf
