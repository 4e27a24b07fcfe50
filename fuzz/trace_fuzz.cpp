// libFuzzer target for trace replay's workload stage: arbitrary bytes as a trace file (Mooncake or
// EvalScope workload trace) through parse_trace, then the first few entries through the prompt
// builder with a tiny word tokenizer. The first byte picks the read limit (1-16), the block size
// (1-4 tokens) and whether prompts are token ids; the rest is the file. The reader never crashes
// and rejects only with DatasetError; every line is counted once; entries come out sorted with
// the earliest at 0 and within the documented limits; prompts have exactly their lengths.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/replay/trace.h"

namespace {

constexpr int64_t kOverhead = 2;  // tokens the fake template adds

// One token per word: a token is a run of non-spaces with the spaces before it.
class WordTokenizer final : public llmperf::Tokenizer {
 public:
  const llmperf::TokenizerInfo& info() const override { return info_; }
  std::vector<llmperf::Encoding> encode(const std::vector<std::string>& texts) override {
    std::vector<llmperf::Encoding> out;
    for (const std::string& text : texts) {
      llmperf::Encoding e;
      for (const size_t end : token_ends(text)) {
        e.ids.push_back(static_cast<int64_t>(end));
        e.ends.push_back(end);
      }
      out.push_back(std::move(e));
    }
    return out;
  }
  bool can_decode() const override { return false; }
  std::vector<std::string> decode(const std::vector<std::vector<int64_t>>&) override {
    std::abort();  // can_decode() is false: cuts use the offsets
  }
  std::vector<int64_t> count(const std::vector<std::string>& prompts) override {
    std::vector<int64_t> out;
    for (const std::string& p : prompts) {
      out.push_back(kOverhead + static_cast<int64_t>(token_ends(p).size()));
    }
    return out;
  }
  std::vector<int64_t> count_text(const std::vector<std::string>& texts) override {
    std::vector<int64_t> out;
    for (const std::string& t : texts) out.push_back(static_cast<int64_t>(token_ends(t).size()));
    return out;
  }

 private:
  static std::vector<size_t> token_ends(const std::string& text) {
    std::vector<size_t> ends;
    size_t at = 0;
    while (at < text.size()) {
      while (at < text.size() && text[at] == ' ') ++at;
      while (at < text.size() && text[at] != ' ') ++at;
      ends.push_back(at);
    }
    return ends;
  }
  llmperf::TokenizerInfo info_;
};

void check_file(const llmperf::TraceFile& file, int64_t limit) {
  const llmperf::DatasetStats& stats = file.stats;
  if (stats.accepted + stats.malformed + stats.skipped_empty != stats.records_read) std::abort();
  if (stats.accepted != static_cast<int64_t>(file.entries.size())) std::abort();
  if (stats.accepted < 1 || stats.accepted > limit) std::abort();
  if (static_cast<int64_t>(stats.malformed_lines.size()) !=
      std::min<int64_t>(stats.malformed, 10)) {
    std::abort();
  }
  if ((stats.malformed > 0) != !stats.first_malformed_reason.empty()) std::abort();
  if (file.out_of_order < 0 || file.out_of_order >= stats.accepted) std::abort();
  if (file.entries.front().offset_ns != 0) std::abort();
  for (size_t i = 0; i < file.entries.size(); ++i) {
    const llmperf::TraceEntry& e = file.entries[i];
    if (i > 0 && e.offset_ns < file.entries[i - 1].offset_ns) std::abort();
    if (e.offset_ns > 2 * llmperf::kMaxTraceTimestampNs) std::abort();
    if (e.line < 1 || e.line > stats.records_read) std::abort();
    if (file.bodies) {
      if (!nlohmann::json::parse(e.body_json, nullptr, false).is_object()) std::abort();
      if (e.input_length != -1 || !e.hash_ids.empty()) std::abort();
    } else {
      if (!e.body_json.empty()) std::abort();
      if (e.input_length < 1 || e.input_length > llmperf::kMaxTraceLength) std::abort();
      if (e.output_length < 1 || e.output_length > llmperf::kMaxTraceLength) std::abort();
      if (static_cast<int64_t>(e.hash_ids.size()) > e.input_length) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const int64_t limit = 1 + (data[0] & 15);
  const int64_t block = 1 + ((data[0] >> 4) & 3);
  const bool token_ids = (data[0] & 64) != 0;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  llmperf::TraceFile file;
  try {
    file = llmperf::parse_trace(in, "fuzz", limit);
  } catch (const llmperf::DatasetError&) {
    return 0;
  }
  check_file(file, limit);
  if (llmperf::trace_schedule(file.entries, 1).size() != file.entries.size()) std::abort();
  const std::vector<int64_t> faster = llmperf::trace_schedule(file.entries, 3);
  if (!std::is_sorted(faster.begin(), faster.end())) std::abort();

  llmperf::TraceBuildOptions options;
  options.block_tokens = block;
  options.token_ids = token_ids;
  options.match_output_length = true;
  if (file.bodies) {
    if (llmperf::make_trace_body_prompts(file.entries, options).size() != file.entries.size()) {
      std::abort();
    }
    return 0;
  }
  // The first few entries, lengths clamped so that an input stays cheap.
  std::vector<llmperf::TraceEntry> entries(
      file.entries.begin(), file.entries.begin() + std::min<ptrdiff_t>(4, file.entries.size()));
  for (llmperf::TraceEntry& e : entries) {
    e.input_length = std::min<int64_t>(e.input_length, 64);
    if (static_cast<int64_t>(e.hash_ids.size()) > e.input_length) e.hash_ids.resize(e.input_length);
  }
  WordTokenizer tokenizer;
  const llmperf::TracePrompts out = llmperf::make_trace_prompts(&tokenizer, nullptr, entries, options);
  if (out.prompts.size() != entries.size()) std::abort();
  int64_t too_short = 0;  // inputs below the template's size cannot be met
  for (size_t i = 0; i < entries.size(); ++i) {
    const llmperf::Prompt& p = out.prompts[i];
    if (p.target_input_tokens != entries[i].input_length) std::abort();
    if (token_ids && static_cast<int64_t>(p.token_ids.size()) != entries[i].input_length) {
      std::abort();
    }
    if (!token_ids && p.text.empty()) std::abort();
    if (entries[i].input_length <= kOverhead) ++too_short;
  }
  if (out.misses != (token_ids ? 0 : too_short)) std::abort();
  if (out.distinct_blocks < 0 || out.reused_blocks < 0) std::abort();
  return 0;
}
