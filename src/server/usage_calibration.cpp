// Length calibration from usage (see usage_calibration.h).
#include "server/usage_calibration.h"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "protocol/chunk_decoder.h"
#include "workload/request_builder.h"

namespace llmperf {
namespace {

// Word counts of the calibration prompts: enough spread for a line through them.
constexpr int64_t kProbeWords[] = {16, 128, 512};
constexpr uint64_t kProbeSeed = 0x5eed;

// usage.prompt_tokens of one non-stream request per text, -1 where the answer has no usage.
std::vector<int64_t> prompt_tokens_of(const RequestSections& request, const std::string& model,
                                      const HttpPoolOptions& http,
                                      const std::vector<std::string>& texts) {
  RequestSections probe = request;
  probe.body.stream = false;
  probe.body.max_tokens = 1;
  probe.body.min_tokens.reset();
  const RequestBuilder builder(probe, model);
  HttpPoolOptions options = http;
  options.header_lines = builder.header_lines();
  HttpPool pool(options);
  std::vector<HttpCall> calls;
  for (const std::string& text : texts) {
    Prompt prompt;
    prompt.text = text;
    calls.push_back({request.target.url, builder.build_body(prompt)});
  }
  const std::vector<HttpReply> replies = pool.run(calls);
  std::vector<int64_t> tokens;
  for (const HttpReply& reply : replies) {
    if (!reply.ok()) {
      throw std::runtime_error(fmt::format(
          "calibrating lengths from usage: POST {}: {}", request.target.url,
          reply.error.empty()
              ? fmt::format("HTTP {}: {}", reply.status, error_message_from_body(reply.body, 200))
              : reply.error));
    }
    DecodedChunk decoded;
    decode_chunk(reply.body, decoded);
    tokens.push_back(decoded.prompt_tokens);
  }
  return tokens;
}

}  // namespace

Calibration calibrate_from_usage(const RequestSections& request, const std::string& model,
                                 const HttpPoolOptions& http) {
  std::vector<std::string> texts;
  for (const int64_t words : kProbeWords) texts.push_back(random_text(kProbeSeed, words));
  const std::vector<int64_t> tokens = prompt_tokens_of(request, model, http, texts);

  Calibration out;
  out.info.exact = false;
  bool usage = true;
  for (const int64_t t : tokens) usage = usage && t >= 0;
  if (!usage) {
    out.model.per_code_point = 0.25;
    out.info.source = "estimate: ceil(code points / 4)";
    out.info.detail = "the server has no tokenize API and reports no usage";
    return out;
  }
  // Least squares through (words, tokens).
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(std::size(kProbeWords));
  for (size_t i = 0; i < std::size(kProbeWords); ++i) {
    const auto x = static_cast<double>(kProbeWords[i]);
    const auto y = static_cast<double>(tokens[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  out.model.per_word = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  out.model.overhead = (sy - out.model.per_word * sx) / n;
  out.info.source = "usage calibration";
  out.info.detail = fmt::format(
      "no tokenize API: {} prompts of known text gave {:.1f} tokens per request plus {:.3f} per "
      "word",
      std::size(kProbeWords), out.model.overhead, out.model.per_word);
  return out;
}

std::optional<int64_t> calibrate_template_overhead(const RequestSections& request,
                                                   const std::string& model,
                                                   const HttpPoolOptions& http, Tokenizer& raw) {
  const std::string text = random_text(kProbeSeed, 64);
  const int64_t usage = prompt_tokens_of(request, model, http, {text}).at(0);
  if (usage < 0) return std::nullopt;
  return usage - raw.count({text}).at(0);
}

}  // namespace llmperf
