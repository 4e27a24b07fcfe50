// The commands llmperf's first words name (`llmperf tune ...`, `llmperf history import ...`), in
// one list: main.cpp runs the one a command line names, and the benchmark's parser suggests their
// names for a mistyped first word.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace llmperf {

enum class Command : uint8_t {
  kBenchmark,  // no command named: `llmperf [flags]` or `llmperf bench serve [flags]`
  kCalibrate,
  kTune,
  kHistoryImport,
  kHistory,
  kCompare,
  kReport,
  kMerge,
};

// The command `argv` names by its first words; kBenchmark when none.
Command named_command(int argc, const char* const* argv);

// The commands' words to suggest for a mistyped first word: "bench serve", "compare", "history",
// ... (`history import` goes as `history`).
std::vector<std::string> command_names();

}  // namespace llmperf
