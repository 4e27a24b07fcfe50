// See push_exposition.h. Units are converted here (nanoseconds to seconds), as everywhere in the
// report stage; numbers are written in full precision ("NaN" where a window was empty).
#include "report/formats/push_exposition.h"

#include <cmath>
#include <iterator>
#include <string_view>

#include <fmt/format.h>

#include "metrics/catalogue.h"

namespace llmperf {
namespace {

constexpr double kPushNsPerS = 1e9;

std::string exposition_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", value);
}

void exposition_head(std::string& out, std::string_view name, const char* type, const char* help) {
  fmt::format_to(std::back_inserter(out), "# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

// A live summary of a catalogue metric, in seconds: "llmperf_ttft_seconds".
void exposition_summary(std::string& out, Metric metric, const char* help, const LiveSummary& s) {
  const std::string name = fmt::format("llmperf_{}_seconds", metric_info(metric).name);
  exposition_head(out, name, "summary", help);
  for (size_t q = 0; q < kLiveQuantiles.size(); ++q) {
    fmt::format_to(std::back_inserter(out), "{}{{quantile=\"{}\"}} {}\n", name, kLiveQuantiles[q],
                   exposition_number(s.quantiles_ns[q] / kPushNsPerS));
  }
  fmt::format_to(std::back_inserter(out), "{}_sum {}\n{}_count {}\n", name,
                 exposition_number(s.sum_ns / kPushNsPerS), name, s.count);
}

bool push_path_plain(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '.' || c == '_' || c == '~';
    if (!plain) return false;
  }
  return true;
}

void push_path_pair(std::string& out, std::string_view name, std::string_view value) {
  if (push_path_plain(value)) {
    fmt::format_to(std::back_inserter(out), "/{}/{}", name, value);
  } else {
    fmt::format_to(std::back_inserter(out), "/{}@base64/{}", name,
                   value.empty() ? std::string("=") : base64url(value));
  }
}

}  // namespace

std::string exposition_label_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string push_exposition_text(const LiveFigures& f) {
  std::string out;
  exposition_head(out, "llmperf_requests_total", "counter",
                  "Measured requests finished, by outcome (warm-up requests left out).");
  for (const auto& [outcome, count] :
       {std::pair{"succeeded", f.succeeded}, std::pair{"failed", f.failed},
        std::pair{"cancelled", f.cancelled}}) {
    fmt::format_to(std::back_inserter(out), "llmperf_requests_total{{outcome=\"{}\"}} {}\n",
                   exposition_label_value(outcome), count);
  }
  exposition_head(out, "llmperf_requests_in_flight", "gauge",
                  "Requests sent and not yet finished.");
  fmt::format_to(std::back_inserter(out), "llmperf_requests_in_flight {}\n", f.in_flight);
  exposition_head(out, "llmperf_input_tokens_total", "counter",
                  "Input tokens of the successful requests.");
  fmt::format_to(std::back_inserter(out), "llmperf_input_tokens_total {}\n", f.input_tokens);
  exposition_head(out, "llmperf_output_tokens_total", "counter",
                  "Output tokens of the successful requests.");
  fmt::format_to(std::back_inserter(out), "llmperf_output_tokens_total {}\n", f.output_tokens);
  exposition_summary(out, Metric::kTtft,
                     "Time to first token; quantiles over the requests that ended in the last "
                     "push interval.",
                     f.ttft);
  exposition_summary(out, Metric::kItl,
                     "Inter-token latency (gaps between output chunks); quantiles over the "
                     "requests that ended in the last push interval.",
                     f.itl);
  exposition_summary(out, Metric::kLatency,
                     "End-to-end latency; quantiles over the requests that ended in the last "
                     "push interval.",
                     f.latency);
  exposition_head(out, "llmperf_run_finished", "gauge",
                  "1 once the run has ended and these are its final figures, else 0.");
  fmt::format_to(std::back_inserter(out), "llmperf_run_finished {}\n", f.final ? 1 : 0);
  return out;
}

std::string render_push_gateway_text(const RunInfo::PushGateway& push) {
  return fmt::format("Pushgateway: {} pushes to {} (every {} s), {} failed{}\n", push.pushes,
                     push.url, push.interval_s, push.failed,
                     push.failed > 0 ? ": the figures there are incomplete" : "");
}

std::string base64url(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t n = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  if (i + 1 == bytes.size()) {
    const uint32_t n = static_cast<uint8_t>(bytes[i]) << 16;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    const uint32_t n =
        (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += '=';
  }
  return out;
}

std::string push_grouping_path(std::string_view job, const PushLabels& labels) {
  std::string out = "/metrics";
  push_path_pair(out, "job", job);
  for (const auto& [name, value] : labels) push_path_pair(out, name, value);
  return out;
}

}  // namespace llmperf
