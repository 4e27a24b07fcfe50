// Suggested exclusions (suggest_exclude.h): every condition and pair of conditions the rows'
// values allow, kept when the configurations it matches all failed alike, broadest first.
#include "study/suggest_exclude.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "study/exclude.h"
#include "study/numbers.h"

namespace llmperf {
namespace {

using study_detail::parse_finite_double;

constexpr size_t kMaxConditionsForPairs = 400;

enum class Op { kEq, kLe, kGe };

struct Condition {
  size_t param = 0;  // index into the parameter names
  Op op = Op::kEq;
  std::string value;
  double number = 0;  // kLe, kGe
};

bool failed(TrialStatus status) {
  return status == TrialStatus::kStartFailed || status == TrialStatus::kReadyTimeout ||
         status == TrialStatus::kBenchFailed;
}

bool ran(TrialStatus status) { return failed(status) || status == TrialStatus::kOk ||
                                      status == TrialStatus::kSloViolated; }

// The reason with every run of digits (and a decimal point within) read as '#'.
std::string reason_key(const TrialRecord& row) {
  std::string key(trial_status_name(row.status));
  key += ':';
  bool in_number = false;
  for (char c : row.reason) {
    const bool digit = std::isdigit(static_cast<unsigned char>(c)) != 0 || (in_number && c == '.');
    if (digit && !in_number) key += '#';
    if (!digit) key += c;
    in_number = digit;
  }
  return key;
}

std::string value_of(const TrialRecord& row, const std::string& name) {
  for (const auto& [param, value] : row.params) {
    if (param == name) return value;
  }
  return {};
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string condition_text(const Condition& condition, const std::string& name,
                           const ParamSpace* space) {
  if (space != nullptr && space->kind == ParamKind::kFlag) {
    return condition.value.empty() ? "not " + name : name;
  }
  double number = 0;
  const bool bare = parse_finite_double(condition.value, number) || condition.value == "true" ||
                    condition.value == "false";
  const std::string value = bare ? condition.value : quoted(condition.value);
  switch (condition.op) {
    case Op::kEq:
      return name + "==" + value;
    case Op::kLe:
      return name + "<=" + value;
    case Op::kGe:
      return name + ">=" + value;
  }
  return {};
}

bool matches(const Condition& condition, const std::vector<std::string>& values,
             const std::vector<std::optional<double>>& numbers) {
  switch (condition.op) {
    case Op::kEq:
      return values[condition.param] == condition.value;
    case Op::kLe:
      return numbers[condition.param] && *numbers[condition.param] <= condition.number;
    case Op::kGe:
      return numbers[condition.param] && *numbers[condition.param] >= condition.number;
  }
  return false;
}

// Whether --exclude reads `text`: a parameter named like a keyword ("and", "true") or a value
// that reads as a number but not as --exclude's NUMBER ("1e5") cannot be written as one.
bool valid_exclude(const std::string& text, const std::vector<ParamSpace>& spaces) {
  try {
    parse_exclude(text, spaces);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace

std::vector<SuggestedExclude> suggest_excludes(const std::vector<TrialRecord>& rows,
                                               const std::vector<ParamSpace>& spaces) {
  // The parameters: --param order, then any other a row holds.
  std::vector<std::string> names;
  for (const ParamSpace& space : spaces) names.push_back(space.name);
  for (const TrialRecord& row : rows) {
    for (const auto& [name, value] : row.params) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  const auto space_of = [&](size_t param) -> const ParamSpace* {
    for (const ParamSpace& space : spaces) {
      if (space.name == names[param]) return &space;
    }
    return nullptr;
  };

  // The rows that ran: their values, numbers and how they ended.
  std::vector<const TrialRecord*> ran_rows;
  std::vector<std::vector<std::string>> values;
  std::vector<std::vector<std::optional<double>>> numbers;
  for (const TrialRecord& row : rows) {
    if (!ran(row.status)) continue;
    ran_rows.push_back(&row);
    values.emplace_back();
    numbers.emplace_back();
    for (const std::string& name : names) {
      values.back().push_back(value_of(row, name));
      double number = 0;
      numbers.back().push_back(parse_finite_double(values.back().back(), number)
                                   ? std::optional<double>(number)
                                   : std::nullopt);
    }
  }

  // Every condition the values allow: == each value; <= and >= each value of an all-numeric
  // parameter (but the ones that hold for every value it took).
  std::vector<Condition> conditions;
  for (size_t p = 0; p < names.size(); ++p) {
    std::set<std::string> seen;
    bool numeric = true;
    double lo = 0;
    double hi = 0;
    for (size_t r = 0; r < ran_rows.size(); ++r) {
      seen.insert(values[r][p]);
      if (!numbers[r][p]) {
        numeric = false;
      } else {
        lo = r == 0 ? *numbers[r][p] : std::min(lo, *numbers[r][p]);
        hi = r == 0 ? *numbers[r][p] : std::max(hi, *numbers[r][p]);
      }
    }
    for (const std::string& value : seen) conditions.push_back({p, Op::kEq, value, 0});
    if (!numeric || seen.size() < 3) continue;
    for (const std::string& value : seen) {
      double number = 0;
      parse_finite_double(value, number);
      if (number > lo && number < hi) {
        conditions.push_back({p, Op::kLe, value, number});
        conditions.push_back({p, Op::kGe, value, number});
      }
    }
  }

  struct Candidate {
    std::vector<size_t> conditions;
    std::vector<size_t> rows;
  };
  std::vector<Candidate> candidates;
  const auto consider = [&](std::vector<size_t> chosen) {
    std::vector<size_t> matched;
    std::string key;
    for (size_t r = 0; r < ran_rows.size(); ++r) {
      bool all = true;
      for (size_t c : chosen) all = all && matches(conditions[c], values[r], numbers[r]);
      if (!all) continue;
      if (!failed(ran_rows[r]->status)) return;
      const std::string row_key = reason_key(*ran_rows[r]);
      if (!key.empty() && row_key != key) return;
      key = row_key;
      matched.push_back(r);
    }
    if (matched.size() >= 2) candidates.push_back({std::move(chosen), std::move(matched)});
  };
  // Pairs only while they stay cheap (a few hundred conditions: every value of a few parameters).
  const bool pairs = conditions.size() <= kMaxConditionsForPairs;
  for (size_t a = 0; a < conditions.size(); ++a) {
    consider({a});
    for (size_t b = a + 1; pairs && b < conditions.size(); ++b) {
      if (conditions[a].param != conditions[b].param) consider({a, b});
    }
  }
  // Broadest first; then fewer conditions, == before a range, and the text.
  const auto text_of = [&](const Candidate& candidate) {
    std::string text;
    for (size_t c : candidate.conditions) {
      if (!text.empty()) text += " and ";
      text += condition_text(conditions[c], names[conditions[c].param],
                             space_of(conditions[c].param));
    }
    return text;
  };
  const auto ranges = [&](const Candidate& candidate) {
    size_t count = 0;
    for (size_t c : candidate.conditions) count += conditions[c].op != Op::kEq ? 1 : 0;
    return count;
  };
  std::vector<std::string> texts;
  for (const Candidate& candidate : candidates) texts.push_back(text_of(candidate));
  std::vector<size_t> order(candidates.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    const Candidate& a = candidates[x];
    const Candidate& b = candidates[y];
    return std::make_tuple(-static_cast<int64_t>(a.rows.size()), a.conditions.size(), ranges(a),
                           texts[x]) < std::make_tuple(-static_cast<int64_t>(b.rows.size()),
                                                       b.conditions.size(), ranges(b), texts[y]);
  });
  std::vector<SuggestedExclude> out;
  std::set<size_t> covered;
  for (size_t i : order) {
    const Candidate& candidate = candidates[i];
    bool adds = false;
    for (size_t r : candidate.rows) adds = adds || covered.count(r) == 0;
    if (!adds || !valid_exclude(texts[i], spaces)) continue;
    covered.insert(candidate.rows.begin(), candidate.rows.end());
    const TrialRecord& first = *ran_rows[candidate.rows.front()];
    out.push_back({texts[i], candidate.rows.size(), first.status, first.reason});
  }
  return out;
}

}  // namespace llmperf
