// Internals shared by the dataset readers (dataset*.cpp) and the request builder: the per-record
// bookkeeping (length filter, malformed-record notes), file opening with readable errors, the
// line-oriented reader base, chat-message validation, and one factory per format.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "workload/dataset.h"

namespace llmperf::detail {

// At most this many malformed record numbers are kept in DatasetStats::malformed_lines.
inline constexpr size_t kMaxMalformedNumbers = 10;

// What parsing one record produced.
enum class RecordStatus : uint8_t {
  kPrompt,     // a prompt with its length set
  kEmpty,      // a record without prompt text
  kMalformed,  // unusable; the reason says why
};

// Opens path for binary reading. Throws DatasetError naming the path and the OS reason.
std::ifstream open_input(const std::string& path);

// Counts one parsed record in stats. `unit` is "line" or "item", `number` is 1-based. Returns
// true when the record is an accepted prompt (it passed the length filter).
bool tally_record(RecordStatus status, const DatasetOptions& options, std::string_view unit,
                  int64_t number, int64_t length, std::string_view reason, DatasetStats& stats);

// Code points of all message contents of a chat "messages" array, after checking that each
// element is an object with a string "role" and a "content" that is a string or a list of
// parts (text parts need a string "text"). nullopt with `reason` set when invalid.
std::optional<int64_t> messages_length(const nlohmann::json& messages, std::string& reason);

// A parse error's message without nlohmann's "[json.exception.parse_error.101] " prefix.
std::string json_error_text(const nlohmann::json::exception& error);

// True when text holds only spaces, tabs, CR, LF, VT or FF.
bool is_blank(std::string_view text);

// A reader for line formats: handles reading, BOM, CRLF, blank lines, counting and the limit;
// subclasses only turn one non-blank line into a prompt.
class LineReader : public PromptReader {
 public:
  explicit LineReader(const DatasetOptions& options);
  bool next(Prompt& out) final;
  const DatasetStats& stats() const final { return stats_; }

 protected:
  // Parses one non-blank line (without line end) into out. Sets `reason` when malformed.
  virtual RecordStatus parse_line(std::string_view line, Prompt& out, std::string& reason) = 0;

 private:
  DatasetOptions options_;  // kind, path, length filter and limit
  std::ifstream in_;        // the open dataset file
  std::string line_;        // reused line buffer
  std::string reason_;      // reused malformed-reason buffer
  DatasetStats stats_;      // counts so far
};

// Splits a JSON list read from a stream into the text of its items, one at a time, without parsing
// them: a small bracket- and string-aware scanner finds where each item ends. So a reader stops
// after as many items as it needs, and one broken item does not hide the items after it.
class JsonListScanner {
 public:
  explicit JsonListScanner(std::streambuf* buffer) : buffer_(buffer) {}

  enum class Next : uint8_t {
    kItem,      // `item` holds the next item's text (maybe blank: "[1,,2]")
    kEnd,       // the list ended (or the input was empty)
    kNotAList,  // the input does not start with '[' (after a BOM and whitespace)
  };
  Next next(std::string& item);
  // The item ended at the end of the input, not at ',' or ']' (a truncated file).
  bool truncated() const { return truncated_; }
  // The first character, when next() answered kNotAList.
  char first_char() const { return first_char_; }

 private:
  enum class State : uint8_t { kStart, kInList, kDone };
  bool open_list();

  std::streambuf* buffer_;
  State state_ = State::kStart;
  bool truncated_ = false;
  bool not_a_list_ = false;
  char first_char_ = 0;
};

std::unique_ptr<PromptReader> make_openqa_reader(const DatasetOptions& options);
std::unique_ptr<PromptReader> make_line_by_line_reader(const DatasetOptions& options);
std::unique_ptr<PromptReader> make_longalpaca_reader(const DatasetOptions& options);

}  // namespace llmperf::detail
