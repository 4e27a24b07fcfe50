// A study's directory as `llmperf tune` leaves it: study.json (schema "llmperf.study/1": what the
// study was asked, StudySpec, and what it resolved to, such as the objective's name, unit and
// direction, the strategy and seed and successive halving's rungs) beside the ledger study.jsonl
// (trial.h). `--resume DIR` and `llmperf report DIR` start from these two files alone. study.json's
// one writer and one reader sit here side by side.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "study/multi_objective.h"
#include "study/space.h"
#include "study/study_spec.h"
#include "study/trial.h"

namespace llmperf {

// study.json's schema.
inline constexpr std::string_view kStudySchema = "llmperf.study/1";
// The files of a study's directory that make it one.
inline constexpr std::string_view kStudyFileName = "study.json";
inline constexpr std::string_view kLedgerFileName = "study.jsonl";

// What study.json holds.
struct StudyInfo {
  StudySpec spec;         // what `llmperf tune` was asked (templates unexpanded)
  std::string started;    // when the study started, ISO 8601
  std::string version;    // the llmperf that ran it, e.g. "llmperf 0.1.0"
  std::string objective;  // the objective's metric and statistic: "output_throughput", "ttft.p99"
  std::string unit;       // the objective's unit as the tables show it: "tok/s", "ms", "req/s"
  bool maximize = true;   // whether more of the objective is better
  std::string strategy;   // the strategy's text (Strategy::text()): "grid", "random:20"
  uint64_t seed = 0;      // --seed of random draws
  std::vector<HalvingRung> rungs;  // successive halving's rungs; empty for other strategies
  // Several --objective: each, in order (the first is also objective, unit and maximize); the
  // study's answer is their Pareto front (multi_objective.h). Empty with one objective.
  std::vector<StudyObjective> objectives;
};

// The objective of a study whose benchmark runs --search: each trial's objective is its search's
// answer, the highest value that met every --slo, always maximised. `search` is --search's
// value: "rate" gives {"search.rate", "req/s"}, "parallel" {"search.parallel", "concurrency"}.
struct SearchObjective {
  std::string name;  // StudyInfo::objective
  std::string unit;  // StudyInfo::unit
};
SearchObjective search_objective(std::string_view search);

// Whether a study's objective (StudyInfo::objective) is a search's answer: "search.rate",
// "search.parallel".
bool is_search_objective(std::string_view objective);

// study.json's object (its fields in a fixed order), and back. The reader checks the schema and
// throws std::invalid_argument naming study.json and the field that is wrong; unknown fields are
// ignored and missing optional ones keep their defaults (without an "objective", the spec's
// --objective gives its name and direction).
nlohmann::ordered_json study_info_to_json(const StudyInfo& info);
StudyInfo study_info_from_json(const nlohmann::json& json);

// Writes `<dir>/study.json` (indented, a newline at the end) atomically: a temporary file in `dir`,
// then a rename. Throws std::runtime_error naming the file when it cannot be written.
void write_study_file(const std::string& dir, const StudyInfo& info);

// A study's directory read back.
struct StudyDir {
  StudyInfo info;  // study.json
  Ledger ledger;   // study.jsonl (read_ledger): its good lines, and the bad ones as problems
};

// Whether `dir` holds both study.json and study.jsonl.
bool is_study_dir(const std::string& dir);

// Reads `<dir>/study.json` alone (a staged study's directory has no ledger of its own), with
// read_study_dir's errors.
StudyInfo read_study_info(const std::string& dir);

// Reads `<dir>/study.json` and `<dir>/study.jsonl`. Throws std::runtime_error saying what is wrong
// and where: "DIR is not a study directory: it has no study.json (llmperf tune writes ...)",
// "DIR/study.json: cannot read it: ...", "DIR/study.json: not JSON (...)", "DIR/study.json:
// schema \"x\" is not \"llmperf.study/1\"", or the field that is wrong.
StudyDir read_study_dir(const std::string& dir);

}  // namespace llmperf
