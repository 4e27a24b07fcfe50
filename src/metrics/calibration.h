// Calibration: how far llmperf's own stamps sit from the truth on this machine. The simulated
// server (llmperf-mock --event-log) records when each request arrived and when it wrote each
// content chunk; both processes read CLOCK_MONOTONIC, so the client's stamps can be compared with
// the server's writes event by event (bench/compare_event_log.py does the same offline). Pure
// functions: records and the server's log in, error distributions and a verdict out.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/record.h"
#include "metrics/stats/stats.h"

namespace llmperf {

// The verdict's limits: beyond them the client's error is visible in a server's tail latencies.
inline constexpr int64_t kCalibrationItlErrorLimitNs = 500'000;     // p99 ITL error: 0.5 ms
inline constexpr int64_t kCalibrationTtftErrorLimitNs = 2'000'000;  // p99 TTFT error: 2 ms
inline constexpr double kCalibrationCpuPerWorker =
    0.6;  // CPU share a worker may use, headroom kept

// llmperf-mock's event log: `recv <seq> <ns>` and `evt <seq> <index> <ns>` lines.
struct ServerEvents {
  std::unordered_map<uint64_t, int64_t> received_ns;            // request seq -> fully received
  std::unordered_map<uint64_t, std::vector<int64_t>> write_ns;  // seq -> write of chunk i (-1:
                                                                // not in the log)
};

// Parses an event log; lines of other kinds (start_profile, ...) are skipped. Throws
// std::runtime_error naming the line number of a malformed recv/evt line.
ServerEvents parse_event_log(std::istream& in);

// The mock's request number behind a response id "chatcmpl-<seq>"; -1 for any other id.
int64_t mock_sequence(const std::string& response_id);

// Client minus server, per successful request matched through its response id. All ns.
struct CalibrationErrors {
  int64_t requests_matched = 0;    // successful measured (not warm-up) records whose request
                                   // is in the server's log
  int64_t requests_unmatched = 0;  // successful records with no such request
  int64_t events_matched = 0;      // client chunk stamps with a server write of the same index
  int64_t events_unmatched = 0;    // client chunk stamps without one
  Distribution ttft_error_ns;      // per request: client TTFT - server TTFT (first write - recv)
  Distribution itl_error_ns;       // per consecutive chunk pair: client gap - server gap
  Distribution stamp_delay_ns;     // per chunk: client stamp - server write
  Distribution server_ttft_ns;     // per request: first write - recv (what the mock did)
  Distribution server_itl_ns;      // per consecutive pair: the server's gap
};

// The percentiles every CalibrationErrors distribution holds, in this order: p50, p99.
inline const std::vector<double> kCalibrationPercentiles = {50, 99};

// Compares `records` (warm-up ones are left out; times + clock_offset_ns = CLOCK_MONOTONIC;
// requests.jsonl's times count from summary.json's run.monotonic_anchor_ns) with the server's log.
CalibrationErrors compare_with_server(const std::vector<RequestRecord>& records,
                                      const ServerEvents& server, int64_t clock_offset_ns);

// How hard the client worked during the calibration run (summary.json's "client").
struct ClientLoad {
  double cpu_s = 0;                          // CPU time of the worker threads
  double wall_s = 0;                         // the run's duration
  int threads = 1;                           // worker threads the run used
  bool client_bound = false;                 // the run's own client-health verdict
  std::vector<std::string> client_warnings;  // its reasons
  bool machine_busy = false;                 // the machine, not llmperf, made the client late
  std::vector<std::string> machine_warnings;  // its reasons
  int64_t events = 0;                        // content chunks the client stamped
  int cores = 1;  // CPUs this machine lets llmperf use (before any pinning)
};

struct CalibrationVerdict {
  bool faithful = false;
  std::vector<std::string> reasons;  // why not faithful (empty when faithful)
  double cpu_per_worker = 0;         // cpu_s / (wall_s x threads)
  double cpu_per_event_s = 0;        // cpu_s / events
  double events_per_s = 0;           // events / wall_s
  int workers_needed = 1;            // workers keeping each at <= kCalibrationCpuPerWorker
  int cores_to_spare = 0;            // cores - 1 (one left for a server on the same host)
  bool machine_suffices = true;      // workers_needed <= cores_to_spare (or 1 core: never)
  std::string recommendation;        // one paragraph, plain words
};

// Faithful when p99 ITL error <= 0.5 ms, p99 TTFT error <= 2 ms, events were matched and the run
// was neither client-bound nor late for a busy machine. The recommendation estimates the workers
// the load needs from the measured CPU per event: workers = ceil(events/s x CPU-s/event / 0.6).
CalibrationVerdict judge_calibration(const CalibrationErrors& errors, const ClientLoad& load);

}  // namespace llmperf
