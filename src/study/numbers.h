// Numbers as the study stage reads and writes them, shared by its files: whole-text integer and
// finite-number parsing (locale-free), rounding to significant digits and the shortest text of a
// double ("64", not "64.0"). Internal to src/study/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace llmperf::study_detail {

// `text` (trimmed, an optional leading '+') is an integer in range, all of it; stored in `out`.
bool parse_int64(std::string_view text, int64_t& out);

// `text` (trimmed, an optional leading '+') is a finite number, all of it; stored in `out`.
bool parse_finite_double(std::string_view text, double& out);

// `value` rounded to `digits` significant digits (decimal, exactly the same on every platform).
double round_significant(double value, int digits);

// The shortest text that reads back as `value`, without ".0" for whole numbers; "0" for -0.
std::string format_number(double value);

}  // namespace llmperf::study_detail
