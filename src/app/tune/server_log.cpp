// server.log read back (see server_log.h).
#include "app/tune/server_log.h"

#include "core/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <fstream>

namespace llmperf {
namespace {

constexpr size_t kMaxReasonChars = 1000;
constexpr size_t kMaxTailLineChars = 500;
constexpr std::streamoff kTailWindowBytes = 1 << 20;

// How strongly a line says the server failed; higher wins, the first of equals wins.
enum Rank : int { kNothing = 0, kWarning = 1, kFailed = 2, kError = 3, kException = 4 };
enum class Level { kNone, kInfo, kWarning, kError };

constexpr std::array kErrorWords = {"error",
                                    "exception",
                                    "fatal",
                                    "panic",
                                    "segmentation fault",
                                    "core dumped",
                                    "out of memory",
                                    "terminate called after throwing"};
constexpr std::array kFailedWords = {"fail",
                                     "unable to",
                                     "cannot",
                                     "can't",
                                     "could not",
                                     "couldn't",
                                     "not found",
                                     "no such file",
                                     "permission denied",
                                     "address already in use",
                                     "abort",
                                     "killed",
                                     "terminate called"};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }

// The line as a terminal would show it: colour escapes dropped, only what follows the last \r
// (progress bars rewrite their line), trailing white space dropped. Leading white space is kept
// (it tells a traceback's frames from its last line).
std::string clean(std::string_view raw) {
  while (!raw.empty() && is_space(raw.back())) raw.remove_suffix(1);
  const size_t cr = raw.rfind('\r');
  if (cr != std::string_view::npos) raw.remove_prefix(cr + 1);
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\x1b' && i + 1 < raw.size() && raw[i + 1] == '[') {
      i += 2;
      while (i < raw.size() && !(raw[i] >= '@' && raw[i] <= '~')) ++i;
      continue;
    }
    out += raw[i];
  }
  return out;
}

// At most `max` bytes of `s`, not cutting a UTF-8 sequence.
std::string cut(std::string_view s, size_t max) {
  if (s.size() <= max) return std::string(s);
  size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return std::string(s.substr(0, end)) + "...";
}

bool is_marker(std::string_view line) { return line.substr(0, kLogMarker.size()) == kLogMarker; }
bool is_start_marker(std::string_view line) {
  return line.substr(0, kLogStartMarker.size()) == kLogStartMarker;
}
bool is_stop_marker(std::string_view line) {
  return line.substr(0, kLogStopMarker.size()) == kLogStopMarker;
}

// The level a log line was written at, from its first few words ("INFO 01-02 ...", "(EngineCore
// pid=7) ERROR ...", "2024-05-01T10:00:00Z  WARN router: ...", "[info] ...", "INFO:     ...").
Level level_of(std::string_view line) {
  std::string_view rest = trim(line);
  if (!rest.empty() && rest.front() == '(') {  // vLLM's "(ProcessName pid=N)" prefix
    const size_t close = rest.find(')');
    if (close != std::string_view::npos) rest.remove_prefix(close + 1);
  }
  for (int word = 0; word < 4; ++word) {
    rest = trim(rest);
    if (rest.empty()) break;
    const size_t end = std::min(rest.find_first_of(" \t"), rest.size());
    std::string_view token = rest.substr(0, end);
    rest.remove_prefix(end);
    while (!token.empty() && token.front() == '[') token.remove_prefix(1);
    size_t letters = 0;
    while (letters < token.size() && std::isalpha(static_cast<unsigned char>(token[letters]))) {
      ++letters;
    }
    const std::string name = ascii_lower(token.substr(0, letters));
    if (name == "info" || name == "debug" || name == "trace") return Level::kInfo;
    if (name == "warn" || name == "warning") return Level::kWarning;
    if (name == "error" || name == "critical" || name == "fatal") return Level::kError;
  }
  return Level::kNone;
}

// A Python-style exception line: `Name: message` or `pkg.mod.NameError: message` whose name ends
// in Error or Exception, at the start of the line or after a log prefix ending in "] ", ") " or
// ": ". (`raise ValueError(` in a traceback's frames does not count: no colon.) Returns where the
// name begins, npos when there is none.
size_t exception_name_at(std::string_view line) {
  const auto word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
  };
  for (size_t i = 0; i < line.size(); ++i) {
    const bool at_start =
        i == 0 || (i >= 2 && line[i - 1] == ' ' &&
                   (line[i - 2] == ']' || line[i - 2] == ')' || line[i - 2] == ':'));
    if (!at_start || !(std::isalpha(static_cast<unsigned char>(line[i])) || line[i] == '_')) {
      continue;
    }
    size_t end = i;
    while (end < line.size() && word_char(line[end])) ++end;
    const std::string_view name = line.substr(i, end - i);
    const bool named = name.ends_with("Error") || name.ends_with("Exception");
    if (named && end < line.size() && line[end] == ':' &&
        (end + 1 == line.size() || line[end + 1] == ' ')) {
      return i;
    }
    i = end;
  }
  return std::string_view::npos;
}

Rank keyword_rank(std::string_view line, Level level) {
  std::string text = ascii_lower(line);
  // llama-server's exit on SIGTERM or after its own error line: no exception, no news.
  constexpr std::string_view kNoException = "without an active exception";
  if (const size_t at = text.find(kNoException); at != std::string::npos) {
    text.erase(at, kNoException.size());
  }
  Rank rank = level == Level::kError ? kError : kNothing;
  for (const char* word : kErrorWords) {
    if (rank < kError && text.find(word) != std::string::npos) rank = kError;
  }
  for (const char* word : kFailedWords) {
    if (rank < kFailed && text.find(word) != std::string::npos) rank = kFailed;
  }
  return rank;
}

// Where a cleaned line of server.log stands for the readers (server_log.h): a start line, which
// begins a new section; outside what they judge (llmperf's own lines, and everything from the
// first stop line of the section on); or a line the server wrote, which they judge.
class LastSection {
 public:
  enum class Line { kStart, kOutside, kServer };
  Line classify(std::string_view line) {
    if (is_start_marker(line)) {
      stopping_ = false;
      return Line::kStart;
    }
    if (is_stop_marker(line)) stopping_ = true;
    return stopping_ || is_marker(line) ? Line::kOutside : Line::kServer;
  }

 private:
  bool stopping_ = false;  // past llmperf's first stop line: nothing counts any more
};

// Streams the lines of a log and keeps the best error line of its last section.
class ErrorLineScanner {
 public:
  void add(std::string_view raw) {
    const std::string line = clean(raw);
    switch (section_.classify(line)) {
      case LastSection::Line::kStart:
        *this = ErrorLineScanner();
        return;
      case LastSection::Line::kOutside:
        return;
      case LastSection::Line::kServer:
        break;
    }
    const std::string_view text = trim(line);
    if (text.empty()) return;
    if (follow_ != Follow::kNone) append_follow(text);

    const size_t traceback = line.find("Traceback (most recent call last):");
    if (traceback != std::string::npos) {
      in_traceback_ = true;
      traceback_prefix_ = line.substr(0, traceback);
      return;
    }
    const Level level = level_of(line);
    if (level == Level::kInfo) return;  // (another process's line inside a traceback, too)
    Rank rank = kNothing;
    std::string_view reason = text;  // an exception line without the log prefix before it
    if (in_traceback_ && level != Level::kWarning && line.starts_with(traceback_prefix_)) {
      const std::string_view rest = std::string_view(line).substr(traceback_prefix_.size());
      if (rest.empty() || is_space(rest.front())) return;  // a frame: file, code, ^^^ marks
      in_traceback_ = false;                               // the traceback's last line
      rank = kException;
      reason = rest;
    }
    if (rank == kNothing) {
      const size_t name = exception_name_at(line);
      if (name != std::string_view::npos) {
        rank = kException;
        reason = std::string_view(line).substr(name);
      } else {
        rank = keyword_rank(line, level);
      }
      if (level == Level::kWarning && rank > kNothing) rank = kWarning;
    }
    if (rank > best_rank_) {
      best_rank_ = rank;
      best_ = std::string(trim(reason));
      const std::string low = ascii_lower(best_);
      follow_ = low.find(" validation error") != std::string::npos ? Follow::kPydantic
                : low.find("terminate called after throwing") != std::string::npos ? Follow::kWhat
                                                                                   : Follow::kNone;
    }
  }

  std::string result() const { return cut(best_, kMaxReasonChars); }

 private:
  enum class Follow { kNone, kPydantic, kWhat };

  // The line after the best one completes it: pydantic puts the message of "1 validation error
  // for SchedulerConfig" on the next line, and C++'s terminate handler the exception's what().
  void append_follow(std::string_view next) {
    if (follow_ == Follow::kPydantic) {
      best_ += " - " + std::string(trim(next.substr(0, next.find(" [type="))));
    } else if (next.starts_with("what():")) {
      best_ += " - " + std::string(next);
    }
    follow_ = Follow::kNone;
  }

  Rank best_rank_ = kNothing;
  std::string best_;
  Follow follow_ = Follow::kNone;
  bool in_traceback_ = false;
  std::string traceback_prefix_;  // what precedes "Traceback" on its line (a log prefix, or "")
  LastSection section_;
};

template <typename Fn>
void for_each_line(std::string_view text, Fn fn) {
  while (!text.empty()) {
    const size_t end = text.find('\n');
    fn(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

// Reads lines for says_port_taken: true once a line of the last section says so.
class PortTakenScanner {
 public:
  explicit PortTakenScanner(int port) : port_(std::to_string(port)) {}

  void add(std::string_view raw) {
    const std::string cleaned = clean(raw);
    switch (section_.classify(cleaned)) {
      case LastSection::Line::kStart:
        taken_ = false;
        return;
      case LastSection::Line::kOutside:
        return;
      case LastSection::Line::kServer:
        break;
    }
    if (taken_) return;
    const std::string line = ascii_lower(cleaned);
    taken_ = line.find("address already in use") != std::string::npos ||
             line.find("eaddrinuse") != std::string::npos ||
             (line.find("bind") != std::string::npos && names_port(line));
  }
  bool taken() const { return taken_; }

 private:
  // The port as a number of its own in `line`, not inside a longer one.
  bool names_port(std::string_view line) const {
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    for (size_t at = line.find(port_); at != std::string_view::npos;
         at = line.find(port_, at + 1)) {
      const size_t end = at + port_.size();
      if ((at == 0 || !digit(line[at - 1])) && (end == line.size() || !digit(line[end]))) {
        return true;
      }
    }
    return false;
  }

  std::string port_;
  bool taken_ = false;
  LastSection section_;
};

// Feeds `scanner` the lines of the file at `path` (streamed: any size); false when it cannot be
// read.
template <typename Scanner>
bool scan_file(const std::string& path, Scanner& scanner) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  for (std::string line; std::getline(in, line);) scanner.add(line);
  return true;
}

}  // namespace

std::string find_error_line(std::string_view log_text) {
  ErrorLineScanner scanner;
  for_each_line(log_text, [&scanner](std::string_view line) { scanner.add(line); });
  return scanner.result();
}

std::vector<std::string> last_log_lines(std::string_view log_text, size_t n) {
  std::deque<std::string> lines;
  LastSection section;
  for_each_line(log_text, [&lines, &section, n](std::string_view raw) {
    const std::string line = clean(raw);
    const LastSection::Line where = section.classify(line);
    if (where == LastSection::Line::kStart) lines.clear();
    const std::string_view text = trim(line);
    if (where != LastSection::Line::kServer || text.empty() || n == 0) return;
    if (lines.size() == n) lines.pop_front();
    lines.push_back(cut(text, kMaxTailLineChars));
  });
  return {lines.begin(), lines.end()};
}

std::string first_error_line(const std::string& log_path) {
  ErrorLineScanner scanner;
  return scan_file(log_path, scanner) ? scanner.result() : "";
}

std::vector<std::string> log_tail(const std::string& log_path, size_t n) {
  std::ifstream in(log_path, std::ios::binary | std::ios::ate);
  if (!in) return {};
  const std::streamoff size = in.tellg();
  const std::streamoff from = std::max<std::streamoff>(0, size - kTailWindowBytes);
  std::string text(static_cast<size_t>(size - from), '\0');
  in.seekg(from);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  std::string_view view = text;
  if (from > 0) {  // the window began inside a line: drop that part
    const size_t newline = view.find('\n');
    view.remove_prefix(newline == std::string_view::npos ? view.size() : newline + 1);
  }
  return last_log_lines(view, n);
}

bool says_port_taken(std::string_view log_text, int port) {
  PortTakenScanner scanner(port);
  for_each_line(log_text, [&scanner](std::string_view line) { scanner.add(line); });
  return scanner.taken();
}

bool log_says_port_taken(const std::string& log_path, int port) {
  PortTakenScanner scanner(port);
  return scan_file(log_path, scanner) && scanner.taken();
}

}  // namespace llmperf
