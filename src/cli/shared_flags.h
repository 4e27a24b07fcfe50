// The names of the flags that several commands take (llmperf and `llmperf bench serve`, and the
// subcommands calibrate, compare, report, merge, history and history import), so that one concept
// has one name everywhere: the canonical name first, then the aliases every command accepts alike
// (CLI11's "--a,--b": --help shows them in that order; docs/flags.md, "One name per concept",
// lists them). `llmperf tune` passes these to its benchmarks. Private to src/cli/.
#pragma once

namespace llmperf {

// Where results are written (`llmperf history` once had --output).
inline constexpr const char* kOutputsDirFlag = "--outputs-dir,--output";
// The SQLite history database (`llmperf history` and `history import` once had --db).
inline constexpr const char* kResultsDbFlag = "--results-db,--db";
// With the history database: store each run's requests.jsonl lines too (`history import` also
// accepts its former --requests).
inline constexpr const char* kResultsDbRequestsFlag = "--results-db-requests";
// The run's name, and its key=value tags (a filter in `llmperf history`).
inline constexpr const char* kNameFlag = "--name";
inline constexpr const char* kTagFlag = "--tag";
// The load (llmperf and calibrate), with vLLM's names as aliases.
inline constexpr const char* kParallelFlag = "--parallel,--max-concurrency";
inline constexpr const char* kNumberFlag = "-n,--number,--num-prompts";
inline constexpr const char* kRateFlag = "--rate,--request-rate";

}  // namespace llmperf
