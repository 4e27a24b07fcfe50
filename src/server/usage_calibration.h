// Length calibration from usage, for servers without a tokenize API (hosted endpoints): a few
// non-stream requests of synthetic text of known size with max_tokens 1, sent to the benchmark's
// own URL; the usage.prompt_tokens they report give the tokens every request carries (template,
// special tokens) and the tokens per word. Prompts built from that are approximate, and say so.
// Without usage in the answers, ceil(code points / 4) is the estimate.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/config/request_sections.h"
#include "http/http_pool.h"
#include "workload/synthetic/synthetic.h"
#include "workload/tokenizer.h"

namespace llmperf {

struct Calibration {
  LengthModel model;   // how lengths are estimated
  TokenizerInfo info;  // source and detail for every output; never exact
};

// Calibrates from usage (see above), with requests of `request` for `model`. Throws
// std::runtime_error naming the URL when a calibration request fails outright (HTTP error or
// transport failure).
Calibration calibrate_from_usage(const RequestSections& request, const std::string& model,
                                 const HttpPoolOptions& http);

// For a server that tokenizes but cannot count its chat template: the tokens a chat request adds
// to `raw`'s count of its text (usage.prompt_tokens of one request minus that count); nullopt when
// the answer has no usage. Throws like calibrate_from_usage.
std::optional<int64_t> calibrate_template_overhead(const RequestSections& request,
                                                   const std::string& model,
                                                   const HttpPoolOptions& http, Tokenizer& raw);

}  // namespace llmperf
