// Shared pieces of the presentation layer beyond internal.h: the per-run "point" that sweep
// tables, sweep charts and `llmperf compare` are drawn from, the transposed sweep table (metrics as
// rows, concurrency levels as columns) in text/Markdown/CSV/HTML, the HTML page shell, and the
// HTML and legacy-text renderers. Private to src/report/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/html/svg_chart.h"
#include "report/report.h"

namespace llmperf::report_detail {

// One run reduced to the numbers a sweep table or chart shows, in display units.
struct MetricPoint {
  int parallel = 0;                          // concurrency of the run
  int64_t number = 0;                        // requests asked for
  double rate = -1;                          // open-loop request rate (req/s); -1 for closed loop
  int64_t total = 0;                         // measured requests
  int64_t succeeded = 0;                     // successful requests
  int64_t failed = 0;                        // failed requests
  std::optional<double> qps;                 // successful requests / window (req/s)
  std::optional<double> output_tps;          // output tokens / window (tok/s)
  std::optional<double> total_tps;           // input + output tokens / window (tok/s)
  std::optional<double> latency_mean_s;      // E2E latency mean (s)
  std::optional<double> latency_p50_s;       // E2E latency median (s), when requested
  std::optional<double> latency_p90_s;       // E2E latency p90 (s), when requested
  std::optional<double> latency_tail_s;      // E2E latency at the tail percentile (s)
  std::optional<double> ttft_mean_ms;        // TTFT mean (ms)
  std::optional<double> ttft_tail_ms;        // TTFT at the tail percentile (ms)
  std::optional<double> tpot_mean_ms;        // TPOT mean (ms)
  std::optional<double> tpot_tail_ms;        // TPOT at the tail percentile (ms)
  std::optional<double> itl_mean_ms;         // ITL mean (ms)
  std::optional<double> itl_tail_ms;         // ITL at the tail percentile (ms)
  std::optional<double> input_tokens_mean;   // mean input tokens per successful request
  std::optional<double> output_tokens_mean;  // mean output tokens per successful request
  std::string tail = "99";                   // the tail percentile's label ("99", "95", ...)
  int64_t input_tokens = -1;        // the run's --input-tokens x --output-tokens grid cell; -1:
  int64_t output_tokens = -1;       // not a grid run
  std::optional<double> input_tps;  // input (prefill) tokens / window (tok/s)
  std::optional<double> output_tps_per_request;  // mean of output tokens / E2E per request
  std::optional<double> ttft_p50_ms;             // TTFT median (ms), when requested
  std::optional<double> input_chars_s;           // prompt characters / window (chars/s)
  std::optional<double> output_chars_s;          // generated characters / window (chars/s)
  bool grid() const { return input_tokens >= 0 || output_tokens >= 0; }
};

// Each run's name in a sweep's tables, what tells it apart from the others: "16",
// "16 in 100 out 256", "5 req/s", "5 req/s parallel 8" (a trace or rate replayed at several
// concurrency caps). Every table over a sweep's runs labels them with these.
std::vector<std::string> run_labels(const std::vector<MetricPoint>& points);

// Every point is an open-loop run (has a rate): the x axis is the rate, not the concurrency.
bool by_rate(const std::vector<MetricPoint>& points);

MetricPoint point_from_row(const SweepRow& row);
// From a run's summary.json; missing values stay absent.
MetricPoint point_from_summary_file(const SummaryFile& summary);

// A named series of runs: one deployment in `compare`, or the one sweep of a sweep directory.
struct Deployment {
  std::string label;                // legend and column name
  std::vector<MetricPoint> points;  // ordered by concurrency (or rate)
};

// What `llmperf compare` knows of a deployment to name its column.
struct DeploymentFacts {
  std::string label;      // --label, else the run's --name, else its model, else the directory name
  std::string name;       // the run's --name ("" when none)
  std::string server;     // the server's identity ("llama.cpp b4719"; "" when unknown)
  nlohmann::json config;  // summary.json's "config" (null when only sweep_summary.json was read)
  std::string dir;        // the directory as given
};

// One column name per deployment, in order: its label, with what tells it apart from the
// deployments of the same label appended ("tiny-llama (vLLM 0.11.0)", "tiny-llama (in 300 out
// 64)"): the --name, then the server's identity, then the differing config values, then the
// directory. Labels that still collide are kept, and a warning per group goes to `warnings`.
std::vector<std::string> deployment_labels(const std::vector<DeploymentFacts>& facts,
                                           std::vector<std::string>* warnings);

struct TextTable {
  std::vector<std::string> headers;            // first header names the row labels' column
  std::vector<std::vector<std::string>> rows;  // display cells ("-" when absent)
};

// Metrics as rows, one column per run (the layout engineers paste into reports).
TextTable transposed_sweep_table(const std::vector<MetricPoint>& points);
std::string markdown_table(const TextTable& table);
std::string csv_table(const TextTable& table);
std::string html_table(const TextTable& table);

// The sweep charts vs concurrency (or rate): one chart per metric group with one line per
// statistic for a single deployment; one chart per statistic with one line per deployment else.
// Then the operating-point charts: TTFT and TPOT at the tail percentile against output
// throughput, one point per run labelled with its concurrency or rate. A grid (several runs per
// concurrency) has only the operating-point charts here; grid_charts() draws the rest.
std::vector<svg::ChartSpec> sweep_charts(const std::vector<Deployment>& deployments);

// --- the input x output grid (grid.cpp) ---

// True when the points hold at least two cells of an --input-tokens x --output-tokens grid.
bool is_grid(const std::vector<MetricPoint>& points);
// Per load point (concurrency or rate), one table per metric with input lengths as rows and
// output lengths as columns: output tok/s, input tok/s, per-request output tok/s, TTFT p50/p99,
// TPOT mean, prompt and completion chars/s.
std::string grid_text(const std::vector<MetricPoint>& points);
std::string grid_markdown(const std::vector<MetricPoint>& points);
// One row (CSV) or object (JSON) per run with its cell and every grid metric.
std::string grid_csv(const std::vector<MetricPoint>& points);
nlohmann::ordered_json grid_json(const std::vector<MetricPoint>& points);
// Per load point: output tok/s and per-request output tok/s against output length (one line per
// input length), TTFT P50 and input tok/s against input length (one line per output length).
std::vector<svg::ChartSpec> grid_charts(const std::vector<MetricPoint>& points);

// A complete self-contained HTML document (inline CSS, no scripts, no external resources).
std::string html_page(const std::string& title, const std::string& body);
// A grid of charts.
std::string chart_grid(const std::vector<svg::ChartSpec>& charts);

std::string render_run_html(const ReportOptions& options, const RunInfo& info,
                            const RunSummary& summary, const RunTrace& trace);
std::string render_sweep_html(const std::string& title, const std::vector<MetricPoint>& points);

// The per-run charts drawn from the run's trace (distributions, timeline, throughput and in-flight
// requests over the run) and summary (failures by kind).
std::vector<svg::ChartSpec> run_charts(const RunSummary& summary, const RunTrace& trace);

// EvalScope 0.5.x's "Benchmarking summary:" block (--summary-format evalscope-legacy).
std::string render_evalscope_legacy(const RunInfo& info, const RunSummary& summary);

}  // namespace llmperf::report_detail
