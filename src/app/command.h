// `llmperf [flags]`: a benchmark from the command line. Prints what run_benchmark returns as it
// comes (each run's block when the run ends, then the sweep table, --search's answer and where
// the files went) and chooses the exit code (DESIGN §4).
#pragma once

#include "app/benchmark.h"

namespace llmperf {

struct Config;  // core/config.h: what the user asked for

// Runs the benchmark and returns the process exit code. Throws what run_benchmark throws.
int benchmark_command(const Config& config);

// The exit code of a finished benchmark: interrupted 130, probe refused 1, a run --results-db
// could not store 1, stopped early 4, a violated --slo or a --baseline regression 3, else 0. Logs the reason for any but 0.
int exit_code(const BenchmarkResult& result);

// What follows the runs' blocks on stdout: the sweep table (more than one run), the search's
// answer and the outputs directory. Empty when no run finished.
std::string closing_text(const BenchmarkResult& result);

}  // namespace llmperf
