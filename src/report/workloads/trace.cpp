// Trace replay: the text summary's "Trace" block and summary.json's "trace", e.g.
//   Trace: 1000 requests over 600.0 s of timestamps, replayed x2 (mean 3.33 req/s)
//     Blocks    3400 distinct of 512 tokens; 40% of block uses repeat an earlier one
//     Reuse     45% of the prompt tokens were sent before in a request's leading blocks (what a
//               prefix cache that keeps everything finds); the server reported 38% cached
#include <fmt/format.h>

#include "report/internal.h"

namespace llmperf::report_detail {
namespace {

std::string percent(double part, double whole) {
  return whole > 0 ? format_number(100.0 * part / whole) + "%" : "-";
}

}  // namespace

std::string trace_text(const RunInfo& info, const RunSummary& summary) {
  const TraceInfo& t = info.workload.trace;
  if (!t.on) return "";
  std::string text = fmt::format(
      "\nTrace: {} requests over {} s of timestamps, replayed x{:g} (mean {} req/s){}\n", t.entries,
      format_number(t.span_s), t.speedup, format_number(info.rate),
      t.bodies ? ", request bodies sent as recorded" : "");
  if (t.out_of_order > 0) {
    text += fmt::format("  {} lines were out of timestamp order and were replayed in order\n",
                        t.out_of_order);
  }
  if (t.bodies) return text;
  const int64_t uses = t.distinct_blocks + t.reused_blocks;
  text +=
      fmt::format("  Blocks  {} distinct of {} tokens; {} of block uses repeat an earlier one\n",
                  t.distinct_blocks, t.block_tokens,
                  percent(static_cast<double>(t.reused_blocks), static_cast<double>(uses)));
  text += fmt::format(
      "  Reuse   {} of the prompt tokens repeat an earlier request's leading blocks (what a prefix "
      "cache that keeps everything would find)",
      percent(static_cast<double>(t.reusable_tokens), static_cast<double>(t.prompt_tokens)));
  if (summary.cached_reported > 0) {
    text += fmt::format("; the server reported {} cached (usage.cached_tokens, {} requests)",
                        percent(static_cast<double>(summary.cached_tokens),
                                static_cast<double>(summary.cached_of_input)),
                        summary.cached_reported);
  }
  return text + "\n";
}

Json trace_json(const RunInfo& info, const RunSummary& summary) {
  const TraceInfo& t = info.workload.trace;
  if (!t.on) return nullptr;
  const auto share = [](int64_t part, int64_t whole) {
    return whole > 0 ? Json(static_cast<double>(part) / static_cast<double>(whole)) : Json(nullptr);
  };
  return Json{{"requests", t.entries},
              {"span_s", number_or_null(t.span_s)},
              {"speedup", number_or_null(t.speedup)},
              {"mean_rate", number_or_null(info.rate)},
              {"out_of_order", t.out_of_order},
              {"bodies", t.bodies},
              {"block_tokens", t.block_tokens},
              {"distinct_blocks", t.distinct_blocks},
              {"reused_blocks", t.reused_blocks},
              {"prompt_tokens", t.prompt_tokens},
              {"reusable_tokens", t.reusable_tokens},
              {"reusable_share", share(t.reusable_tokens, t.prompt_tokens)},
              {"server_cached_share", summary.cached_reported > 0
                                          ? share(summary.cached_tokens, summary.cached_of_input)
                                          : Json(nullptr)}};
}

TraceInfo trace_from_json(const nlohmann::json& doc) {
  TraceInfo t;
  if (!doc.is_object()) return t;
  const auto integer = [&](const char* key) {
    const auto it = doc.find(key);
    return it == doc.end() ? 0 : json_integer<int64_t>(*it).value_or(0);
  };
  const auto number = [&](const char* key, double fallback) {
    const auto it = doc.find(key);
    return it != doc.end() && it->is_number() ? it->get<double>() : fallback;
  };
  t.on = true;
  t.bodies = doc.value("bodies", false);
  t.entries = integer("requests");
  t.span_s = number("span_s", 0);
  t.speedup = number("speedup", 1);
  t.out_of_order = integer("out_of_order");
  t.block_tokens = integer("block_tokens");
  t.distinct_blocks = integer("distinct_blocks");
  t.reused_blocks = integer("reused_blocks");
  t.prompt_tokens = integer("prompt_tokens");
  t.reusable_tokens = integer("reusable_tokens");
  return t;
}

}  // namespace llmperf::report_detail
