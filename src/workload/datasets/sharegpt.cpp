// ShareGPT sampling (see sharegpt.h). The file is streamed once into a seeded reservoir of
// candidates (a uniformly random subset, so memory holds that subset, never the file); the
// reservoir is shuffled, then measured in batches and filtered in that order until enough prompts
// are kept: the same distribution as vLLM's shuffle-then-take, without loading the file.
#include "workload/datasets/sharegpt.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "workload/datasets/dataset_readers.h"
#include "workload/utf8.h"

namespace llmperf {
namespace {

// Candidates drawn per prompt wanted: enough that the length filters (about half of the public
// file passes them) rarely leave the sample short.
constexpr int64_t kCandidatesPerPrompt = 3;
constexpr int64_t kExtraCandidates = 64;
// Pairs measured per round of tokenizer calls.
constexpr size_t kBatch = 256;

struct Pair {
  std::string prompt;
  std::string answer;
};

int64_t words_of(std::string_view text) {
  int64_t words = 0;
  bool in_word = false;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

}  // namespace

ShareGptFit sharegpt_fit(const ShareGptLimits& limits, int64_t prompt_tokens,
                         int64_t answer_tokens) {
  const bool fixed_output = limits.output_len > 0;
  const int64_t output = fixed_output ? limits.output_len : answer_tokens;
  if (prompt_tokens < limits.min_tokens || (!fixed_output && output < limits.min_tokens)) {
    return ShareGptFit::kTooShort;
  }
  if (prompt_tokens > limits.max_prompt_tokens ||
      prompt_tokens + output > limits.max_total_tokens) {
    return ShareGptFit::kTooLong;
  }
  return ShareGptFit::kKept;
}

int64_t estimate_tokens(const LengthModel& model, std::string_view text) {
  return std::llround(model.overhead + model.per_word * static_cast<double>(words_of(text)) +
                      model.per_code_point * static_cast<double>(utf8_length(text)));
}

std::vector<Prompt> sample_sharegpt(const ShareGptSpec& spec, Tokenizer* tokenizer,
                                    const LengthModel* estimate, DatasetStats& stats,
                                    ShareGptSampling& sampling, const LengthProgress& progress) {
  std::ifstream in = detail::open_input(spec.path);
  const int64_t capacity =
      std::max<int64_t>(1, spec.count) * kCandidatesPerPrompt + kExtraCandidates;
  std::mt19937_64 rng(spec.seed);
  std::vector<Pair> reservoir;
  int64_t seen = 0;
  // Reservoir sampling (Algorithm R): every conversation has the same chance to be kept.
  read_sharegpt(
      in, 2, 2,
      [&](Conversation&& c) {
        ++seen;
        Pair pair{std::move(c.turns[0].text), std::move(c.turns[1].text)};
        if (static_cast<int64_t>(reservoir.size()) < capacity) {
          reservoir.push_back(std::move(pair));
          return;
        }
        const auto slot = std::uniform_int_distribution<int64_t>(0, seen - 1)(rng);
        if (slot < capacity) reservoir[static_cast<size_t>(slot)] = std::move(pair);
      },
      stats);
  if (reservoir.empty()) {
    throw DatasetError(fmt::format(
        "{}: no usable ShareGPT conversation ({} items read, {} malformed{}, {} with fewer than "
        "two turns); expected a JSON list of {{\"conversations\": [{{\"from\", \"value\"}}, "
        "...]}}",
        spec.path, stats.records_read, stats.malformed,
        stats.first_malformed_reason.empty() ? "" : "; first: " + stats.first_malformed_reason,
        stats.skipped_turns));
  }
  std::shuffle(reservoir.begin(), reservoir.end(), rng);
  sampling.candidates = static_cast<int64_t>(reservoir.size());

  const ShareGptLimits& limits = spec.limits;
  std::vector<Prompt> prompts;
  for (size_t start = 0;
       start < reservoir.size() && static_cast<int64_t>(prompts.size()) < spec.count;
       start += kBatch) {
    const size_t end = std::min(reservoir.size(), start + kBatch);
    std::vector<std::string> texts;
    std::vector<std::string> answers;
    for (size_t i = start; i < end; ++i) {
      texts.push_back(reservoir[i].prompt);
      answers.push_back(reservoir[i].answer);
    }
    // vLLM's filter counts each text on its own (special tokens, no chat template); the
    // templated count of the prompts kept is what the server will report as prompt_tokens.
    const bool fixed_output = limits.output_len > 0;
    std::vector<int64_t> prompt_tokens(texts.size());
    std::vector<int64_t> answer_tokens(texts.size(), limits.output_len);
    if (tokenizer != nullptr) {
      prompt_tokens = tokenizer->count_text(texts);
      if (!fixed_output) answer_tokens = tokenizer->count_text(answers);
      if (prompt_tokens.size() != texts.size() || answer_tokens.size() != texts.size()) {
        throw TokenizerError("tokenizer: count_text answered a different number of texts");
      }
    } else {
      // Without a tokenizer the per-request overhead (template and special tokens, calibrated
      // together) cannot be split: a text's own estimate leaves all of it out.
      LengthModel plain = *estimate;
      plain.overhead = 0;
      for (size_t k = 0; k < texts.size(); ++k) {
        prompt_tokens[k] = estimate_tokens(plain, texts[k]);
        if (!fixed_output) answer_tokens[k] = estimate_tokens(plain, answers[k]);
      }
    }
    std::vector<size_t> kept;
    for (size_t k = 0;
         k < texts.size() && static_cast<int64_t>(prompts.size() + kept.size()) < spec.count; ++k) {
      ++sampling.measured;
      switch (sharegpt_fit(limits, prompt_tokens[k], answer_tokens[k])) {
        case ShareGptFit::kTooShort:
          ++sampling.too_short;
          break;
        case ShareGptFit::kTooLong:
          ++sampling.too_long;
          break;
        case ShareGptFit::kKept:
          kept.push_back(k);
          break;
      }
    }
    std::vector<std::string> kept_texts;
    for (const size_t k : kept) kept_texts.push_back(std::move(texts[k]));
    std::vector<int64_t> templated(kept_texts.size());
    if (tokenizer != nullptr && !kept_texts.empty()) {
      templated = tokenizer->count(kept_texts);
      if (templated.size() != kept_texts.size()) {
        throw TokenizerError("tokenizer: count answered a different number of texts");
      }
    } else if (tokenizer == nullptr) {
      for (size_t j = 0; j < kept_texts.size(); ++j) {
        templated[j] = estimate_tokens(*estimate, kept_texts[j]);
      }
    }
    for (size_t j = 0; j < kept.size(); ++j) {
      Prompt prompt;
      prompt.length = utf8_length(kept_texts[j]);
      prompt.text = std::move(kept_texts[j]);
      prompt.target_input_tokens = templated[j];
      prompt.target_output_tokens = answer_tokens[kept[j]];
      prompts.push_back(std::move(prompt));
    }
    if (progress) progress(prompts.size(), static_cast<size_t>(spec.count));
  }
  stats.accepted = static_cast<int64_t>(prompts.size());
  stats.skipped_length += sampling.too_short + sampling.too_long;
  if (prompts.empty()) {
    throw DatasetError(fmt::format(
        "{}: none of the {} conversations measured passes the length limits ({} too short, {} "
        "too long; limits: at least {} tokens each, prompt at most {}, prompt + answer at most "
        "{}: see --sharegpt-min-len, --sharegpt-max-input-len, --sharegpt-max-total-len)",
        spec.path, sampling.measured, sampling.too_short, sampling.too_long, limits.min_tokens,
        limits.max_prompt_tokens, limits.max_total_tokens));
  }
  return prompts;
}

}  // namespace llmperf
