// The benchmark driver: loads the dataset once, probes the server, runs every (parallel, number)
// pair of the sweep in order, and writes each run's summary and files plus the sweep table.
#pragma once

#include "core/config.h"

namespace llmperf {

// Exit codes (DESIGN §4).
inline constexpr int kExitOk = 0;
inline constexpr int kExitCannotProceed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitVerdict = 3;  // an --slo was violated or --baseline found a regression
inline constexpr int kExitInterrupted = 130;

// Runs the whole benchmark described by a validated config; returns the process exit code.
// Throws DatasetError / std::runtime_error for start-up problems (mapped to exit codes by main).
int run_benchmark(const Config& config);

}  // namespace llmperf
