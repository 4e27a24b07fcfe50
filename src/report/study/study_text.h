// What `llmperf tune` prints: a line per trial while the study runs, and at its end the table of
// the configurations, the reasons of those that failed and the best configuration with the exact
// server command that starts it.
#pragma once

#include <string>
#include <vector>

#include "study/study_file.h"
#include "study/trial.h"

namespace llmperf {

// One line (no newline) for the terminal as a trial ends: its index and label, rung (successive
// halving), parameters, status and reason, objective with its unit, and times, e.g.
// "[3] 3-enable-64 mnbt=64 cp=true: ok, output_throughput 1234.5 tok/s, 80.1 s (ready in 12.3 s)".
std::string trial_line(const TrialRecord& record, const StudyInfo& info);

// The study's closing text: a headline, the table (one row per configuration by trial index; for
// successive halving, each configuration's last rung, marked with it), the reasons of the trials
// that did not end ok, and the best configuration: the best objective among the trials with
// status ok (for successive halving, at the deepest rung that has one), ties to the lower index,
// with its label, parameters, objective and server command; or a sentence saying why no trial
// qualifies. `trials` are the ledger's records, every rung and rerun included.
std::string study_table(const StudyInfo& info, const std::vector<TrialRecord>& trials);

}  // namespace llmperf
