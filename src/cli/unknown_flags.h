// What to say about the words a command line's parser could not place: an unknown flag is named,
// with the known flag closest to it ("--paralel": did you mean --parallel?), where CLI11 2.1 would
// only list every leftover word in reverse order. Every command's parser reports through here.
// Private to src/cli/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace llmperf {

// Every name `app`'s options (and its CLI11 subcommands' options) answer to, with their dashes, in
// the order they were added: "--parallel", "--max-concurrency", "-n", ...
std::vector<std::string> flag_names(const CLI::App& app);

// The name in `known` closest to what was typed ("--paralel" gives "--parallel"), "" when none is
// close enough to be the same word mistyped. Compared without dashes and a "=value" part, case and
// '_' against '-' ignored; closeness is the edit distance (a swap of two neighbours counts one),
// at most a third of the typed word's letters (at least one), or a known name the typed word
// begins (4 letters or more).
std::string closest_flag(std::string_view typed, const std::vector<std::string>& known);

// The same among command names ("histroy" gives "history"); `commands` may hold two-word commands
// ("bench serve"), matched by their first word.
std::string closest_command(std::string_view typed, const std::vector<std::string>& commands);

// Error lines for the words left over after parsing (CLI::App::remaining() once CLI11 threw
// CLI::ExtrasError), in command-line order: "unknown flag --paralel (did you mean --parallel?)"
// for a word that looks like a flag (the words after it are taken as its values), "unexpected
// argument WORD" for another. With `commands`, words[0] is taken for a mistyped command when it
// is close to one: "unknown command histroy (did you mean `llmperf history`?)".
struct LeftoverWords {
  std::vector<std::string> words;  // remaining(), in command-line order
  std::vector<std::string> known;  // flag_names() of the command's parser
  // The subcommands, given only when words[0] is the command line's first word.
  std::vector<std::string> commands;
};
std::vector<std::string> leftover_word_errors(const LeftoverWords& leftover);

// Every error line of a parse of `app` that threw `error`: those of the words it left over
// (leftover_word_errors; `commands` only when the first of them is `first_word`, the command
// line's first word), then CLI11's message unless it only listed them (CLI::ExtrasError). The
// leftovers come first because they are often the cause: an unknown flag's value taken for a
// positional argument fails its check ("--outptus-dir x": "Directory does not exist: x"). A
// parser that hands its extras on (`llmperf tune`) reports none.
std::vector<std::string> parse_error_lines(const CLI::App& app, const CLI::ParseError& error,
                                           std::string_view first_word = {},
                                           const std::vector<std::string>& commands = {});

// The words of `args` written as flags ("--x" or "--x=value") that `accepted` does not hold, as
// errors naming the closest name of `accepted` and `also_known`: `llmperf tune` checks the words
// it hands to the benchmark (`accepted`: the benchmark's flags) against its own too.
std::vector<std::string> unaccepted_flag_errors(const std::vector<std::string>& args,
                                                const std::vector<std::string>& accepted,
                                                const std::vector<std::string>& also_known);

// Whether `word` is written as a flag ("--x", "-x"), not a value such as "-1" or "-", nor "--".
bool looks_like_flag(std::string_view word);

}  // namespace llmperf
