// vLLM's benchmark formats, so that scripts written for `vllm bench serve` read llmperf's runs
// unchanged: its console block (--summary-format vllm: the labels, order and "{:<40} {:<10}"
// layout of vllm/benchmarks/serve.py) and its --save-result JSON (vllm_result.json in every run
// directory: the same top-level keys in the same order, per-request arrays in seconds, statistics
// in ms; with --save-result also a copy where vLLM would put it). Where llmperf's definitions
// differ from vLLM's, docs/metrics.md says so; the values are llmperf's.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

#include <fmt/format.h>

#include "core/clock.h"
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

bool selected(const ReportOptions& options, std::string_view key) {
  return std::find(options.percentile_metrics.begin(), options.percentile_metrics.end(), key) !=
         options.percentile_metrics.end();
}


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

std::string seconds_text(int64_t ns) { return Json(static_cast<double>(ns) / kNsPerS).dump(); }

std::string render_vllm_block(const ReportOptions& options, const RunInfo& info,
                              const RunSummary& s) {
  std::string out = centred(" Serving Benchmark Result ", '=');
  out += int_line("Successful requests:", s.succeeded);
  out += int_line("Failed requests:", s.failed);
  // vLLM prints the cap only when --max-concurrency was given.
  const bool capped = !options.default_cap;
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
    if (!selected(options, m.key)) continue;
    out += centred(m.header, '-');
    out += float_line(fmt::format("Mean {} (ms):", m.name), ms(mean_in(*m.dist, kNsPerMs)));
    out += float_line(fmt::format("Median {} (ms):", m.name), ms(percentile_ms(s, *m.dist, 50)));
    for (const double p : options.metric_percentiles) {
      out += float_line(fmt::format("P{} {} (ms):", p_word(p), m.name),
                        ms(percentile_ms(s, *m.dist, p)));
    }
  }
  out += std::string(50, '=') + "\n";
  return out;
}

namespace {

// The per-request arrays of vLLM's file in its order; `detailed` ones are dropped from a
// --save-result copy without --save-detailed (vLLM removes the same).
struct VllmArray {
  const char* key;
  bool detailed;
};
constexpr VllmArray kVllmArrays[] = {
    {"input_lens", true},   {"output_lens", true},     {"ttfts", true},
    {"itls", true},         {"latencies", false},      {"start_times", true},
    {"queue_times", false}, {"generated_texts", true}, {"errors", true},
};
constexpr size_t kVllmArrayCount = std::size(kVllmArrays);

// Python's str() of a float: "inf", "32.0", "0.5" (vLLM's file name spells the rate so).
std::string python_float(double value) {
  if (std::isinf(value)) return "inf";
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

// Where --save-result puts its copy: --result-dir (else the working directory), under
// --result-filename or vLLM's {label}-{rate}qps[-concurrency{N}]-{model}-{date}.json. A sweep
// writes one copy per run, the run directory's name before the extension.
std::filesystem::path vllm_copy_path(const ReportOptions& options, const RunInfo& info,
                                     const Json& head) {
  namespace fs = std::filesystem;
  std::string name = options.vllm.filename;
  if (name.empty()) {
    const std::string model = head["model_id"].get<std::string>();
    const std::string label =
        options.vllm.label.empty() ? head["backend"].get<std::string>() : options.vllm.label;
    const Json& rate = head["request_rate"];
    const Json& cap = head["max_concurrency"];
    name = fmt::format("{}-{}qps{}-{}-{}.json", label,
                       rate.is_string() ? std::string("inf") : python_float(rate.get<double>()),
                       cap.is_null() ? "" : fmt::format("-concurrency{}", cap.dump()),
                       model.substr(model.rfind('/') + 1), head["date"].get<std::string>());
  }
  fs::path path = fs::path(options.vllm.dir.empty() ? "." : options.vllm.dir) / name;
  if (options.several_runs) {
    const std::string run = fs::path(info.output_dir).filename().string();
    path.replace_filename(path.stem().string() + "-" + run + path.extension().string());
  }
  return path;
}

// Writes the file atomically: `head` (without its closing brace), the arrays of `requests` (those
// `detailed` allows), then `tail`'s keys.
void emit_vllm_file(const std::filesystem::path& path, const Json& head, const VllmArrays& requests,
                    bool detailed, const Json& tail) {
  const std::string temporary = path.string() + ".tmp";
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  std::string text = head.dump();
  text.pop_back();  // the closing brace: the arrays and statistics follow
  out << text;
  for (size_t a = 0; a < kVllmArrayCount; ++a) {
    if (kVllmArrays[a].detailed && !detailed) continue;
    out << ",\"" << kVllmArrays[a].key << "\":[";
    requests.write_values(a, out);
    out << "]";
  }
  for (const auto& [key, value] : tail.items())
    out << "," << Json(key).dump() << ":" << value.dump();
  out << "}\n";
  out.close();
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot write {}: {}", path.string(), ec.message()));
}

}  // namespace

void write_vllm_result(const ReportOptions& options, const RunInfo& info, const RunSummary& s,
                       const VllmArrays& requests) {
  namespace fs = std::filesystem;
  const fs::path dir(info.output_dir);
  const std::string backend =
      options.vllm.backend.empty() ? vllm_backend(options.api_kind) : options.vllm.backend;
  const std::string model_id =
      options.vllm.model_id.empty() ? options.model : options.vllm.model_id;
  const bool ramp = info.ramp.on();

  // The keys that follow the head: a --metadata pair of the same name gives way to them, as the
  // results overwrite it in vLLM.
  Json tail{
      {"max_output_tokens_per_s", number_or_null(s.peak_output_throughput)},
      {"max_concurrent_requests", s.peak_concurrency},
      {"rtfx", 0.0},
  };
  for (const VllmMetric& m : vllm_metrics(s)) {
    const std::string key = m.key;
    tail["mean_" + key + "_ms"] = number_or_null(mean_in(*m.dist, kNsPerMs));
    tail["median_" + key + "_ms"] = number_or_null(percentile_ms(s, *m.dist, 50));
    tail["std_" + key + "_ms"] = number_or_null(std_ms(*m.dist));
    for (const double p : options.metric_percentiles) {
      tail["p" + p_word(p) + "_" + key + "_ms"] = number_or_null(percentile_ms(s, *m.dist, p));
    }
  }
  const auto later_key = [&tail](const std::string& key) {
    return tail.contains(key) || std::any_of(std::begin(kVllmArrays), std::end(kVllmArrays),
                                             [&key](const VllmArray& a) { return key == a.key; });
  };

  // vLLM's order (vllm/benchmarks/serve.py): setup, --metadata, traffic, then the results; a
  // metadata pair named like a setup or traffic key is overwritten in place, as in a Python dict.
  Json head{
      {"date", wall_clock_text("%Y%m%d-%H%M%S", TimeZone::kLocal)},  // vLLM's date, local time
      {"endpoint_type", backend},
      {"backend", backend},
      {"label", options.vllm.label.empty() ? Json(nullptr) : Json(options.vllm.label)},
      {"model_id", model_id},
      {"tokenizer_id", options.vllm.tokenizer.empty() ? model_id : options.vllm.tokenizer},
      {"num_prompts", info.number},
  };
  for (const auto& [key, value] : options.vllm.metadata) {
    if (!later_key(key)) head[key] = value;
  }
  head["request_rate"] = info.rate > 0 && !ramp ? Json(info.rate) : Json("inf");
  head["burstiness"] = number_or_null(options.burstiness);
  head["max_concurrency"] = options.default_cap ? Json(nullptr) : Json(info.parallel);
  if (ramp) {
    head["ramp_up_strategy"] = info.ramp.strategy;
    head["ramp_up_start_rps"] = number_or_null(info.ramp.start_rps);
    head["ramp_up_end_rps"] = number_or_null(info.ramp.end_rps);
  }
  head["duration"] = number_or_null(static_cast<double>(s.window_ns) / kNsPerS);
  head["completed"] = s.succeeded;
  head["failed"] = s.failed;
  head["total_input_tokens"] = s.total_input_tokens;
  head["total_output_tokens"] = s.total_output_tokens;
  head["request_throughput"] = number_or_null(s.qps);
  head["request_goodput"] = s.goodput_enabled ? number_or_null(s.goodput_rps) : Json(nullptr);
  head["output_throughput"] = number_or_null(s.output_throughput);
  head["total_token_throughput"] = number_or_null(s.total_throughput);

  emit_vllm_file(dir / "vllm_result.json", head, requests, true, tail);
  if (options.vllm.save) {
    const fs::path copy = vllm_copy_path(options, info, head);
    std::error_code ec;
    if (copy.has_parent_path()) fs::create_directories(copy.parent_path(), ec);
    if (ec) {
      throw std::runtime_error(
          fmt::format("cannot create {}: {}", copy.parent_path().string(), ec.message()));
    }
    emit_vllm_file(copy, head, requests, options.vllm.detailed, tail);
  }
}

}  // namespace llmperf::report_detail

namespace llmperf {

using report_detail::Json;
using report_detail::kVllmArrayCount;

VllmArrays::VllmArrays(int64_t origin_ns, std::vector<std::string> secrets)
    : origin_ns_(origin_ns), secrets_(std::move(secrets)), parts_(kVllmArrayCount, nullptr) {}

VllmArrays::~VllmArrays() {
  for (std::FILE* part : parts_) {
    if (part != nullptr) std::fclose(part);
  }
}

std::FILE* VllmArrays::part(size_t index) const {
  if (parts_[index] == nullptr) {
    parts_[index] = std::tmpfile();
    if (parts_[index] == nullptr) {
      throw std::runtime_error("vllm_result.json: cannot create a scratch file");
    }
  }
  return parts_[index];
}

void VllmArrays::add(std::span<const RequestRecord> records) {
  for (const RequestRecord& record : records) add(record);
}

void VllmArrays::add(const RequestRecord& r) {
  using report_detail::seconds_text;
  if (r.warmup) return;
  const std::string sep = first_ ? "" : ",";
  first_ = false;
  // Texts as requests.jsonl holds them: JSON strings with credentials scrubbed.
  const auto text = [this](const std::string& value) {
    return report_detail::redact(Json(value).dump(-1, ' ', false, Json::error_handler_t::replace),
                                 secrets_);
  };
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
  const bool queued = r.planned_ns >= 0 && r.sent_ns >= r.planned_ns;
  const std::string values[kVllmArrayCount] = {
      fmt::format("{}", input),
      fmt::format("{}", ok ? r.output_tokens : 0),
      ok && r.first_content_ns >= 0 ? seconds_text(r.first_content_ns - r.sent_ns) : "0.0",
      itls,
      ok && r.end_ns >= 0 ? seconds_text(r.end_ns - r.sent_ns) : "0.0",
      r.sent_ns >= 0 ? seconds_text(r.sent_ns - origin_ns_) : "0.0",
      queued ? seconds_text(r.sent_ns - r.planned_ns) : "0.0",
      text(r.output_text),
      text(ok ? std::string() : r.error_message),
  };
  for (size_t a = 0; a < kVllmArrayCount; ++a) std::fputs((sep + values[a]).c_str(), part(a));
}

void VllmArrays::write_values(size_t index, std::ostream& out) const {
  std::FILE* file = part(index);
  std::rewind(file);
  char buffer[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    out.write(buffer, static_cast<std::streamsize>(n));
  }
  std::fseek(file, 0, SEEK_END);  // later values are appended
}

}  // namespace llmperf
