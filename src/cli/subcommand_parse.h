// The argv parsing every subcommand shares (calibrate, tune, history, history import, compare,
// report, merge): CLI11 over the words after the subcommand's name, help and usage errors as the
// command's outcome, each error line prefixed with the command's name. Private to src/cli/.
#pragma once

#include <optional>

#include "core/command_outcome.h"

namespace CLI {
class App;
}  // namespace CLI

namespace llmperf {

// Parses argv[2..] with `app`; an outcome when parsing ends the command (help: exit 0; an error:
// exit 2 with the message), nullopt when the command should go on.
std::optional<CommandOutcome> parse_subcommand(CLI::App& app, int argc, const char* const* argv);

}  // namespace llmperf
