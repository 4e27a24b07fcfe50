// The commands' names and how a command line names one (commands.h).
#include "cli/commands.h"

namespace llmperf {
namespace {

struct CommandWords {
  Command command;
  std::string_view words;  // the words after `llmperf` that name it
};

// In the order they are matched: `history import` before `history`. `bench serve` is the
// benchmark's vLLM form (cli.cpp reads it).
constexpr CommandWords kCommands[] = {
    {Command::kBenchmark, "bench serve"}, {Command::kCalibrate, "calibrate"},
    {Command::kTune, "tune"},             {Command::kHistoryImport, "history import"},
    {Command::kHistory, "history"},       {Command::kCompare, "compare"},
    {Command::kReport, "report"},         {Command::kMerge, "merge"},
};

// Whether argv[1...] start with `words`.
bool starts_with_words(std::string_view words, int argc, const char* const* argv) {
  for (int i = 1; !words.empty(); ++i) {
    const size_t space = words.find(' ');
    if (i >= argc || std::string_view(argv[i]) != words.substr(0, space)) return false;
    words = space == std::string_view::npos ? std::string_view() : words.substr(space + 1);
  }
  return true;
}

}  // namespace

Command named_command(int argc, const char* const* argv) {
  for (const CommandWords& command : kCommands) {
    if (starts_with_words(command.words, argc, argv)) return command.command;
  }
  return Command::kBenchmark;
}

std::vector<std::string> command_names() {
  // A mistyped first word is matched against the first words: `history import` is offered as
  // `history`, whose help names it.
  const auto is_command = [](std::string_view words) {
    for (const CommandWords& command : kCommands) {
      if (command.words == words) return true;
    }
    return false;
  };
  std::vector<std::string> names;
  for (const CommandWords& command : kCommands) {
    const std::string_view first = command.words.substr(0, command.words.find(' '));
    if (first != command.words && is_command(first)) continue;
    names.emplace_back(command.words);
  }
  return names;
}

}  // namespace llmperf
