// longalpaca: the file is one JSON list of objects; the prompt is each item's `instruction`.
// The list is scanned incrementally (JsonListScanner) and only each item is parsed, so reading
// stops after `limit` prompts without touching the rest of the file, and one broken item does not
// hide the items after it.
#include <memory>

#include <fmt/format.h>

#include "workload/datasets/dataset_readers.h"
#include "workload/utf8.h"

namespace llmperf::detail {
namespace {

class LongAlpacaReader final : public PromptReader {
 public:
  explicit LongAlpacaReader(const DatasetOptions& options)
      : options_(options), in_(open_input(options.path)), scanner_(in_.rdbuf()) {}

  bool next(Prompt& out) override {
    while (stats_.accepted < options_.limit && next_item()) {
      ++stats_.records_read;
      out.text.clear();
      out.messages_json.clear();
      out.body_json.clear();
      out.length = 0;
      reason_.clear();
      const RecordStatus status = parse_item(out);
      if (tally_record(status, options_, "item", stats_.records_read, out.length, reason_,
                       stats_)) {
        return true;
      }
    }
    return false;
  }

  const DatasetStats& stats() const override { return stats_; }

 private:
  // Copies the next item's text into item_. False at the end of the list.
  bool next_item() {
    switch (scanner_.next(item_)) {
      case JsonListScanner::Next::kItem:
        truncated_ = scanner_.truncated();
        return true;
      case JsonListScanner::Next::kEnd:
        return false;
      case JsonListScanner::Next::kNotAList:
        ++stats_.records_read;
        tally_record(RecordStatus::kMalformed, options_, "item", 1, 0,
                     fmt::format("the file is not a JSON list (it starts with '{}', expected '[')",
                                 scanner_.first_char()),
                     stats_);
        return false;
    }
    return false;
  }

  RecordStatus parse_item(Prompt& out) {
    if (is_blank(item_)) {
      reason_ = "empty list item (two commas in a row)";
      return RecordStatus::kMalformed;
    }
    nlohmann::json item;
    try {
      item = nlohmann::json::parse(item_);
    } catch (const nlohmann::json::exception& error) {  // parse_error, or out_of_range for 1e999
      reason_ = truncated_ ? "the list ends without ']' (file truncated?): " : "not valid JSON: ";
      reason_ += json_error_text(error);
      return RecordStatus::kMalformed;
    }
    if (!item.is_object()) {
      reason_ = "not a JSON object";
      return RecordStatus::kMalformed;
    }
    const auto instruction = item.find("instruction");
    if (instruction == item.end() || !instruction->is_string()) {
      reason_ = "no string field \"instruction\"";
      return RecordStatus::kMalformed;
    }
    out.text = std::move(instruction->get_ref<std::string&>());
    if (is_blank(out.text)) return RecordStatus::kEmpty;
    out.length = utf8_length(out.text);
    return RecordStatus::kPrompt;
  }

  DatasetOptions options_;   // path, length filter and limit
  std::ifstream in_;         // the open dataset file
  JsonListScanner scanner_;  // finds the items of the list in in_
  std::string item_;         // the current item's JSON text (reused)
  bool truncated_ = false;   // item_ ended at end of file, not at ',' or ']'
  std::string reason_;       // why the current item is malformed
  DatasetStats stats_;       // counts so far
};

}  // namespace

std::unique_ptr<PromptReader> make_longalpaca_reader(const DatasetOptions& options) {
  return std::make_unique<LongAlpacaReader>(options);
}

}  // namespace llmperf::detail
