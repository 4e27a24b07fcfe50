// Prometheus text exposition parsing (see prometheus.h): a hand-written line scanner, since the
// format is line-oriented and small; every malformed line is skipped with a reason.
#include "protocol/prometheus.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

namespace llmperf {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }

bool equals_lower(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i]) return false;
  }
  return true;
}

// A cursor over one line.
class Line {
 public:
  explicit Line(std::string_view text) : text_(text) {}
  bool done() const { return at_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[at_]; }
  void skip_blanks() {
    while (!done() && is_blank(text_[at_])) ++at_;
  }
  bool take(char c) {
    if (peek() != c) return false;
    ++at_;
    return true;
  }
  std::string_view name() {
    const size_t start = at_;
    if (!done() && name_start(text_[at_])) {
      ++at_;
      while (!done() && name_char(text_[at_])) ++at_;
    }
    return text_.substr(start, at_ - start);
  }
  // A double-quoted string with \\ \" \n escapes (another escaped character is kept as is).
  std::optional<std::string> quoted() {
    if (!take('"')) return std::nullopt;
    std::string out;
    while (!done()) {
      const char c = text_[at_++];
      if (c == '"') return out;
      if (c == '\\' && !done()) {
        const char e = text_[at_++];
        out += e == 'n' ? '\n' : e;
      } else {
        out += c;
      }
    }
    return std::nullopt;  // no closing quote
  }
  std::string_view token() {
    skip_blanks();
    const size_t start = at_;
    while (!done() && !is_blank(text_[at_])) ++at_;
    return text_.substr(start, at_ - start);
  }
  std::string_view rest() const { return text_.substr(std::min(at_, text_.size())); }

 private:
  std::string_view text_;
  size_t at_ = 0;
};

// The label set after '{' up to and including '}'; the name too when it is quoted inside.
std::optional<std::string> parse_labels(Line& line, MetricSample& sample) {
  while (true) {
    line.skip_blanks();
    if (line.take('}')) return std::nullopt;
    std::string key;
    if (line.peek() == '"') {
      std::optional<std::string> quoted = line.quoted();
      if (!quoted) return "unterminated quoted name";
      line.skip_blanks();
      if (line.peek() != '=') {  // a quoted metric name: {"my.metric", ...}
        if (!sample.name.empty()) return "two metric names";
        sample.name = std::move(*quoted);
        line.skip_blanks();
        if (line.take(',')) continue;
        if (line.take('}')) return std::nullopt;
        return "expected ',' or '}' after the quoted name";
      }
      key = std::move(*quoted);
    } else {
      key = std::string(line.name());
      if (key.empty()) return fmt::format("bad label name at '{}'", line.rest().substr(0, 20));
    }
    line.skip_blanks();
    if (!line.take('=')) return fmt::format("expected '=' after label {}", key);
    line.skip_blanks();
    std::optional<std::string> value = line.quoted();
    if (!value) return fmt::format("label {} has no quoted value", key);
    sample.labels.emplace_back(std::move(key), std::move(*value));
    line.skip_blanks();
    if (line.take(',')) continue;
    if (line.take('}')) return std::nullopt;
    return "expected ',' or '}' between labels";
  }
}

// One sample line; the reason when it is malformed.
std::optional<std::string> parse_sample(std::string_view text, MetricSample& sample) {
  Line line(text);
  sample.name = std::string(line.name());
  if (sample.name.empty() && line.peek() != '{') return "no metric name";
  line.skip_blanks();  // "name {a="1"} 2": blanks may separate the name and its labels
  if (line.take('{')) {
    if (auto problem = parse_labels(line, sample)) return problem;
  }
  if (sample.name.empty()) return "no metric name";
  const std::string_view value_token = line.token();
  const std::optional<double> value = parse_prometheus_value(value_token);
  if (!value) return fmt::format("bad value '{}'", value_token.substr(0, 40));
  sample.value = *value;
  // A timestamp (ignored), then nothing but an optional exemplar ("# {...} value").
  std::string_view next = line.token();
  if (!next.empty() && next != "#") next = line.token();
  if (!next.empty() && next != "#") return fmt::format("unexpected '{}'", next.substr(0, 40));
  return std::nullopt;
}

}  // namespace

std::optional<double> parse_prometheus_value(std::string_view token) {
  if (token.empty()) return std::nullopt;
  bool negative = false;
  std::string_view body = token;
  if (body.front() == '+' || body.front() == '-') {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (equals_lower(body, "inf") || equals_lower(body, "infinity")) {
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  if (equals_lower(body, "nan")) return std::numeric_limits<double>::quiet_NaN();
  if (body.empty() || body.front() == '+' || body.front() == '-') return std::nullopt;
  double value = 0;
  const auto [end, error] =
      std::from_chars(body.data(), body.data() + body.size(), value, std::chars_format::general);
  if (error != std::errc() || end != body.data() + body.size()) return std::nullopt;
  return negative ? -value : value;
}

Exposition parse_prometheus(std::string_view text) {
  Exposition out;
  int64_t number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
    while (!line.empty() && is_blank(line.back())) line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.front() == '#') {
      Line comment(line.substr(1));
      const std::string_view keyword = comment.token();
      if (keyword == "EOF") break;
      if (keyword == "TYPE") {
        const std::string_view name = comment.token();
        const std::string_view type = comment.token();
        if (!name.empty() && !type.empty()) out.types[std::string(name)] = std::string(type);
      }
      continue;  // HELP, UNIT and other comments
    }
    MetricSample sample;
    if (const auto problem = parse_sample(line, sample)) {
      if (out.bad_lines++ == 0) out.first_error = fmt::format("line {}: {}", number, *problem);
      continue;
    }
    out.samples.push_back(std::move(sample));
  }
  return out;
}

}  // namespace llmperf
