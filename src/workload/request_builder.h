// Request builder: prompt + config -> HTTP body and headers (nlohmann_json). Everything that is
// the same for every request (headers, generation parameters, --extra-args) is prepared once in
// the constructor; build_body() is called lazily, once per request, on the worker thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/config/request_sections.h"
#include "core/config/target.h"
#include "workload/api/api_adapter.h"
#include "workload/dataset.h"

namespace llmperf {

class RequestBuilder {
 public:
  // Requests of `request` (request_sections() of a Config's sections) for the model `model` (the
  // benchmark's: --model, or the one the server lists). Throws std::invalid_argument when
  // --extra-args is not a JSON object.
  RequestBuilder(const RequestSections& request, const std::string& model);
  ~RequestBuilder();
  RequestBuilder(RequestBuilder&&) noexcept;
  RequestBuilder& operator=(RequestBuilder&&) noexcept;

  // The JSON body for one request, shaped by the API's adapter (workload/api/). For chat:
  // {"model","messages":[{"role":"user",...}],...}; for completions: {"model","prompt",...}; for
  // the Responses API: {"model","input","max_output_tokens",...}; for embeddings:
  // {"model","input":[texts]}; for rerank: {"model","query","documents":[texts]} (no generation
  // parameters for those two). Synthetic images are made here, on the worker thread, as base64
  // PNG image_url (input_image) parts. Streaming bodies carry "stream": true and
  // "stream_options": {"include_usage": true}. A prompt's body_json keeps its own keys (CLI values
  // fill only missing ones); --extra-args is merged last and wins. A prompt's
  // target_output_tokens is its max_tokens; its token_ids are sent as "prompt": [ids].
  // `request` (the request's id) varies the synthetic images' pixels from request to request.
  std::string build_body(const Prompt& prompt, uint64_t request = 0) const;

  // "Name: value" header lines for curl: Content-Type, Accept, Authorization (if an API key is
  // set), user --headers, and an empty "Expect:" to disable 100-continue.
  const std::vector<std::string>& header_lines() const { return header_lines_; }

  // The adapter of the API the requests are for, which also reads their answers.
  const ApiAdapter& adapter() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<std::string> header_lines_;
};

// The header lines every call to the server carries, measured or not: Authorization (from the API
// key, unless --headers sets one) and the --headers. For the side channels (tokenize API, usage
// calibration), which set their own Content-Type.
std::vector<std::string> server_header_lines(const TargetConfig& target);

// Masks a secret for display: "sk-abc...xyz" -> "sk-***" (never more than 3 leading chars).
std::string mask_secret(const std::string& secret);

}  // namespace llmperf
