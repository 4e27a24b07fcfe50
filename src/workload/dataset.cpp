// Dataset entry points (open_dataset, load_prompts), the --prompt reader, and the bookkeeping
// shared by every format: file opening, the length filter, malformed-record notes, chat-message
// validation and the line reader base.
#include "workload/dataset.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <limits>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "workload/datasets/dataset_readers.h"
#include "workload/utf8.h"

namespace llmperf {
namespace detail {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

std::string format_bound(int64_t value) {
  if (value == std::numeric_limits<int64_t>::max()) return "inf";
  return std::to_string(value);
}

// Code points of one message "content": a string, or a list of parts. nullopt when invalid.
std::optional<int64_t> content_length(const nlohmann::json& content, size_t index,
                                      std::string& reason) {
  if (content.is_string()) return utf8_length(content.get_ref<const std::string&>());
  if (!content.is_array()) {
    reason = fmt::format("messages[{}].content is neither a string nor a list of parts", index);
    return std::nullopt;
  }
  int64_t total = 0;
  for (const auto& part : content) {
    if (!part.is_object()) {
      reason = fmt::format("messages[{}].content has a part that is not an object", index);
      return std::nullopt;
    }
    const auto type = part.find("type");
    if (type == part.end() || !type->is_string()) {
      reason = fmt::format("messages[{}].content has a part without a string \"type\"", index);
      return std::nullopt;
    }
    if (type->get_ref<const std::string&>() != "text") continue;
    const auto text = part.find("text");
    if (text == part.end() || !text->is_string()) {
      reason = fmt::format("messages[{}].content has a text part without a string \"text\"", index);
      return std::nullopt;
    }
    total += utf8_length(text->get_ref<const std::string&>());
  }
  return total;
}

// The --prompt text as the only prompt.
class FixedPromptReader final : public PromptReader {
 public:
  explicit FixedPromptReader(const DatasetOptions& options) {
    prompt_.text = options.fixed_prompt;
    prompt_.length = utf8_length(prompt_.text);
    if (prompt_.length < options.min_length || prompt_.length > options.max_length) {
      throw DatasetError(fmt::format(
          "--prompt is {} characters long, outside --min-prompt-length/--max-prompt-length "
          "[{}, {}]",
          prompt_.length, format_bound(options.min_length), format_bound(options.max_length)));
    }
    remaining_ = options.limit > 0;
  }

  bool next(Prompt& out) override {
    if (!remaining_) return false;
    remaining_ = false;
    out = prompt_;
    stats_.records_read = 1;
    stats_.accepted = 1;
    return true;
  }
  const DatasetStats& stats() const override { return stats_; }

 private:
  Prompt prompt_;           // the fixed prompt
  bool remaining_ = false;  // true until next() has produced it
  DatasetStats stats_;      // one record, one accepted
};

// "(120 lines read: 0 accepted, ...)" and the first malformed reason, for the no-prompts error.
std::string describe_nothing_usable(const DatasetOptions& options, const DatasetStats& stats) {
  const std::string_view unit = options.kind == "longalpaca" ? "item" : "line";
  if (stats.records_read == 0 && stats.malformed == 0) {
    return fmt::format("{}: no usable prompts (the file has no {}s)", options.path, unit);
  }
  std::string text =
      fmt::format("{}: no usable prompts ({} {}{} read: {} accepted", options.path,
                  stats.records_read, unit, stats.records_read == 1 ? "" : "s", stats.accepted);
  if (stats.skipped_length > 0) {
    text += fmt::format(", {} outside --min-prompt-length/--max-prompt-length [{}, {}]",
                        stats.skipped_length, format_bound(options.min_length),
                        format_bound(options.max_length));
  }
  if (stats.skipped_empty > 0) text += fmt::format(", {} empty", stats.skipped_empty);
  if (stats.malformed > 0) {
    text += fmt::format(", {} malformed, first at {}s {}", stats.malformed, unit,
                        fmt::join(stats.malformed_lines, ", "));
  }
  text += ")";
  if (!stats.first_malformed_reason.empty()) text += "; " + stats.first_malformed_reason;
  return text;
}

}  // namespace

std::ifstream open_input(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw DatasetError(fmt::format("cannot read dataset file \"{}\": it is a directory", path));
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) {
    const int error = errno;
    throw DatasetError(fmt::format("cannot open dataset file \"{}\": {}", path,
                                   error != 0 ? std::strerror(error) : "cannot be read"));
  }
  return in;
}

bool tally_record(RecordStatus status, const DatasetOptions& options, std::string_view unit,
                  int64_t number, int64_t length, std::string_view reason, DatasetStats& stats) {
  switch (status) {
    case RecordStatus::kEmpty:
      ++stats.skipped_empty;
      return false;
    case RecordStatus::kMalformed:
      ++stats.malformed;
      if (stats.malformed_lines.size() < kMaxMalformedNumbers) {
        stats.malformed_lines.push_back(number);
      }
      if (stats.first_malformed_reason.empty()) {
        stats.first_malformed_reason = fmt::format("{} {}: {}", unit, number, reason);
      }
      return false;
    case RecordStatus::kPrompt:
      break;
  }
  if (length < options.min_length || length > options.max_length) {
    ++stats.skipped_length;
    return false;
  }
  ++stats.accepted;
  return true;
}

std::optional<int64_t> messages_length(const nlohmann::json& messages, std::string& reason) {
  if (!messages.is_array() || messages.empty()) {
    reason = "messages must be a non-empty list";
    return std::nullopt;
  }
  int64_t total = 0;
  for (size_t i = 0; i < messages.size(); ++i) {
    const auto& message = messages[i];
    if (!message.is_object()) {
      reason = fmt::format("messages[{}] is not an object", i);
      return std::nullopt;
    }
    const auto role = message.find("role");
    if (role == message.end() || !role->is_string()) {
      reason = fmt::format("messages[{}] has no string \"role\"", i);
      return std::nullopt;
    }
    const auto content = message.find("content");
    if (content == message.end()) {
      reason = fmt::format("messages[{}] has no \"content\"", i);
      return std::nullopt;
    }
    const auto length = content_length(*content, i, reason);
    if (!length) return std::nullopt;
    total += *length;
  }
  return total;
}

std::string json_error_text(const nlohmann::json::exception& error) {
  std::string_view text = error.what();
  if (text.starts_with("[json.exception.")) {
    const size_t end = text.find("] ");
    if (end != std::string_view::npos) text.remove_prefix(end + 2);
  }
  return std::string(text);
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n\v\f") == std::string_view::npos;
}

LineReader::LineReader(const DatasetOptions& options)
    : options_(options), in_(open_input(options.path)) {}

bool LineReader::next(Prompt& out) {
  while (stats_.accepted < options_.limit && std::getline(in_, line_)) {
    ++stats_.records_read;
    std::string_view line = line_;
    if (stats_.records_read == 1 && line.starts_with(kUtf8Bom)) line.remove_prefix(kUtf8Bom.size());
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (is_blank(line)) {
      ++stats_.skipped_empty;
      continue;
    }
    out.text.clear();
    out.messages_json.clear();
    out.body_json.clear();
    out.length = 0;
    reason_.clear();
    const RecordStatus status = parse_line(line, out, reason_);
    if (tally_record(status, options_, "line", stats_.records_read, out.length, reason_, stats_)) {
      return true;
    }
  }
  return false;
}

}  // namespace detail

namespace {

// Every dataset kind and the reader that opens it. A new file format is one reader in its own
// dataset_<kind>.cpp and one row here.
struct DatasetKind {
  std::string_view name;
  std::unique_ptr<PromptReader> (*open)(const DatasetOptions&);
};
constexpr DatasetKind kDatasetKinds[] = {
    {"openqa", detail::make_openqa_reader},
    {"line_by_line", detail::make_line_by_line_reader},
    {"longalpaca", detail::make_longalpaca_reader},
};

}  // namespace

// Kinds made of synthetic prompts (synthetic.h) rather than read from a file.
constexpr std::string_view kSyntheticKinds[] = {"random", "speed_benchmark", "speed_benchmark_long",
                                                "shared_prefix", "random_multi_turn"};
// ShareGPT files (sharegpt.h), sampled with the server's tokenizer; EvalScope's names are aliases.
constexpr std::string_view kShareGptKinds[] = {"sharegpt", "share_gpt_en", "share_gpt_zh"};
// Files of whole conversations for --multi-turn (session_script.h), read like ShareGPT files.
constexpr std::string_view kConversationKinds[] = {"conversations"};
// Traces replayed at their timestamps (trace.h).
constexpr std::string_view kTraceKinds[] = {"mooncake_trace", "workload_trace"};

template <size_t N>
bool is_one_of(const std::string_view (&kinds)[N], std::string_view kind) {
  return std::find(std::begin(kinds), std::end(kinds), kind) != std::end(kinds);
}

std::vector<std::string_view> dataset_kinds() {
  std::vector<std::string_view> names;
  for (const DatasetKind& kind : kDatasetKinds) names.push_back(kind.name);
  names.insert(names.end(), std::begin(kSyntheticKinds), std::end(kSyntheticKinds));
  names.insert(names.end(), std::begin(kShareGptKinds), std::end(kShareGptKinds));
  names.insert(names.end(), std::begin(kConversationKinds), std::end(kConversationKinds));
  names.insert(names.end(), std::begin(kTraceKinds), std::end(kTraceKinds));
  return names;
}

bool is_synthetic_dataset(std::string_view kind) { return is_one_of(kSyntheticKinds, kind); }
bool is_sharegpt_dataset(std::string_view kind) { return is_one_of(kShareGptKinds, kind); }
bool is_conversation_dataset(std::string_view kind) {
  return is_one_of(kConversationKinds, kind);
}
bool is_trace_dataset(std::string_view kind) { return is_one_of(kTraceKinds, kind); }

std::unique_ptr<PromptReader> open_dataset(const DatasetOptions& options) {
  const DatasetKind* kind = nullptr;
  for (const DatasetKind& candidate : kDatasetKinds) {
    if (candidate.name == options.kind) kind = &candidate;
  }
  if (kind == nullptr &&
      (is_synthetic_dataset(options.kind) || is_sharegpt_dataset(options.kind) ||
       is_conversation_dataset(options.kind) || is_trace_dataset(options.kind))) {
    throw DatasetError(
        fmt::format("dataset \"{}\" is measured with the server's tokenizer, not read as prompts",
                    options.kind));
  }
  if (kind == nullptr) {
    throw DatasetError(fmt::format("unknown dataset kind \"{}\" (supported: {})", options.kind,
                                   fmt::join(dataset_kinds(), ", ")));
  }
  if (!options.fixed_prompt.empty()) return std::make_unique<detail::FixedPromptReader>(options);
  if (options.path.empty()) {
    throw DatasetError(fmt::format(
        "dataset \"{}\" needs a file: pass --dataset-path (or a fixed prompt with --prompt)",
        options.kind));
  }
  return kind->open(options);
}

std::vector<Prompt> load_prompts(const DatasetOptions& options, DatasetStats& stats) {
  auto reader = open_dataset(options);
  std::vector<Prompt> prompts;
  Prompt prompt;
  while (reader->next(prompt)) prompts.push_back(std::move(prompt));
  stats = reader->stats();
  if (prompts.empty() && options.limit > 0) {
    throw DatasetError(detail::describe_nothing_usable(options, stats));
  }
  return prompts;
}

}  // namespace llmperf
