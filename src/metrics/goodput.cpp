// Goodput: parsing `--goodput KEY:MS ...` and deciding which requests were good, following
// vLLM's benchmark_serving (a request is good when every given metric is <= its bound; a request
// with one output token has TPOT 0). Pure: no I/O, logging or threads.
#include "metrics/goodput.h"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "metrics/catalogue.h"

namespace llmperf {
namespace {

constexpr double kNsPerMs = 1e6;

constexpr GoodputBound kGoodputBounds[] = {
    {Metric::kTtft, &GoodputSpec::ttft_ns},
    {Metric::kTtfat, &GoodputSpec::ttfat_ns},
    {Metric::kTpot, &GoodputSpec::tpot_ns},
    {Metric::kLatency, &GoodputSpec::e2el_ns},
};

// "ttft, ttfat, tpot, e2el", with `last` ("or") before the last name when given.
std::string goodput_names(std::string_view last = {}) {
  std::vector<std::string_view> names;
  for (const GoodputBound& bound : kGoodputBounds) names.push_back(goodput_name(bound.metric));
  if (last.empty()) return fmt::format("{}", fmt::join(names, ", "));
  const std::string_view final_name = names.back();
  names.pop_back();
  return fmt::format("{} {} {}", fmt::join(names, ", "), last, final_name);
}

[[noreturn]] void fail(const std::string& item, const std::string& why) {
  throw std::invalid_argument("--goodput '" + item + "': " + why);
}

// Milliseconds text -> nanoseconds, or throws naming the item.
int64_t parse_ms(const std::string& item, std::string_view text) {
  double ms = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, ms);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(ms)) {
    fail(item, fmt::format("expected a number of milliseconds after ':', e.g. {}:500",
                           goodput_name(kGoodputBounds[0].metric)));
  }
  if (ms < 0) fail(item, "the bound must not be negative");
  return std::llround(ms * kNsPerMs);
}

bool within(int64_t value_ns, const std::optional<int64_t>& bound_ns) {
  return !bound_ns || value_ns <= *bound_ns;
}

}  // namespace

std::span<const GoodputBound> goodput_bounds() { return kGoodputBounds; }

std::string_view goodput_name(Metric metric) {
  const MetricInfo& info = metric_info(metric);
  return info.alias.empty() ? info.name : info.alias;
}

GoodputSpec parse_goodput(const std::vector<std::string>& items) {
  GoodputSpec spec;
  for (const std::string& item : items) {
    const size_t colon = item.find(':');
    if (colon == std::string::npos) {
      fail(item, "expected KEY:MILLISECONDS with KEY one of " + goodput_names());
    }
    const std::string key = item.substr(0, colon);
    std::optional<int64_t>* slot = nullptr;
    for (const GoodputBound& bound : kGoodputBounds) {
      if (key == goodput_name(bound.metric)) slot = &(spec.*bound.bound_ns);
    }
    if (slot == nullptr) {
      fail(item, "unknown metric '" + key + "' (use " + goodput_names("or") + ")");
    }
    if (*slot) fail(item, "'" + key + "' is given more than once");
    *slot = parse_ms(item, std::string_view(item).substr(colon + 1));
  }
  return spec;
}

bool is_good_request(const RequestRecord& r, const GoodputSpec& spec) {
  if (!r.ok()) return false;
  if (spec.e2el_ns) {
    if (r.sent_ns < 0 || r.end_ns < r.sent_ns) return false;
    if (!within(r.end_ns - r.sent_ns, spec.e2el_ns)) return false;
  }
  const bool has_ttft = r.stream && r.sent_ns >= 0 && r.first_content_ns >= r.sent_ns;
  if (spec.ttft_ns) {
    if (!has_ttft || !within(r.first_content_ns - r.sent_ns, spec.ttft_ns)) return false;
  }
  if (spec.ttfat_ns) {
    if (!r.stream || r.sent_ns < 0 || r.first_answer_ns < r.sent_ns ||
        !within(r.first_answer_ns - r.sent_ns, spec.ttfat_ns)) {
      return false;
    }
  }
  if (spec.tpot_ns && r.output_tokens > 1) {
    if (!has_ttft || r.end_ns < r.first_content_ns) return false;
    // vLLM's TPOT definition: (E2E - TTFT) / (output_tokens - 1).
    const double tpot_ns = static_cast<double>(r.end_ns - r.first_content_ns) /
                           static_cast<double>(r.output_tokens - 1);
    if (tpot_ns > static_cast<double>(*spec.tpot_ns)) return false;
  }
  return true;
}

}  // namespace llmperf
