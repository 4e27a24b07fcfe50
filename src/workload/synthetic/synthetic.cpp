// Synthetic prompts of exact (or estimated) token lengths (see synthetic.h).
#include "workload/synthetic/synthetic.h"

#include <cmath>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "workload/synthetic/prompt_fitting.h"
#include "workload/utf8.h"
#include "workload/synthetic/word_list.h"

namespace llmperf {
namespace {

struct Lengths {
  int64_t input = 0;
  int64_t output = 0;
};

int64_t draw(std::mt19937_64& rng, const LengthRange& range) {
  if (range.max <= range.min) return range.min;
  return std::uniform_int_distribution<int64_t>(range.min, range.max)(rng);
}

std::vector<Lengths> draw_lengths(std::mt19937_64& rng, const SyntheticSpec& spec) {
  std::vector<Lengths> lengths(static_cast<size_t>(spec.count));
  for (Lengths& l : lengths) {
    l.input = draw(rng, spec.input);
    l.output = draw(rng, spec.output);
  }
  return lengths;
}

// Words enough for a text of `tokens` tokens: every word is at least one token.
int64_t words_for(int64_t tokens) { return tokens + tokens / 8 + 16; }

// Random words for a text that must hold `tokens` tokens, Chinese words only among the first
// tokens/6 words: at up to 3 tokens a word there (a byte-level tokenizer spends 2 or 3 tokens on a
// Chinese character) that stays within half the target, so cuts near the end fall between ASCII
// characters. Starts with a space: it follows a prefix.
std::string body_text(std::mt19937_64& rng, int64_t tokens) {
  std::string text;
  append_random_words(rng, words_for(tokens), tokens / 6, text);
  return text;
}

Prompt make_prompt(std::string text, std::vector<int64_t> ids, int64_t target, int64_t output) {
  Prompt prompt;
  prompt.length = utf8_length(text);
  prompt.text = std::move(text);
  prompt.token_ids = std::move(ids);
  prompt.target_input_tokens = target;
  prompt.target_output_tokens = output;
  return prompt;
}

}  // namespace

std::vector<int32_t> draw_prefix_groups(int64_t groups, double zipf, int64_t count, uint64_t seed) {
  std::vector<double> weights;
  for (int64_t g = 0; g < groups; ++g) {
    weights.push_back(zipf > 0 ? 1.0 / std::pow(static_cast<double>(g + 1), zipf) : 1.0);
  }
  std::mt19937_64 rng(seed);
  std::discrete_distribution<int32_t> pick(weights.begin(), weights.end());
  std::vector<int32_t> drawn;
  drawn.reserve(static_cast<size_t>(std::max<int64_t>(count, 0)));
  for (int64_t i = 0; i < count; ++i) drawn.push_back(pick(rng));
  return drawn;
}

std::string random_text(uint64_t seed, int64_t words) {
  std::mt19937_64 rng(seed);
  std::string text;
  append_random_words(rng, words, words / 4, text);
  return text.empty() ? text : text.substr(1);
}

SyntheticPrompts make_exact_prompts(Tokenizer& tokenizer, const SyntheticSpec& spec,
                                    const FitProgress& progress) {
  std::mt19937_64 rng(spec.seed);
  const std::vector<Lengths> lengths = draw_lengths(rng, spec);
  SyntheticPrompts out;

  FitOptions options;
  options.token_ids = spec.token_ids;
  options.progress = progress;
  options.raise_short_targets = spec.input.min != spec.input.max;
  if (spec.prefix_tokens > 0) {
    const int64_t p = spec.prefix_tokens;
    const std::string words = body_text(rng, p).substr(1);
    const Encoding encoding = tokenizer.encode({words}).at(0);
    if (static_cast<int64_t>(encoding.ids.size()) < p) {
      throw TokenizerError(
          fmt::format("tokenizer: {} words made only {} tokens, fewer than the "
                      "{}-token prefix",
                      words_for(p), encoding.ids.size(), p));
    }
    options.prefix_ids.assign(encoding.ids.begin(), encoding.ids.begin() + p);
    if (tokenizer.can_decode()) {
      options.prefix = std::string(utf8_whole_prefix(tokenizer.decode({options.prefix_ids}).at(0)));
    } else {
      const size_t end = encoding.ends.at(static_cast<size_t>(p - 1));
      options.prefix = std::string(utf8_whole_prefix(std::string_view(words).substr(0, end)));
    }
    out.prefix = options.prefix;
  }

  // A body for a prompt of `target` tokens; it starts with a space only after a prefix.
  const auto body_for = [&](int64_t target) {
    std::string body = body_text(rng, target);
    if (spec.prefix_tokens == 0) body.erase(0, 1);
    return body;
  };
  std::vector<FitItem> items(lengths.size());
  for (size_t i = 0; i < items.size(); ++i) {
    items[i].target = lengths[i].input + spec.prefix_tokens;
    items[i].body = body_for(items[i].target);
  }
  options.redraw = [&](size_t index, int) { return body_for(items[index].target); };
  std::vector<FitResult> fitted = fit_prompts(tokenizer, items, options);
  out.prompts.reserve(fitted.size());
  for (size_t i = 0; i < fitted.size(); ++i) {
    FitResult& r = fitted[i];
    if (!r.exact()) ++out.misses;
    if (r.raised) ++out.raised;
    out.fit_counts += r.tries;
    out.prompts.push_back(
        make_prompt(std::move(r.text), std::move(r.ids), r.target, lengths[i].output));
  }
  return out;
}

SyntheticPrompts make_estimated_prompts(const LengthModel& model, const SyntheticSpec& spec) {
  std::mt19937_64 rng(spec.seed);
  const std::vector<Lengths> lengths = draw_lengths(rng, spec);
  SyntheticPrompts out;

  // Adds words from `words` (which starts with a space) to `text` until the estimate of the whole
  // prompt reaches `tokens`; returns the estimate.
  const auto grow = [&](const std::string& words, double estimate, int64_t tokens,
                        std::string& text) {
    size_t at = 0;
    while (estimate < static_cast<double>(tokens) && at < words.size()) {
      const size_t next = std::min(words.find(' ', at + 1), words.size());
      const std::string_view word = std::string_view(words).substr(at, next - at);
      estimate += model.per_word + model.per_code_point * static_cast<double>(utf8_length(word));
      text += word;
      at = next;
    }
    return estimate;
  };

  std::string prefix;
  double prefix_estimate = model.overhead;
  if (spec.prefix_tokens > 0) {
    prefix_estimate = grow(body_text(rng, spec.prefix_tokens), model.overhead,
                           std::llround(model.overhead) + spec.prefix_tokens, prefix);
    if (!prefix.empty()) prefix.erase(0, 1);
  }
  out.prefix = prefix;
  for (const Lengths& l : lengths) {
    const int64_t target = l.input + spec.prefix_tokens;
    std::string text = prefix;
    grow(body_text(rng, target), prefix_estimate, target, text);
    if (spec.prefix_tokens == 0 && !text.empty()) text.erase(0, 1);
    out.prompts.push_back(make_prompt(std::move(text), {}, target, l.output));
  }
  return out;
}

}  // namespace llmperf
