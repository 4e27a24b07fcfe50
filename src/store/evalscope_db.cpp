// benchmark_data.db (see evalscope_db.h): each record of a run as a row of EvalScope's `result`
// table, with EvalScope's column names, types and order and its units (seconds), written through
// the store stage in one transaction into a temporary file that is then renamed.
#include "store/evalscope_db.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "store/sqlite_db.h"

namespace llmperf {
namespace {

constexpr double kEvalScopeNsPerS = 1e9;

// EvalScope's `result` table: the columns of evalscope/perf/utils/db_util.py, in its order, with
// its types (request_id and is_stream came last in its newer releases).
constexpr const char* kEvalScopeResultTable =
    "CREATE TABLE IF NOT EXISTS result("
    "request TEXT, start_time REAL, inter_token_latencies TEXT, success INTEGER, "
    "response_messages TEXT, completed_time REAL, latency REAL, first_chunk_latency REAL, "
    "prompt_tokens INTEGER, completion_tokens INTEGER, max_gpu_memory_cost REAL, "
    "time_per_output_token REAL, request_id TEXT, is_stream INTEGER)";

constexpr const char* kEvalScopeInsert =
    "INSERT INTO result(request, start_time, inter_token_latencies, success, response_messages, "
    "completed_time, latency, first_chunk_latency, prompt_tokens, completion_tokens, "
    "max_gpu_memory_cost, time_per_output_token, request_id, is_stream) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

std::string evalscope_json_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

double evalscope_seconds(int64_t ns) { return static_cast<double>(ns) / kEvalScopeNsPerS; }

// Seconds as nlohmann::json::dump() writes a double (vllm_result.json's itls are written alike).
std::string evalscope_seconds_text(int64_t ns) {
  return nlohmann::json(evalscope_seconds(ns)).dump();
}

void evalscope_insert(SqliteStatement& insert, const EvalScopeRow& row) {
  insert.bind(1, row.request)
      .bind(2, row.start_time)
      .bind(3, row.inter_token_latencies)
      .bind(4, row.success)
      .bind(5, row.response_messages)
      .bind(6, row.completed_time)
      .bind(7, row.latency)
      .bind(8, row.first_chunk_latency)
      .bind(9, row.prompt_tokens)
      .bind(10, row.completion_tokens)
      .bind(11, row.max_gpu_memory_cost)
      .bind(12, row.time_per_output_token)
      .bind(13, row.request_id)
      .bind(14, row.is_stream);
  insert.run();
}

// Removes `path` and the journal SQLite may have left beside it.
void evalscope_remove_db(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
  std::filesystem::remove(path + "-journal", ec);
}

}  // namespace

EvalScopeRow evalscope_row(const RequestRecord& r, int64_t unix_offset_ns) {
  // The JSON texts are written directly, as nlohmann::json::dump() would write them: a run adds
  // a row per request on the thread that writes requests.jsonl, so no JSON tree is built here.
  EvalScopeRow row;
  row.request =
      fmt::format(R"({{"id":{},"prompt_index":{},"stream":{}}})", r.id, r.prompt_index, r.stream);
  const bool sent = r.sent_ns >= 0;
  if (sent) row.start_time = evalscope_seconds(r.sent_ns + unix_offset_ns);
  row.inter_token_latencies = "[";
  for (size_t k = 1; k < r.chunk_ns.size(); ++k) {
    if (k > 1) row.inter_token_latencies += ',';
    row.inter_token_latencies += evalscope_seconds_text(r.chunk_ns[k] - r.chunk_ns[k - 1]);
  }
  row.inter_token_latencies += ']';
  row.success = r.ok() ? 1 : 0;
  row.response_messages =
      r.output_text.empty() ? "[]" : "[" + evalscope_json_text(r.output_text) + "]";
  if (r.end_ns >= 0) row.completed_time = evalscope_seconds(r.end_ns + unix_offset_ns);
  row.is_stream = r.stream ? 1 : 0;
  if (!r.ok() || !sent || r.end_ns < 0) return row;

  // EvalScope fills the rest for successful requests only.
  const int64_t latency_ns = r.end_ns - r.sent_ns;
  row.latency = evalscope_seconds(latency_ns);
  const int64_t ttft_ns =
      r.stream && r.first_content_ns >= 0 ? r.first_content_ns - r.sent_ns : latency_ns;
  row.first_chunk_latency = evalscope_seconds(ttft_ns);
  row.prompt_tokens = r.input_tokens;
  row.completion_tokens = r.output_tokens;
  row.max_gpu_memory_cost = 0.0;
  row.time_per_output_token = r.output_tokens > 1 ? evalscope_seconds(latency_ns - ttft_ns) /
                                                        static_cast<double>(r.output_tokens - 1)
                                                  : 0.0;
  return row;
}

struct EvalScopeDb::Open {
  explicit Open(const std::string& tmp) : db(tmp) {
    // The file is renamed into place once complete: a journal on disk would add nothing.
    db.exec("PRAGMA journal_mode=MEMORY");
    db.exec(kEvalScopeResultTable);
    transaction.emplace(db);
    insert.emplace(db, kEvalScopeInsert);
  }
  SqliteDb db;
  std::optional<SqliteTransaction> transaction;
  std::optional<SqliteStatement> insert;
};

EvalScopeDb::EvalScopeDb(const std::string& dir, std::vector<std::string> secrets,
                         int64_t unix_offset_ns)
    : path_((std::filesystem::path(dir) / "benchmark_data.db").string()),
      tmp_(fmt::format("{}.tmp.{}", path_, getpid())),
      secrets_(std::move(secrets)),
      unix_offset_ns_(unix_offset_ns) {
  evalscope_remove_db(tmp_);
  try {
    open_ = std::make_unique<Open>(tmp_);
  } catch (const std::exception& e) {
    evalscope_remove_db(tmp_);
    throw std::runtime_error(fmt::format("cannot write {}: {}", path_, e.what()));
  }
}

EvalScopeDb::~EvalScopeDb() {
  if (!open_) return;
  open_.reset();  // rolls back
  evalscope_remove_db(tmp_);
}

void EvalScopeDb::add(const RequestRecord& record, int64_t unix_offset_ns) {
  if (record.warmup || !open_) return;
  EvalScopeRow row = evalscope_row(record, unix_offset_ns);
  row.response_messages = redact(std::move(row.response_messages), secrets_);
  try {
    evalscope_insert(*open_->insert, row);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("cannot write {}: {}", path_, e.what()));
  }
}

void EvalScopeDb::add(std::span<const RequestRecord> records) {
  for (const RequestRecord& record : records) add(record, unix_offset_ns_);
}

void EvalScopeDb::commit() {
  if (!open_) return;
  try {
    open_->insert.reset();
    open_->transaction->commit();
    open_.reset();
    std::error_code ec;
    std::filesystem::rename(tmp_, path_, ec);
    if (ec) throw std::runtime_error(ec.message());
  } catch (const std::exception& e) {
    open_.reset();
    evalscope_remove_db(tmp_);
    throw std::runtime_error(fmt::format("cannot write {}: {}", path_, e.what()));
  }
}

}  // namespace llmperf
