// `--exclude` expressions (grammar in exclude.h): a lexer into tokens with their positions, a
// recursive-descent parser into ExcludeNode (nesting bounded, so no input can exhaust the stack)
// and the evaluator over one trial's assignment.
#include "study/exclude.h"

#include "core/text.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "study/numbers.h"

namespace llmperf {
namespace {

using study_detail::parse_finite_double;

constexpr int kMaxDepth = 64;  // nested parentheses and 'not's

enum class Tok {
  kName,
  kNumber,
  kString,
  kTrue,
  kFalse,
  kAnd,
  kOr,
  kNot,
  kLParen,
  kRParen,
  kOp,
  kEnd
};

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // as written (kString: the content)
  ExcludeOp op = ExcludeOp::kEq;
  size_t position = 0;  // 1-based
};

bool word_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool word_char(char c) { return word_start(c) || digit(c); }

std::string describe(const Token& token) {
  switch (token.kind) {
    case Tok::kEnd:
      return "the end";
    case Tok::kString:
      return fmt::format("the string '{}'", token.text);
    default:
      return fmt::format("'{}'", token.text);
  }
}

// Lexes one expression, then parses its tokens by recursive descent (grammar in exclude.h).
class Parser {
 public:
  Parser(std::string_view text, const std::vector<ParamSpace>& spaces)
      : text_(text), spaces_(spaces) {
    lex();
  }

  ExcludeNode parse() {
    ExcludeNode root = parse_or(0);
    if (peek().kind != Tok::kEnd) {
      fail(peek().position, fmt::format("expected and, or or the end, found {}", describe(peek())));
    }
    return root;
  }

 private:
  [[noreturn]] void fail(size_t position, const std::string& what) const {
    throw std::invalid_argument(fmt::format("--exclude '{}' at {}: {}", text_, position, what));
  }

  void lex() {
    size_t i = 0;
    const auto add = [&](Tok kind, std::string text, size_t at, ExcludeOp op = ExcludeOp::kEq) {
      tokens_.push_back(Token{kind, std::move(text), op, at + 1});
    };
    while (i < text_.size()) {
      const char c = text_[i];
      const char next = i + 1 < text_.size() ? text_[i + 1] : '\0';
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++i;
      } else if (c == '(' || c == ')') {
        add(c == '(' ? Tok::kLParen : Tok::kRParen, std::string(1, c), i);
        ++i;
      } else if ((c == '&' || c == '|') && next == c) {
        add(c == '&' ? Tok::kAnd : Tok::kOr, std::string(2, c), i);
        i += 2;
      } else if (c == '&' || c == '|') {
        fail(i + 1, fmt::format("'{0}' alone is no operator; use '{0}{0}' or '{1}'", c,
                                c == '&' ? "and" : "or"));
      } else if (c == '=' || c == '!' || c == '<' || c == '>') {
        if (next == '=') {
          const ExcludeOp op = c == '='   ? ExcludeOp::kEq
                               : c == '!' ? ExcludeOp::kNe
                               : c == '<' ? ExcludeOp::kLe
                                          : ExcludeOp::kGe;
          add(Tok::kOp, std::string{c, '='}, i, op);
          i += 2;
        } else if (c == '=') {
          fail(i + 1, "'=' alone is no comparison; use '=='");
        } else if (c == '!') {
          add(Tok::kNot, "!", i);
          ++i;
        } else {
          add(Tok::kOp, std::string(1, c), i, c == '<' ? ExcludeOp::kLt : ExcludeOp::kGt);
          ++i;
        }
      } else if (c == '\'' || c == '"') {
        std::string content;
        size_t j = i + 1;
        while (j < text_.size() && text_[j] != c) {
          if (text_[j] == '\\' && j + 1 < text_.size() &&
              (text_[j + 1] == c || text_[j + 1] == '\\')) {
            ++j;
          }
          content += text_[j];
          ++j;
        }
        if (j >= text_.size()) {
          fail(i + 1, fmt::format("the string opened here has no closing {}", c));
        }
        add(Tok::kString, std::move(content), i);
        i = j + 1;
      } else if (digit(c) || ((c == '-' || c == '.') && (digit(next) || next == '.'))) {
        size_t j = i + 1;
        while (j < text_.size() && (word_char(text_[j]) || text_[j] == '.' ||
                                    ((text_[j] == '+' || text_[j] == '-') &&
                                     (text_[j - 1] == 'e' || text_[j - 1] == 'E')))) {
          ++j;
        }
        const std::string number(text_.substr(i, j - i));
        double value = 0;
        if (!parse_finite_double(number, value)) {
          fail(i + 1, fmt::format("'{}' is not a number", number));
        }
        add(Tok::kNumber, number, i);
        i = j;
      } else if (word_start(c)) {
        size_t j = i + 1;
        while (j < text_.size() && word_char(text_[j])) ++j;
        const std::string word(text_.substr(i, j - i));
        const std::string key = ascii_lower(word);
        const Tok kind = key == "and"     ? Tok::kAnd
                         : key == "or"    ? Tok::kOr
                         : key == "not"   ? Tok::kNot
                         : key == "true"  ? Tok::kTrue
                         : key == "false" ? Tok::kFalse
                                          : Tok::kName;
        add(kind, kind == Tok::kTrue || kind == Tok::kFalse ? key : word, i);
        i = j;
      } else {
        const auto byte = static_cast<unsigned char>(c);
        fail(i + 1, byte < 0x20 || byte >= 0x7f ? fmt::format("unexpected byte 0x{:02x}", byte)
                                                : fmt::format("unexpected character '{}'", c));
      }
    }
    add(Tok::kEnd, "", text_.size());
  }

  const Token& peek() const { return tokens_[at_]; }
  const Token& take() { return tokens_[at_ < tokens_.size() - 1 ? at_++ : at_]; }

  ExcludeNode parse_or(int depth) { return parse_chain(depth, Tok::kOr, ExcludeNode::Kind::kOr); }

  // A chain of `joiner`s (or: of ands; and: of nots), one node when there is none.
  ExcludeNode parse_chain(int depth, Tok joiner, ExcludeNode::Kind kind) {
    const auto operand = [&] {
      return joiner == Tok::kOr ? parse_chain(depth, Tok::kAnd, ExcludeNode::Kind::kAnd)
                                : parse_not(depth);
    };
    ExcludeNode first = operand();
    if (peek().kind != joiner) return first;
    ExcludeNode node;
    node.kind = kind;
    node.children.push_back(std::move(first));
    while (peek().kind == joiner) {
      take();
      node.children.push_back(operand());
    }
    return node;
  }

  ExcludeNode parse_not(int depth) {
    if (depth >= kMaxDepth) {
      fail(peek().position, fmt::format("nested deeper than {} levels", kMaxDepth));
    }
    if (peek().kind == Tok::kNot) {
      take();
      ExcludeNode node;
      node.kind = ExcludeNode::Kind::kNot;
      node.children.push_back(parse_not(depth + 1));
      return node;
    }
    if (peek().kind == Tok::kLParen) {
      const Token open = take();
      ExcludeNode inner = parse_or(depth + 1);
      if (peek().kind != Tok::kRParen) {
        fail(peek().position, fmt::format("expected ')' to close the '(' at {}, found {}",
                                          open.position, describe(peek())));
      }
      take();
      return inner;
    }
    ExcludeNode node;
    node.lhs = parse_operand();
    if (peek().kind != Tok::kOp) return node;  // kValue: the operand's truth
    const Token op = take();
    node.kind = ExcludeNode::Kind::kCompare;
    node.op = op.op;
    node.rhs = parse_operand();
    if (node.op != ExcludeOp::kEq && node.op != ExcludeOp::kNe) {
      check_orderable(node.lhs, op);
      check_orderable(node.rhs, op);
    }
    return node;
  }

  ExcludeOperand parse_operand() {
    const Token token = take();
    ExcludeOperand operand;
    operand.text = token.text;
    operand.position = token.position;
    switch (token.kind) {
      case Tok::kName:
        if (find_space(token.text) == nullptr) {
          std::string names;
          for (const ParamSpace& space : spaces_) {
            names += names.empty() ? space.name : ", " + space.name;
          }
          fail(token.position,
               fmt::format("unknown name '{}'; parameters: {}; quote a string ('{}')", token.text,
                           names.empty() ? "(none)" : names, token.text));
        }
        operand.kind = ExcludeOperand::Kind::kName;
        return operand;
      case Tok::kNumber:
        operand.kind = ExcludeOperand::Kind::kNumber;
        return operand;
      case Tok::kString:
        operand.kind = ExcludeOperand::Kind::kString;
        return operand;
      case Tok::kTrue:
      case Tok::kFalse:
        operand.kind = ExcludeOperand::Kind::kBool;
        return operand;
      default:
        fail(token.position,
             fmt::format("expected a parameter, number, string, true, false, not or '(', found {}",
                         describe(token)));
    }
  }

  const ParamSpace* find_space(std::string_view name) const {
    const auto found = std::find_if(spaces_.begin(), spaces_.end(),
                                    [&](const ParamSpace& space) { return space.name == name; });
    return found == spaces_.end() ? nullptr : &*found;
  }

  // An ordering (<, <=, >, >=) compares numbers: refuse an operand that can be text.
  void check_orderable(const ExcludeOperand& operand, const Token& op) const {
    const std::string why = [&]() -> std::string {
      double number = 0;
      switch (operand.kind) {
        case ExcludeOperand::Kind::kNumber:
          return "";
        case ExcludeOperand::Kind::kBool:
          return fmt::format("{} is not a number", operand.text);
        case ExcludeOperand::Kind::kString:
          return parse_finite_double(operand.text, number)
                     ? ""
                     : fmt::format("the string '{}' is not a number", operand.text);
        case ExcludeOperand::Kind::kName: {
          const ParamSpace* found = find_space(operand.text);
          if (found == nullptr) return "";  // refused by parse_operand already
          const ParamSpace& space = *found;
          if (space.kind == ParamKind::kFlag) {
            return fmt::format("{} is a flag (its value is '{}' or nothing)", space.name,
                               space.flag);
          }
          if (space.kind != ParamKind::kChoices) return "";
          for (const std::string& choice : space.choices) {
            if (!parse_finite_double(choice, number)) {
              return fmt::format("{} takes the value '{}', which is not a number", space.name,
                                 choice);
            }
          }
          return "";
        }
      }
      return "";
    }();
    if (!why.empty()) {
      fail(op.position,
           fmt::format("'{}' compares numbers, but {}; only == and != compare text", op.text, why));
    }
  }

  std::string_view text_;
  const std::vector<ParamSpace>& spaces_;
  std::vector<Token> tokens_;
  size_t at_ = 0;
};

// Evaluation of one rule over one assignment.
class Evaluator {
 public:
  Evaluator(const ExcludeRule& rule, const Assignment& assignment)
      : rule_(rule), assignment_(assignment) {}

  bool eval(const ExcludeNode& node) const {
    switch (node.kind) {
      case ExcludeNode::Kind::kOr:
        return std::any_of(node.children.begin(), node.children.end(),
                           [&](const ExcludeNode& child) { return eval(child); });
      case ExcludeNode::Kind::kAnd:
        return std::all_of(node.children.begin(), node.children.end(),
                           [&](const ExcludeNode& child) { return eval(child); });
      case ExcludeNode::Kind::kNot:
        return !eval(node.children.at(0));
      case ExcludeNode::Kind::kValue:
        return truth(value(node.lhs));
      case ExcludeNode::Kind::kCompare:
        return compare(node);
    }
    return false;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(fmt::format("--exclude '{}': {}", rule_.text, what));
  }

  const std::string& value(const ExcludeOperand& operand) const {
    if (operand.kind != ExcludeOperand::Kind::kName) return operand.text;
    for (const auto& [name, val] : assignment_) {
      if (name == operand.text) return val;
    }
    fail(fmt::format("the trial has no value for '{}'", operand.text));
  }

  static bool truth(const std::string& text) {
    double number = 0;
    if (parse_finite_double(text, number)) return number != 0;
    return !text.empty() && ascii_lower(text) != "false";
  }

  bool compare(const ExcludeNode& node) const {
    const std::string& left = value(node.lhs);
    const std::string& right = value(node.rhs);
    double a = 0;
    double b = 0;
    if (parse_finite_double(left, a) && parse_finite_double(right, b)) {
      switch (node.op) {
        case ExcludeOp::kEq:
          return a == b;
        case ExcludeOp::kNe:
          return a != b;
        case ExcludeOp::kLt:
          return a < b;
        case ExcludeOp::kLe:
          return a <= b;
        case ExcludeOp::kGt:
          return a > b;
        case ExcludeOp::kGe:
          return a >= b;
      }
    }
    if (node.op != ExcludeOp::kEq && node.op != ExcludeOp::kNe) {
      fail(fmt::format("'{}' and '{}' are not both numbers; only == and != compare text", left,
                       right));
    }
    const bool boolean = node.lhs.kind == ExcludeOperand::Kind::kBool ||
                         node.rhs.kind == ExcludeOperand::Kind::kBool;
    const bool equal = boolean ? ascii_lower(left) == ascii_lower(right) : left == right;
    return node.op == ExcludeOp::kEq ? equal : !equal;
  }

  const ExcludeRule& rule_;
  const Assignment& assignment_;
};

}  // namespace

ExcludeRule parse_exclude(std::string_view text, const std::vector<ParamSpace>& spaces) {
  ExcludeRule rule;
  rule.text = std::string(text);
  rule.root = Parser(text, spaces).parse();
  return rule;
}

bool exclude_matches(const ExcludeRule& rule, const Assignment& assignment) {
  return Evaluator(rule, assignment).eval(rule.root);
}

std::optional<size_t> first_matching_exclude(const std::vector<ExcludeRule>& rules,
                                             const Assignment& assignment) {
  for (size_t i = 0; i < rules.size(); ++i) {
    if (exclude_matches(rules[i], assignment)) return i;
  }
  return std::nullopt;
}

}  // namespace llmperf
