// Early stops (see early_stop.h).
#include "verdict/early_stop.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "metrics/stats/confidence.h"

namespace llmperf {
namespace {

// A series grows steadily (SaturationTest): a positive, significant slope whose fitted rise
// across the windows is at least `min_growth` of the mean and at least `min_rise`.
bool early_stop_grows(const SlopeFit& fit, double span, double min_rise) {
  if (fit.n < 3 || !(fit.slope > 0)) return false;
  if (!(fit.t_stat > student_t975(static_cast<int>(fit.n) - 2))) return false;
  const double rise = fit.slope * span;
  return rise >= SaturationTest::kMinGrowth * std::fabs(fit.mean_y) && rise >= min_rise;
}

}  // namespace

std::optional<std::string> SaturationTest::tick(int64_t elapsed_ns, int64_t outstanding) {
  if (window_ns_ <= 0) return std::nullopt;
  if (window_end_ns_ < 0) window_end_ns_ = window_ns_;
  if (elapsed_ns < window_end_ns_) return std::nullopt;
  Window window;
  window.end_s = static_cast<double>(window_end_ns_) / 1e9;
  window.outstanding = static_cast<double>(outstanding);
  if (!ttfts_ns_.empty()) {  // the median, halfway between the middle two of an even count
    const size_t mid = ttfts_ns_.size() / 2;
    std::nth_element(ttfts_ns_.begin(), ttfts_ns_.begin() + static_cast<ptrdiff_t>(mid),
                     ttfts_ns_.end());
    double median = static_cast<double>(ttfts_ns_[mid]);
    if (ttfts_ns_.size() % 2 == 0) {
      median = (median + static_cast<double>(*std::max_element(
                             ttfts_ns_.begin(), ttfts_ns_.begin() + static_cast<ptrdiff_t>(mid)))) /
               2;
    }
    window.ttft_ms = median / 1e6;
  }
  ttfts_ns_.clear();
  windows_.push_back(window);
  if (windows_.size() > static_cast<size_t>(kWindows)) windows_.erase(windows_.begin());
  // The next window is the one `elapsed_ns` falls in: windows no tick saw are skipped.
  window_end_ns_ = (elapsed_ns / window_ns_ + 1) * window_ns_;
  return test();
}

std::optional<std::string> SaturationTest::test() const {
  if (windows_.size() < static_cast<size_t>(kWindows)) return std::nullopt;
  std::vector<double> x;
  std::vector<double> outstanding;
  std::vector<double> ttft_x;
  std::vector<double> ttft;
  for (const Window& w : windows_) {
    x.push_back(w.end_s);
    outstanding.push_back(w.outstanding);
    if (w.ttft_ms >= 0) {
      ttft_x.push_back(w.end_s);
      ttft.push_back(w.ttft_ms);
    }
  }
  if (ttft.size() < static_cast<size_t>(kMinTtftPoints)) return std::nullopt;
  const SlopeFit queue = least_squares(x, outstanding);
  const SlopeFit wait = least_squares(ttft_x, ttft);
  const double span = x.back() - x.front();
  const double ttft_span = ttft_x.back() - ttft_x.front();
  if (!early_stop_grows(queue, span, kMinRiseRequests) || !early_stop_grows(wait, ttft_span, 0)) {
    return std::nullopt;
  }
  // The fitted values at the first and last window: the trend without the noise.
  const auto fitted = [](const SlopeFit& fit, const std::vector<double>& xs, double at) {
    double mean_x = 0;
    for (const double v : xs) mean_x += v;
    mean_x /= static_cast<double>(xs.size());
    return fit.mean_y + fit.slope * (at - mean_x);
  };
  return fmt::format(
      "over the last {:g} s ({} windows of {:g} s) requests outstanding grew from {:.0f} to {:.0f} "
      "and the median TTFT from {:.0f} ms to {:.0f} ms",
      span + span / (kWindows - 1), kWindows, span / (kWindows - 1), fitted(queue, x, x.front()),
      fitted(queue, x, x.back()), fitted(wait, ttft_x, ttft_x.front()),
      fitted(wait, ttft_x, ttft_x.back()));
}

EarlyStopMonitor::EarlyStopMonitor(const EarlyStopRules& rules,
                                   const std::vector<int64_t>* schedule_ns, int64_t duration_ns)
    : rules_(rules),
      schedule_ns_(schedule_ns),
      duration_ns_(duration_ns),
      saturation_(rules.saturation_window_ns) {
  if (rules_.max_error_rate >= 0) recent_.assign(static_cast<size_t>(rules_.error_window), 0);
}

void EarlyStopMonitor::add(const RequestRecord& record) {
  ++finished_;
  if (record.warmup || decision_) return;
  ++measured_;
  const bool failed = !record.ok();
  if (failed) ++failed_;
  if (rules_.stop_on_saturation && !failed && record.first_content_ns >= 0) {
    const int64_t from = record.planned_ns >= 0 ? record.planned_ns : record.sent_ns;
    saturation_.add_ttft(record.first_content_ns - from);
  }
  if (rules_.max_errors > 0 && failed_ >= rules_.max_errors) {
    decide("max_errors", fmt::format("{} of {} measured requests failed (--max-errors {})", failed_,
                                     measured_, rules_.max_errors));
    return;
  }
  if (rules_.max_error_rate >= 0) {
    char& slot = recent_[recent_next_];
    recent_failed_ += (failed ? 1 : 0) - slot;
    slot = failed ? 1 : 0;
    recent_next_ = (recent_next_ + 1) % recent_.size();
    const auto window = static_cast<int64_t>(recent_.size());
    if (measured_ >= window) {
      const double rate = static_cast<double>(recent_failed_) / static_cast<double>(window);
      if (rate > rules_.max_error_rate) {
        decide("max_error_rate",
               fmt::format("{} of the last {} measured requests failed ({:.1f} %, "
                           "--max-error-rate {:g})",
                           recent_failed_, window, rate * 100, rules_.max_error_rate));
      }
    }
  }
}

const std::optional<EarlyStopDecision>& EarlyStopMonitor::check(int64_t elapsed_ns) {
  if (decision_ || !rules_.stop_on_saturation) return decision_;
  int64_t due = finished_;  // closed loop: nothing is planned ahead
  if (schedule_ns_ != nullptr && !schedule_ns_->empty()) {
    const int64_t until = duration_ns_ > 0 ? std::min(elapsed_ns, duration_ns_) : elapsed_ns;
    due =
        std::upper_bound(schedule_ns_->begin(), schedule_ns_->end(), until) - schedule_ns_->begin();
  }
  if (std::optional<std::string> seen =
          saturation_.tick(elapsed_ns, std::max<int64_t>(0, due - finished_))) {
    decide("saturation", fmt::format("the server cannot keep up with the offered load: {}", *seen));
  }
  return decision_;
}

void EarlyStopMonitor::decide(const char* reason, std::string detail) {
  decision_ = EarlyStopDecision{reason, measured_, std::move(detail)};
}

}  // namespace llmperf
