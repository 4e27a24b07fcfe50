// Suggested exclusions: after a study, the parameter values and combinations whose every trial
// failed for the same reason, written as ready-made `--exclude` expressions for the next study
// (`cp==false and mnbt<=1024`), so that it spends no draw on them. Pure.
//
// A condition is `NAME==VALUE` (a flag: `NAME` or `not NAME`) or, for a parameter whose values are
// all numbers, `NAME<=VALUE` or `NAME>=VALUE`; a suggestion is one condition or two on different
// parameters. It is suggested when at least two of the study's configurations match it, every
// one that ran failed (start_failed, ready_timeout or bench_failed) and their reasons are the same
// once their numbers are set aside (vLLM's "max_num_batched_tokens (512) is smaller than
// max_model_len (2048)" names each budget). Configurations that never ran (excluded, interrupted)
// count neither way. A range holds only the values the study tried: it may also cover values
// between them that no trial tried. The broadest suggestions come first, and one that adds no
// configuration to those before it is left out.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "study/space.h"
#include "study/trial.h"

namespace llmperf {

struct SuggestedExclude {
  std::string expression;     // for --exclude: "cp==false and mnbt<=1024"
  size_t configurations = 0;  // the study's configurations it matches (all failed)
  TrialStatus status = TrialStatus::kStartFailed;  // how they failed
  std::string reason;         // the first one's reason, as recorded
};

// The suggestions for a study's rows (one record per configuration, study/best.h's
// study_row_lines). `spaces`: the study's parameters (a parameter of a record that is not among
// them reads as text).
std::vector<SuggestedExclude> suggest_excludes(const std::vector<TrialRecord>& rows,
                                               const std::vector<ParamSpace>& spaces);

}  // namespace llmperf
