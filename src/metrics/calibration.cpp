// Client stamps against the simulated server's writes, and the calibration verdict (see
// calibration.h).
#include "metrics/calibration.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace llmperf {
namespace {

double as_ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

double p99(const Distribution& d) { return d.percentiles.at(1); }

}  // namespace

ServerEvents parse_event_log(std::istream& in) {
  ServerEvents events;
  std::string line;
  int64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream fields(line);
    std::string kind;
    fields >> kind;
    if (kind != "recv" && kind != "evt") continue;
    uint64_t seq = 0;
    int64_t index = 0;
    int64_t ns = 0;
    fields >> seq;
    if (kind == "evt") fields >> index;
    fields >> ns;
    if (fields.fail() || index < 0) {
      throw std::runtime_error(fmt::format("event log line {}: malformed: '{}'", number, line));
    }
    if (kind == "recv") {
      events.received_ns[seq] = ns;
      continue;
    }
    std::vector<int64_t>& writes = events.write_ns[seq];
    if (writes.size() <= static_cast<size_t>(index))
      writes.resize(static_cast<size_t>(index) + 1, -1);
    writes[static_cast<size_t>(index)] = ns;
  }
  return events;
}

int64_t mock_sequence(const std::string& response_id) {
  constexpr std::string_view kPrefix = "chatcmpl-";
  if (response_id.rfind(kPrefix, 0) != 0) return -1;
  const char* first = response_id.data() + kPrefix.size();
  const char* last = response_id.data() + response_id.size();
  int64_t seq = -1;
  const auto [end, error] = std::from_chars(first, last, seq);
  return (error == std::errc() && end == last && first != last) ? seq : -1;
}

CalibrationErrors compare_with_server(const std::vector<RequestRecord>& records,
                                      const ServerEvents& server, int64_t clock_offset_ns) {
  CalibrationErrors out;
  std::vector<double> ttft_error, itl_error, stamp_delay, server_ttft, server_itl;
  for (const RequestRecord& r : records) {
    if (!r.ok() || r.warmup || r.chunk_ns.empty()) continue;
    const int64_t seq = mock_sequence(r.response_id);
    const auto writes = server.write_ns.find(static_cast<uint64_t>(seq));
    if (seq < 0 || writes == server.write_ns.end()) {
      ++out.requests_unmatched;
      out.events_unmatched += static_cast<int64_t>(r.chunk_ns.size());
      continue;
    }
    ++out.requests_matched;
    const std::vector<int64_t>& written = writes->second;
    const auto written_at = [&](size_t i) { return i < written.size() ? written[i] : -1; };
    for (size_t i = 0; i < r.chunk_ns.size(); ++i) {
      const int64_t write = written_at(i);
      if (write < 0) {
        ++out.events_unmatched;
        continue;
      }
      ++out.events_matched;
      stamp_delay.push_back(static_cast<double>(r.chunk_ns[i] + clock_offset_ns - write));
      if (i == 0 || written_at(i - 1) < 0) continue;
      const int64_t server_gap = write - written_at(i - 1);
      server_itl.push_back(static_cast<double>(server_gap));
      itl_error.push_back(static_cast<double>(r.chunk_ns[i] - r.chunk_ns[i - 1] - server_gap));
    }
    const auto received = server.received_ns.find(static_cast<uint64_t>(seq));
    if (received != server.received_ns.end() && written_at(0) >= 0) {
      const int64_t server_first = written_at(0) - received->second;
      server_ttft.push_back(static_cast<double>(server_first));
      const int64_t client_first = r.chunk_ns.front() - r.sent_ns;
      ttft_error.push_back(static_cast<double>(client_first - server_first));
    }
  }
  out.ttft_error_ns = describe(std::move(ttft_error), kCalibrationPercentiles);
  out.itl_error_ns = describe(std::move(itl_error), kCalibrationPercentiles);
  out.stamp_delay_ns = describe(std::move(stamp_delay), kCalibrationPercentiles);
  out.server_ttft_ns = describe(std::move(server_ttft), kCalibrationPercentiles);
  out.server_itl_ns = describe(std::move(server_itl), kCalibrationPercentiles);
  return out;
}

CalibrationVerdict judge_calibration(const CalibrationErrors& errors, const ClientLoad& load) {
  CalibrationVerdict v;
  const double cpu_rate = load.wall_s > 0 ? load.cpu_s / load.wall_s : 0;  // cores busy
  v.cpu_per_worker = cpu_rate / std::max(1, load.threads);
  v.cpu_per_event_s = load.events > 0 ? load.cpu_s / static_cast<double>(load.events) : 0;
  v.events_per_s = load.wall_s > 0 ? static_cast<double>(load.events) / load.wall_s : 0;
  v.workers_needed = std::max(
      1, static_cast<int>(
             std::ceil(v.events_per_s * v.cpu_per_event_s / kCalibrationCpuPerWorker - 1e-9)));
  v.cores_to_spare = std::max(0, load.cores - 1);
  v.machine_suffices = load.cores > 1 && v.workers_needed <= v.cores_to_spare;

  if (errors.events_matched == 0) {
    v.reasons.push_back("no client stamp could be matched with a server write");
  }
  if (!errors.itl_error_ns.empty() && p99(errors.itl_error_ns) > kCalibrationItlErrorLimitNs) {
    v.reasons.push_back(fmt::format("p99 ITL error {:.3f} ms > {:.1f} ms",
                                    as_ms(static_cast<int64_t>(p99(errors.itl_error_ns))),
                                    as_ms(kCalibrationItlErrorLimitNs)));
  }
  if (!errors.ttft_error_ns.empty() && p99(errors.ttft_error_ns) > kCalibrationTtftErrorLimitNs) {
    v.reasons.push_back(fmt::format("p99 TTFT error {:.3f} ms > {:.1f} ms",
                                    as_ms(static_cast<int64_t>(p99(errors.ttft_error_ns))),
                                    as_ms(kCalibrationTtftErrorLimitNs)));
  }
  if (load.client_bound) {
    std::string why = "the run was client-bound";
    for (size_t i = 0; i < load.client_warnings.size(); ++i) {
      why += (i == 0 ? ": " : "; ") + load.client_warnings[i];
    }
    v.reasons.push_back(why);
  }
  if (load.machine_busy) {
    std::string why = "the machine was busy";
    for (size_t i = 0; i < load.machine_warnings.size(); ++i) {
      why += (i == 0 ? ": " : "; ") + load.machine_warnings[i];
    }
    v.reasons.push_back(why);
  }
  v.faithful = v.reasons.empty();

  const std::string cpu_text = fmt::format(
      "The client used {:.0f} % of a core per worker ({} worker{}; {:.1f} us of CPU "
      "per event at {:.0f} events/s), so this load needs {} worker{} to stay at or "
      "below {:.0f} % each",
      v.cpu_per_worker * 100, load.threads, load.threads == 1 ? "" : "s", v.cpu_per_event_s * 1e6,
      v.events_per_s, v.workers_needed, v.workers_needed == 1 ? "" : "s",
      kCalibrationCpuPerWorker * 100);
  const std::string cores_text =
      load.cores <= 1 ? "this machine has a single core, which client and server share"
                      : fmt::format(
                            "this machine has {} core{} to spare (of {}, one left for a server on "
                            "the same host)",
                            v.cores_to_spare, v.cores_to_spare == 1 ? "" : "s", load.cores);
  if (v.faithful) {
    v.recommendation = fmt::format(
        "{}; {}. The planned load can be measured faithfully here{}.", cpu_text, cores_text,
        v.workers_needed > load.threads ? fmt::format(" with --threads {}", v.workers_needed) : "");
  } else if (!v.machine_suffices) {
    v.recommendation = fmt::format(
        "{}; {}. The planned load can't be measured faithfully here: run the client on a "
        "bigger machine, away from the server, or split it across machines with --shard.",
        cpu_text, cores_text);
  } else if (v.workers_needed > load.threads) {
    v.recommendation = fmt::format("{}; {}. Run with --threads {} and calibrate again.", cpu_text,
                                   cores_text, v.workers_needed);
  } else {
    v.recommendation = fmt::format(
        "{}; {}. CPU is not what limits the client: the error comes from scheduling (other "
        "processes, or the server, competing for its cores). Calibrate again on a quieter "
        "machine, or keep the server off the client's cores.",
        cpu_text, cores_text);
  }
  return v;
}

}  // namespace llmperf
