// openqa: JSON lines in HC3-Chinese open_qa.jsonl format
// ({"question": ..., "human_answers": [...], "chatgpt_answers": [...]}); the prompt is `question`.
#include <memory>

#include "workload/datasets/dataset_readers.h"
#include "workload/utf8.h"

namespace llmperf::detail {
namespace {

class OpenQaReader final : public LineReader {
 public:
  using LineReader::LineReader;

 protected:
  RecordStatus parse_line(std::string_view line, Prompt& out, std::string& reason) override {
    nlohmann::json record;
    try {
      record = nlohmann::json::parse(line.begin(), line.end());
    } catch (const nlohmann::json::exception& error) {  // parse_error, or out_of_range for 1e999
      reason = "not valid JSON: " + json_error_text(error);
      return RecordStatus::kMalformed;
    }
    if (!record.is_object()) {
      reason = "not a JSON object";
      return RecordStatus::kMalformed;
    }
    const auto question = record.find("question");
    if (question == record.end() || !question->is_string()) {
      reason = "no string field \"question\"";
      return RecordStatus::kMalformed;
    }
    out.text = std::move(question->get_ref<std::string&>());
    if (is_blank(out.text)) return RecordStatus::kEmpty;
    out.length = utf8_length(out.text);
    return RecordStatus::kPrompt;
  }
};

}  // namespace

std::unique_ptr<PromptReader> make_openqa_reader(const DatasetOptions& options) {
  return std::make_unique<OpenQaReader>(options);
}

}  // namespace llmperf::detail
