// See history_run.h.
#include "app/history_run.h"

#include <cmath>
#include <ctime>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "core/text.h"
#include "report/files/summary_figures.h"

namespace llmperf {
namespace {

// "2026-11-27T03:00:47Z" as seconds since the epoch; nullopt when it is not that form.
std::optional<double> history_unix_of(const std::string& iso) {
  std::tm tm{};
  char zone = 0;
  if (std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &zone) != 7 ||
      zone != 'Z') {
    return std::nullopt;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<double>(timegm(&tm));
}

std::string history_absolute(const std::string& dir) {
  if (dir.empty()) return dir;
  std::error_code ec;
  const std::filesystem::path path = std::filesystem::absolute(dir, ec);
  return ec ? dir : path.lexically_normal().string();
}

std::string history_number(const std::optional<double>& value) {
  return value ? fmt::format("{:.6g}", *value) : "-";
}

// One "baseline" verdict per judged metric of the comparison.
void history_add_baseline(const BaselineComparison& comparison, std::vector<StoredVerdict>& out) {
  for (const BaselineRow& row : comparison.rows) {
    if (row.verdict == MetricVerdict::kNotJudged) continue;
    const char* verdict = row.verdict == MetricVerdict::kRegression ? "regression"
                          : row.verdict == MetricVerdict::kImproved ? "improved"
                                                                    : "ok";
    const std::string change =
        row.change ? fmt::format("{:+.1f}{}", *row.change, row.change_in_points ? " points" : "%")
                   : "-";
    out.push_back({"baseline", row.metric, row.verdict != MetricVerdict::kRegression,
                   fmt::format("{}: {} against {} ({}; tolerance {:g}%, baseline {})", verdict,
                               history_number(row.current), history_number(row.baseline), change,
                               comparison.tolerance * 100, comparison.baseline_path)});
  }
}

}  // namespace

std::string history_run_label(const SummaryFile& file) {
  std::filesystem::path dir = std::filesystem::path(file.run.output_dir).lexically_normal();
  if (!dir.empty() && dir.filename().empty()) dir = dir.parent_path();  // a trailing '/'
  const std::string name = dir.filename().string();
  if (name.starts_with("repeat_") && dir.has_parent_path()) {
    return dir.parent_path().filename().string() + "/" + name;
  }
  return name;
}

std::string history_run_id(const SummaryFile& file) {
  const std::string name = json_field<std::string>(file.config, "name").value_or("");
  const std::string model = json_field<std::string>(file.config, "model").value_or("");
  return history_invocation_id(fmt::format(
      "{}|{}|{}|{}|{}|{}/{}/{}", file.run.started_at, file.run.anchor_unix_ns, name, model,
      history_run_label(file), file.shard.index, file.shard.count, file.shard.merged ? 1 : 0));
}

HistoryRun history_run(const SummaryFile& file, const HistoryRunOrigin& origin,
                       const BaselineComparison* baseline) {
  HistoryRun run;
  run.run_id = history_run_id(file);
  run.started_at = file.run.started_at;
  if (file.run.anchor_unix_ns > 0) {
    run.started_unix = static_cast<double>(file.run.anchor_unix_ns) / 1e9;
  } else {
    run.started_unix = history_unix_of(file.run.started_at).value_or(0);
  }
  run.name = json_field<std::string>(file.config, "name").value_or("");
  run.run_label = history_run_label(file);
  run.invocation = origin.invocation;
  run.model = json_field<std::string>(file.config, "model").value_or("");
  run.url = url_without_userinfo(json_field<std::string>(file.config, "url").value_or(""));
  run.source = origin.source;
  run.directory =
      history_absolute(origin.directory.empty() ? file.run.output_dir : origin.directory);
  const auto dump = [](const SummaryFile::Json& json) {
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  run.config = file.config.is_null() ? "{}" : dump(file.config);
  if (!file.server.is_null()) run.server = dump(file.server);
  run.llmperf_version = file.llmperf_version;
  if (const auto tags = file.config.find("tags");
      file.config.is_object() && tags != file.config.end() && tags->is_object()) {
    for (const auto& [key, value] : tags->items()) {
      run.tags.emplace_back(key, value.is_string() ? value.get<std::string>() : dump(value));
    }
  }
  for (SummaryFigure& figure : summary_figures(file)) {
    std::optional<double> value = figure.value;
    if (value && !std::isfinite(*value)) value.reset();
    run.figures.push_back(
        {std::move(figure.metric), std::move(figure.statistic), value, std::move(figure.unit)});
  }
  if (const auto results = file.slo.find("results");
      file.slo.is_object() && results != file.slo.end() && results->is_array()) {
    for (const SummaryFile::Json& result : *results) {
      run.verdicts.push_back({"slo", json_field<std::string>(result, "expression").value_or(""),
                              json_field<bool>(result, "passed").value_or(false),
                              json_field<std::string>(result, "detail").value_or("")});
    }
  }
  if (baseline != nullptr) history_add_baseline(*baseline, run.verdicts);
  run.requests_jsonl = origin.requests_jsonl;
  return run;
}

HistoryRunRead read_history_run_dir(const std::string& run_dir, const HistoryRunOrigin& origin) {
  const SummaryFile file =
      read_summary_file((std::filesystem::path(run_dir) / "summary.json").string());
  if (!file.repeats.is_null()) {
    return {std::nullopt, "the summary of --num-runs repeats (its repeat_K runs are stored)"};
  }
  return {history_run(file, origin), ""};
}

}  // namespace llmperf
