// One adapter per API kind (chat, completions, Responses, embeddings, rerank): what its request
// body holds and how its answer is read, behind one interface, so that the request builder and
// the engine's response handler hold no branch on the kind. Each adapter is a stateless object in
// a file of its own (chat_api.cpp, ...), listed once in api_adapters.cpp.
//
// The split of the work: an adapter turns the settings and a prompt into the keys its body needs,
// and one SSE event or one whole body into the facts DecodedChunk holds (through the protocol
// stage's decoders). What is the same for every kind stays with the callers: headers, a prompt's
// own body_json, --extra-args (RequestBuilder), and the facts' stamps and verdicts in the record
// (ResponseHandler).
//
// Images are not an adapter: --image-num attaches synthetic PNGs to the prompt of whichever API
// takes content parts (chat as image_url parts, Responses as input_image ones), so each of those
// two adapters spells its own image parts from synthetic_image_url().
//
// Hot path: decode_event() is one virtual call per SSE event, in place of the branch on the kind
// it replaced (bench/README.md, "API adapters", has the A/B).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/record.h"
#include "core/run_types.h"
#include "protocol/chunk_decoder.h"
#include "workload/dataset.h"

namespace llmperf {

// The request body's share of the request's sections (core/config/request_sections.h): the model
// and the generation parameters every request carries (each adapter sends those its API knows,
// under its API's names), and the synthetic images' size.
struct BodySettings {
  std::string model;
  bool stream = true;                        // --stream (APIs that generate text only)
  std::optional<int64_t> max_tokens;         // --max-tokens
  std::optional<int64_t> min_tokens;         // --min-tokens
  std::optional<double> temperature;         // --temperature
  std::optional<double> top_p;               // --top-p
  std::optional<int64_t> top_k;              // --top-k
  std::optional<double> frequency_penalty;   // --frequency-penalty
  std::optional<double> repetition_penalty;  // --repetition-penalty
  bool logprobs = false;                     // --logprobs
  std::optional<int64_t> n_choices;          // --n-choices: "n"
  std::optional<uint64_t> seed;              // --seed, when it is sent as "seed"
  std::vector<std::string> stop;             // --stop
  std::vector<int64_t> stop_token_ids;       // --stop-token-ids
  bool ignore_eos = false;                   // --ignore-eos
  int image_width = 512;                     // --image-width, --image-height
  int image_height = 512;
};

// An adapter's verdict on a whole (non-stream) body beyond what its facts say: a reply with no
// generated output, or with a wrong count of vectors or scores. kNone: none.
struct BodyVerdict {
  ErrorKind error = ErrorKind::kNone;
  std::string message;
};

class ApiAdapter {
 public:
  virtual ~ApiAdapter() = default;

  virtual ApiKind kind() const = 0;

  // --- The request.
  // The keys every request carries besides "model", from the settings, into `base`: once per
  // benchmark.
  virtual void add_settings(const BodySettings& settings, nlohmann::json& base) const = 0;
  // The prompt's keys into `body` (a copy of the base), and its output length (the prompt's
  // target_output_tokens) where the API takes one. `request` (the request's id) varies the
  // synthetic images' pixels from request to request. Once per request, on the worker thread.
  virtual void add_prompt(const Prompt& prompt, uint64_t request, const BodySettings& settings,
                          nlohmann::json& body) const = 0;

  // --- The response.
  // One SSE event of a streamed answer (`event`: its `event:` field, "" when none) into `out`
  // (cleared first; want_response_id and want_content are read). Once per event.
  virtual void decode_event(std::string_view event, std::string_view data,
                            DecodedChunk& out) const = 0;
  // What ends a stream of this API, for the message on one that ended without output.
  virtual std::string_view stream_end() const = 0;
  // A whole body into `out` (as decode_event, for a non-stream answer), and the verdict on it;
  // `items` is the number of inputs (embeddings) or documents (rerank) the request sent. The
  // verdict counts only when `out` is valid JSON with no error.
  virtual BodyVerdict decode_body(std::string_view body, int64_t items,
                                  DecodedChunk& out) const = 0;
};

// The adapter of `kind`.
const ApiAdapter& api_adapter(ApiKind kind);

}  // namespace llmperf
