// See unknown_flags.h.
#include "cli/unknown_flags.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <limits>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace llmperf {
namespace {

// The word as it is compared: no leading dashes, no "=value", lower case, '_' as '-'.
std::string comparable(std::string_view word) {
  word.remove_prefix(std::min(word.find_first_not_of('-'), word.size()));
  word = word.substr(0, word.find('='));
  std::string out(word);
  for (char& c : out) {
    c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbouring letters cost one each (a swap is the commonest typo: --parallel as --paralell).
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// The candidate closest to `typed` (both already comparable), by index; npos when none is close.
size_t closest(const std::string& typed, const std::vector<std::string>& candidates) {
  if (typed.empty()) return std::string::npos;
  const size_t allowed = std::max<size_t>(1, typed.size() / 3);
  size_t best = std::string::npos;
  size_t best_distance = std::numeric_limits<size_t>::max();
  for (size_t i = 0; i < candidates.size(); ++i) {
    const std::string& name = candidates[i];
    size_t distance = edit_distance(typed, name);
    const bool near = distance <= allowed;
    // "--result" for "--results-db": the start of a known name counts as close, after every
    // name within the allowed distance.
    const bool begins = typed.size() >= 4 && name.starts_with(typed);
    if (!near && !begins) continue;
    if (!near) distance = allowed + 1;
    if (distance < best_distance) {  // ties: the first added, the canonical name before aliases
      best = i;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace

bool looks_like_flag(std::string_view word) {
  return word.size() >= 2 && word[0] == '-' && word != "--" &&
         std::isdigit(static_cast<unsigned char>(word[1])) == 0 && word[1] != '.';
}

std::vector<std::string> flag_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const std::vector<std::string> more = flag_names(*sub);
    names.insert(names.end(), more.begin(), more.end());
  }
  return names;
}

std::string closest_flag(std::string_view typed, const std::vector<std::string>& known) {
  std::vector<std::string> candidates;
  candidates.reserve(known.size());
  for (const std::string& name : known) candidates.push_back(comparable(name));
  const size_t found = closest(comparable(typed), candidates);
  return found == std::string::npos ? std::string() : known[found];
}

std::string closest_command(std::string_view typed, const std::vector<std::string>& commands) {
  std::vector<std::string> candidates;
  candidates.reserve(commands.size());
  for (const std::string& command : commands) {
    candidates.push_back(comparable(command.substr(0, command.find(' '))));
  }
  const size_t found = closest(comparable(typed), candidates);
  return found == std::string::npos ? std::string() : commands[found];
}

std::vector<std::string> leftover_word_errors(const LeftoverWords& leftover) {
  std::vector<std::string> errors;
  bool after_unknown_flag = false;
  for (size_t i = 0; i < leftover.words.size(); ++i) {
    const std::string& word = leftover.words[i];
    if (looks_like_flag(word)) {
      const std::string flag = word.substr(0, word.find('='));
      const std::string suggestion = closest_flag(flag, leftover.known);
      errors.push_back(suggestion.empty()
                           ? fmt::format("unknown flag {}", flag)
                           : fmt::format("unknown flag {} (did you mean {}?)", flag, suggestion));
      after_unknown_flag = true;
      continue;
    }
    if (after_unknown_flag) continue;  // the unknown flag's value
    if (i == 0 && !leftover.commands.empty()) {
      const std::string command = closest_command(word, leftover.commands);
      if (!command.empty()) {
        errors.push_back(
            fmt::format("unknown command {} (did you mean `llmperf {}`?)", word, command));
        continue;
      }
    }
    errors.push_back(fmt::format("unexpected argument {}", word));
  }
  return errors;
}

std::vector<std::string> parse_error_lines(const CLI::App& app, const CLI::ParseError& error,
                                           std::string_view first_word,
                                           const std::vector<std::string>& commands) {
  LeftoverWords leftover;
  if (!app.get_allow_extras()) leftover.words = app.remaining();
  if (!leftover.words.empty() && leftover.words.front() == first_word) leftover.commands = commands;
  leftover.known = flag_names(app);
  std::vector<std::string> lines = leftover_word_errors(leftover);
  if (dynamic_cast<const CLI::ExtrasError*>(&error) == nullptr) lines.emplace_back(error.what());
  return lines;
}

std::vector<std::string> unaccepted_flag_errors(const std::vector<std::string>& args,
                                                const std::vector<std::string>& accepted,
                                                const std::vector<std::string>& also_known) {
  std::vector<std::string> known = also_known;
  known.insert(known.end(), accepted.begin(), accepted.end());
  std::vector<std::string> errors;
  for (const std::string& word : args) {
    if (!looks_like_flag(word)) continue;
    const std::string flag = word.substr(0, word.find('='));
    if (std::find(accepted.begin(), accepted.end(), flag) != accepted.end()) continue;
    const std::vector<std::string> more = leftover_word_errors({{flag}, known, {}});
    errors.insert(errors.end(), more.begin(), more.end());
  }
  return errors;
}

}  // namespace llmperf
