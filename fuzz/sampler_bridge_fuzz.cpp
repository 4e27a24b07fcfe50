// libFuzzer target: the learned searches' lines from the Optuna bridge (a Python process, so its
// answers are input like any other) and the suggested exclusions made from a study's rows. The
// first lines that parse as --param make the space; every line is then read as the bridge's
// hello, an answer to ask and a plain answer, which may throw std::invalid_argument and nothing
// else. Checked: an answer to ask that parses gives a value of the space for every parameter, and
// the add request made from it encodes the same configuration; every suggested --exclude parses
// and matches each row it was made from that failed, and no row that ran ok.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_lines.h"
#include "study/exclude.h"
#include "study/sampler_space.h"
#include "study/suggest_exclude.h"

namespace {

using namespace llmperf;
using llmperf::fuzz::lines_of;

void fuzz_ask(std::string_view line, const std::vector<ParamSpace>& spaces) {
  BridgeAsk ask;
  try {
    ask = parse_bridge_ask(line, spaces);
  } catch (const std::invalid_argument&) {
    return;
  }
  if (ask.params.size() != spaces.size()) std::abort();
  const nlohmann::json add = nlohmann::json::parse(
      bridge_add_request(spaces, ask.params, SamplerOutcome{true, {1.0}, ""}));
  const nlohmann::json asked = nlohmann::json::parse(line).at("params");
  for (const ParamSpace& space : spaces) {
    if (add.at("params").at(space.name) != asked.at(space.name)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string_view> lines = lines_of(text);
  std::vector<ParamSpace> spaces;
  for (const std::string_view line : lines) {
    try {
      ParamSpace space = parse_param(line);
      bool taken = spaces.size() >= 3 || grid_value_count(space) > 64;
      for (const ParamSpace& earlier : spaces) taken = taken || earlier.name == space.name;
      if (!taken) spaces.push_back(std::move(space));
    } catch (const std::invalid_argument&) {
    }
  }
  for (const std::string_view line : lines) {
    try {
      parse_bridge_hello(line);
    } catch (const std::invalid_argument&) {
    }
    try {
      parse_bridge_ok(line);
    } catch (const std::invalid_argument&) {
    }
    fuzz_ask(line, spaces);
  }

  // Rows: the grid's configurations, each failed or ok as the input's bytes say.
  if (grid_size(spaces) > 64) return 0;
  std::vector<TrialRecord> rows;
  size_t at = 0;
  for (const Assignment& params : grid_assignments(spaces)) {
    const uint8_t byte = size == 0 ? 0 : data[at++ % size];
    TrialRecord row;
    row.params = params;
    row.status = byte % 3 == 0 ? TrialStatus::kOk
                 : byte % 3 == 1 ? TrialStatus::kStartFailed
                                 : TrialStatus::kBenchFailed;
    row.reason = row.status == TrialStatus::kOk ? "" : std::string(1, static_cast<char>('a' + byte % 2));
    rows.push_back(std::move(row));
  }
  for (const SuggestedExclude& suggested : suggest_excludes(rows, spaces)) {
    ExcludeRule rule;
    try {
      rule = parse_exclude(suggested.expression, spaces);
    } catch (const std::invalid_argument&) {
      std::abort();  // a suggestion must be a valid --exclude
    }
    size_t matched = 0;
    for (const TrialRecord& row : rows) {
      bool match = false;
      try {
        match = exclude_matches(rule, row.params);
      } catch (const std::invalid_argument&) {
        std::abort();
      }
      if (match && row.status == TrialStatus::kOk) std::abort();
      matched += match ? 1 : 0;
    }
    if (matched < suggested.configurations) std::abort();
  }
  return 0;
}
