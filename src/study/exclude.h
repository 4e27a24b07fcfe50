// `--exclude 'EXPR'` of `llmperf tune`: a condition on a trial's parameters; a trial that matches
// any is skipped before it starts (recorded as excluded). Parsed once into a small syntax tree,
// evaluated per trial. Pure.
//
// Grammar (keywords in any case; spaces between tokens are free):
//   expr    = and { ('or' | '||') and }
//   and     = not { ('and' | '&&') not }
//   not     = ('not' | '!') not | primary
//   primary = '(' expr ')' | operand [ ('==' | '!=' | '<' | '<=' | '>' | '>=') operand ]
//   operand = NAME (a parameter: its value in the trial) | NUMBER | 'true' | 'false'
//           | 'text' | "text" (a backslash escapes the quote or itself)
// A comparison is numeric when both sides read as numbers, else it compares text: only == and !=
// apply to text (an ordering that could meet text is refused at parse time), and against true or
// false it ignores case. An operand on its own is true when its text is not empty, not "false"
// (any case) and not a number equal to 0: so a flag parameter alone is true when the flag is
// present. A bare word that is no parameter is an error; quote it to mean the text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "study/space.h"

namespace llmperf {

// A leaf of an --exclude expression.
struct ExcludeOperand {
  enum class Kind { kName, kNumber, kBool, kString };
  Kind kind = Kind::kString;
  std::string text;     // kName: the parameter; kNumber: as written; kBool: "true" or "false";
                        // kString: the content, escapes removed
  size_t position = 0;  // where it starts in the expression, 1-based
};

// The comparison operators.
enum class ExcludeOp { kEq, kNe, kLt, kLe, kGt, kGe };

// A node of the syntax tree.
struct ExcludeNode {
  enum class Kind { kOr, kAnd, kNot, kCompare, kValue };
  Kind kind = Kind::kValue;
  std::vector<ExcludeNode> children;  // kOr, kAnd: two or more; kNot: one
  ExcludeOperand lhs;                 // kCompare: the left side; kValue: the operand tested
  ExcludeOperand rhs;                 // kCompare: the right side
  ExcludeOp op = ExcludeOp::kEq;      // kCompare
};

// One parsed --exclude.
struct ExcludeRule {
  std::string text;  // the expression as given
  ExcludeNode root;
};

// Parses one --exclude against the study's parameters. Throws std::invalid_argument naming
// --exclude, the expression, the position (1-based) and what was expected, e.g. "--exclude 'cp=='
// at 5: expected a parameter, number, string, true or false, found the end".
ExcludeRule parse_exclude(std::string_view text, const std::vector<ParamSpace>& spaces);

// Whether `assignment` matches `rule`. Throws std::invalid_argument naming --exclude when the
// assignment lacks a parameter the rule names or a value makes an ordering compare text.
bool exclude_matches(const ExcludeRule& rule, const Assignment& assignment);

// The index of the first rule that `assignment` matches, if any.
std::optional<size_t> first_matching_exclude(const std::vector<ExcludeRule>& rules,
                                             const Assignment& assignment);

}  // namespace llmperf
