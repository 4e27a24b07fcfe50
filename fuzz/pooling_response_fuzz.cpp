// libFuzzer target: decode_pooling_response never crashes or throws, for both kinds; calls a body
// valid exactly when nlohmann accepts it as a JSON object or array; and keeps its counts
// consistent: 0 <= bad_items <= items, a dimension that is -1 or positive (and -1 for rerank),
// nothing but defaults for an invalid body, token counts only with usage, a message with every
// error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "protocol/pooling_response.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  bool container = false;
  if (nlohmann::json::accept(body)) {
    const nlohmann::json json = nlohmann::json::parse(body);
    container = json.is_object() || json.is_array();
  }
  for (const llmperf::PoolingKind kind :
       {llmperf::PoolingKind::kEmbeddings, llmperf::PoolingKind::kRerank}) {
    llmperf::PoolingResponse r;
    llmperf::decode_pooling_response(kind, body, r);
    if (r.valid_json != container) std::abort();
    if (r.items < 0 || r.bad_items < 0 || r.bad_items > r.items) std::abort();
    if (r.dimension < -1 || r.dimension == 0) std::abort();
    if (kind == llmperf::PoolingKind::kRerank && r.dimension != -1) std::abort();
    if (!r.valid_json && (r.items != 0 || r.has_usage || r.has_error || !r.response_id.empty())) {
      std::abort();
    }
    if (r.has_error && r.error_message.empty()) std::abort();
    if (!r.has_usage && (r.prompt_tokens != -1 || r.total_tokens != -1)) std::abort();
  }
  return 0;
}
