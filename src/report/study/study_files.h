// The files a study leaves beside its ledger: study_summary.json (schema
// "llmperf.study.summary/1"), study_summary.csv, study_summary.md and study.html. Written by
// `llmperf tune` as it ends and by `llmperf report STUDYDIR` from study.json and study.jsonl
// alone, with the same bytes either way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "study/study_file.h"
#include "study/trial.h"

namespace llmperf {

// study_summary.json's schema.
inline constexpr std::string_view kStudySummarySchema = "llmperf.study.summary/1";

// study_summary.json's text: the schema; "study" (study.json's object); "statuses" (the
// configurations by status); "best" ({trial, label, rung, objective, params, server_command}, or
// null) and "best_note" (why there is none, or a caveat; absent when there is nothing to say);
// "pareto" (each front: its metrics and the trials and labels on it, by x ascending); "trials"
// (one ledger record per configuration, as the table's rows) and "superseded" (the other ledger
// lines: earlier rungs, interrupted runs done again).
std::string study_summary_json(const StudyInfo& info, const std::vector<TrialRecord>& trials);

// study_summary.csv's text (RFC 4180's quoting: a field with a comma, quote or line break is
// quoted, its quotes doubled; lines end with "\n"): a header row, then one row per configuration
// as the table has them: trial, label, rung, each parameter (a column named after it;
// "param.NAME" when the name is taken), status, reason, objective, the metrics (ms, tok/s, req/s,
// counts), GPU MiB in use and in total, ready_s, duration_s, port, dir and server_command.
// Numbers in full precision; absent values empty.
std::string study_summary_csv(const StudyInfo& info, const std::vector<TrialRecord>& trials);

// study_summary.md's text: the headline, the table, the reasons and the best configuration with
// its server command.
std::string study_summary_markdown(const StudyInfo& info, const std::vector<TrialRecord>& trials);

// Writes study_summary.json, .csv, .md and study.html into `dir` (created if needed), each
// atomically, and returns the terminal text (study_table: the table, reasons and best
// configuration). `trials` are the ledger's records, every rung and rerun included. Throws
// std::runtime_error naming the file that cannot be written.
std::string write_study_outputs(const std::string& dir, const StudyInfo& info,
                                const std::vector<TrialRecord>& trials);

}  // namespace llmperf
