// What several API adapters share (api_adapter.h): a prompt's JSON text parsed, the text of chat
// messages and a prompt, the synthetic images' data URLs, the verdict on a text reply without
// output, a pooling reply's facts, and the two families of APIs: chat and completions (choices[]
// chunks), embeddings and rerank (pooling).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "protocol/pooling_response.h"
#include "workload/api/api_adapter.h"

namespace llmperf {

// `text` (a prompt's messages_json or body_json, named `what` in the error) parsed. Throws
// std::invalid_argument when it is not JSON.
nlohmann::json parse_prompt_json(const std::string& text, std::string_view what);

// All message contents (strings, or the text of their parts) joined with "\n".
std::string join_contents(const nlohmann::json& messages);

// The text of a prompt: its text, or the contents of its messages joined with "\n" (the inputs of
// embeddings and rerank requests).
std::string prompt_text(const Prompt& prompt);

// The data URL of the prompt's synthetic image `index` in request `request`: pixels of their own
// per request and per image, from the prompt's image seed.
std::string synthetic_image_url(const Prompt& prompt, uint64_t request, int32_t index,
                                const BodySettings& settings);

// A reply of an API that generates text fails when it carries no output.
BodyVerdict output_verdict(const DecodedChunk& decoded);

// A pooling reply's facts (embeddings, rerank) as DecodedChunk holds them: validity, id, error
// and usage.prompt_tokens; no output.
void pooling_facts(const PoolingResponse& pooled, DecodedChunk& out);

// What chat and completions share: the sampling parameters, and answers of choices[] chunks
// (protocol/chunk_decoder.h), a stream closed by "data: [DONE]", a body that fails without
// output. Their prompts differ.
class ChoicesApi : public ApiAdapter {
 public:
  void add_settings(const BodySettings& settings, nlohmann::json& base) const override;
  void decode_event(std::string_view event, std::string_view data, DecodedChunk& out) const final;
  std::string_view stream_end() const final;
  BodyVerdict decode_body(std::string_view body, int64_t items, DecodedChunk& out) const final;
};

// What embeddings and rerank share: no generation parameters, and answers that are one body
// (pooling_facts() and a count of items), never a stream (the engine asks for JSON).
class PoolingApi : public ApiAdapter {
 public:
  void add_settings(const BodySettings& settings, nlohmann::json& base) const final;
  void decode_event(std::string_view event, std::string_view data, DecodedChunk& out) const final;
  std::string_view stream_end() const final;
};

}  // namespace llmperf
