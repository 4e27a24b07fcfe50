// See subcommand_parse.h.
#include "cli/subcommand_parse.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/unknown_flags.h"
#include "core/exit_codes.h"

namespace llmperf {

std::optional<CommandOutcome> parse_subcommand(CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = argc - 1; i >= 2; --i) args.emplace_back(argv[i]);  // CLI11 wants them reversed
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    return CommandOutcome{kExitOk, app.help(), ""};
  } catch (const CLI::ParseError& e) {
    std::string err;
    for (const std::string& line : parse_error_lines(app, e)) {
      err += fmt::format("llmperf {}: {}\n", app.get_name(), line);
    }
    return CommandOutcome{kExitUsage, "", err + "Run with --help for usage.\n"};
  }
  return std::nullopt;
}

}  // namespace llmperf
