// Writing a run's files (the JSON summaries, requests.jsonl and report.html): the directory, each
// file atomically (temporary file + rename, so a reader never sees half a summary), and a last
// scrub of credentials from everything written (DESIGN §4: an API key or Authorization header
// never reaches a file, even if a server echoes it back).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "report_internal.h"
#include "report_views.h"

namespace llmperf {
namespace {

constexpr size_t kMinSecretLength = 6;  // shorter values would scrub innocent text

std::runtime_error write_error(const std::string& path, int error) {
  return std::runtime_error(fmt::format("cannot write {}: {}", path, std::strerror(error)));
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (size_t pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
}

// Credential values from the config, as they would appear in plain text and inside JSON strings.
std::vector<std::string> secrets_of(const Config& config) {
  std::vector<std::string> raw;
  if (!config.api_key.empty()) raw.push_back(config.api_key);
  for (const auto& [name, value] : config.headers) {
    if (!report_detail::is_secret_header(name)) continue;
    raw.push_back(value);
    if (value.rfind("Bearer ", 0) == 0) raw.push_back(value.substr(7));
  }
  std::vector<std::string> secrets;
  for (const auto& secret : raw) {
    if (secret.size() < kMinSecretLength) continue;
    secrets.push_back(secret);
    std::string escaped =
        nlohmann::json(secret).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    escaped = escaped.substr(1, escaped.size() - 2);
    if (escaped != secret) secrets.push_back(escaped);
  }
  return secrets;
}

std::string redact(std::string text, const std::vector<std::string>& secrets) {
  for (const auto& secret : secrets) replace_all(text, secret, "***");
  return text;
}

std::string dump(const report_detail::Json& json) {
  return json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
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

std::string report_detail::redact_secrets(const Config& config, std::string text) {
  return redact(std::move(text), secrets_of(config));
}

std::string output_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y%m%d_%H%M%S", &tm);
  return buffer;
}

void write_file_atomic(const std::string& path, const std::string& content) {
  const std::string tmp = fmt::format("{}.tmp.{}", path, getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw write_error(path, errno);
  const char* data = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int error = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw write_error(path, error);
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int error = errno;
    ::unlink(tmp.c_str());
    throw write_error(path, error);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int error = errno;
    ::unlink(tmp.c_str());
    throw write_error(path, error);
  }
}

void write_run_outputs(const Config& config, const RunInfo& info, const RunSummary& summary,
                       const std::vector<RequestRecord>& records) {
  namespace fs = std::filesystem;
  const fs::path dir(info.output_dir.empty() ? "." : info.output_dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw std::runtime_error(
        fmt::format("cannot create directory {}: {}", dir.string(), ec.message()));
  }
  const auto secrets = secrets_of(config);
  auto emit = [&](const char* name, std::string content) {
    write_file_atomic((dir / name).string(), redact(std::move(content), secrets));
  };
  emit("summary.json", dump(report_detail::summary_json(config, info, summary)));
  emit("benchmark_summary.json", dump(report_detail::benchmark_summary_json(info, summary)));
  emit("benchmark_percentile.json", dump(report_detail::benchmark_percentile_json(summary)));
  emit("requests.jsonl", report_detail::requests_jsonl(info, records));
  emit("report.html", report_detail::render_run_html(config, info, summary, records));
}

}  // namespace llmperf
