// Writing a run's files (the JSON summaries, requests.jsonl and report.html): the directory, each
// file atomically (temporary file + rename, so a reader never sees half a summary; requests.jsonl
// is streamed to a .partial file during the run and renamed at its end), and a last scrub of
// credentials from everything written (DESIGN §4: an API key or Authorization header never
// reaches a file, even if a server echoes it back).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/text.h"
#include "report/internal.h"
#include "report/views.h"

namespace llmperf {
namespace {

std::filesystem::path create_run_dir(const RunInfo& info) {
  const std::filesystem::path dir(info.output_dir.empty() ? "." : info.output_dir);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    throw std::runtime_error(
        fmt::format("cannot create directory {}: {}", dir.string(), ec.message()));
  }
  return dir;
}

std::string dump(const report_detail::Json& document) {
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string report_detail::read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

nlohmann::json report_detail::read_json_file(const std::string& path) {
  nlohmann::json j = nlohmann::json::parse(read_text_file(path), nullptr, false);
  if (j.is_discarded()) throw std::runtime_error(fmt::format("{} is not valid JSON", path));
  return j;
}

void write_run_outputs(const ReportOptions& options, const RunInfo& info, const RunSummary& summary,
                       const RunTrace& trace, const VllmArrays& requests) {
  const std::filesystem::path dir = create_run_dir(info);
  auto emit = [&](const char* name, std::string content) {
    write_file_atomic((dir / name).string(),
                      report_detail::redact(std::move(content), options.secrets));
  };
  emit("summary.json", summary_file_text(report_detail::summary_file(options, info, summary)));
  emit("benchmark_summary.json", dump(report_detail::benchmark_summary_json(info, summary)));
  emit("benchmark_percentile.json", dump(report_detail::benchmark_percentile_json(summary)));
  emit("report.html", report_detail::render_run_html(options, info, summary, trace));
  report_detail::write_vllm_result(options, info, summary, requests);
}

void write_run_outputs(const ReportOptions& options, const RunInfo& info, const RunSummary& summary,
                       const RunTrace& trace) {
  write_run_outputs(options, info, summary, trace, VllmArrays(info.anchor_steady_ns, {}));
}

RecordsFile::RecordsFile(const ReportOptions& options, const RunInfo& info)
    : info_(info), secrets_(options.secrets) {
  const std::filesystem::path dir = create_run_dir(info);
  path_ = (dir / "requests.jsonl").string();
  partial_path_ = path_ + ".partial";
  fd_ = ::open(partial_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw file_write_error(partial_path_, errno);
}

RecordsFile::~RecordsFile() {
  if (fd_ < 0) return;
  // Best effort: every complete line gathered stays in the .partial file.
  write_all_fd(fd_, buffer_);
  ::close(fd_);
}

void RecordsFile::append(const RequestRecord& record) {
  buffer_ += report_detail::redact(record_to_json(record, info_), secrets_);
  buffer_ += '\n';
  if (buffer_.size() >= kFlushBytes) flush();
}

void RecordsFile::add(std::span<const RequestRecord> records) {
  // Not a write per batch (report.h says why): one every kFlushIntervalNs at most.
  for (const RequestRecord& record : records) append(record);
  if (!buffer_.empty() && now_ns() - flushed_ns_ >= kFlushIntervalNs) flush();
}

void RecordsFile::flush() {
  if (const int error = write_all_fd(fd_, buffer_); error != 0)
    throw file_write_error(partial_path_, error);
  buffer_.clear();
  flushed_ns_ = now_ns();
}

void RecordsFile::commit() {
  flush();
  const int fd = fd_;
  fd_ = -1;
  if (const int error = sync_and_close_fd(fd); error != 0) {
    throw file_write_error(partial_path_, error);
  }
  if (::rename(partial_path_.c_str(), path_.c_str()) != 0) throw file_write_error(path_, errno);
}

}  // namespace llmperf
