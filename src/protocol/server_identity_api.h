// What servers say about themselves, and how llmperf reads it (no HTTP here; src/server/ asks):
//   GET /v1/models     every OpenAI-compatible server: {"data":[{"id", ...}]}; vLLM adds
//                      "max_model_len" per model, llama.cpp "meta":{"n_ctx_train", ...}
//   GET /version       vLLM and SGLang: {"version": "0.11.0"}
//   GET /props         llama.cpp: {"default_generation_settings":{"n_ctx"}, "total_slots",
//                      "model_path", "build_info"}
//   GET /info          TGI: {"model_id", "version", "max_total_tokens", "max_input_tokens", ...}
//   GET /get_server_info  SGLang: {"version", "model_path", "context_length"?, "tp_size", ...}
// The Server response header ("uvicorn", "llama.cpp", "text-generation-inference"...) says the
// rest. Readers never throw: an answer that is not the expected JSON adds nothing.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/server_sample.h"

namespace llmperf::identity_api {

// The identity endpoints, in the order they are asked.
inline constexpr std::string_view kEndpoints[] = {"/v1/models", "/version", "/props", "/info",
                                                  "/get_server_info"};

// Adds what `body`, the answer of GET `endpoint` (one of kEndpoints), says to `identity`, and
// records the endpoint in identity.answered when the answer was the JSON expected there.
void absorb(std::string_view endpoint, std::string_view body, ServerIdentity& identity);

// Fills identity.engine from what answered, where it is still empty.
void guess_engine(ServerIdentity& identity);

// The value at `key` of a JSON object as text: a string as it is, an integer or a boolean spelled
// out, "" when absent or anything else. (`llmperf report` reads the identity back with it too.)
std::string text_of(const nlohmann::json& object, const char* key);

}  // namespace llmperf::identity_api
