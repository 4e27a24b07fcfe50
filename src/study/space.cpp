// `--param NAME=SPEC` parsing and the values a parameter's grid takes (the grammar is in
// space.h). Grid points of float and log ranges are rounded to 12 significant digits, so that the
// noise of floating-point arithmetic does not reach the commands.
#include "study/space.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "core/text.h"
#include "study/numbers.h"

namespace llmperf {
namespace {

using study_detail::format_number;
using study_detail::parse_finite_double;
using study_detail::parse_int64;
using study_detail::round_significant;

constexpr int kGridDigits = 12;           // significant digits of float and log grid points
constexpr int64_t kMaxGridPoints = 1000;  // the most points of a float or log grid

[[noreturn]] void fail(std::string_view text, const std::string& what) {
  throw std::invalid_argument(fmt::format("--param '{}': {}", text, what));
}

bool is_identifier(std::string_view name) {
  if (name.empty()) return false;
  const auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  if (!alpha(name[0]) && name[0] != '_') return false;
  return std::all_of(name.begin(), name.end(),
                     [&](char c) { return alpha(c) || (c >= '0' && c <= '9') || c == '_'; });
}

void parse_choices(std::string_view text, std::string_view spec, ParamSpace& space) {
  std::set<std::string> seen;
  // --exclude compares numbers as numbers, so '512' and '0512' would be one value to it.
  std::map<double, std::string> numbers;
  const std::vector<std::string_view> parts = split_text(spec, ',');
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string value(trim(parts[i]));
    if (value.empty()) {
      fail(text, fmt::format("value {} of {} is empty (values are separated by ',')", i + 1,
                             parts.size()));
    }
    if (!seen.insert(value).second)
      fail(text, fmt::format("the value '{}' is listed twice", value));
    double number = 0;
    if (parse_finite_double(value, number)) {
      const auto [earlier, added] = numbers.emplace(number, value);
      if (!added) {
        fail(text, fmt::format("'{}' and '{}' are the same number", earlier->second, value));
      }
    }
    space.choices.push_back(value);
  }
}

void parse_int_range(std::string_view text, const std::vector<std::string_view>& parts,
                     ParamSpace& space) {
  if (parts.size() < 3 || parts.size() > 4) fail(text, "expected int:LO:HI or int:LO:HI:STEP");
  const char* names[] = {"", "LO", "HI", "STEP"};
  int64_t values[4] = {0, 0, 0, 1};
  for (size_t i = 1; i < parts.size(); ++i) {
    if (!parse_int64(parts[i], values[i])) {
      fail(text, fmt::format("{} '{}' is not an integer", names[i], trim(parts[i])));
    }
  }
  space.int_lo = values[1];
  space.int_hi = values[2];
  space.int_step = values[3];
  if (space.int_lo > space.int_hi) {
    fail(text, fmt::format("LO ({}) is above HI ({})", space.int_lo, space.int_hi));
  }
  if (space.int_step < 1) fail(text, fmt::format("STEP ({}) must be at least 1", space.int_step));
}

// The N points of a float or log grid as text: LO and HI exactly, the points between rounded to
// kGridDigits significant digits.
std::vector<std::string> real_grid(const ParamSpace& space) {
  const bool log = space.kind == ParamKind::kLog;
  const double lo = log ? std::log(space.lo) : space.lo;
  const double hi = log ? std::log(space.hi) : space.hi;
  std::vector<std::string> values;
  for (int i = 0; i < space.points; ++i) {
    double value = space.hi;  // the last point is HI exactly
    if (i == 0) {
      value = space.lo;
    } else if (i + 1 < space.points) {
      const double at = lo + (hi - lo) * i / (space.points - 1);
      value = round_significant(log ? std::exp(at) : at, kGridDigits);
    }
    values.push_back(format_number(value));
  }
  return values;
}

void parse_real_range(std::string_view text, const std::vector<std::string_view>& parts,
                      ParamSpace& space) {
  const std::string_view kind = parts[0];
  if (parts.size() < 3 || parts.size() > 4) {
    fail(text, fmt::format("expected {0}:LO:HI or {0}:LO:HI:N", kind));
  }
  if (!parse_finite_double(parts[1], space.lo)) {
    fail(text, fmt::format("LO '{}' is not a finite number", trim(parts[1])));
  }
  if (!parse_finite_double(parts[2], space.hi)) {
    fail(text, fmt::format("HI '{}' is not a finite number", trim(parts[2])));
  }
  if (parts.size() == 4) {
    int64_t points = 0;
    if (!parse_int64(parts[3], points) || points < 2 || points > kMaxGridPoints) {
      fail(text, fmt::format("N '{}' must be an integer from 2 to {} (the grid's points, both "
                             "ends included)",
                             trim(parts[3]), kMaxGridPoints));
    }
    space.points = static_cast<int>(points);
  }
  if (!(space.lo < space.hi)) {
    fail(text, fmt::format("LO ({}) must be below HI ({})", format_number(space.lo),
                           format_number(space.hi)));
  }
  if (space.kind == ParamKind::kLog && !(space.lo > 0)) {
    fail(text, fmt::format("LO ({}) must be above 0 on a log scale", format_number(space.lo)));
  }
  const std::vector<std::string> values = real_grid(space);
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i] == values[i - 1]) {
      fail(text, fmt::format("the {} points are not distinct at {} significant digits ({} twice); "
                             "use fewer points or a wider range",
                             space.points, kGridDigits, values[i]));
    }
  }
}

}  // namespace

ParamSpace parse_param(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    fail(text, "expected NAME=SPEC, e.g. mnbt=64,128,256 or mnbt=int:64:8192:64");
  }
  ParamSpace space;
  space.name = std::string(trim(text.substr(0, eq)));
  if (!is_identifier(space.name)) {
    fail(text, fmt::format("the name '{}' must be a letter or '_' followed by letters, digits or "
                           "'_'",
                           space.name));
  }
  const auto builtin = [&](std::string_view name) {
    return std::find(std::begin(kBuiltinNames), std::end(kBuiltinNames), name) !=
               std::end(kBuiltinNames) ||
           std::find(std::begin(kSlotNames), std::end(kSlotNames), name) != std::end(kSlotNames);
  };
  if (builtin(space.name)) {
    fail(text, fmt::format("'{}' is a builtin name ({{port}}, {{trial}}, {{outdir}}, {{slot}}, "
                           "{{gpus}}); choose another",
                           space.name));
  }
  const std::string_view spec = trim(text.substr(eq + 1));
  space.spec = std::string(spec);
  if (spec.empty()) fail(text, "no values after '='");

  const std::vector<std::string_view> parts = split_text(spec, ':');
  const std::string_view kind = trim(parts[0]);
  if (parts.size() > 1 && kind == "int") {
    space.kind = ParamKind::kInt;
    parse_int_range(text, parts, space);
  } else if (parts.size() > 1 && (kind == "float" || kind == "log")) {
    space.kind = kind == "float" ? ParamKind::kFloat : ParamKind::kLog;
    parse_real_range(text, parts, space);
  } else if (parts.size() > 1 && (kind == "flag" || kind == "flag-on" || kind == "flag-off")) {
    space.kind = ParamKind::kFlag;
    space.flag = std::string(trim(spec.substr(spec.find(':') + 1)));
    if (space.flag.empty()) {
      fail(text, fmt::format("{}: needs the flag's text, e.g. {}:--enable-x", kind, kind));
    }
    if (kind != "flag") space.flag_fixed = kind == "flag-on" ? FlagFixed::kOn : FlagFixed::kOff;
  } else {
    space.kind = ParamKind::kChoices;
    parse_choices(text, spec, space);
  }
  return space;
}

std::vector<ParamSpace> parse_params(const std::vector<std::string>& texts) {
  std::vector<ParamSpace> spaces;
  for (const std::string& text : texts) {
    ParamSpace space = parse_param(text);
    for (const ParamSpace& earlier : spaces) {
      if (earlier.name == space.name) {
        throw std::invalid_argument(
            fmt::format("--param '{}': '{}' is already given by --param "
                        "'{}={}'",
                        text, space.name, earlier.name, earlier.spec));
      }
    }
    spaces.push_back(std::move(space));
  }
  return spaces;
}

uint64_t grid_value_count(const ParamSpace& space) {
  switch (space.kind) {
    case ParamKind::kChoices:
      return space.choices.size();
    case ParamKind::kInt: {
      // hi - lo in unsigned arithmetic never overflows for lo <= hi; the count saturates.
      const uint64_t steps =
          (static_cast<uint64_t>(space.int_hi) - static_cast<uint64_t>(space.int_lo)) /
          static_cast<uint64_t>(space.int_step);
      return steps == UINT64_MAX ? UINT64_MAX : steps + 1;
    }
    case ParamKind::kFloat:
    case ParamKind::kLog:
      return static_cast<uint64_t>(space.points);  // distinct: parse_param checks
    case ParamKind::kFlag:
      return space.flag_fixed == FlagFixed::kNo ? 2 : 1;
  }
  return 0;
}

std::vector<std::string> grid_values(const ParamSpace& space) {
  std::vector<std::string> values;
  switch (space.kind) {
    case ParamKind::kChoices:
      return space.choices;
    case ParamKind::kInt: {
      const uint64_t count = grid_value_count(space);
      if (count > kMaxTrials) {
        throw std::invalid_argument(
            fmt::format("--param '{}={}': the grid has more than {} "
                        "values; use a larger STEP or --strategy random:N",
                        space.name, space.spec, kMaxTrials));
      }
      for (uint64_t i = 0; i < count; ++i) {
        values.push_back(
            fmt::format("{}", static_cast<int64_t>(static_cast<uint64_t>(space.int_lo) +
                                                   i * static_cast<uint64_t>(space.int_step))));
      }
      return values;
    }
    case ParamKind::kFloat:
    case ParamKind::kLog:
      return real_grid(space);
    case ParamKind::kFlag:
      if (space.flag_fixed == FlagFixed::kOn) return {space.flag};
      if (space.flag_fixed == FlagFixed::kOff) return {""};
      return {space.flag, ""};
  }
  return values;
}

uint64_t grid_size(const std::vector<ParamSpace>& spaces) {
  uint64_t size = 1;
  for (const ParamSpace& space : spaces) {
    const uint64_t count = grid_value_count(space);
    if (count == 0) return 0;
    size = size > UINT64_MAX / count ? UINT64_MAX : size * count;
  }
  return size;
}

}  // namespace llmperf
