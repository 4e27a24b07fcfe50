// The adapters, one per API kind (api_adapter.h), each defined in its own file; api_adapters.cpp
// lists them for api_adapter(). Included by those files only.
#pragma once

#include "workload/api/api_adapter.h"

namespace llmperf {

const ApiAdapter& chat_api();         // chat_api.cpp
const ApiAdapter& completions_api();  // completions_api.cpp
const ApiAdapter& responses_api();    // responses_api.cpp
const ApiAdapter& embeddings_api();   // embeddings_api.cpp
const ApiAdapter& rerank_api();       // rerank_api.cpp

}  // namespace llmperf
