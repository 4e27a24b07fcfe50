// What every llmperf command ends with: its exit code and the text main() prints once it returns.
// The commands that print as they go (a benchmark's runs, a study's trials, calibrate, history)
// return their exit code alone; the others (help, usage errors, compare, report, merge, history
// import) hand their whole output back.
#pragma once

#include <string>

namespace llmperf {

struct CommandOutcome {
  int exit_code = 0;  // the process's exit code (core/exit_codes.h)
  std::string out;    // text for stdout
  std::string err;    // text for stderr
};

}  // namespace llmperf
