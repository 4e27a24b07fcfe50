// JsonListScanner (dataset_readers.h): the items of a JSON list, one at a time, by scanning for
// the ',' or ']' that ends each at depth 0 outside strings.
#include <string>

#include "workload/datasets/dataset_readers.h"

namespace llmperf::detail {
namespace {

using Traits = std::char_traits<char>;

bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

bool JsonListScanner::open_list() {
  int c = buffer_->sbumpc();
  if (c == 0xEF && buffer_->sgetc() == 0xBB) {  // UTF-8 byte order mark
    buffer_->sbumpc();
    if (buffer_->sgetc() == 0xBF) buffer_->sbumpc();
    c = buffer_->sbumpc();
  }
  while (is_space(c)) c = buffer_->sbumpc();
  if (c == '[' || c == Traits::eof()) return c == '[';
  first_char_ = static_cast<char>(c);
  not_a_list_ = true;
  return false;
}

JsonListScanner::Next JsonListScanner::next(std::string& item) {
  if (state_ == State::kStart) {
    if (open_list()) {
      state_ = State::kInList;
    } else {
      state_ = State::kDone;
      if (not_a_list_) return Next::kNotAList;
    }
  }
  if (state_ == State::kDone) return Next::kEnd;
  item.clear();
  truncated_ = false;
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (int c = buffer_->sbumpc(); c != Traits::eof(); c = buffer_->sbumpc()) {
    const char ch = static_cast<char>(c);
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
    } else if (depth == 0 && (ch == ',' || ch == ']')) {
      if (ch == ']') state_ = State::kDone;
      // An empty slot before ']' is "[]" or a trailing comma: nothing more to read.
      return ch == ']' && is_blank(item) ? Next::kEnd : Next::kItem;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '{' || ch == '[') {
      ++depth;
    } else if ((ch == '}' || ch == ']') && depth > 0) {
      --depth;
    }
    item.push_back(ch);
  }
  state_ = State::kDone;
  truncated_ = true;
  return is_blank(item) ? Next::kEnd : Next::kItem;
}

}  // namespace llmperf::detail
