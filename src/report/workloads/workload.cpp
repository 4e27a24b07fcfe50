// How a run's prompts were made and whether the server processed the lengths they were built to
// have: summary.json's "workload" and "exactness", and the text summary's "Lengths" block, e.g.
//   Input tokens   1000 requested, realized exactly in 1000 of 1000 requests
// with the distribution of the difference where they differ, and the tokenizer that counted them.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "metrics/catalogue.h"
#include "report/internal.h"

namespace llmperf::report_detail {
namespace {

std::string signed_count(int64_t value) { return fmt::format("{:+d}", value); }

// "1000" or "63-3042 (mean 1523)".
std::string requested_text(const LengthExactness& e) {
  if (e.min_target == e.max_target) return fmt::format("{}", e.min_target);
  const double mean = static_cast<double>(e.requested_sum) / static_cast<double>(e.requests);
  return fmt::format("{}-{} (mean {})", e.min_target, e.max_target, format_number(mean));
}

// "+1 x2, -1 x3" for the most frequent differences (at most 6), then the range when there are
// more.
std::string differences_text(const LengthExactness& e) {
  std::vector<std::pair<int64_t, int64_t>> by_count(e.differences.begin(), e.differences.end());
  std::stable_sort(by_count.begin(), by_count.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  constexpr size_t kShown = 6;
  if (by_count.size() > kShown) by_count.resize(kShown);
  std::sort(by_count.begin(), by_count.end());
  std::string out;
  for (const auto& [difference, count] : by_count) {
    out += fmt::format("{}{} x{}", out.empty() ? "" : ", ", signed_count(difference), count);
  }
  if (e.differences.size() > kShown) {
    out += fmt::format(" (range {} to {})", signed_count(e.differences.begin()->first),
                       signed_count(e.differences.rbegin()->first));
  }
  return out;
}

std::string exactness_line(const LengthExactness& e) {
  std::string line = fmt::format("{} requested, realized exactly in {} of {} requests",
                                 requested_text(e), e.matched, e.requests);
  if (e.mismatched() > 0) line += "; realized - requested: " + differences_text(e);
  if (e.verified < e.requests) {
    line += fmt::format("; {} without usage to verify", e.requests - e.verified);
  }
  return line;
}

Json exactness_entry(const LengthExactness& e) {
  Json differences = Json::object();
  for (const auto& [difference, count] : e.differences) {
    differences[signed_count(difference)] = count;
  }
  return Json{
      {"requests", e.requests},
      {"verified", e.verified},
      {"matched", e.matched},
      {"min_target", e.any() ? Json(e.min_target) : Json(nullptr)},
      {"max_target", e.any() ? Json(e.max_target) : Json(nullptr)},
      {"requested_total", e.requested_sum},
      {"target_total", e.target_sum},
      {"realized_total", e.realized_sum},
      {"differences", differences},
  };
}

}  // namespace

std::string tokenizer_label(const TokenizerInfo& tokenizer) {
  std::string label = tokenizer.source;
  if (!tokenizer.detail.empty()) label += ", " + tokenizer.detail;
  if (!tokenizer.exact) label += "; APPROXIMATE";
  return label;
}

Json workload_json(const RunInfo& info) {
  const WorkloadInfo& w = info.workload;
  if (!w.counted && !w.synthetic) return Json{{"synthetic", false}};
  Json doc{
      {"synthetic", w.synthetic},
      {"tokenizer",
       {{"source", w.tokenizer.source},
        {"detail", w.tokenizer.detail},
        {"exact", w.tokenizer.exact}}},
      {"prompts", w.prompts},
      {"fit_misses", w.fit_misses},
      {"fit_counts", w.fit_counts},
      {"prefix_tokens", w.prefix_tokens},
      {"prepare_s", number_or_null(w.prepare_s)},
  };
  if (!w.synthetic) {  // ShareGPT's sampling
    doc["sharegpt"] = Json{{"candidates", w.candidates},
                           {"measured", w.measured},
                           {"dropped_short", w.dropped_short},
                           {"dropped_long", w.dropped_long}};
  }
  return doc;
}

WorkloadInfo workload_from_json(const nlohmann::json& doc) {
  WorkloadInfo w;
  if (!doc.is_object() || !doc.contains("tokenizer")) return w;
  w.counted = true;
  w.synthetic = doc.value("synthetic", false);
  if (const auto t = doc.find("tokenizer"); t != doc.end() && t->is_object()) {
    w.tokenizer.source = t->value("source", "");
    w.tokenizer.detail = t->value("detail", "");
    w.tokenizer.exact = t->value("exact", false);
  }
  const auto integer = [&](const char* key) {
    const auto it = doc.find(key);
    return it == doc.end() ? 0 : json_integer<int64_t>(*it).value_or(0);
  };
  w.prompts = integer("prompts");
  w.fit_misses = integer("fit_misses");
  w.fit_counts = integer("fit_counts");
  w.prefix_tokens = integer("prefix_tokens");
  if (const auto g = doc.find("sharegpt"); g != doc.end() && g->is_object()) {
    const auto field = [&](const char* key) {
      const auto it = g->find(key);
      return it == g->end() ? 0 : json_integer<int64_t>(*it).value_or(0);
    };
    w.candidates = field("candidates");
    w.measured = field("measured");
    w.dropped_short = field("dropped_short");
    w.dropped_long = field("dropped_long");
  }
  if (const auto s = doc.find("prepare_s"); s != doc.end() && s->is_number()) {
    w.prepare_s = s->get<double>();
  }
  return w;
}

Json exactness_json(const RunInfo& info, const RunSummary& summary) {
  const LengthMisses& misses = summary.length_misses;
  const std::optional<double> share = misses.share();
  return Json{{"input", exactness_entry(summary.input_exactness)},
              {"output", exactness_entry(summary.output_exactness)},
              {"length_miss",
               {{"checked", misses.checked},
                {"missed", misses.missed},
                {"share", share ? Json(*share) : Json(nullptr)},
                {"warning", length_miss_warned(info, summary)}}}};
}

bool length_miss_warned(const RunInfo& info, const RunSummary& summary) {
  const std::optional<double> share = summary.length_misses.share();
  if (!share || *share <= kLengthMissWarnShare) return false;
  const WorkloadInfo& w = info.workload;
  return w.tokenizer.exact || !(w.counted || w.synthetic);
}

std::string workload_text(const RunInfo& info, const RunSummary& summary) {
  const LengthExactness& in = summary.input_exactness;
  const LengthExactness& out = summary.output_exactness;
  const bool counted = info.workload.counted || info.workload.synthetic;
  if (!in.any() && !out.any() && !counted) return "";
  std::string text = "\nLengths";
  if (counted) {
    text += fmt::format(" (tokenizer: {})", tokenizer_label(info.workload.tokenizer));
  }
  text += "\n";
  std::vector<std::pair<std::string, std::string>> rows;
  if (in.any()) rows.emplace_back("Input tokens", exactness_line(in));
  if (out.any()) rows.emplace_back("Output tokens", exactness_line(out));
  const WorkloadInfo& w = info.workload;
  if (w.counted && !w.synthetic) {
    rows.emplace_back("Prompts",
                      fmt::format("{} sampled in {} s from {} conversations drawn ({} measured: {} "
                                  "too short, {} too long)",
                                  w.prompts, format_number(w.prepare_s), w.candidates, w.measured,
                                  w.dropped_short, w.dropped_long));
  }
  if (w.synthetic) {
    std::string prompts = fmt::format("{} made in {} s", w.prompts, format_number(w.prepare_s));
    if (w.tokenizer.exact || w.fit_counts > 0) {
      prompts += fmt::format(", {} missed their length while fitting", w.fit_misses);
    }
    if (w.prefix_tokens > 0 && summary.prefix_groups_used == 0) {
      prompts += fmt::format(", a {}-token prefix shared by all", w.prefix_tokens);
    } else if (summary.prefix_groups_used > 0) {
      prompts += fmt::format(", {} prefix groups of {} tokens used", summary.prefix_groups_used,
                             w.prefix_tokens);
    }
    rows.emplace_back("Prompts", prompts);
  }
  size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.first.size());
  for (const auto& [key, value] : rows) text += fmt::format("  {:<{}}  {}\n", key, width, value);
  if (summary.prefix_groups_used > 0) text += shared_prefix_text(summary);
  text += conversations_text(summary);
  text += trace_text(info, summary);
  return text;
}

std::string shared_prefix_text(const RunSummary& summary) {
  std::vector<std::vector<std::string>> rows;
  const auto row = [&](const char* what, const Distribution& d) {
    std::vector<std::string> cells{what, std::to_string(d.count)};
    cells.push_back(format_number(mean_in(d, kNsPerMs)));
    for (const double p : {50.0, 90.0, 99.0}) {
      const auto i = percentile_index(summary.percentiles, p);
      cells.push_back(i ? format_number(percentile_in(d, *i, kNsPerMs)) : "-");
    }
    rows.push_back(std::move(cells));
  };
  row("First use of a prefix", summary.ttft_prefix_first_ns);
  row("Repeated use", summary.ttft_prefix_repeated_ns);
  return "\nShared prefix: TTFT by first and repeated use of a group's prefix\n" +
         render_table({"Requests", "count", "Mean TTFT (ms)", "P50", "P90", "P99"}, rows);
}

Json shared_prefix_json(const RunSummary& summary) {
  if (summary.prefix_groups_used == 0) return nullptr;
  return Json{{"groups_used", summary.prefix_groups_used},
              {metric_key(Metric::kTtft, "first_use"),
               distribution_json(summary.ttft_prefix_first_ns, summary.percentiles, kNsPerMs)},
              {metric_key(Metric::kTtft, "repeated_use"),
               distribution_json(summary.ttft_prefix_repeated_ns, summary.percentiles, kNsPerMs)}};
}

}  // namespace llmperf::report_detail

namespace llmperf {

std::string render_length_warning(const RunInfo& info, const RunSummary& summary) {
  if (!report_detail::length_miss_warned(info, summary)) return "";
  const LengthMisses& m = summary.length_misses;
  std::string where;
  if (m.input_missed > 0) {
    where += fmt::format("input in {}: {}", m.input_missed,
                         report_detail::differences_text(summary.input_exactness));
  }
  if (m.output_missed > 0) {
    where += fmt::format("{}output in {}: {}", where.empty() ? "" : "; ", m.output_missed,
                         report_detail::differences_text(summary.output_exactness));
  }
  return fmt::format(
      "\nWARNING: {} of {} requests ({}%) did not get the length they were built to have "
      "(realized - requested, {}). A server cuts a prompt longer than its context (llama.cpp) "
      "and stops an output where the context ends: this run did not measure what was asked. "
      "--slo 'length_miss<=0' fails such a run.\n",
      m.missed, m.checked, report_detail::format_number(100.0 * *m.share()), where);
}

}  // namespace llmperf
