// Text and JSON of a calibration (see calibration.h). Times are converted from ns to ms here.
#include "report/calibration.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "metrics/catalogue.h"

namespace llmperf {
namespace {

double ms(double ns) { return ns / 1e6; }

std::string load_text(const CalibrationReport& r) {
  const CalibrationPlan& p = r.plan;
  const std::string shape = p.rate > 0 ? fmt::format("rate {:g} req/s (cap {})", p.rate, p.parallel)
                                       : fmt::format("parallel {}, closed loop", p.parallel);
  return fmt::format("{}, {} requests after {} warm-up, {} output tokens each", shape, r.requests,
                     p.warmup(), p.max_tokens);
}

std::string pinning_text(const CalibrationPinning& pin) {
  if (!pin.pinned) {
    return pin.client_cpus.size() <= 1
               ? "one CPU: llmperf-mock and llmperf share it (errors include their contention)"
               : "not pinned";
  }
  return fmt::format("llmperf-mock on CPU {}, llmperf on CPU {}", pin.mock_cpu,
                     fmt::join(pin.client_cpus, ","));
}

// {"p50": ms, "p99": ms, "count": n}; null percentiles when empty.
nlohmann::json distribution_ms(const Distribution& d) {
  if (d.empty()) return {{"count", 0}, {"p50", nullptr}, {"p99", nullptr}};
  return {{"count", d.count},
          {"p50", ms(d.percentiles.at(0))},
          {"p99", ms(d.percentiles.at(1))},
          {"max", ms(d.max)}};
}

std::string row(const char* name, const Distribution& d) {
  if (d.empty()) return fmt::format("  {:<22}{:>10}{:>10}{:>10}\n", name, "-", "-", "-");
  return fmt::format("  {:<22}{:>10.3f}{:>10.3f}{:>10.3f}\n", name, ms(d.percentiles.at(0)),
                     ms(d.percentiles.at(1)), ms(d.max));
}

}  // namespace

std::string render_calibration_text(const CalibrationReport& r) {
  const CalibrationErrors& e = r.errors;
  const CalibrationVerdict& v = r.verdict;
  std::string out = fmt::format("\nCalibration: {}\n", load_text(r));
  out += fmt::format(
      "  Server    llmperf-mock, TTFT {:g} ms, ITL {:g} ms (measured by it: TTFT "
      "p50 {:.3f} ms, ITL p50 {:.3f} ms)\n",
      r.plan.ttft_ms, r.plan.itl_ms,
      e.server_ttft_ns.empty() ? 0.0 : ms(e.server_ttft_ns.percentiles.at(0)),
      e.server_itl_ns.empty() ? 0.0 : ms(e.server_itl_ns.percentiles.at(0)));
  out += fmt::format("  Pinning   {}\n", pinning_text(r.pinning));
  out += fmt::format("  Client    {} worker{} ({}), CPU {:.0f} % per worker{}\n", r.load.threads,
                     r.load.threads == 1 ? "" : "s", r.threads_reason, v.cpu_per_worker * 100,
                     r.load.client_bound   ? ", client-bound"
                     : r.load.machine_busy ? ", machine busy"
                                           : "");
  out += fmt::format("  Matched   {} of {} requests, {} events ({} unmatched)\n\n",
                     e.requests_matched, r.requests, e.events_matched, e.events_unmatched);
  out += fmt::format("  {:<22}{:>10}{:>10}{:>10}\n", "client - server (ms)", "p50", "p99", "max");
  out += row("TTFT error", e.ttft_error_ns);
  out += row("ITL error", e.itl_error_ns);
  out += row("stamp delay", e.stamp_delay_ns);
  out += fmt::format("\nVerdict: {}\n", v.faithful ? "faithful" : "not faithful");
  for (const std::string& reason : v.reasons) out += fmt::format("  - {}\n", reason);
  out += fmt::format(
      "  (faithful: p99 ITL error <= {:g} ms, p99 TTFT error <= {:g} ms, neither "
      "client-bound nor machine busy)\n",
      ms(kCalibrationItlErrorLimitNs), ms(kCalibrationTtftErrorLimitNs));
  out += fmt::format("Recommendation: {}\n", v.recommendation);
  return out;
}

std::string calibration_to_json(const CalibrationReport& r) {
  const CalibrationPlan& p = r.plan;
  const CalibrationErrors& e = r.errors;
  const CalibrationVerdict& v = r.verdict;
  nlohmann::json j = {
      {"schema", "llmperf.calibration/1"},
      {"planned_load",
       {{"parallel", p.parallel},
        {"rate", p.rate > 0 ? nlohmann::json(p.rate) : nlohmann::json(nullptr)},
        {"threads", p.threads > 0 ? nlohmann::json(p.threads) : nlohmann::json("auto")},
        {"max_tokens", p.max_tokens},
        {"requests", r.requests},
        {"warmup_requests", p.warmup()}}},
      {"mock",
       {{"path", r.mock_path},
        {metric_key(Metric::kTtft), p.ttft_ms},
        {metric_key(Metric::kItl), p.itl_ms},
        {"output_tokens", p.max_tokens},
        {"measured_ttft_ms", distribution_ms(e.server_ttft_ns)},
        {"measured_itl_ms", distribution_ms(e.server_itl_ns)}}},
      {"pinning",
       {{"pinned", r.pinning.pinned},
        {"mock_cpu",
         r.pinning.mock_cpu >= 0 ? nlohmann::json(r.pinning.mock_cpu) : nlohmann::json(nullptr)},
        {"client_cpus", r.pinning.client_cpus},
        {"text", pinning_text(r.pinning)}}},
      {"matched",
       {{"requests", e.requests_matched},
        {"requests_unmatched", e.requests_unmatched},
        {"requests_succeeded", r.succeeded},
        {"events", e.events_matched},
        {"events_unmatched", e.events_unmatched}}},
      {"errors_ms",
       {{metric_info(Metric::kTtft).name, distribution_ms(e.ttft_error_ns)},
        {metric_info(Metric::kItl).name, distribution_ms(e.itl_error_ns)},
        {"stamp_delay", distribution_ms(e.stamp_delay_ns)}}},
      {"client",
       {{"threads", r.load.threads},
        {"threads_reason", r.threads_reason},
        {"cpu_s", r.load.cpu_s},
        {"wall_s", r.load.wall_s},
        {"cpu_per_worker", v.cpu_per_worker},
        {"cpu_per_event_us", v.cpu_per_event_s * 1e6},
        {"events_per_s", v.events_per_s},
        {"client_bound", r.load.client_bound},
        {"warnings", r.load.client_warnings},
        {"machine_busy", r.load.machine_busy},
        {"machine_warnings", r.load.machine_warnings},
        {"cores", r.load.cores}}},
      {"verdict", v.faithful ? "faithful" : "not faithful"},
      {"faithful", v.faithful},
      {"limits_ms",
       {{metric_key_in(Metric::kItl, "error_p99", ""), ms(kCalibrationItlErrorLimitNs)},
        {metric_key_in(Metric::kTtft, "error_p99", ""), ms(kCalibrationTtftErrorLimitNs)}}},
      {"reasons", v.reasons},
      {"recommendation",
       {{"workers_needed", v.workers_needed},
        {"cores_to_spare", v.cores_to_spare},
        {"machine_suffices", v.machine_suffices},
        {"text", v.recommendation}}},
      {"run_dir", r.run_dir}};
  return j.dump(2) + "\n";
}

}  // namespace llmperf
