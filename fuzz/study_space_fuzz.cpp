// libFuzzer target: `llmperf tune`'s text inputs (--param, --strategy, --exclude, the command
// templates, a ledger line) come from users and from files, so no input may crash them; they
// throw std::invalid_argument or succeed, and nothing else escapes. The whole input goes to
// parse_strategy, parse_param, the template functions and trial_from_json; each line that is a
// --param joins the study's spaces, each line is then tried as an --exclude and evaluated on the
// configurations drawn from those spaces. Checked: a grid lists as many values as it counts,
// each once; a label holds only safe characters; text without '{' substitutes to itself and every
// name template_names finds is known when substitution succeeds; a ledger line read back writes
// the same line again. Each line is also a --stage against those spaces (stages.h): every
// stage's --param texts must parse again, each stage's own parameters keeping their values.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "study/exclude.h"
#include "study/label.h"
#include "study/space.h"
#include "study/stages.h"
#include "study/template.h"
#include "study/trial.h"

namespace {

using namespace llmperf;

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size() && lines.size() < 16) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string_view::npos ? text.npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return lines;
}

void check_label(const std::string& label) {
  for (const char c : label) {
    const bool safe = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '+' || c == '-';
    if (!safe) std::abort();
  }
}

void fuzz_templates(std::string_view text, const Assignment& assignment) {
  TemplateValues values = {{"port", "41234"}, {"trial", "0"}, {"outdir", "/tmp/t"}};
  values.insert(values.end(), assignment.begin(), assignment.end());
  const std::vector<std::string> names = template_names(text);
  try {
    const std::string out = substitute(text, values, "--serve");
    if (text.find('{') == std::string_view::npos && out != text) std::abort();
    for (const std::string& name : names) {
      bool known = false;
      for (const auto& value : values) known = known || value.first == name;
      if (!known) std::abort();
    }
  } catch (const std::invalid_argument&) {
    if (names.empty()) std::abort();  // only an unknown name is an error
  }
}

void fuzz_stages(const std::vector<std::string_view>& lines, const std::vector<ParamSpace>& spaces) {
  std::vector<std::string> texts(lines.begin(), lines.end());
  std::vector<Stage> stages;
  try {
    stages = parse_stages(texts, spaces);
  } catch (const std::invalid_argument&) {
    return;
  }
  for (size_t k = 0; k < stages.size(); ++k) {
    // The stages before k fixed at their first grid value (as a best would be one of them).
    StageChoices chosen;
    for (size_t s = 0; s < k; ++s) {
      for (const ParamSpace& space : stages[s].params) {
        if (grid_value_count(space) > 64) return;
        chosen.emplace_back(space.name, std::vector<std::string>{grid_values(space).front()});
      }
    }
    try {
      const std::vector<ParamSpace> parsed = parse_params(stage_param_texts(stages, k, spaces, chosen));
      for (const ParamSpace& own : stages[k].params) {
        bool found = false;
        for (const ParamSpace& space : parsed) {
          if (space.name != own.name) continue;
          found = true;
          if (grid_value_count(space) != grid_value_count(own)) std::abort();
        }
        if (!found) std::abort();
      }
    } catch (const std::invalid_argument&) {
      // A value with a ',' (a choice cannot hold one) does not read back as one value.
    }
  }
}

void fuzz_ledger_line(std::string_view text) {
  try {
    const TrialRecord record = trial_from_json(text, "fuzz:1");
    const std::string line = trial_to_json(record);
    if (trial_to_json(trial_from_json(line, "fuzz:2")) != line) std::abort();
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    parse_strategy(text);
  } catch (const std::invalid_argument&) {
  }
  try {
    parse_param(text);
  } catch (const std::invalid_argument&) {
  }
  fuzz_ledger_line(text);

  const std::vector<std::string_view> lines = lines_of(text);
  std::vector<ParamSpace> spaces;
  for (const std::string_view line : lines) {
    try {
      ParamSpace space = parse_param(line);
      if (spaces.size() >= 4) continue;
      bool taken = false;
      for (const ParamSpace& earlier : spaces) taken = taken || earlier.name == space.name;
      if (taken) continue;
      if (grid_value_count(space) <= 64) {
        const std::vector<std::string> values = grid_values(space);
        if (values.size() != grid_value_count(space)) std::abort();
        if (std::set<std::string>(values.begin(), values.end()).size() != values.size()) {
          std::abort();  // a grid never lists a value twice
        }
      }
      spaces.push_back(std::move(space));
    } catch (const std::invalid_argument&) {
    }
  }

  std::vector<Assignment> assignments;
  if (grid_size(spaces) <= 64) {
    assignments = grid_assignments(spaces);
    if (assignments.size() != grid_size(spaces)) std::abort();
  } else {
    assignments = random_assignments(spaces, 8, size);
  }
  for (size_t i = 0; i < assignments.size(); ++i)
    check_label(trial_label(i, spaces, assignments[i]));

  for (const std::string_view line : lines) {
    try {
      const ExcludeRule rule = parse_exclude(line, spaces);
      for (const Assignment& assignment : assignments) {
        try {
          exclude_matches(rule, assignment);
        } catch (const std::invalid_argument&) {
        }
      }
    } catch (const std::invalid_argument&) {
    }
  }
  fuzz_stages(lines, spaces);
  fuzz_templates(text, assignments.empty() ? Assignment{} : assignments.front());
  if (!lines.empty())
    fuzz_templates(lines.back(), assignments.empty() ? Assignment{} : assignments.front());
  return 0;
}
