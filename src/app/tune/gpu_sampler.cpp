// GPU memory sampling with nvidia-smi (see gpu_sampler.h).
#include "app/tune/gpu_sampler.h"

#include "app/programs.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "app/child_process.h"
#include "core/clock.h"

namespace llmperf {
namespace {

constexpr size_t kMaxOutputBytes = 1 << 20;
constexpr int kPollSliceMs = 50;  // how often a call in progress checks for stop()

std::string_view trim_blank(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

bool parse_int(std::string_view text, int64_t& value) {
  text = trim_blank(text);
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}


}  // namespace

std::vector<GpuMemory> parse_gpu_memory(std::string_view text) {
  std::vector<GpuMemory> gpus;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    int64_t fields[3] = {0, 0, 0};
    int count = 0;
    bool ok = true;
    while (ok && count < 3) {
      const size_t comma = line.find(',');
      ok = parse_int(line.substr(0, comma), fields[count]);
      ++count;
      line = comma == std::string_view::npos ? std::string_view() : line.substr(comma + 1);
      if (comma == std::string_view::npos && count < 3) ok = false;
    }
    if (!ok || fields[0] < 0 || fields[0] > 1'000'000 || fields[1] < 0 || fields[2] < 0) continue;
    gpus.push_back({static_cast<int>(fields[0]), fields[1], fields[2]});
  }
  return gpus;
}

void keep_peaks(std::vector<GpuMemory>& peaks, const std::vector<GpuMemory>& sample,
                const std::vector<int>& only) {
  for (const GpuMemory& gpu : sample) {
    if (!only.empty() && std::find(only.begin(), only.end(), gpu.index) == only.end()) continue;
    auto it = std::lower_bound(peaks.begin(), peaks.end(), gpu.index,
                               [](const GpuMemory& p, int index) { return p.index < index; });
    if (it == peaks.end() || it->index != gpu.index) {
      peaks.insert(it, gpu);
    } else if (gpu.used_mib > it->used_mib) {
      *it = gpu;
    }
  }
}

GpuSampler::GpuSampler(GpuSamplerOptions options)
    : options_(std::move(options)), program_path_(find_on_path(options_.program)) {
  if (active()) thread_ = std::thread([this] { run(); });
}

GpuSampler::~GpuSampler() { stop(); }

std::vector<GpuMemory> GpuSampler::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  return peaks_;
}

void GpuSampler::run() {
  while (!stopping_.load()) {
    const std::vector<GpuMemory> sample = parse_gpu_memory(call_once());
    std::unique_lock lock(mutex_);
    if (!sample.empty()) {
      keep_peaks(peaks_, sample, options_.gpu_ids);
      samples_.fetch_add(1);
    }
    wake_.wait_for(lock, std::chrono::milliseconds(options_.interval_ms),
                   [this] { return stopping_.load(); });
  }
}

std::string GpuSampler::call_once() {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return "";
  ChildOptions options;
  options.argv = {program_path_, "--query-gpu=index,memory.used,memory.total",
                  "--format=csv,noheader,nounits"};
  options.stdin_fd = kChildDevNull;
  options.stdout_fd = out[1];
  options.stderr_fd = kChildDevNull;
  const ChildCommand command(std::move(options));
  const ChildStart started = start_child(command);
  close(out[1]);
  if (started.pid < 0 || started.error != 0) {
    close(out[0]);
    if (started.pid > 0) {
      while (waitpid(started.pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    return "";
  }
  const pid_t pid = started.pid;

  std::string text;
  bool complete = false;
  const int64_t deadline = now_ns() + options_.call_timeout_ms * 1'000'000;
  while (!stopping_.load() && now_ns() < deadline) {
    pollfd p{out[0], POLLIN, 0};
    if (poll(&p, 1, kPollSliceMs) <= 0) continue;
    char buffer[4096];
    const ssize_t n = read(out[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      complete = n == 0;
      break;
    }
    if (text.size() < kMaxOutputBytes) text.append(buffer, static_cast<size_t>(n));
  }
  close(out[0]);
  if (!complete) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!complete || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return "";
  return text;
}

}  // namespace llmperf
