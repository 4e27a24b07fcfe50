// The subcommands that work on existing output directories: `llmperf compare DIR... [--label
// NAME...] [--outputs-dir DIR]` and `llmperf report DIR [--percentiles P...]`. Their own argv
// parsing (CLI11) lives here so the benchmark's flags stay untouched.
#pragma once

#include <optional>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace llmperf {

struct SubcommandOutcome {
  int exit_code = 0;  // 0 success, 2 usage error, 1 unreadable or unwritable directory
  std::string out;    // text for stdout
  std::string err;    // text for stderr
};

// Runs the subcommand named by argv[1] ("compare" or "report"); nullopt when argv[1] names none,
// so the caller goes on with the benchmark flags.
std::optional<SubcommandOutcome> run_subcommand(int argc, const char* const* argv);

// Parses argv[2..] with `app`; an outcome when parsing ends the command (help: exit 0; an error:
// exit 2 with the message), nullopt when the command should go on.
std::optional<SubcommandOutcome> parse_subcommand(CLI::App& app, int argc, const char* const* argv);

}  // namespace llmperf
