// The independent capacity check of `--search rate` (capacity_check.h).
#include "capacity_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// (events - 1) / (last - first) in events per second; 0 with fewer than two events.
double rate_of(std::vector<int64_t> times_ns) {
  if (times_ns.size() < 2) return 0;
  const auto [first, last] = std::minmax_element(times_ns.begin(), times_ns.end());
  if (*last <= *first) return 0;
  return static_cast<double>(times_ns.size() - 1) / (static_cast<double>(*last - *first) / 1e9);
}

double p99(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::infinity();
  std::sort(values.begin(), values.end());
  const double rank = 0.99 * static_cast<double>(values.size() - 1);
  const auto below = static_cast<size_t>(rank);
  const size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (rank - static_cast<double>(below)) * (values[above] - values[below]);
}

}  // namespace

std::string RateProbeCheck::describe() const {
  return fmt::format("rate {:g}: scheduled {:.2f}, sustained {:.2f} req/s, TTFT p99 from the "
                     "planned send {:.0f} ms, {} of {} ok: {}",
                     rate, scheduled, sustained, ttft_p99_ms, ok, total,
                     passed ? "passes" : "fails");
}

RateProbeCheck check_rate_probe(const fs::path& run_dir, double ttft_limit_ms) {
  RateProbeCheck check;
  check.rate = json::parse(read_file((run_dir / "summary.json").string()))["run"]["rate"];
  std::vector<int64_t> planned;
  std::vector<int64_t> ends;
  std::vector<double> ttfts_ms;
  for (const json& r : read_requests(run_dir)) {
    if (r.value("warmup", false)) continue;
    ++check.total;
    planned.push_back(r["planned_ns"].get<int64_t>());
    if (!r["ok"].get<bool>()) continue;
    ++check.ok;
    ends.push_back(r["end_ns"].get<int64_t>());
    ttfts_ms.push_back(
        static_cast<double>(r["first_content_ns"].get<int64_t>() - r["planned_ns"].get<int64_t>()) /
        1e6);
  }
  check.scheduled = rate_of(planned);
  check.sustained = rate_of(ends);
  check.ttft_p99_ms = p99(ttfts_ms);
  check.passed = check.total > 1 && check.ok == check.total &&
                 check.sustained >= 0.95 * check.scheduled && check.ttft_p99_ms <= ttft_limit_ms;
  return check;
}

double search_answer(const std::string& out) {
  if (out.find("No rate (req/s) in the range meets every --slo") != std::string::npos) return -1;
  const std::string marker = "Highest rate (req/s) meeting every --slo: ";
  const size_t at = out.find(marker);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(out.c_str() + at + marker.size(), nullptr);
}

double highest_sustained_rate(const std::vector<std::string>& args,
                              const std::vector<double>& rates, double ttft_limit_ms,
                              std::string& table) {
  std::vector<std::string> sweep = args;
  sweep.push_back("--rate");
  for (double rate : rates) sweep.push_back(fmt::format("{:.3f}", rate));
  const BenchRun run = run_llmperf(sweep, "", 600);
  EXPECT_EQ(run.run_dirs.size(), rates.size()) << diagnostics(run);
  double highest = 0;
  for (const fs::path& dir : run.run_dirs) {
    const RateProbeCheck check = check_rate_probe(dir, ttft_limit_ms);
    table += check.describe() + "\n";
    if (check.passed) highest = std::max(highest, check.rate);
  }
  return highest;
}

}  // namespace llmperf::testing
