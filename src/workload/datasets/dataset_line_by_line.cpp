// line_by_line: one record per non-blank line. A line starting with '[' is a JSON list of chat
// messages, a line starting with '{' is a whole request body (its "messages" or "prompt" is
// measured), and any other line is plain prompt text. A '['/'{' line that does not parse is
// malformed, never silently sent as text.
#include <memory>

#include "workload/datasets/dataset_readers.h"
#include "workload/utf8.h"

namespace llmperf::detail {
namespace {

class LineByLineReader final : public LineReader {
 public:
  using LineReader::LineReader;

 protected:
  RecordStatus parse_line(std::string_view line, Prompt& out, std::string& reason) override {
    const char first = line[line.find_first_not_of(" \t\v\f")];
    if (first == '[') return parse_messages(line, out, reason);
    if (first == '{') return parse_body(line, out, reason);
    if (!utf8_valid(line)) {
      reason = "not valid UTF-8 text";
      return RecordStatus::kMalformed;
    }
    out.text.assign(line);
    out.length = utf8_length(line);
    return RecordStatus::kPrompt;
  }

 private:
  static bool parse_json(std::string_view line, nlohmann::json& value, std::string& reason) {
    try {
      value = nlohmann::json::parse(line.begin(), line.end());
      return true;
    } catch (const nlohmann::json::exception& error) {  // parse_error, or out_of_range for 1e999
      reason = "not valid JSON: " + json_error_text(error);
      return false;
    }
  }

  static RecordStatus parse_messages(std::string_view line, Prompt& out, std::string& reason) {
    nlohmann::json messages;
    if (!parse_json(line, messages, reason)) return RecordStatus::kMalformed;
    const auto length = messages_length(messages, reason);
    if (!length) return RecordStatus::kMalformed;
    if (*length == 0) return RecordStatus::kEmpty;
    out.messages_json.assign(line);
    out.length = *length;
    return RecordStatus::kPrompt;
  }

  static RecordStatus parse_body(std::string_view line, Prompt& out, std::string& reason) {
    nlohmann::json body;
    if (!parse_json(line, body, reason)) return RecordStatus::kMalformed;
    int64_t length = 0;
    if (const auto messages = body.find("messages"); messages != body.end()) {
      const auto counted = messages_length(*messages, reason);
      if (!counted) return RecordStatus::kMalformed;
      length = *counted;
    } else if (const auto prompt = body.find("prompt");
               prompt != body.end() && prompt->is_string()) {
      length = utf8_length(prompt->get_ref<const std::string&>());
    } else {
      reason = "request body has neither a \"messages\" list nor a string \"prompt\"";
      return RecordStatus::kMalformed;
    }
    if (length == 0) return RecordStatus::kEmpty;
    out.body_json.assign(line);
    out.length = length;
    return RecordStatus::kPrompt;
  }
};

}  // namespace

std::unique_ptr<PromptReader> make_line_by_line_reader(const DatasetOptions& options) {
  return std::make_unique<LineByLineReader>(options);
}

}  // namespace llmperf::detail
