// Tests for fit_prompts (length fitting) against a fake tokenizer written here, whose every count
// is known: ASCII words are cut into pieces of at most 3 bytes (a leading space belongs to the
// word), '.' is a token of its own, and every byte of a non-ASCII character is one token, so that
// a cut can fall inside a character. count() is the tokens of the text plus a fixed template
// overhead. Options make decode unavailable (cuts at Encoding::ends), add one token per k tokens
// (the search then needs several rounds, and some totals cannot be reached at all), and glue a
// final '.' to the token before it (a merge across the cut that no cut position can hit, so only
// a new body helps). Call counters check batching and the bounds on tries and redraws.
#include "workload/synthetic/prompt_fitting.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "workload/tokenizer.h"
#include "workload/utf8.h"

namespace llmperf {
namespace {

struct FakeOptions {
  int64_t overhead = 5;          // tokens count() adds to every prompt (template, BOS)
  bool decoder = true;           // can_decode(); false: cuts use Encoding::ends
  bool replace_broken = false;   // decode writes U+FFFD for a character cut at the end
  bool glue_final_stop = false;  // a '.' that ends the text is one token with the piece before it
  int64_t drift_every = 0;       // count() adds one token per this many tokens (0: never)
};

class FakeFitTokenizer : public Tokenizer {
 public:
  explicit FakeFitTokenizer(FakeOptions options = {}) : options_(options) {
    info_.source = "fake";
    info_.exact = true;
  }

  const TokenizerInfo& info() const override { return info_; }

  std::vector<Encoding> encode(const std::vector<std::string>& texts) override {
    ++encode_calls;
    encode_batches.push_back(texts.size());
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

  bool can_decode() const override { return options_.decoder; }

  std::vector<std::string> decode(const std::vector<std::vector<int64_t>>& ids) override {
    ++decode_calls;
    EXPECT_TRUE(options_.decoder) << "decode() called on a tokenizer without a decoder";
    std::vector<std::string> out;
    for (const auto& list : ids) {
      std::string text;
      for (const int64_t id : list) text += by_id_.at(id);
      if (options_.replace_broken) text = replace_broken_tail(text);
      out.push_back(std::move(text));
    }
    return out;
  }

  std::vector<int64_t> count(const std::vector<std::string>& prompts) override {
    ++count_calls;
    count_batches.push_back(prompts.size());
    std::vector<int64_t> out;
    for (const std::string& prompt : prompts) out.push_back(counted(prompt));
    return out;
  }

  std::vector<int64_t> count_text(const std::vector<std::string>& texts) override {
    std::vector<int64_t> out;
    for (const std::string& text : texts) out.push_back(static_cast<int64_t>(pieces(text).size()));
    return out;
  }

  // What count() answers for one prompt, without counting the call.
  int64_t counted(std::string_view prompt) const {
    const auto n = static_cast<int64_t>(pieces(prompt).size());
    return options_.overhead + n + (options_.drift_every > 0 ? n / options_.drift_every : 0);
  }

  std::vector<std::string> pieces(std::string_view text) const {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < text.size()) {
      const auto byte = static_cast<unsigned char>(text[i]);
      if (byte >= 0x80 || text[i] == '.') {
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
      for (size_t at = start; at < i; at += 3) {
        out.emplace_back(text.substr(at, std::min<size_t>(3, i - at)));
      }
    }
    if (options_.glue_final_stop && out.size() >= 2 && out.back() == ".") {
      out.pop_back();
      out.back() += ".";
    }
    return out;
  }

  int encode_calls = 0;
  int decode_calls = 0;
  int count_calls = 0;
  std::vector<size_t> encode_batches;  // texts per encode() call
  std::vector<size_t> count_batches;   // prompts per count() call

 private:
  // A detokenizer's answer for ids that end inside a character: U+FFFD in its place.
  static std::string replace_broken_tail(const std::string& text) {
    size_t lead = text.size();
    while (lead > 0 && (static_cast<unsigned char>(text[lead - 1]) & 0xC0) == 0x80) --lead;
    if (lead == 0) return text;
    const auto byte = static_cast<unsigned char>(text[lead - 1]);
    const size_t need = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
    if (text.size() - (lead - 1) >= need) return text;
    return text.substr(0, lead - 1) + "\xEF\xBF\xBD";
  }

  FakeOptions options_;
  TokenizerInfo info_;
  std::map<std::string, int64_t> vocab_;
  std::map<int64_t, std::string> by_id_;
};

// About 200 tokens of ASCII words of every length (1 to 3 pieces each), starting with a space.
std::string ascii_body(int variant = 0) {
  static const char* const kWords[] = {"a",       "harbor", "information", "to",  "bridge",
                                       "lantern", "of",     "ocean",       "cat", "development"};
  std::string body;
  for (int i = 0; i < 90; ++i) {
    body += ' ';
    body += kWords[(i * 7 + variant) % 10];
  }
  return body;
}

// `text` begins with `prefix` and what follows is the start of `body`.
void expect_cut_of(const std::string& text, const std::string& prefix, const std::string& body) {
  ASSERT_GE(text.size(), prefix.size());
  EXPECT_EQ(text.substr(0, prefix.size()), prefix);
  const std::string rest = text.substr(prefix.size());
  EXPECT_EQ(body.substr(0, rest.size()), rest) << "not a cut of the body: " << text;
}

TEST(FitPrompts, EveryTargetReachedExactlyInOneBatchedRound) {
  FakeFitTokenizer tokenizer;
  FitOptions options;
  options.prefix = "Shared intro for every prompt";
  const int64_t base = tokenizer.counted(options.prefix);  // 5 + 11 pieces
  ASSERT_EQ(base, 16);
  std::vector<size_t> progress_done;
  options.progress = [&](size_t done, size_t total) {
    EXPECT_EQ(total, 6u);
    progress_done.push_back(done);
  };
  std::vector<FitItem> items;
  for (const int64_t extra : {0, 1, 2, 7, 50, 123}) {
    items.push_back({ascii_body(static_cast<int>(extra)), base + extra});
  }

  const std::vector<FitResult> results = fit_prompts(tokenizer, items, options);

  ASSERT_EQ(results.size(), items.size());
  for (size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(results[i].exact());
    EXPECT_EQ(results[i].target, items[i].target);
    EXPECT_EQ(results[i].realized, items[i].target);
    EXPECT_EQ(tokenizer.counted(results[i].text), items[i].target);
    EXPECT_EQ(results[i].tries, 1);
    EXPECT_FALSE(results[i].raised);
    EXPECT_TRUE(results[i].ids.empty());
    expect_cut_of(results[i].text, options.prefix, items[i].body);
  }
  EXPECT_EQ(results[0].text, options.prefix);  // target = the prefix alone
  // One encode of all bodies, one decode and one count of all cuts, plus the prefix's count.
  EXPECT_EQ(tokenizer.encode_batches, std::vector<size_t>{6});
  EXPECT_EQ(tokenizer.decode_calls, 1);
  EXPECT_EQ(tokenizer.count_batches, (std::vector<size_t>{1, 6}));
  ASSERT_FALSE(progress_done.empty());
  EXPECT_EQ(progress_done.back(), 6u);
}

TEST(FitPrompts, SearchConvergesOverSeveralRoundsWithOneCountPerRound) {
  // count = 5 + n + n / 4 for n tokens: reachable totals are 5 + f(n), f = 0..3, 5..8, 10..13, ...
  FakeFitTokenizer tokenizer({.drift_every = 4});
  std::vector<FitItem> items;
  for (const int64_t total : {10, 16, 17, 62}) items.push_back({ascii_body().substr(1), 5 + total});
  FitOptions options;

  const std::vector<FitResult> results = fit_prompts(tokenizer, items, options);

  int most_tries = 0;
  for (size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(results[i].exact()) << results[i].realized << " for " << results[i].target;
    EXPECT_EQ(tokenizer.counted(results[i].text), items[i].target);
    EXPECT_LE(results[i].tries, options.max_tries);
    most_tries = std::max(most_tries, results[i].tries);
  }
  EXPECT_GT(most_tries, 1);  // the first cut overshoots by n / 4
  // The prefix's count, then one batch per round holding every prompt still open.
  ASSERT_EQ(tokenizer.count_calls, 1 + most_tries);
  EXPECT_EQ(tokenizer.count_batches[1], items.size());
  EXPECT_TRUE(std::is_sorted(tokenizer.count_batches.begin() + 1, tokenizer.count_batches.end(),
                             std::greater<>()));
}

TEST(FitPrompts, UnreachableTargetKeepsTheClosestAttempt) {
  // 5 + 19 cannot be counted: f(15) = 18, f(16) = 20. The search counts n = 19 (23), 15 (18),
  // 16 (20), then n = 15 again would repeat: it stops after 3 counts. 18 and 20 are both 1 away;
  // the first of them stays.
  FakeFitTokenizer tokenizer({.drift_every = 4});
  const std::vector<FitResult> results =
      fit_prompts(tokenizer, {{ascii_body().substr(1), 24}}, FitOptions{});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].exact());
  EXPECT_EQ(results[0].tries, 3);
  EXPECT_EQ(results[0].realized, 5 + 18);
  EXPECT_EQ(tokenizer.counted(results[0].text), results[0].realized);
  EXPECT_EQ(tokenizer.count_calls, 1 + 3);
}

TEST(FitPrompts, CountsPerBodyAreBoundedByMaxTries) {
  FakeFitTokenizer tokenizer({.drift_every = 4});
  std::vector<FitItem> items;
  for (int64_t target = 5; target <= 150; ++target)
    items.push_back({ascii_body().substr(1), target});
  FitOptions options;
  options.max_tries = 2;

  const std::vector<FitResult> results = fit_prompts(tokenizer, items, options);

  int misses = 0;
  for (size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE(items[i].target);
    EXPECT_GE(results[i].tries, 1);
    EXPECT_LE(results[i].tries, 2);
    EXPECT_EQ(tokenizer.counted(results[i].text), results[i].realized);
    if (!results[i].exact()) ++misses;
  }
  EXPECT_GT(misses, 0);  // two counts are not enough for the long ones
  EXPECT_LE(tokenizer.count_calls, 1 + 2);
}

// Body whose cut after "aa" ends in '.', which the glued tokenizer counts as one token with "aa":
// a target of 2 body tokens counts 1 (cut after ".") or 3 (cut after " bb"), never 2.
const std::string kTrap = "aa. bb cc dd";

TEST(FitPrompts, CutThatCanNeverHitIsAMissWithoutRedraw) {
  FakeFitTokenizer tokenizer({.glue_final_stop = true});
  const std::vector<FitResult> results =
      fit_prompts(tokenizer, {{kTrap, 5 + 2}, {"ee ff gg hh", 5 + 2}}, FitOptions{});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_FALSE(results[0].exact());
  EXPECT_EQ(results[0].tries, 2);
  EXPECT_EQ(results[0].realized, 5 + 1);  // "aa." first; "aa. bb" (8) is no closer
  EXPECT_EQ(results[0].text, "aa.");
  EXPECT_TRUE(results[1].exact());
  EXPECT_EQ(results[1].text, "ee ff");
}

TEST(FitPrompts, RedrawGivesAMissANewBodyAndOnlyThatOne) {
  FakeFitTokenizer tokenizer({.glue_final_stop = true});
  std::vector<std::pair<size_t, int>> redraws;
  FitOptions options;
  options.redraw = [&](size_t index, int attempt) {
    redraws.emplace_back(index, attempt);
    return std::string("xx yy zz");
  };
  const std::vector<FitResult> results =
      fit_prompts(tokenizer, {{"ee ff gg hh", 5 + 2}, {kTrap, 5 + 2}}, options);

  EXPECT_EQ(redraws, (std::vector<std::pair<size_t, int>>{{1, 1}}));
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].exact());
  EXPECT_TRUE(results[1].exact());
  EXPECT_EQ(results[1].text, "xx yy");
  EXPECT_EQ(results[1].tries, 3);  // 2 on the trap, 1 on the new body
  // The new body alone is encoded again.
  EXPECT_EQ(tokenizer.encode_batches, (std::vector<size_t>{2, 1}));
}

TEST(FitPrompts, RedrawsAreBoundedAndAPersistentMissIsRecorded) {
  for (const int max_redraws : {0, 1, 2}) {
    SCOPED_TRACE(max_redraws);
    FakeFitTokenizer tokenizer({.glue_final_stop = true});
    std::vector<int> attempts;
    FitOptions options;
    options.max_redraws = max_redraws;
    options.redraw = [&](size_t index, int attempt) {
      EXPECT_EQ(index, 0u);
      attempts.push_back(attempt);
      return std::string("qq. rr ss tt");  // the same trap again
    };
    const std::vector<FitResult> results = fit_prompts(tokenizer, {{kTrap, 5 + 2}}, options);

    std::vector<int> expected;
    for (int a = 1; a <= max_redraws; ++a) expected.push_back(a);
    EXPECT_EQ(attempts, expected);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_FALSE(results[0].exact());
    EXPECT_EQ(results[0].realized, 5 + 1);  // the closest attempt, the first body's
    EXPECT_EQ(results[0].text, "aa.");
    EXPECT_EQ(results[0].tries, 2 * (1 + max_redraws));
    EXPECT_LE(results[0].tries, options.max_tries * (1 + max_redraws));
  }
}

TEST(FitPrompts, CutInsideACharacterIsDroppedNeverLeftBroken) {
  // 中 and 文 are 3 tokens each (one per byte), 字 too: targets whose cut falls inside one of them
  // cannot be met and are recorded misses; all others are exact. Every text is valid UTF-8.
  const std::string body = " ab 中文 cd ef 字 gh ij kl";
  for (const bool decoder : {true, false}) {
    for (const bool replace_broken : {false, true}) {
      if (!decoder && replace_broken) continue;
      SCOPED_TRACE(::testing::Message() << "decoder " << decoder << ", U+FFFD " << replace_broken);
      FakeFitTokenizer tokenizer({.decoder = decoder, .replace_broken = replace_broken});
      const Encoding encoding = tokenizer.encode({body}).at(0);
      const auto total = static_cast<int64_t>(encoding.ids.size());
      FitOptions options;
      options.prefix = "Intro";
      const int64_t base = tokenizer.counted(options.prefix);
      std::vector<FitItem> items;
      for (int64_t n = 0; n <= total; ++n) items.push_back({body, base + n});

      const std::vector<FitResult> results = fit_prompts(tokenizer, items, options);

      int misses = 0;
      for (int64_t n = 0; n <= total; ++n) {
        SCOPED_TRACE(n);
        const FitResult& r = results[static_cast<size_t>(n)];
        EXPECT_TRUE(utf8_valid(r.text)) << r.text;
        EXPECT_EQ(r.text.find("\xEF\xBF\xBD"), std::string::npos);
        EXPECT_EQ(tokenizer.counted(r.text), r.realized);
        expect_cut_of(r.text, options.prefix, body);
        const size_t end = n == 0 ? 0 : encoding.ends[static_cast<size_t>(n - 1)];
        const bool inside =
            end < body.size() && (static_cast<unsigned char>(body[end]) & 0xC0) == 0x80;
        EXPECT_EQ(r.exact(), !inside);
        if (!r.exact()) ++misses;
      }
      EXPECT_EQ(misses, 6);  // two cut points inside each of the three characters
    }
  }
}

TEST(FitPrompts, TargetBelowTheTemplateThrowsUnlessRaised) {
  FakeFitTokenizer tokenizer;
  FitOptions options;
  options.prefix = "Shared";  // 5 + 2 pieces
  const std::vector<FitItem> items = {{ascii_body(), 6}, {ascii_body(), 7}, {ascii_body(), 9}};
  EXPECT_THROW(fit_prompts(tokenizer, items, options), std::invalid_argument);

  options.raise_short_targets = true;
  const std::vector<FitResult> results = fit_prompts(tokenizer, items, options);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[0].raised);
  EXPECT_EQ(results[0].target, 7);
  EXPECT_TRUE(results[0].exact());
  EXPECT_EQ(results[0].text, "Shared");
  EXPECT_FALSE(results[1].raised);  // equal to the prefix's count: not raised
  EXPECT_EQ(results[1].target, 7);
  EXPECT_FALSE(results[2].raised);
  EXPECT_EQ(results[2].realized, 9);
}

TEST(FitPrompts, TokenIdsModeTakesExactlyTargetIdsWithoutCounting) {
  for (const bool decoder : {true, false}) {
    SCOPED_TRACE(decoder);
    FakeFitTokenizer tokenizer({.decoder = decoder});
    const std::string body = ascii_body();
    const Encoding encoding = tokenizer.encode({body}).at(0);
    FitOptions options;
    options.token_ids = true;
    options.prefix_ids = tokenizer.encode({"Sys tem go"}).at(0).ids;  // "Sys", " te", "m", " go"
    ASSERT_EQ(options.prefix_ids.size(), 4u);

    const std::vector<FitResult> results =
        fit_prompts(tokenizer, {{body, 4}, {body, 5}, {body, 40}}, options);

    EXPECT_EQ(tokenizer.count_calls, 0);
    ASSERT_EQ(results.size(), 3u);
    for (const FitResult& r : results) {
      SCOPED_TRACE(r.target);
      ASSERT_EQ(static_cast<int64_t>(r.ids.size()), r.target);
      EXPECT_TRUE(r.exact());
      EXPECT_EQ(r.realized, r.target);
      EXPECT_EQ(std::vector<int64_t>(r.ids.begin(), r.ids.begin() + 4), options.prefix_ids);
      EXPECT_TRUE(std::equal(r.ids.begin() + 4, r.ids.end(), encoding.ids.begin()));
    }
    if (decoder) {
      EXPECT_EQ(tokenizer.decode_calls, 1);  // one batch for every prompt's text
      EXPECT_EQ(results[0].text, "Sys tem go");
      EXPECT_EQ(results[1].text, "Sys tem go a");
    } else {
      EXPECT_EQ(tokenizer.decode_calls, 0);
    }
  }
}

TEST(FitPrompts, TokenIdsModeRecordsAShortBodyAndRejectsATargetBelowThePrefix) {
  FakeFitTokenizer tokenizer({.decoder = false});
  FitOptions options;
  options.token_ids = true;
  options.prefix_ids = {7, 8};
  const std::vector<FitResult> results = fit_prompts(tokenizer, {{" ab cd", 10}}, options);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].ids.size(), 4u);  // 2 + the body's only 2 tokens
  EXPECT_EQ(results[0].realized, 4);
  EXPECT_FALSE(results[0].exact());

  EXPECT_THROW(fit_prompts(tokenizer, {{" ab cd", 1}}, options), std::invalid_argument);
}

TEST(FitPrompts, OffsetsPathCutsAtEncodingEnds) {
  FakeFitTokenizer tokenizer({.decoder = false, .drift_every = 4});
  std::vector<FitItem> items;
  for (const int64_t total : {0, 3, 10, 17, 40})
    items.push_back({ascii_body(1).substr(1), 5 + total});

  const std::vector<FitResult> results = fit_prompts(tokenizer, items, FitOptions{});

  EXPECT_EQ(tokenizer.decode_calls, 0);
  for (size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(results[i].exact());
    EXPECT_EQ(tokenizer.counted(results[i].text), items[i].target);
    expect_cut_of(results[i].text, "", items[i].body);
  }
}

// A tokenizer whose answers do not match its questions.
class BrokenTokenizer : public FakeFitTokenizer {
 public:
  bool short_count = false;  // count() answers one number fewer than asked
  bool bad_ends = false;     // encode() gives one offset fewer than ids
  std::vector<Encoding> encode(const std::vector<std::string>& texts) override {
    std::vector<Encoding> out = FakeFitTokenizer::encode(texts);
    if (bad_ends) {
      for (Encoding& e : out) e.ends.pop_back();
    }
    return out;
  }
  std::vector<int64_t> count(const std::vector<std::string>& prompts) override {
    std::vector<int64_t> out = FakeFitTokenizer::count(prompts);
    if (short_count && prompts.size() > 1) out.pop_back();
    return out;
  }
};

TEST(FitPrompts, MismatchedTokenizerAnswersThrowTokenizerError) {
  const std::vector<FitItem> items = {{ascii_body(), 20}, {ascii_body(2), 30}};
  {
    BrokenTokenizer tokenizer;
    tokenizer.short_count = true;
    EXPECT_THROW(fit_prompts(tokenizer, items, FitOptions{}), TokenizerError);
  }
  {
    BrokenTokenizer tokenizer;
    tokenizer.bad_ends = true;
    EXPECT_THROW(fit_prompts(tokenizer, items, FitOptions{}), TokenizerError);
  }
}

TEST(FitPrompts, NoItemsAsksTheTokenizerNothing) {
  FakeFitTokenizer tokenizer;
  EXPECT_TRUE(fit_prompts(tokenizer, {}, FitOptions{}).empty());
  EXPECT_EQ(tokenizer.encode_calls + tokenizer.decode_calls + tokenizer.count_calls, 0);
}

}  // namespace
}  // namespace llmperf
