// vLLM's benchmark formats, so that scripts written for `vllm bench serve` read llmperf's runs
// unchanged: its console block (--summary-format vllm: the labels, order and "{:<40} {:<10}"
// layout of vllm/benchmarks/serve.py) and its --save-result JSON (vllm_result.json in every run
// directory: the same top-level keys, per-request arrays in seconds, statistics in ms). Where
// llmperf's definitions differ from vLLM's, the README says so; the values are llmperf's.
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

#include <fmt/format.h>

#include "report/internal.h"

namespace llmperf::report_detail {
namespace {

// vLLM's line layouts: label in 40 columns, one space, value in 10 (left-justified, so short
// values leave trailing spaces).
std::string int_line(std::string_view label, int64_t value) {
  return fmt::format("{:<40} {:<10}\n", label, value);
}
std::string float_line(std::string_view label, double value) {
  return fmt::format("{:<40} {:<10.2f}\n", label, std::isfinite(value) ? value : 0.0);
}
// A title centred in a line of 50 `fill` characters (Python's "^": the odd pad goes right).
std::string centred(std::string_view title, char fill) {
  const size_t pad = title.size() >= 50 ? 0 : 50 - title.size();
  return std::string(pad / 2, fill) + std::string(title) + std::string(pad - pad / 2, fill) + "\n";
}

// "99" or "99.9": vLLM's p_word (the shortest text that reads back as the same number).
std::string p_word(double p) { return fmt::format("{}", p); }

struct VllmMetric {
  const char* key;     // "ttft": the JSON keys' middle part
  const char* name;    // "TTFT": in the console labels
  const char* header;  // the section title
  const Distribution* dist;
};

std::vector<VllmMetric> vllm_metrics(const RunSummary& s) {
  return {
      {"ttft", "TTFT", "Time to First Token", &s.ttft_ns},
      {"tpot", "TPOT", "Time per Output Token (excl. 1st token)", &s.tpot_ns},
      {"itl", "ITL", "Inter-token Latency", &s.itl_ns},
      {"e2el", "E2EL", "End-to-end Latency", &s.latency_ns},
  };
}

// A statistic in ms, 0 when the distribution is empty (numpy over an empty list, as vLLM does).
double ms(std::optional<double> value) { return value.value_or(0.0); }

std::optional<double> percentile_ms(const RunSummary& s, const Distribution& d, double p) {
  const auto i = percentile_index(s.percentiles, p);
  return i ? percentile_in(d, *i, kNsPerMs) : std::nullopt;
}

std::optional<double> std_ms(const Distribution& d) {
  if (d.empty()) return std::nullopt;
  return d.std / kNsPerMs;
}

bool selected(const Config& config, std::string_view key) {
  return std::find(config.percentile_metrics.begin(), config.percentile_metrics.end(), key) !=
         config.percentile_metrics.end();
}

// The local time as vLLM's date: YYYYmmdd-HHMMSS.
std::string vllm_date() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y%m%d-%H%M%S", &tm);
  return buffer;
}

// JSON number text of seconds from nanoseconds (nlohmann's float format).
std::string seconds_text(int64_t ns) { return Json(static_cast<double>(ns) / kNsPerS).dump(); }

// vLLM's --backend name for the API.
const char* vllm_backend(ApiKind kind) {
  switch (kind) {
    case ApiKind::kChat:
      return "openai-chat";
    case ApiKind::kEmbeddings:
      return "openai-embeddings";
    case ApiKind::kRerank:
      return "vllm-rerank";
    case ApiKind::kResponses:
      return "openai-responses";
    case ApiKind::kCompletions:
      break;
  }
  return "openai";
}

}  // namespace

std::string render_vllm_block(const Config& config, const RunInfo& info, const RunSummary& s) {
  std::string out = centred(" Serving Benchmark Result ", '=');
  out += int_line("Successful requests:", s.succeeded);
  out += int_line("Failed requests:", s.failed);
  // vLLM prints the cap only when --max-concurrency was given.
  const bool capped = info.rate <= 0 || !config.default_cap;
  if (capped) out += int_line("Maximum request concurrency:", info.parallel);
  if (info.rate > 0) out += float_line("Request rate configured (RPS):", info.rate);
  out += float_line("Benchmark duration (s):", static_cast<double>(s.window_ns) / kNsPerS);
  out += int_line("Total input tokens:", s.total_input_tokens);
  out += int_line("Total generated tokens:", s.total_output_tokens);
  out += float_line("Request throughput (req/s):", s.qps);
  if (s.goodput_enabled) out += float_line("Request goodput (req/s):", s.goodput_rps);
  out += float_line("Output token throughput (tok/s):", s.output_throughput);
  out += float_line("Peak output token throughput (tok/s):", s.peak_output_throughput);
  out += float_line("Peak concurrent requests:", static_cast<double>(s.peak_concurrency));
  out += float_line("Total token throughput (tok/s):", s.total_throughput);
  for (const VllmMetric& m : vllm_metrics(s)) {
    if (!selected(config, m.key)) continue;
    out += centred(m.header, '-');
    out += float_line(fmt::format("Mean {} (ms):", m.name), ms(mean_in(*m.dist, kNsPerMs)));
    out += float_line(fmt::format("Median {} (ms):", m.name), ms(percentile_ms(s, *m.dist, 50)));
    for (const double p : config.metric_percentiles) {
      out += float_line(fmt::format("P{} {} (ms):", p_word(p), m.name),
                        ms(percentile_ms(s, *m.dist, p)));
    }
  }
  out += std::string(50, '=') + "\n";
  return out;
}

void write_vllm_result(const Config& config, const RunInfo& info, const RunSummary& s) {
  namespace fs = std::filesystem;
  const fs::path dir(info.output_dir);
  Json head{
      {"date", vllm_date()},
      {"backend", vllm_backend(config.api_kind)},
      {"model_id", config.model},
      {"tokenizer_id", config.model},
      {"num_prompts", info.number},
      {"request_rate", info.rate > 0 ? Json(info.rate) : Json("inf")},
      {"burstiness", number_or_null(config.burstiness)},
      {"max_concurrency",
       info.rate <= 0 || !config.default_cap ? Json(info.parallel) : Json(nullptr)},
      {"duration", number_or_null(static_cast<double>(s.window_ns) / kNsPerS)},
      {"completed", s.succeeded},
      {"failed", s.failed},
      {"total_input_tokens", s.total_input_tokens},
      {"total_output_tokens", s.total_output_tokens},
      {"request_throughput", number_or_null(s.qps)},
      {"request_goodput", s.goodput_enabled ? number_or_null(s.goodput_rps) : Json(nullptr)},
      {"output_throughput", number_or_null(s.output_throughput)},
      {"total_token_throughput", number_or_null(s.total_throughput)},
      {"max_output_tokens_per_s", number_or_null(s.peak_output_throughput)},
      {"max_concurrent_requests", s.peak_concurrency},
  };
  Json stats = Json::object();
  for (const VllmMetric& m : vllm_metrics(s)) {
    const std::string key = m.key;
    stats["mean_" + key + "_ms"] = number_or_null(mean_in(*m.dist, kNsPerMs));
    stats["median_" + key + "_ms"] = number_or_null(percentile_ms(s, *m.dist, 50));
    stats["std_" + key + "_ms"] = number_or_null(std_ms(*m.dist));
    for (const double p : config.metric_percentiles) {
      stats["p" + p_word(p) + "_" + key + "_ms"] = number_or_null(percentile_ms(s, *m.dist, p));
    }
  }

  // The per-request arrays, from requests.jsonl in its order (measured requests only), each
  // streamed to a scratch file so that memory stays flat however long the run.
  const char* const kArrays[] = {"input_lens", "output_lens", "ttfts", "itls",
                                 "latencies",  "start_times", "errors"};
  constexpr size_t kArrayCount = std::size(kArrays);
  struct Close {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };
  std::unique_ptr<std::FILE, Close> parts[kArrayCount];
  for (auto& part : parts) {
    part.reset(std::tmpfile());
    if (!part) throw std::runtime_error("vllm_result.json: cannot create a scratch file");
  }
  std::ifstream records(dir / "requests.jsonl");
  std::string line;
  bool first = true;
  while (records && std::getline(records, line)) {
    if (line.empty()) continue;
    const RequestRecord r = record_from_json(line);
    if (r.warmup) continue;
    const std::string sep = first ? "" : ",";
    first = false;
    const int64_t input =
        r.input_tokens > 0 ? r.input_tokens : std::max<int64_t>(0, r.target_input_tokens);
    const bool ok = r.ok();
    std::string itls = "[";
    if (ok) {
      for (size_t k = 1; k < r.chunk_ns.size(); ++k) {
        itls += (k > 1 ? "," : "") + seconds_text(r.chunk_ns[k] - r.chunk_ns[k - 1]);
      }
    }
    itls += "]";
    const std::string values[kArrayCount] = {
        fmt::format("{}", input),
        fmt::format("{}", ok ? r.output_tokens : 0),
        ok && r.first_content_ns >= 0 ? seconds_text(r.first_content_ns - r.sent_ns) : "0.0",
        itls,
        ok && r.end_ns >= 0 ? seconds_text(r.end_ns - r.sent_ns) : "0.0",
        r.sent_ns >= 0 ? seconds_text(r.sent_ns) : "0.0",
        Json(ok ? std::string() : r.error_message)
            .dump(-1, ' ', false, Json::error_handler_t::replace),
    };
    for (size_t a = 0; a < kArrayCount; ++a) {
      std::fputs((sep + values[a]).c_str(), parts[a].get());
    }
  }

  const std::string path = (dir / "vllm_result.json").string();
  const std::string temporary = path + ".tmp";
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  std::string text = head.dump();
  text.pop_back();  // the closing brace: the arrays and statistics follow
  out << text;
  for (size_t a = 0; a < kArrayCount; ++a) {
    out << ",\"" << kArrays[a] << "\":[";
    std::rewind(parts[a].get());
    char buffer[1 << 16];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, parts[a].get())) > 0) {
      out.write(buffer, static_cast<std::streamsize>(n));
    }
    out << "]";
  }
  for (const auto& [key, value] : stats.items())
    out << "," << Json(key).dump() << ":" << value.dump();
  out << "}\n";
  out.close();
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", path));
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot write {}: {}", path, ec.message()));
}

}  // namespace llmperf::report_detail
