// Goodput: parsing `--goodput KEY:MS ...` and deciding which requests were good, following
// vLLM's benchmark_serving (a request is good when every given metric is <= its bound; a request
// with one output token has TPOT 0). Pure: no I/O, logging or threads.
#include "metrics/goodput.h"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>

namespace llmperf {
namespace {

constexpr double kNsPerMs = 1e6;

[[noreturn]] void fail(const std::string& item, const std::string& why) {
  throw std::invalid_argument("--goodput '" + item + "': " + why);
}

// Milliseconds text -> nanoseconds, or throws naming the item.
int64_t parse_ms(const std::string& item, std::string_view text) {
  double ms = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, ms);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(ms)) {
    fail(item, "expected a number of milliseconds after ':', e.g. ttft:500");
  }
  if (ms < 0) fail(item, "the bound must not be negative");
  return std::llround(ms * kNsPerMs);
}

bool within(int64_t value_ns, const std::optional<int64_t>& bound_ns) {
  return !bound_ns || value_ns <= *bound_ns;
}

}  // namespace

GoodputSpec parse_goodput(const std::vector<std::string>& items) {
  GoodputSpec spec;
  for (const std::string& item : items) {
    const size_t colon = item.find(':');
    if (colon == std::string::npos) {
      fail(item, "expected KEY:MILLISECONDS with KEY one of ttft, ttfat, tpot, e2el");
    }
    const std::string key = item.substr(0, colon);
    std::optional<int64_t>* slot = nullptr;
    if (key == "ttft") {
      slot = &spec.ttft_ns;
    } else if (key == "ttfat") {
      slot = &spec.ttfat_ns;
    } else if (key == "tpot") {
      slot = &spec.tpot_ns;
    } else if (key == "e2el") {
      slot = &spec.e2el_ns;
    } else {
      fail(item, "unknown metric '" + key + "' (use ttft, ttfat, tpot or e2el)");
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
