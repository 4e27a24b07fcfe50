// Reports: presentation only, and the only place units are converted (ns -> ms/s). Renders the
// human text summary (stdout), and writes each run's files (DESIGN §4): summary.json
// ("llmperf.summary/1"), EvalScope-compatible benchmark_summary.json and
// benchmark_percentile.json, requests.jsonl; and the sweep table (JSON, CSV, Markdown).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/output.h"
#include "core/record.h"
#include "core/record_consumer.h"
#include "core/run_types.h"
#include "core/server_sample.h"
#include "core/workload_info.h"
#include "metrics/metrics.h"
#include "verdict/baseline.h"
#include "verdict/history_baseline.h"
#include "verdict/early_stop.h"
#include "verdict/search.h"
#include "verdict/slo.h"

namespace llmperf {

// What the reports read of the user's flags: the few values that shape the text and the files,
// and the config block summary.json records. Filled from a Config by the plan stage
// (plan/stage_options.h's report_options, for a run) or from a run's saved summary.json
// (report_options below: `llmperf report`, `llmperf merge`).
struct ReportOptions {
  std::string model;  // --model
  std::string name;   // --name ("" when not given): titles
  std::string url;    // the endpoint, for the header lines
  // Several --url: every replica's URL without its userinfo, in the order given (records'
  // url_index points into it); empty with one URL.
  std::vector<std::string> urls;
  ApiKind api_kind = ApiKind::kChat;
  bool stream = true;      // streamed requests (the header's "stream"/"non-stream")
  int64_t batch_size = 1;  // --batch-size: inputs per embeddings request
  int64_t documents = 4;   // --documents per rerank request
  int64_t image_num = 0;   // --image-num: images per chat prompt, with their size
  int image_width = 512;   //   in pixels
  int image_height = 512;
  std::string summary_format = "default";  // --summary-format: default | evalscope-legacy | vllm
  std::string arrival = "poisson";         // --arrival (open loop)
  double burstiness = 1.0;                 // --burstiness (gamma shape)
  bool default_cap = false;                // no --parallel cap the user chose (--rate alone)
  std::vector<std::string> percentile_metrics = {"ttft", "tpot", "itl"};  // vLLM's console block
  std::vector<double> metric_percentiles = {99};                          // and result file
  VllmResultOptions vllm;           // vllm_result.json's flags and its --save-result copy
  bool several_runs = false;        // the sweep has more than one run (copy file names)
  std::vector<double> percentiles = {10, 25, 50, 66, 75, 80, 90, 95, 98, 99};  // --percentiles
  bool output_forced = false;       // --ignore-eos: outputs are forced to their length
  double metrics_interval_s = 1;    // --metrics-interval, seconds
  bool verbose = false;             // --verbose: the text summary's HTTP phase table
  // Credential values (API key, secret header values; raw and JSON-escaped) that no file or text
  // may hold: replaced by "***" in everything written.
  std::vector<std::string> secrets;
  // summary.json's "config": the config with the resolved flags as compact JSON, secrets masked.
  std::string config_json;
};

struct SummaryFile;  // report/summary_file.h

// The report options of a run saved in `saved` (`llmperf report`, `llmperf compare`), read from
// its config block, which config_json keeps as it was written.
ReportOptions report_options(const SummaryFile& saved);

// Identity and context of one run of a sweep.
// A ramp-up run is reported in this many spans of planned send time (RateSegment).
inline constexpr int kRampSegments = 10;

struct RunInfo {
  int parallel = 1;              // concurrency of this run
  int64_t number = 0;            // requests asked for in this run
  double rate = -1;              // requests/s for open loop; -1 for closed loop
  std::string output_dir;        // the run's directory (files are written here)
  std::string started_at;        // wall-clock start, ISO-8601 UTC, e.g. "2026-11-21T12:48:33Z"
  int64_t anchor_steady_ns = 0;  // steady_clock reading taken together with...
  int64_t anchor_unix_ns = 0;    // ...this wall-clock reading: maps record times to Unix time
  double duration_s = 0;         // wall time of the run, dispatch to last completion
  bool interrupted = false;      // the run was cut short by Ctrl-C/SIGTERM; results are partial
  DatasetStats dataset;          // what reading the dataset found
  WorkloadInfo workload;         // how synthetic prompts were made (--dataset random)
  int64_t input_tokens = -1;     // the grid cell (--input-tokens x --output-tokens) of this run;
  int64_t output_tokens = -1;    // -1 outside a grid
  RampUp ramp;                   // --ramp-up-*: the rate moved across the run (off otherwise)

  // One --slo outcome of this run, for summary.json's "slo" (empty without --slo).
  struct SloOutcome {
    std::string expression;  // as given, e.g. "ttft.p99<=800ms"
    bool passed = false;     // the limit held
    std::string detail;      // measured value and limit, or why it is unavailable
  };
  std::vector<SloOutcome> slo;

  ServerIdentity server;  // who answered (identity endpoints, Server header)

  // Sharded runs: which part of the benchmark this run directory holds, or (merged) how the
  // shards were combined. count 1: not sharded.
  struct Shard {
    int index = 0;
    int count = 1;
    std::string source;   // where the index came from ("--shard", "Slurm (...)", ...)
    std::string run_id;   // the benchmark's identity: its config (and --start-at), hashed
    bool merged = false;  // `llmperf merge` made this directory from all `count` shards
    // Merged: each shard's wall-clock anchor (its run's start), by index, and their spread.
    std::vector<int64_t> starts_unix_ns;
  };
  Shard shard;

  // Why the run stopped before its end (--max-errors, --max-error-rate, --stop-on-saturation):
  // summary.json's "stopped_early"; empty when it ran to the end.
  std::optional<EarlyStopDecision> stopped_early;

  // --push-gateway: where the run's live figures went and how the pushes fared (summary.json's
  // "push_gateway"); nullopt without the flag.
  struct PushGateway {
    std::string url;         // the gateway's base URL, without credentials
    double interval_s = 0;   // --push-interval
    int64_t pushes = 0;      // pushes tried, the final one included
    int64_t failed = 0;      // pushes that got no 2xx answer (gateway down, slow, refusing)
  };
  std::optional<PushGateway> push_gateway;
};

// Load shape and client health for stdout: requested vs achieved rate and schedule lag (open
// loop), the client's CPU and stamp delay, and a warning when the client was the bottleneck.
std::string render_load_text(const RunInfo& info, const RunSummary& summary,
                             const std::string& arrival);

// The "Server" block for stdout: the server's totals beside llmperf's with mismatches called
// out, its state during the run, its own latency histograms; "" when /metrics was not asked for.
std::string render_server_text(const RunInfo& info, const RunSummary& summary);

// The WARNING that ends a run's text when more than a small share of its requests missed the
// length they were built to have (a server that cut prompts to its context, or stopped outputs
// short); "" otherwise.
std::string render_length_warning(const RunInfo& info, const RunSummary& summary);

// Human summary for stdout: aligned tables with units in the headers.
std::string render_text_summary(const ReportOptions& options, const RunInfo& info,
                                const RunSummary& summary);

// The per-request arrays of vllm_result.json (input_lens, output_lens, ttfts, itls, latencies,
// start_times, queue_times, generated_texts, errors), gathered record by record as a run goes on
// (one of its RecordConsumers) or as requests.jsonl is read back (`llmperf report`), so that the
// file is never re-read. The values go to scratch files: memory stays flat however long the run.
class VllmArrays : public RecordConsumer {
 public:
  // `origin_ns`: the steady-clock time start_times count from (the run's anchor); `secrets`: the
  // credential values scrubbed from the texts (ReportOptions::secrets).
  VllmArrays(int64_t origin_ns, std::vector<std::string> secrets);
  ~VllmArrays() override;
  VllmArrays(const VllmArrays&) = delete;
  VllmArrays& operator=(const VllmArrays&) = delete;

  void add(const RequestRecord& record);  // warm-up requests are left out, as vLLM measures
  void add(std::span<const RequestRecord> records) override;
  // Writes array `index`'s values so far to `out`, comma-separated (the order of
  // formats/vllm.cpp's table).
  void write_values(size_t index, std::ostream& out) const;

 private:
  std::FILE* part(size_t index) const;  // created on first use

  int64_t origin_ns_;
  std::vector<std::string> secrets_;
  mutable std::vector<std::FILE*> parts_;
  bool first_ = true;
};

// Writes summary.json, benchmark_summary.json, benchmark_percentile.json, report.html (charts
// from `trace`) and vllm_result.json (its per-request arrays from `requests`) into
// info.output_dir (created if needed), each atomically (temporary file + rename). requests.jsonl
// is RecordsFile's, benchmark_data.db the store stage's (store/evalscope_db.h). Throws
// std::runtime_error naming the path when a file cannot be written.
void write_run_outputs(const ReportOptions& options, const RunInfo& info, const RunSummary& summary,
                       const RunTrace& trace, const VllmArrays& requests);
// The same without records: vllm_result.json's per-request arrays are empty.
void write_run_outputs(const ReportOptions& options, const RunInfo& info, const RunSummary& summary,
                       const RunTrace& trace);

// A run's requests.jsonl, written while the run goes on so that finished records need not be kept:
// each appended record becomes one line (record_to_json, credentials scrubbed) of
// requests.jsonl.partial in info.output_dir, written out by flush() (and whenever 256 KiB are
// pending), so that a run killed outright still leaves what it gathered. commit() makes it
// requests.jsonl (fsync, then rename), so that name only ever holds a complete file. Destroyed
// without commit() (an error elsewhere), the .partial file keeps every line gathered so far.
// As one of a run's RecordConsumers, each batch is appended and written out once 100 ms have passed
// since the last write (or 256 KiB are pending), and end_run() commits: a write per batch, on the
// collector thread that shares the client's core, delayed other streams' first stamps
// (bench/run_bench.sh (b)), and none until 256 KiB lost up to a few hundred finished records to a
// kill. A kill during a write may leave the last line cut short: every line that ends with a newline
// is a whole record.
// vllm_result.json's arrays (VllmArrays) and benchmark_data.db (store/evalscope_db.h) are
// consumers of their own.
class RecordsFile : public RecordConsumer {
 public:
  // Creates info.output_dir if needed. Throws std::runtime_error naming the path on failure, as
  // do append() and commit().
  RecordsFile(const ReportOptions& options, const RunInfo& info);
  ~RecordsFile() override;
  RecordsFile(const RecordsFile&) = delete;
  RecordsFile& operator=(const RecordsFile&) = delete;

  void append(const RequestRecord& record);
  void flush();  // writes the pending lines to the .partial file
  void commit();
  void add(std::span<const RequestRecord> records) override;  // append() each, flush() at times
  void end_run() override { commit(); }

 private:
  static constexpr size_t kFlushBytes = 256 * 1024;
  static constexpr int64_t kFlushIntervalNs = 100'000'000;  // tail -f shows progress

  RunInfo info_;  // the run's anchor, for record_to_json
  std::vector<std::string> secrets_;
  std::string path_;
  std::string partial_path_;
  int fd_ = -1;
  std::string buffer_;  // lines not yet written
  int64_t flushed_ns_ = 0;  // now_ns() at the last write
};

// One record of a requests.jsonl being read (read_records_file).
struct RecordsLine {
  int number = 0;        // line number, from 1
  RequestRecord record;  // record_from_json of the line
  // The run's wall-clock anchor the line implies (sent_unix_ns - sent_ns), when it has both.
  std::optional<int64_t> anchor_unix_ns;
};

// The one reader of requests.jsonl: streams the file at `path`, calling `on_record` for each
// record in order (blank lines are skipped). Throws std::runtime_error "cannot read PATH", or
// "PATH:LINE: why" for a line that is not a record.
void read_records_file(const std::string& path, const std::function<void(RecordsLine&)>& on_record);

struct SweepRow {
  RunInfo info;
  RunSummary summary;
};

// The table over all runs of a sweep (concurrency, requests, ok/failed, QPS, latency, TTFT, TPOT,
// ITL, tok/s) for stdout.
std::string render_sweep_text(const std::vector<SweepRow>& rows);

// Writes sweep_summary.json, sweep_summary.csv and sweep_summary.md into `dir`, atomically.
void write_sweep_outputs(const std::string& dir, const std::vector<SweepRow>& rows);

// --search's table (a row per probe, `probes` the runs in the order they ran, with what decided
// each) and its answer, in Markdown: search_summary.md and the closing text.
std::string render_search_text(const SearchOutcome& outcome, bool by_rate,
                               const std::vector<SweepRow>& probes);

// One line of requests.jsonl (no trailing newline): every field of `record`, with times as integer
// nanoseconds relative to info.anchor_steady_ns (null for -1), chunk times relative to sent_ns,
// "sent_unix_ns", and the convenience values "ttft_ms", "ttfb_ms" and "latency_s".
std::string record_to_json(const RequestRecord& record, const RunInfo& info);

// The inverse of record_to_json. Times come back relative to the run's anchor (as if
// anchor_steady_ns were 0), which preserves every interval. Throws std::runtime_error on a line
// that is not a requests.jsonl record.
RequestRecord record_from_json(const std::string& line);

// --- verdicts (text/verdict_text.cpp, formats/junit.cpp) ---

// A JUnit XML document: <testsuites> holding one <testsuite name="llmperf RUN"> per run and one
// <testcase classname="llmperf.RUN" name="EXPRESSION"> per SLO, with a <failure> when it failed.
// `history`: --baseline db:'s judgements, one <testsuite> "llmperf <run> baseline db" each, one
// <testcase> per metric (a regression or an unreadable database is a <failure>, a metric not
// judged is <skipped/>); empty: the file is as without it.
std::string render_junit(const std::vector<RunVerdict>& verdicts,
                         const std::vector<HistoryComparison>& history = {});

// Text for stdout: the goodput line(s) when goodput was computed. "" otherwise.
std::string render_goodput_text(const RunSummary& summary);

// Text for stdout: render_goodput_text(summary), then, when there are SLOs, an aligned block with
// PASS/FAIL and the detail of each SLO and the run's overall verdict.
std::string render_verdicts_text(const RunSummary& summary, const RunVerdict& verdict);

// Reads a stored llmperf summary.json for --baseline: its key metrics and a description of its
// run. Throws std::invalid_argument naming --baseline and the path when the file cannot be read,
// is not JSON or has another schema.
BaselineSummary load_baseline(const std::string& path);

// The side-by-side table for stdout (Metric, Baseline, Current, Change, Verdict) with a title
// naming the baseline and tolerance and a closing PASS/FAIL line listing the regressions.
std::string render_baseline_table(const BaselineComparison& comparison);

}  // namespace llmperf
