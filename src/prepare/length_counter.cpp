// Finding how to count tokens with the server under test (see length_counter.h).
#include "prepare/length_counter.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <string>
#include <utility>

#include "http/http_pool.h"
#include "server/server_tokenizer.h"
#include "server/side_channel.h"
#include "server/usage_calibration.h"

namespace llmperf {

SyntheticPrompts LengthCounter::make(const SyntheticSpec& spec, const FitProgress& progress) const {
  return tokenizer ? make_exact_prompts(*tokenizer, spec, progress)
                   : make_estimated_prompts(*estimate, spec);
}

LengthCounter find_length_counter(const PrepareSections& config, const std::string& model,
                                  const HttpPoolOptions& http) {
  LengthCounter counter;
  ServerTokenizerOptions options;
  options.base_url = config.workload.tokenize_url.empty() ? base_url_of(config.target.url)
                                                          : config.workload.tokenize_url;
  while (!options.base_url.empty() && options.base_url.back() == '/') options.base_url.pop_back();
  options.model = model;
  options.chat =
      (config.target.api_kind == ApiKind::kChat || config.target.api_kind == ApiKind::kResponses) &&
      !config.workload.tokenize_prompt;
  options.http = http;
  TokenizerProbe probe = probe_server_tokenizer(options);
  for (const std::string& attempt : probe.attempts) spdlog::debug("tokenizer probe: {}", attempt);
  if (probe.tokenizer && probe.template_uncounted) {
    const std::optional<int64_t> overhead = calibrate_template_overhead(
        request_sections(config.target, config.body, config.workload, config.load), model, http,
        *probe.tokenizer);
    probe.tokenizer = with_template_overhead(
        std::move(probe.tokenizer), overhead.value_or(0),
        overhead ? fmt::format("the server's /tokenize cannot apply the chat template: its "
                               "{} tokens were calibrated from usage",
                               *overhead)
                 : "the server's /tokenize cannot apply the chat template and reports no usage: "
                   "the template is not counted");
    spdlog::warn("tokenizer: {}", probe.tokenizer->info().detail);
  }
  if (probe.max_model_len > 0) {
    counter.context = {probe.max_model_len, "/tokenize max_model_len"};
  }
  if (probe.tokenizer) {
    counter.tokenizer = std::move(probe.tokenizer);
    counter.info = counter.tokenizer->info();
    spdlog::info("tokenizer: {}, {} ({})", counter.info.source, counter.info.detail,
                 options.base_url);
    return counter;
  }
  if (config.workload.tokenize_prompt) {
    throw TokenizerError(fmt::format(
        "--tokenize-prompt needs the server's tokenize API, and {} has none (tried: {})",
        options.base_url, fmt::join(probe.attempts, "; ")));
  }
  const Calibration calibration = calibrate_from_usage(
      request_sections(config.target, config.body, config.workload, config.load), model, http);
  counter.estimate = calibration.model;
  counter.info = calibration.info;
  spdlog::warn("tokenizer: no tokenize API at {} ({}); lengths are APPROXIMATE: {} ({})",
               options.base_url,
               probe.attempts.empty() ? "nothing answered" : probe.attempts.back(),
               calibration.info.source, calibration.info.detail);
  return counter;
}

}  // namespace llmperf
