// Reading ShareGPT files (see sharegpt.h): each item of the list (or each line) goes through
// nlohmann's SAX interface, which keeps only the first turns' roles and texts and stops reading an
// item once it has them.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "workload/datasets/dataset_readers.h"
#include "workload/datasets/sharegpt.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

// SAX handler for one item: {"conversations": [{"from", "value"}, ...], ...}.
class ItemReader final : public nlohmann::json_sax<Json> {
 public:
  explicit ItemReader(size_t max_turns) : max_turns_(max_turns) {}

  // What the item held, once parsed.
  bool is_object() const { return is_object_; }
  bool has_conversations() const { return has_conversations_; }
  const std::string& problem() const { return problem_; }
  std::vector<ShareGptTurn>& turns() { return turns_; }
  bool complete() const { return turns_.size() >= max_turns_ && max_turns_ > 0; }

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }

  bool string(string_t& text) override {
    if (depth_ == 3 && in_conversations_) {
      if (key_ == "from" || key_ == "role") turns_.back().role = std::move(text);
      if (key_ == "value" || key_ == "content") {
        turns_.back().text = std::move(text);
        has_text_ = true;
      }
    }
    return value();
  }

  bool start_object(std::size_t) override {
    ++depth_;
    if (depth_ == 1) is_object_ = true;
    if (depth_ == 3 && in_conversations_) {
      // A new turn; stop reading the item once the turns wanted are all there.
      if (turns_.size() >= max_turns_) return false;
      turns_.emplace_back();
      has_text_ = false;
    }
    return true;
  }

  bool end_object() override {
    if (depth_ == 3 && in_conversations_ && !has_text_) {
      problem_ = fmt::format("turn {} has no string \"value\"", turns_.size());
      return false;
    }
    --depth_;
    return true;
  }

  bool start_array(std::size_t) override {
    ++depth_;
    if (depth_ == 2 &&
        (key_ == "conversations" || key_ == "conversation" || key_ == "messages")) {
      in_conversations_ = true;
      has_conversations_ = true;
    }
    if (depth_ == 3 && in_conversations_) {
      if (turns_.size() >= max_turns_) return false;  // past the turns wanted: not read
      problem_ = fmt::format("turn {} is not an object", turns_.size() + 1);
      return false;
    }
    return true;
  }

  bool end_array() override {
    if (depth_ == 2) in_conversations_ = false;
    --depth_;
    return true;
  }

  bool key(string_t& name) override {
    if (depth_ <= 3) key_ = name;
    return true;
  }

  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& error) override {
    if (problem_.empty()) problem_ = detail::json_error_text(error);
    return false;
  }

 private:
  // A scalar: at depth 2 inside "conversations" it is a turn that is not an object.
  bool value() {
    if (depth_ == 0) return true;  // the item itself is a scalar; is_object_ stays false
    if (depth_ == 2 && in_conversations_) {
      if (turns_.size() >= max_turns_) return false;  // past the turns wanted: not read
      problem_ = fmt::format("turn {} is not an object", turns_.size() + 1);
      return false;
    }
    return true;
  }

  size_t max_turns_;
  int depth_ = 0;
  std::string key_;  // the last key seen at depth <= 3
  bool is_object_ = false;
  bool has_conversations_ = false;
  bool in_conversations_ = false;
  bool has_text_ = false;
  std::vector<ShareGptTurn> turns_;
  std::string problem_;
};

// Parses one item's text; hands it over or counts it. `unit` names where it is: "item" or "line".
void read_item(std::string_view text, std::string_view unit, int64_t number, size_t max_turns,
               size_t min_turns, const std::function<void(Conversation&&)>& on_conversation,
               DatasetStats& stats) {
  ++stats.records_read;
  const auto malformed = [&](const std::string& reason) {
    ++stats.malformed;
    if (stats.malformed_lines.size() < detail::kMaxMalformedNumbers) {
      stats.malformed_lines.push_back(number);
    }
    if (stats.first_malformed_reason.empty()) {
      stats.first_malformed_reason = fmt::format("{} {}: {}", unit, number, reason);
    }
  };
  if (detail::is_blank(text)) {
    malformed("empty list item (two commas in a row)");
    return;
  }
  ItemReader reader(max_turns);
  const bool parsed = Json::sax_parse(text, &reader, nlohmann::detail::input_format_t::json, true);
  // Stopping after the turns wanted is not an error; anything else that stopped the parse is.
  if (!parsed && !(reader.complete() && reader.problem().empty())) {
    malformed(reader.problem().empty() ? "not valid JSON" : reader.problem());
    return;
  }
  if (!reader.is_object()) {
    malformed("not a JSON object");
    return;
  }
  if (!reader.has_conversations()) {
    malformed("no \"conversations\" (or \"messages\") list");
    return;
  }
  if (reader.turns().size() < min_turns) {
    ++stats.skipped_turns;
    return;
  }
  ++stats.accepted;
  on_conversation(Conversation{number, std::move(reader.turns())});
}

}  // namespace

void read_sharegpt(std::istream& in, size_t max_turns, size_t min_turns,
                   const std::function<void(Conversation&&)>& on_conversation,
                   DatasetStats& stats) {
  std::streambuf* buffer = in.rdbuf();
  // A list starts with '[' (after a BOM and whitespace); anything else is read as JSON lines.
  int c = buffer->sgetc();
  if (c == 0xEF) {  // UTF-8 byte order mark, before a list or JSON lines alike
    buffer->sbumpc();
    if (buffer->sgetc() == 0xBB) {
      buffer->sbumpc();
      if (buffer->sgetc() == 0xBF) buffer->sbumpc();
    }
    c = buffer->sgetc();
  }
  while (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
    buffer->sbumpc();
    c = buffer->sgetc();
  }
  std::string item;
  if (c == '[') {
    detail::JsonListScanner scanner(buffer);
    int64_t number = 0;
    while (true) {
      const detail::JsonListScanner::Next next = scanner.next(item);
      if (next != detail::JsonListScanner::Next::kItem) break;
      read_item(item, "item", ++number, max_turns, min_turns, on_conversation, stats);
    }
    return;
  }
  int64_t line_number = 0;
  while (std::getline(in, item)) {
    ++line_number;
    if (!item.empty() && item.back() == '\r') item.pop_back();
    if (detail::is_blank(item)) continue;
    read_item(item, "line", line_number, max_turns, min_turns, on_conversation, stats);
  }
}

}  // namespace llmperf
