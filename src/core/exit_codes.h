// llmperf's exit codes (DESIGN §4), one list for every command.
#pragma once

namespace llmperf {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCannotProceed = 1;  // the server cannot be reached, a run failed, ...
inline constexpr int kExitUsage = 2;          // bad flags or input files
inline constexpr int kExitVerdict = 3;  // an --slo was violated or --baseline found a regression
// A run was stopped early by --max-errors, --max-error-rate or --stop-on-saturation; every file
// was still written (summary.json's "stopped_early" says why).
inline constexpr int kExitStoppedEarly = 4;
inline constexpr int kExitInterrupted = 130;

}  // namespace llmperf
