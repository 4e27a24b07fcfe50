// How a benchmark's runs are judged, worked out from the verdicts section before the first run:
// the --slo expressions parsed (with --search rate's own SLO on the rate sustained), what
// --baseline names, --tolerance, --baseline db:'s options and the history key's name and tags,
// the early-stop rules, --search and its range, and --on-stop. The app's RunJudge and RunSeries
// take it, never the sections. The grammars are verdict/'s, called here; pure: no I/O (--baseline
// FILE is read by RunJudge).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "verdict/early_stop.h"
#include "verdict/history_baseline.h"
#include "verdict/search.h"
#include "verdict/slo.h"

namespace llmperf {

struct OutputConfig;   // core/config/output.h
struct VerdictConfig;  // core/config/verdicts.h: the sections the plan is made from

struct VerdictPlan {
  std::vector<Slo> slos;  // --slo in the order given, then --search rate's rate_sustained>=...
  std::optional<BaselineSource> baseline;  // --baseline: a summary.json or db:FILE (nullopt: none)
  double tolerance = 0.1;  // --tolerance as a fraction: the regression --baseline FILE allows
  HistoryBaselineOptions history;  // --baseline-runs, --noise-k
  // --baseline db:'s history key: --name and the --tags but those --baseline-ignore-tag names
  std::string history_name;
  std::vector<std::pair<std::string, std::string>> history_tags;
  EarlyStopRules stop_rules;  // --max-errors, --max-error-rate, --stop-on-saturation
  // --search (nullopt: off): its range, --search-precision and doubling; integer steps for
  // parallel
  std::optional<SearchSpec> search;
  bool search_rate = false;             // --search rate (else parallel)
  double search_number_multiplier = 0;  // each probe's -n = its value x this (0: -n as given)
  bool abort_on_stop = false;           // --on-stop abort: a stopped run ends the sweep or search
};

// The verdict plan of the verdicts section, with --name and --tag from the output section. Throws
// std::invalid_argument naming the flag for an --slo or --tolerance the grammar refuses (the cli
// checks them first, so a command line never gets here with one).
VerdictPlan verdict_plan(const VerdictConfig& verdicts, const OutputConfig& output);

// The rules that the verdicts section's flags ask for (--max-errors, --max-error-rate,
// --stop-on-saturation).
EarlyStopRules early_stop_rules(const VerdictConfig& verdicts);

}  // namespace llmperf
