// The human summary printed on stdout after a run: a header line, a key/value block of counts and
// throughputs, a statistics table (one row per metric), an EvalScope-style percentile table,
// failures by kind and dataset notes. Units are in every header; absent values print as "-".
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/http_phases_view.h"
#include "report/internal.h"
#include "report/views.h"

namespace llmperf {
namespace report_detail {
namespace {

constexpr size_t kMessageChars = 100;

size_t display_width(const std::string& text) {
  size_t width = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80) ++width;
  }
  return width;
}

std::string pad(const std::string& text, size_t width, bool left) {
  size_t w = display_width(text);
  std::string fill(w < width ? width - w : 0, ' ');
  return left ? text + fill : fill + text;
}

// First `max_chars` code points of `text` on one line, with "..." when cut.
std::string one_line_excerpt(const std::string& text, size_t max_chars) {
  std::string out;
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) != 0x80 && chars++ == max_chars) return out + "...";
    out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : text[i];
  }
  return out;
}

std::string format_count(int64_t value) { return fmt::format("{}", value); }

// The statistics table's three percentile columns: 50/90/99, or first/middle/last requested.
std::vector<size_t> headline_percentiles(const std::vector<double>& percentiles) {
  if (percentiles.empty()) return {};
  auto p50 = percentile_index(percentiles, 50);
  auto p90 = percentile_index(percentiles, 90);
  auto p99 = percentile_index(percentiles, 99);
  if (p50 && p90 && p99) return {*p50, *p90, *p99};
  std::vector<size_t> picked = {0, percentiles.size() / 2, percentiles.size() - 1};
  picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
  return picked;
}

std::string statistics_table(const RunSummary& s) {
  const std::vector<MetricRow> metrics = per_request_metrics(s);
  const auto picked = headline_percentiles(s.percentiles);
  std::vector<std::string> headers = {"Metric", "Mean", "Std", "Min"};
  for (size_t i : picked) headers.push_back("P" + percentile_label(s.percentiles[i]));
  headers.push_back("Max");

  std::vector<std::vector<std::string>> rows;
  for (const auto& m : metrics) {
    const Distribution& d = *m.dist;
    auto value = [&](double v) {
      return format_number(d.empty() ? std::nullopt : std::optional<double>(v / m.unit));
    };
    std::vector<std::string> row = {m.label, value(d.mean), value(d.std), value(d.min)};
    for (size_t i : picked) row.push_back(format_number(percentile_in(d, i, m.unit)));
    row.push_back(value(d.max));
    rows.push_back(std::move(row));
  }
  return render_table(headers, rows);
}

// The percentile table's columns for the run (MetricRow, as per_request_metrics): pooling APIs
// have no tokens out, reasoning runs split the phases.
std::vector<MetricRow> percentile_columns(const RunSummary& s) {
  const double ms = kNsPerMs;
  const double sec = kNsPerS;
  if (s.pooling) {
    return {{"Latency (s)", &s.latency_ns, sec},
            {"TTFB (ms)", &s.ttfb_ns, ms},
            {"Input tokens", &s.input_tokens, 1}};
  }
  if (s.reasoning.any()) {
    const ReasoningSummary& r = s.reasoning;
    return {{"TTFT (ms)", &s.ttft_ns, ms},
            {"TTFAT (ms)", &s.ttfat_ns, ms},
            {"Reasoning (ms)", &r.duration_ns, ms},
            {"ITL reasoning (ms)", &r.itl_reasoning_ns, ms},
            {"ITL answer (ms)", &r.itl_answer_ns, ms},
            {"Latency (s)", &s.latency_ns, sec},
            {"Reasoning tokens", &r.reasoning_tokens_per_request, 1},
            {"Answer tokens", &r.answer_tokens_per_request, 1}};
  }
  return {{"TTFT (ms)", &s.ttft_ns, ms},
          {"ITL (ms)", &s.itl_ns, ms},
          {"TPOT (ms)", &s.tpot_ns, ms},
          {"Latency (s)", &s.latency_ns, sec},
          {"Input tokens", &s.input_tokens, 1},
          {"Output tokens", &s.output_tokens, 1},
          {"Output (tok/s)", &s.output_tps_per_request, 1},
          {"Total (tok/s)", &s.total_tps_per_request, 1}};
}

std::string percentile_table(const RunSummary& s) {
  const std::vector<MetricRow> columns = percentile_columns(s);
  std::vector<std::string> headers = {"Percentile"};
  for (const MetricRow& column : columns) headers.emplace_back(column.label);
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < s.percentiles.size(); ++i) {
    std::vector<std::string> row = {percentile_label(s.percentiles[i]) + "%"};
    for (const MetricRow& column : columns) {
      row.push_back(format_number(percentile_in(*column.dist, i, column.unit)));
    }
    rows.push_back(std::move(row));
  }
  return render_table(headers, rows);
}

std::string failures_table(const RunSummary& s) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [kind, count] : s.failures_by_kind) {
    auto example = s.failure_examples.find(kind);
    std::string message = example == s.failure_examples.end() ? "" : example->second;
    rows.push_back({kind, format_count(count), one_line_excerpt(message, kMessageChars)});
  }
  return render_table({"Kind", "Count", "First message"}, rows, {2});
}

std::string dataset_notes(const DatasetStats& d) {
  std::string out;
  if (d.malformed > 0) {
    std::string lines;
    for (int64_t line : d.malformed_lines)
      lines += (lines.empty() ? "" : ", ") + format_count(line);
    out +=
        fmt::format("  {} malformed record(s) skipped (first at line(s) {})", d.malformed, lines);
    if (!d.first_malformed_reason.empty()) {
      out += ": " + one_line_excerpt(d.first_malformed_reason, kMessageChars);
    }
    out += "\n";
  }
  if (d.skipped_length > 0) {
    out += fmt::format("  {} prompt(s) skipped by the length filter\n", d.skipped_length);
  }
  if (d.skipped_empty > 0) out += fmt::format("  {} empty prompt(s) skipped\n", d.skipped_empty);
  if (d.skipped_turns > 0) {
    out += fmt::format("  {} conversation(s) with fewer than two turns skipped\n", d.skipped_turns);
  }
  return out;
}

}  // namespace

// What each request was, for the header line: "stream", "non-stream", "embeddings, batch 8",
// "rerank, 4 documents", "responses API, stream", ...
std::string request_kind(const ReportOptions& options) {
  const char* stream = options.stream ? "stream" : "non-stream";
  switch (options.api_kind) {
    case ApiKind::kEmbeddings:
      return fmt::format("embeddings, batch {}", options.batch_size);
    case ApiKind::kRerank:
      return fmt::format("rerank, {} documents", options.documents);
    case ApiKind::kResponses:
      return fmt::format("responses API, {}", stream);
    case ApiKind::kChat:
    case ApiKind::kCompletions:
      break;
  }
  std::string kind = stream;
  if (options.image_num > 0) {
    kind +=
        fmt::format(", {} image{} of {}x{}", options.image_num, options.image_num == 1 ? "" : "s",
                    options.image_width, options.image_height);
  }
  return kind;
}

std::vector<MetricRow> per_request_metrics(const RunSummary& s) {
  if (s.pooling) {  // embeddings and rerank: one reply per request, nothing generated
    return {
        {"Latency (s)", &s.latency_ns, kNsPerS},
        {"TTFB (ms)", &s.ttfb_ns, kNsPerMs},
        {"Input tokens", &s.input_tokens, 1},
    };
  }
  std::vector<MetricRow> metrics = {
      {"Latency (s)", &s.latency_ns, kNsPerS},
      {"TTFT (ms)", &s.ttft_ns, kNsPerMs},
      {"TTFB (ms)", &s.ttfb_ns, kNsPerMs},
      {"TPOT (ms)", &s.tpot_ns, kNsPerMs},
      {"ITL (ms)", &s.itl_ns, kNsPerMs},
      {"Input tokens", &s.input_tokens, 1},
      {"Output tokens", &s.output_tokens, 1},
      {"Chunks/request", &s.chunks_per_request, 1},
      {"Output tok/s per request", &s.output_tps_per_request, 1},
  };
  if (s.reasoning.any()) {  // reasoning models: TTFAT and the two phases
    const ReasoningSummary& r = s.reasoning;
    metrics.insert(metrics.begin() + 2, {"TTFAT (ms)", &s.ttfat_ns, kNsPerMs});
    metrics.push_back({"Reasoning time (ms)", &r.duration_ns, kNsPerMs});
    metrics.push_back({"Reasoning tokens", &r.reasoning_tokens_per_request, 1});
    metrics.push_back({"Answer tokens", &r.answer_tokens_per_request, 1});
    metrics.push_back({"ITL reasoning (ms)", &r.itl_reasoning_ns, kNsPerMs});
    metrics.push_back({"ITL answer (ms)", &r.itl_answer_ns, kNsPerMs});
  }
  if (!s.latency_from_planned_ns.empty()) {
    metrics.push_back({"Latency from planned send (s)", &s.latency_from_planned_ns, kNsPerS});
    metrics.push_back({"TTFT from planned send (ms)", &s.ttft_from_planned_ns, kNsPerMs});
  }
  return metrics;
}

std::string format_number(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return "-";
  double v = *value;
  double magnitude = std::fabs(v);
  if (v == std::trunc(v) && magnitude < 1e15) return fmt::format("{:.0f}", v);
  if (magnitude >= 100) return fmt::format("{:.1f}", v);
  if (magnitude >= 10) return fmt::format("{:.2f}", v);
  if (magnitude >= 1) return fmt::format("{:.3f}", v);
  return fmt::format("{:.4f}", v);
}

std::string render_table(const std::vector<std::string>& headers,
                         const std::vector<std::vector<std::string>>& rows,
                         const std::vector<size_t>& left_aligned) {
  std::vector<size_t> widths(headers.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], display_width(row[c]));
    }
  };
  measure(headers);
  for (const auto& row : rows) measure(row);

  auto line = [&](const std::vector<std::string>& row) {
    std::string out;
    for (size_t c = 0; c < widths.size(); ++c) {
      const std::string cell = c < row.size() ? row[c] : "";
      if (c > 0) out += "  ";
      bool left =
          c == 0 || std::find(left_aligned.begin(), left_aligned.end(), c) != left_aligned.end();
      out += pad(cell, widths[c], left);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(headers);
  std::vector<std::string> rule;
  for (size_t w : widths) rule.emplace_back(w, '-');
  out += line(rule);
  for (const auto& row : rows) out += line(row);
  return out;
}

}  // namespace report_detail

std::string render_text_summary(const ReportOptions& options, const RunInfo& info,
                                const RunSummary& summary) {
  using namespace report_detail;
  if (options.summary_format == "evalscope-legacy") {
    return redact(render_evalscope_legacy(info, summary), options.secrets);
  }
  if (options.summary_format == "vllm") {
    return redact(render_vllm_block(options, info, summary), options.secrets);
  }
  const RunSummary& s = summary;
  std::string title = options.name.empty() || options.name == options.model
                          ? options.model
                          : fmt::format("{} (model {})", options.name, options.model);
  std::string out = fmt::format(
      "llmperf: {} | {} | parallel {} | {} {} | {}", title,
      options.urls.size() > 1 ? fmt::format("{} URLs", options.urls.size()) : options.url,
      info.parallel, info.number, s.sessions.empty() ? "requests" : "conversations",
      request_kind(options));
  if (info.workload.trace.on) {
    out += fmt::format(" | trace x{:g} (mean {} req/s)", info.workload.trace.speedup,
                       format_number(info.rate));
  } else if (info.rate >= 0) {
    out += fmt::format(" | rate {} req/s", format_number(info.rate));
  }
  if (info.input_tokens >= 0) out += fmt::format(" | input {} tokens", info.input_tokens);
  if (info.output_tokens >= 0) out += fmt::format(" | output {} tokens", info.output_tokens);
  if (info.interrupted) out += " (interrupted: partial results)";
  out += "\n\n";

  auto avg_tokens = [](const Distribution& d, const TokenProvenance& p) {
    return fmt::format("{} ({})", format_number(mean_in(d, 1)), p.label());
  };
  std::vector<std::pair<std::string, std::string>> kv = {
      {"Test duration (s)", format_number(static_cast<double>(s.window_ns) / kNsPerS)},
      {"Wall time (s)", format_number(info.duration_s)},
      {"Total requests", format_count(s.total)},
      {"Succeeded requests", format_count(s.succeeded)},
      {"Failed requests", format_count(s.failed)},
  };
  if (s.warmup > 0) kv.emplace_back("Warm-up requests (excluded)", format_count(s.warmup));
  if (s.cancelled > 0) {  // --cancel-rate
    kv.emplace_back("Cancelled requests (on purpose)", format_count(s.cancelled));
  }
  if (s.pooling) {
    const bool rerank = options.api_kind == ApiKind::kRerank;
    kv.insert(kv.end(),
              {
                  {"QPS (req/s)", format_number(s.qps)},
                  {rerank ? "Documents/s" : "Inputs/s", format_number(s.items_throughput)},
                  {"Input throughput (tok/s)", format_number(s.total_throughput)},
                  {rerank ? "Total documents" : "Total inputs", format_count(s.total_items)},
                  {"Avg input tokens", avg_tokens(s.input_tokens, s.input_provenance)},
                  {"Total input tokens", format_count(s.total_input_tokens)},
              });
  } else {
    kv.insert(kv.end(),
              {
                  {"QPS (req/s)", format_number(s.qps)},
                  {"Output throughput (tok/s)", format_number(s.output_throughput)},
                  {"Total throughput (tok/s)", format_number(s.total_throughput)},
                  {"Input throughput (chars/s)", format_number(s.input_chars_throughput)},
                  {"Output throughput (chars/s)", format_number(s.output_chars_throughput)},
                  {"Avg input tokens", avg_tokens(s.input_tokens, s.input_provenance)},
                  {"Avg output tokens", avg_tokens(s.output_tokens, s.output_provenance)},
                  {"Total input tokens", format_count(s.total_input_tokens)},
                  {"Total output tokens", format_count(s.total_output_tokens)},
              });
  }
  if (s.reasoning.any()) {
    const ReasoningSummary& r = s.reasoning;
    kv.emplace_back("Requests that reasoned", format_count(r.requests));
    kv.emplace_back("Reasoning / answer tokens",
                    fmt::format("{} / {} ({})", r.reasoning_tokens, r.answer_tokens, r.source()));
  }
  size_t key_width = 0;
  for (const auto& [key, value] : kv) key_width = std::max(key_width, key.size());
  for (const auto& [key, value] : kv) {
    out += fmt::format("{:<{}}  {}\n", key, key_width, value);
  }

  out += "\nStatistics (successful requests)\n" + statistics_table(s) + approximation_note(s);
  if (s.reasoning.any()) {
    out += fmt::format(
        "TTFT ends at the first output of any kind, reasoning included (as vLLM and EvalScope "
        "count it); TTFAT at the first answer token.{}\n",
        s.reasoning.tokens_estimated > 0
            ? fmt::format(" Reasoning tokens of {} requests are ESTIMATED: one per reasoning chunk "
                          "(no usage.completion_tokens_details.reasoning_tokens).",
                          s.reasoning.tokens_estimated)
            : "");
  }
  if (const std::string http = http_phases_line(s); !http.empty()) {
    out += http;
    if (options.verbose) out += "\nHTTP phases\n" + http_phases_table(s);
  }
  if (!s.percentiles.empty()) out += "\nPercentiles\n" + percentile_table(s);
  out += workload_text(info, s);
  if (s.failed > 0) out += "\nFailures by kind\n" + failures_table(s);
  out += by_url_text(options, s);
  std::string notes = dataset_notes(info.dataset);
  if (!notes.empty()) out += "\nDataset notes\n" + notes;
  return redact(std::move(out), options.secrets);
}

}  // namespace llmperf
