// Conversations (--multi-turn): the text summary's "Conversations" block and summary.json's
// "conversations", e.g.
//   Conversations: 100 (98 completed, 2 ended by a failed turn), 3.0 turns planned on average
//   Turn  requests  failed  Mean TTFT (ms)  P50  P99  Mean input tokens  Cached share
#include <fmt/format.h>

#include "metrics/catalogue.h"
#include "report/internal.h"

namespace llmperf::report_detail {
namespace {

std::string cached_text(const TurnStats& t) {
  if (t.cached_reported == 0) return "-";
  return fmt::format("{}%", format_number(100.0 * t.cached_share()));
}

}  // namespace

std::string conversations_text(const RunSummary& summary) {
  const SessionSummary& s = summary.sessions;
  if (s.empty()) return "";
  std::string text = fmt::format(
      "\nConversations: {} ({} completed, {} ended by a failed turn, {} cut short by the run's "
      "end), {} turns planned, {} succeeded per conversation on average\n",
      s.conversations, s.completed, s.failed, s.cut, s.turns_planned,
      format_number(s.turns_done.mean));
  if (!s.duration_ns.empty()) {
    const auto p50 = percentile_index(summary.percentiles, 50);
    const auto p99 = percentile_index(summary.percentiles, 99);
    text += fmt::format(
        "  Completed conversations took {} s on average (P50 {} s, P99 {} s), think time "
        "included\n",
        format_number(*mean_in(s.duration_ns, kNsPerS)),
        p50 ? format_number(*percentile_in(s.duration_ns, *p50, kNsPerS)) : "-",
        p99 ? format_number(*percentile_in(s.duration_ns, *p99, kNsPerS)) : "-");
  }
  std::vector<std::vector<std::string>> rows;
  for (const TurnStats& t : s.turns) {
    std::vector<std::string> cells{std::to_string(t.turn), std::to_string(t.requests),
                                   std::to_string(t.failed)};
    const std::optional<double> mean = mean_in(t.ttft_ns, kNsPerMs);
    cells.push_back(mean ? format_number(*mean) : "-");
    for (const double p : {50.0, 99.0}) {
      const auto i = percentile_index(summary.percentiles, p);
      const std::optional<double> value =
          i && !t.ttft_ns.empty() ? percentile_in(t.ttft_ns, *i, kNsPerMs) : std::nullopt;
      cells.push_back(value ? format_number(*value) : "-");
    }
    cells.push_back(t.input_tokens.empty() ? "-" : format_number(t.input_tokens.mean));
    cells.push_back(cached_text(t));
    rows.push_back(std::move(cells));
  }
  text +=
      "By turn (0 = first, as in requests.jsonl; input tokens from usage, history included; "
      "cached share = usage.prompt_tokens_details.cached_tokens / input tokens, where the "
      "server reports it)\n";
  text += render_table({"Turn", "requests", "failed", "Mean TTFT (ms)", "P50", "P99",
                        "Mean input tokens", "Cached share"},
                       rows);
  return text;
}

Json conversations_json(const RunSummary& summary) {
  const SessionSummary& s = summary.sessions;
  if (s.empty()) return nullptr;
  Json turns = Json::array();
  for (const TurnStats& t : s.turns) {
    turns.push_back(Json{
        {"turn", t.turn},
        {"requests", t.requests},
        {"failed", t.failed},
        {metric_key(Metric::kTtft), distribution_json(t.ttft_ns, summary.percentiles, kNsPerMs)},
        {"input_tokens", distribution_json(t.input_tokens, summary.percentiles, 1)},
        {"cached_reported", t.cached_reported},
        {"cached_tokens", t.cached_tokens},
        {"cached_share", t.cached_reported > 0 ? Json(t.cached_share()) : Json(nullptr)},
    });
  }
  return Json{{"conversations", s.conversations},
              {"completed", s.completed},
              {"failed", s.failed},
              {"cut", s.cut},
              {"turns_planned", s.turns_planned},
              {"turns_succeeded", distribution_json(s.turns_done, summary.percentiles, 1)},
              {"duration_s", distribution_json(s.duration_ns, summary.percentiles, kNsPerS)},
              {"by_turn", std::move(turns)}};
}

}  // namespace llmperf::report_detail
