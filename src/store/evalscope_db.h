// benchmark_data.db: EvalScope's per-request SQLite database (its `result` table, as
// evalscope/perf/utils/db_util.py creates it), so that scripts written against EvalScope's
// database read llmperf's runs. A run adds each record as it finishes (one of the run's
// RecordConsumers, beside requests.jsonl's RecordsFile), `llmperf report` and `llmperf merge` as
// they read the lines back: the file is never read back just to make the database.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/record.h"
#include "core/record_consumer.h"

namespace llmperf {

// One row of EvalScope's `result` table, in its column order. Times are in seconds, as EvalScope
// writes them. The columns EvalScope fills only for successful requests (latency onwards) are
// nullopt (SQL NULL) for the others, as in EvalScope.
struct EvalScopeRow {
  // EvalScope: the request body as JSON. llmperf keeps no bodies (prompts can be megabytes), so
  // this is a JSON object naming the request in requests.jsonl: {"id":…,"prompt_index":…,
  // "stream":…}.
  std::string request;
  // When the request was sent, Unix time in seconds (EvalScope: a time.perf_counter() reading,
  // whose origin is arbitrary; only differences mean anything there, and they are the same here).
  // nullopt for a request that was never sent.
  std::optional<double> start_time;
  // JSON list of the gaps between consecutive output-carrying chunks, in seconds ([] without a
  // stream): llmperf's ITL samples of the request.
  std::string inter_token_latencies;
  int64_t success = 0;  // 1: the request succeeded; 0: it failed (or was cancelled)
  // EvalScope: a base64 Python pickle of the response chunks. llmperf: JSON text, a list holding
  // the answer text when it was kept (--keep-text), else [].
  std::string response_messages;
  // When the response's last byte was read (or the failure was noticed), Unix time in seconds.
  std::optional<double> completed_time;
  std::optional<double> latency;  // end - sent, seconds (successes only)
  // TTFT in seconds; without a stream, the latency, as EvalScope writes it (successes only).
  std::optional<double> first_chunk_latency;
  std::optional<int64_t> prompt_tokens;       // input tokens (successes only)
  std::optional<int64_t> completion_tokens;   // output tokens (successes only)
  std::optional<double> max_gpu_memory_cost;  // 0.0: EvalScope measures it only in-process
  // (latency - TTFT) / (completion_tokens - 1) in seconds, 0.0 for one token or fewer, as
  // EvalScope computes it (successes only).
  std::optional<double> time_per_output_token;
  std::optional<std::string> request_id;  // EvalScope: a trace's request id; always NULL here
  int64_t is_stream = 0;                  // 1: the request asked for a stream
};

// The row of `record`, whose steady-clock times become Unix times by adding unix_offset_ns.
EvalScopeRow evalscope_row(const RequestRecord& record, int64_t unix_offset_ns);

// <dir>/benchmark_data.db being written: rows go into a temporary file beside it, in one
// transaction, and commit() renames that file over the old database, so a reader never sees half
// of one and `llmperf report` replaces rather than appends. Destroyed without commit(), the
// temporary file is removed. Every call throws std::runtime_error naming the database when it
// cannot be written. One of a run's RecordConsumers: end_run() commits.
class EvalScopeDb : public RecordConsumer {
 public:
  // `secrets`: the credential values scrubbed from the texts, as from requests.jsonl's lines;
  // `unix_offset_ns`: what add(records) adds to the records' steady times to make Unix times.
  EvalScopeDb(const std::string& dir, std::vector<std::string> secrets, int64_t unix_offset_ns = 0);
  ~EvalScopeDb() override;
  EvalScopeDb(const EvalScopeDb&) = delete;
  EvalScopeDb& operator=(const EvalScopeDb&) = delete;

  // The row of `record` (evalscope_row); warm-up requests are left out, as EvalScope leaves them.
  void add(const RequestRecord& record, int64_t unix_offset_ns);
  // Each record's row, at the offset given at construction.
  void add(std::span<const RequestRecord> records) override;
  void commit();
  void end_run() override { commit(); }

 private:
  struct Open;
  std::string path_;
  std::string tmp_;
  std::vector<std::string> secrets_;
  int64_t unix_offset_ns_;      // for add(records)
  std::unique_ptr<Open> open_;  // the database, its transaction and insert; null once committed
};

}  // namespace llmperf
