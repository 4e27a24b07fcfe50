// The registry of API adapters: one line per API kind.
#include "workload/api/api_adapters.h"

#include <stdexcept>

namespace llmperf {

const ApiAdapter& api_adapter(ApiKind kind) {
  static const ApiAdapter* const adapters[] = {
      &chat_api(), &completions_api(), &responses_api(), &embeddings_api(), &rerank_api(),
  };
  for (const ApiAdapter* adapter : adapters) {
    if (adapter->kind() == kind) return *adapter;
  }
  throw std::logic_error("no adapter for this API kind");
}

}  // namespace llmperf
