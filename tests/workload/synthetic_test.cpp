// Tests for synthetic prompts: make_exact_prompts against a fake tokenizer written here (ASCII
// words cut into pieces of at most 6 bytes, about the 1.3 tokens per English word of real
// tokenizers, a leading space belonging to the word; '.' a token of its own; one token per byte of
// a non-ASCII character; count() adds a 5-token template), so that every realized length can be
// recounted; the shared prefix; seeds; the length ranges;
// make_estimated_prompts against its LengthModel; random_text.
#include "workload/synthetic/synthetic.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <cmath>

#include "workload/utf8.h"

namespace llmperf {
namespace {

constexpr int64_t kSynthOverhead = 5;  // tokens the fake's template adds to every prompt

class FakeSynthTokenizer : public Tokenizer {
 public:
  explicit FakeSynthTokenizer(bool decoder = true) : decoder_(decoder) { info_.exact = true; }

  const TokenizerInfo& info() const override { return info_; }

  std::vector<Encoding> encode(const std::vector<std::string>& texts) override {
    std::vector<Encoding> out;
    for (const std::string& text : texts) {
      Encoding e;
      size_t end = 0;
      for (const std::string& piece : pieces(text)) {
        auto [it, inserted] = vocab_.try_emplace(piece, 1000 + static_cast<int64_t>(vocab_.size()));
        if (inserted) by_id_[it->second] = piece;
        e.ids.push_back(it->second);
        end += piece.size();
        e.ends.push_back(end);
      }
      out.push_back(std::move(e));
    }
    return out;
  }

  bool can_decode() const override { return decoder_; }

  std::vector<std::string> decode(const std::vector<std::vector<int64_t>>& ids) override {
    EXPECT_TRUE(decoder_);
    std::vector<std::string> out;
    for (const auto& list : ids) {
      std::string text;
      for (const int64_t id : list) text += by_id_.at(id);
      out.push_back(std::move(text));
    }
    return out;
  }

  std::vector<int64_t> count(const std::vector<std::string>& prompts) override {
    ++count_calls;
    std::vector<int64_t> out;
    for (const std::string& prompt : prompts) out.push_back(counted(prompt));
    return out;
  }

  std::vector<int64_t> count_text(const std::vector<std::string>& texts) override {
    std::vector<int64_t> out;
    for (const std::string& text : texts) out.push_back(tokens(text));
    return out;
  }

  static int64_t tokens(std::string_view text) { return static_cast<int64_t>(pieces(text).size()); }
  static int64_t counted(std::string_view prompt) { return kSynthOverhead + tokens(prompt); }

  static std::vector<std::string> pieces(std::string_view text) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < text.size()) {
      if (static_cast<unsigned char>(text[i]) >= 0x80 || text[i] == '.') {
        out.emplace_back(text.substr(i, 1));
        ++i;
        continue;
      }
      const size_t start = i;
      if (text[i] == ' ') ++i;
      while (i < text.size() && text[i] != ' ' && text[i] != '.' &&
             static_cast<unsigned char>(text[i]) < 0x80) {
        ++i;
      }
      for (size_t at = start; at < i; at += 6) {
        out.emplace_back(text.substr(at, std::min<size_t>(6, i - at)));
      }
    }
    return out;
  }

  int count_calls = 0;

 private:
  bool decoder_;
  TokenizerInfo info_;
  std::map<std::string, int64_t> vocab_;
  std::map<int64_t, std::string> by_id_;
};

SyntheticSpec spec(int64_t count, LengthRange input, LengthRange output, uint64_t seed) {
  SyntheticSpec s;
  s.count = count;
  s.input = input;
  s.output = output;
  s.seed = seed;
  return s;
}

size_t common_prefix(const std::string& a, const std::string& b) {
  return static_cast<size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first -
                             a.begin());
}

TEST(ExactPrompts, EveryPromptCountsItsTargetExactly) {
  FakeSynthTokenizer tokenizer;
  const SyntheticPrompts out =
      make_exact_prompts(tokenizer, spec(30, {40, 300}, {10, 20}, /*seed=*/7));

  ASSERT_EQ(out.prompts.size(), 30u);
  EXPECT_EQ(out.misses, 0);
  EXPECT_EQ(out.raised, 0);
  EXPECT_GE(out.fit_counts, 30);
  EXPECT_TRUE(out.prefix.empty());
  std::set<int64_t> inputs;
  std::set<int64_t> outputs;
  for (const Prompt& p : out.prompts) {
    SCOPED_TRACE(p.text);
    EXPECT_GE(p.target_input_tokens, 40);
    EXPECT_LE(p.target_input_tokens, 300);
    EXPECT_GE(p.target_output_tokens, 10);
    EXPECT_LE(p.target_output_tokens, 20);
    EXPECT_EQ(FakeSynthTokenizer::counted(p.text), p.target_input_tokens);
    EXPECT_TRUE(utf8_valid(p.text));
    EXPECT_EQ(p.length, utf8_length(p.text));
    ASSERT_FALSE(p.text.empty());
    EXPECT_NE(p.text.front(), ' ');
    EXPECT_TRUE(p.token_ids.empty());
    EXPECT_TRUE(p.messages_json.empty());
    inputs.insert(p.target_input_tokens);
    outputs.insert(p.target_output_tokens);
  }
  EXPECT_GT(inputs.size(), 10u);  // drawn, not one value
  EXPECT_GT(outputs.size(), 3u);
}

TEST(ExactPrompts, OffsetsTokenizerGivesTheSameExactness) {
  FakeSynthTokenizer tokenizer(/*decoder=*/false);
  const SyntheticPrompts out = make_exact_prompts(tokenizer, spec(20, {30, 200}, {5, 5}, 11));
  ASSERT_EQ(out.prompts.size(), 20u);
  EXPECT_EQ(out.misses, 0);
  for (const Prompt& p : out.prompts) {
    EXPECT_EQ(FakeSynthTokenizer::counted(p.text), p.target_input_tokens);
    EXPECT_TRUE(utf8_valid(p.text));
    EXPECT_EQ(p.target_output_tokens, 5);
  }
}

TEST(ExactPrompts, SharedPrefixIsExactlyThePrefixText) {
  for (const bool decoder : {true, false}) {
    for (const uint64_t seed : {1, 2, 3, 4, 5, 6, 7, 8}) {
      SCOPED_TRACE(::testing::Message() << "decoder " << decoder << ", seed " << seed);
      FakeSynthTokenizer tokenizer(decoder);
      SyntheticSpec s = spec(12, {60, 60}, {8, 8}, seed);
      s.prefix_tokens = 16;
      const SyntheticPrompts out = make_exact_prompts(tokenizer, s);

      ASSERT_FALSE(out.prefix.empty());
      EXPECT_TRUE(utf8_valid(out.prefix)) << out.prefix;
      EXPECT_LE(FakeSynthTokenizer::tokens(out.prefix), 16);
      EXPECT_EQ(out.misses, 0);
      ASSERT_EQ(out.prompts.size(), 12u);
      for (size_t i = 0; i < out.prompts.size(); ++i) {
        const Prompt& p = out.prompts[i];
        EXPECT_EQ(p.target_input_tokens, 60 + 16);
        EXPECT_EQ(FakeSynthTokenizer::counted(p.text), 60 + 16) << p.text;
        EXPECT_TRUE(utf8_valid(p.text));
        EXPECT_EQ(p.text.substr(0, out.prefix.size()), out.prefix);
        for (size_t j = 0; j < i; ++j) {
          // Past the prefix the bodies are independent: at most a word or so in common by chance.
          const size_t shared = common_prefix(p.text, out.prompts[j].text);
          EXPECT_LT(shared, out.prefix.size() + 16) << p.text << "\n" << out.prompts[j].text;
        }
      }
    }
  }
}

TEST(ExactPrompts, TokenIdsShareThePrefixIdsAndAreNeverCounted) {
  FakeSynthTokenizer tokenizer;
  SyntheticSpec s = spec(10, {20, 80}, {4, 4}, 3);
  s.prefix_tokens = 8;
  s.token_ids = true;
  const SyntheticPrompts out = make_exact_prompts(tokenizer, s);

  EXPECT_EQ(tokenizer.count_calls, 0);
  ASSERT_EQ(out.prompts.size(), 10u);
  const std::vector<int64_t> head(out.prompts[0].token_ids.begin(),
                                  out.prompts[0].token_ids.begin() + 8);
  for (const Prompt& p : out.prompts) {
    ASSERT_EQ(static_cast<int64_t>(p.token_ids.size()), p.target_input_tokens);
    EXPECT_GE(p.target_input_tokens, 20 + 8);
    EXPECT_LE(p.target_input_tokens, 80 + 8);
    EXPECT_EQ(std::vector<int64_t>(p.token_ids.begin(), p.token_ids.begin() + 8), head);
  }
  EXPECT_NE(out.prompts[0].token_ids, out.prompts[1].token_ids);
}

TEST(ExactPrompts, SameSeedSamePromptsOtherSeedOtherText) {
  FakeSynthTokenizer tokenizer;
  SyntheticSpec s = spec(8, {30, 90}, {1, 50}, 42);
  s.prefix_tokens = 4;
  const SyntheticPrompts a = make_exact_prompts(tokenizer, s);
  const SyntheticPrompts b = make_exact_prompts(tokenizer, s);
  s.seed = 43;
  const SyntheticPrompts c = make_exact_prompts(tokenizer, s);

  ASSERT_EQ(a.prompts.size(), 8u);
  ASSERT_EQ(b.prompts.size(), 8u);
  ASSERT_EQ(c.prompts.size(), 8u);
  EXPECT_EQ(a.prefix, b.prefix);
  EXPECT_NE(a.prefix, c.prefix);
  for (size_t i = 0; i < a.prompts.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(a.prompts[i].text, b.prompts[i].text);
    EXPECT_EQ(a.prompts[i].target_input_tokens, b.prompts[i].target_input_tokens);
    EXPECT_EQ(a.prompts[i].target_output_tokens, b.prompts[i].target_output_tokens);
    EXPECT_NE(a.prompts[i].text, c.prompts[i].text);
  }
}

TEST(ExactPrompts, LengthsAreDrawnWithinTheRangeIncludingBothEnds) {
  FakeSynthTokenizer tokenizer;
  const SyntheticPrompts out = make_exact_prompts(tokenizer, spec(200, {20, 23}, {7, 9}, 5));
  std::set<int64_t> inputs;
  std::set<int64_t> outputs;
  for (const Prompt& p : out.prompts) {
    inputs.insert(p.target_input_tokens);
    outputs.insert(p.target_output_tokens);
  }
  EXPECT_EQ(inputs, (std::set<int64_t>{20, 21, 22, 23}));
  EXPECT_EQ(outputs, (std::set<int64_t>{7, 8, 9}));

  const SyntheticPrompts fixed = make_exact_prompts(tokenizer, spec(5, {33, 33}, {12, 12}, 5));
  for (const Prompt& p : fixed.prompts) {
    EXPECT_EQ(p.target_input_tokens, 33);
    EXPECT_EQ(p.target_output_tokens, 12);
  }
}

TEST(ExactPrompts, LengthsBelowTheTemplateAreRaisedInARangeAndRefusedWhenFixed) {
  FakeSynthTokenizer tokenizer;
  // Inputs 1..12: those below the template's 5 tokens become 5-token prompts.
  const SyntheticPrompts out = make_exact_prompts(tokenizer, spec(60, {1, 12}, {3, 3}, 9));
  EXPECT_GT(out.raised, 0);
  EXPECT_EQ(out.misses, 0);
  int64_t at_floor = 0;
  for (const Prompt& p : out.prompts) {
    EXPECT_GE(p.target_input_tokens, kSynthOverhead);
    EXPECT_EQ(FakeSynthTokenizer::counted(p.text), p.target_input_tokens);
    if (p.target_input_tokens == kSynthOverhead) ++at_floor;
  }
  EXPECT_GE(at_floor, out.raised);

  EXPECT_THROW(make_exact_prompts(tokenizer, spec(3, {2, 2}, {3, 3}, 9)), std::invalid_argument);
}

// The LengthModel estimate of a text as make_estimated_prompts adds it up: each word counts
// per_word plus per_code_point for its code points and the space before it (the first word's
// space too, though the text no longer starts with it).
double estimate(const LengthModel& m, const std::string& text, double* last_word = nullptr) {
  double total = m.overhead;
  size_t at = 0;
  while (at < text.size()) {
    const size_t space = std::min(text.find(' ', at), text.size());
    const double word =
        m.per_word +
        m.per_code_point * static_cast<double>(utf8_length(text.substr(at, space - at)) + 1);
    total += word;
    if (last_word != nullptr) *last_word = word;
    at = space + 1;
  }
  return total;
}

TEST(EstimatedPrompts, EstimateReachesEachTargetWithTheFewestWords) {
  const LengthModel model{.overhead = 7, .per_word = 1.0, .per_code_point = 0.25};
  const SyntheticPrompts out = make_estimated_prompts(model, spec(25, {20, 400}, {16, 64}, 3));
  ASSERT_EQ(out.prompts.size(), 25u);
  EXPECT_TRUE(out.prefix.empty());
  for (const Prompt& p : out.prompts) {
    SCOPED_TRACE(p.text);
    EXPECT_GE(p.target_input_tokens, 20);
    EXPECT_LE(p.target_input_tokens, 400);
    EXPECT_GE(p.target_output_tokens, 16);
    EXPECT_LE(p.target_output_tokens, 64);
    ASSERT_FALSE(p.text.empty());
    EXPECT_NE(p.text.front(), ' ');
    EXPECT_TRUE(utf8_valid(p.text));
    EXPECT_EQ(p.length, utf8_length(p.text));
    double last = 0;
    const double e = estimate(model, p.text, &last);
    EXPECT_GE(e, static_cast<double>(p.target_input_tokens));
    EXPECT_LT(e - last, static_cast<double>(p.target_input_tokens));  // one word fewer is short
  }
}

TEST(EstimatedPrompts, PrefixIsSharedAndCountedInTheTarget) {
  const LengthModel model{.overhead = 7, .per_word = 1.0, .per_code_point = 0.25};
  SyntheticSpec s = spec(10, {50, 50}, {8, 8}, 4);
  s.prefix_tokens = 30;
  const SyntheticPrompts out = make_estimated_prompts(model, s);
  ASSERT_FALSE(out.prefix.empty());
  EXPECT_NE(out.prefix.front(), ' ');
  // The prefix alone reaches its 30 tokens on top of the template.
  EXPECT_GE(estimate(model, out.prefix), 7.0 + 30);
  std::set<std::string> texts;
  for (const Prompt& p : out.prompts) {
    EXPECT_EQ(p.target_input_tokens, 80);
    EXPECT_EQ(p.text.substr(0, out.prefix.size()), out.prefix);
    EXPECT_GE(estimate(model, p.text), 80.0);
    texts.insert(p.text);
  }
  EXPECT_EQ(texts.size(), 10u);
  // Deterministic per seed.
  EXPECT_EQ(make_estimated_prompts(model, s).prompts[3].text, out.prompts[3].text);
}

TEST(RandomText, DeterministicPerSeedWithTheWordsAsked) {
  const std::string a = random_text(1, 50);
  EXPECT_EQ(a, random_text(1, 50));
  EXPECT_NE(a, random_text(2, 50));
  ASSERT_FALSE(a.empty());
  EXPECT_NE(a.front(), ' ');
  EXPECT_EQ(std::count(a.begin(), a.end(), ' '), 49);  // 50 words
  EXPECT_TRUE(utf8_valid(a));
  EXPECT_EQ(random_text(1, 0), "");
}

TEST(PrefixGroups, UniformAndZipfFrequenciesMatchTheirWeights) {
  constexpr int64_t kDraws = 200'000;
  // Zipf s = 1 over 4 groups: weights 1, 1/2, 1/3, 1/4 (sum 25/12).
  const std::vector<int32_t> zipf = draw_prefix_groups(4, 1.0, kDraws, 7);
  const std::vector<int32_t> uniform = draw_prefix_groups(4, 0.0, kDraws, 7);
  ASSERT_EQ(zipf.size(), static_cast<size_t>(kDraws));
  std::vector<double> z(4, 0), u(4, 0);
  for (const int32_t g : zipf) z.at(static_cast<size_t>(g)) += 1;
  for (const int32_t g : uniform) u.at(static_cast<size_t>(g)) += 1;
  const double weights[] = {1.0, 1.0 / 2, 1.0 / 3, 1.0 / 4};
  for (size_t g = 0; g < 4; ++g) {
    const double p = weights[g] / (25.0 / 12);
    // 5 standard deviations of a binomial share: fails only on a wrong distribution.
    const double sigma = std::sqrt(p * (1 - p) / kDraws);
    EXPECT_NEAR(z[g] / kDraws, p, 5 * sigma) << "group " << g;
    EXPECT_NEAR(u[g] / kDraws, 0.25, 5 * std::sqrt(0.25 * 0.75 / kDraws)) << "group " << g;
  }
  // The same seed draws the same groups; one group draws only it.
  EXPECT_EQ(draw_prefix_groups(4, 1.0, 100, 7), draw_prefix_groups(4, 1.0, 100, 7));
  EXPECT_EQ(draw_prefix_groups(1, 2.0, 3, 1), (std::vector<int32_t>{0, 0, 0}));
}

}  // namespace
}  // namespace llmperf
