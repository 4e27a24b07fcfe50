// The mock's tokenize API, in the shapes of the servers llmperf talks to (--tokenize-api):
//   vllm      POST /tokenize {"prompt", "add_special_tokens"=true} or {"messages",
//             "add_generation_prompt"=true} -> {"count","max_model_len","tokens","token_strs"};
//             POST /detokenize {"model","tokens"} -> {"prompt"}; a body without prompt or
//             messages is a 400 with vLLM's nested error object.
//   llamacpp  POST /tokenize {"content", "add_special"=false} -> {"tokens"} (200 {"tokens":[]}
//             without content, as llama.cpp answers); POST /detokenize {"tokens"} -> {"content"};
//             POST /apply-template {"messages"} -> {"prompt"} (the ChatML text).
//   tgi       POST /tokenize {"inputs"} -> [{"id","text","start","stop"}] (BOS first, offsets in
//             code points); POST /chat_tokenize {"messages"} -> {"tokenize_response",
//             "templated_text"}; no /detokenize; a body without inputs is a 422 in plain text.
//   all       (default) each request is answered in the shape its fields name.
//   none      every tokenize path is 404, like a hosted API.
// Every count agrees with the usage.prompt_tokens of the matching completion request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace llmperf::mock {

enum class TokenizeApi { kAll, kVllm, kLlamaCpp, kTgi, kNone };

// One reply of the tokenize API.
struct ApiReply {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
};

// Answers POST `path` with `body` when `path` is one of the tokenize API's; nullopt otherwise
// (the caller's routing goes on). `max_model_len` is reported by the vLLM shape.
std::optional<ApiReply> answer_tokenize_api(TokenizeApi api, std::string_view path,
                                            std::string_view body, std::int64_t max_model_len);

}  // namespace llmperf::mock
