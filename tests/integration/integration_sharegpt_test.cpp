// End-to-end tests of --dataset sharegpt and vLLM's output formats: the real llmperf binary against
// llmperf-mock, whose tokenizer (mock/tokenizer.h, linked here) both answers the tokenize API and
// counts usage, so every length the fixture should produce is computed here from its text and
// checked exactly: each answer's length sent as max_tokens, the prompts kept and dropped by vLLM's
// rules, the seeded order, the "Serving Benchmark Result" block and vllm_result.json against
// summary.json, a vLLM seed command, and a --config file standing in for the command line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"
#include "tokenizer.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kFixture = LLMPERF_FIXTURES_DIR "/sharegpt/sample.json";

// One conversation of the fixture with a readable first and second turn, measured as the mock
// measures it.
struct FixturePair {
  std::string id;
  int64_t prompt_chars = 0;   // code points of the prompt (requests.jsonl input_chars)
  int64_t prompt_tokens = 0;  // usage.prompt_tokens of a chat request with this prompt
  int64_t own_tokens = 0;     // the prompt alone with BOS, no template: what vLLM's filter counts
  int64_t answer_tokens = 0;  // the answer alone with BOS: vLLM's output length
};

int64_t code_points(std::string_view text) {
  int64_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

// A turn's text ("value", or "content" for role/content turns); nullopt when it has none.
std::optional<std::string> turn_text(const json& turn) {
  for (const char* key : {"value", "content"}) {
    if (turn.is_object() && turn.contains(key) && turn[key].is_string()) return turn[key];
  }
  return std::nullopt;
}

std::vector<FixturePair> fixture_pairs() {
  const json items = json::parse(read_file(kFixture));
  std::vector<FixturePair> pairs;
  for (const json& item : items) {
    if (!item.is_object() || !item.contains("conversations")) continue;
    const json& turns = item["conversations"];
    if (!turns.is_array() || turns.size() < 2) continue;
    const std::optional<std::string> prompt = turn_text(turns[0]);
    const std::optional<std::string> answer = turn_text(turns[1]);
    if (!prompt || !answer) continue;
    const json messages = json::array({{{"role", "user"}, {"content", *prompt}}});
    pairs.push_back({item.value("id", ""), code_points(*prompt),
                     mock::chat_prompt_tokens(messages).value_or(-1),
                     static_cast<int64_t>(mock::tokenize(*prompt, true).size()),
                     static_cast<int64_t>(mock::tokenize(*answer, true).size())});
  }
  return pairs;
}

// The fixture's pairs, which of them vLLM's default limits keep, and how each is recognised in
// requests.jsonl: by its prompt's code points and token count and its answer's token count, which
// the constructor checks are unique (two prompts of as many Chinese characters share the first
// two).
class ShareGptFixture {
 public:
  ShareGptFixture() : pairs_(fixture_pairs()) {
    for (const FixturePair& p : pairs_) {
      const bool unique =
          by_key_.emplace(key_of(p.prompt_chars, p.prompt_tokens, p.answer_tokens), &p).second;
      EXPECT_TRUE(unique) << p.id << " cannot be told apart from another prompt";
      if (p.own_tokens < 4 || p.answer_tokens < 4) {
        too_short_.insert(p.id);
      } else if (p.own_tokens > 1024 || p.own_tokens + p.answer_tokens > 2048) {
        too_long_.insert(p.id);
      } else {
        kept_.insert(p.id);
      }
    }
  }

  const std::vector<FixturePair>& pairs() const { return pairs_; }
  const std::set<std::string>& kept() const { return kept_; }
  const std::set<std::string>& too_short() const { return too_short_; }
  const std::set<std::string>& too_long() const { return too_long_; }

  // The pair a request sent (its max_tokens being the answer's length), or nullptr (with a test
  // failure) when it is none of them.
  const FixturePair* sent_by(const json& record) const {
    const auto found = by_key_.find(key_of(record["input_chars"].get<int64_t>(),
                                           record["target_input_tokens"].get<int64_t>(),
                                           record["target_output_tokens"].get<int64_t>()));
    if (found == by_key_.end()) {
      ADD_FAILURE() << "a prompt not in the fixture: " << record.dump();
      return nullptr;
    }
    return found->second;
  }

  // The ids of the sampled prompts in their order (prompt_index), checking that one index always
  // names one prompt.
  std::vector<std::string> sampled_order(const std::vector<json>& records) const {
    std::map<int64_t, std::string> by_index;
    for (const json& r : records) {
      const FixturePair* pair = sent_by(r);
      if (pair == nullptr) continue;
      const auto [it, inserted] = by_index.emplace(r["prompt_index"].get<int64_t>(), pair->id);
      EXPECT_EQ(it->second, pair->id) << "prompt_index " << it->first << " names two prompts";
    }
    std::vector<std::string> order;
    for (const auto& [index, id] : by_index) order.push_back(id);
    return order;
  }

  // The ids of the pairs whose prompt has `record`'s code points and token count (when max_tokens
  // is not the answer's length).
  std::set<std::string> prompt_matches(const json& record) const {
    std::set<std::string> ids;
    for (const FixturePair& p : pairs_) {
      if (p.prompt_chars == record["input_chars"] &&
          p.prompt_tokens == record["target_input_tokens"]) {
        ids.insert(p.id);
      }
    }
    return ids;
  }

 private:
  using Key = std::tuple<int64_t, int64_t, int64_t>;
  static Key key_of(int64_t prompt_chars, int64_t prompt_tokens, int64_t answer_tokens) {
    return {prompt_chars, prompt_tokens, answer_tokens};
  }

  std::vector<FixturePair> pairs_;
  std::map<Key, const FixturePair*> by_key_;
  std::set<std::string> kept_;
  std::set<std::string> too_short_;
  std::set<std::string> too_long_;
};

// --url/--model/--dataset sharegpt on the fixture, against `mock`.
std::vector<std::string> sharegpt_args(const MockServer& mock) {
  return {"--url",    mock.chat_url(),  "--model", "mock-model",       "--dataset",
          "sharegpt", "--dataset-path", kFixture,  "--sleep-interval", "0"};
}

// The space-separated words of `text`.
std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

// vLLM's two decimals ("{:<10.2f}" in vllm/benchmarks/serve.py).
std::string two_decimals(const json& value) { return fmt::format("{:.2f}", value.get<double>()); }

TEST(IntegrationShareGpt, FixtureHoldsWhatTheseTestsNeed) {
  const ShareGptFixture fixture;
  // 30 conversations, one of role/content turns, one too short, one too long; the single-turn,
  // empty and malformed items have no pair.
  EXPECT_EQ(fixture.pairs().size(), 33u);
  EXPECT_EQ(fixture.too_short(), std::set<std::string>{"short"});
  EXPECT_EQ(fixture.too_long(), std::set<std::string>{"long"});
  EXPECT_EQ(fixture.kept().size(), 31u);
  EXPECT_TRUE(fixture.kept().contains("roles"));
}

TEST(IntegrationShareGpt, EachAnswersLengthIsSentAsMaxTokens) {
  const ShareGptFixture fixture;
  MockServer mock({});
  // More requests than kept prompts, so that every conversation is measured and every kept
  // prompt is sent.
  const BenchRun run =
      run_llmperf(concat(sharegpt_args(mock), {"--ignore-eos", "--parallel", "4", "-n", "40"}));
  const fs::path dir = only_run_dir(run);
  ASSERT_FALSE(dir.empty());

  const std::vector<json> records = read_requests(dir);
  ASSERT_EQ(records.size(), 40u);
  std::set<std::string> sent;
  for (const json& r : records) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    const FixturePair* pair = fixture.sent_by(r);
    if (pair == nullptr) continue;
    sent.insert(pair->id);
    SCOPED_TRACE(pair->id);
    EXPECT_EQ(r["target_output_tokens"], pair->answer_tokens) << r.dump();
    EXPECT_EQ(r["target_input_tokens"], pair->prompt_tokens) << r.dump();
    // With ignore_eos the mock generates exactly max_tokens, and counts the prompt as sent.
    EXPECT_EQ(r["output_tokens"], r["target_output_tokens"]) << r.dump();
    EXPECT_EQ(r["input_tokens"], r["target_input_tokens"]) << r.dump();
    EXPECT_EQ(r["output_token_source"], "usage");
    EXPECT_EQ(r["input_token_source"], "usage");
    EXPECT_EQ(r["finish_reason"], "length") << r.dump();
  }
  EXPECT_EQ(sent, fixture.kept());
  for (const std::string& id : fixture.too_short()) EXPECT_FALSE(sent.contains(id)) << id;
  for (const std::string& id : fixture.too_long()) EXPECT_FALSE(sent.contains(id)) << id;

  const json& s = run.summary;
  for (const char* side : {"input", "output"}) {
    SCOPED_TRACE(side);
    EXPECT_EQ(s["exactness"][side]["requests"], 40);
    EXPECT_EQ(s["exactness"][side]["matched"], 40) << s["exactness"].dump();
  }
  const json& sampling = s["workload"]["sharegpt"];
  EXPECT_EQ(sampling["candidates"], fixture.pairs().size()) << sampling.dump();
  EXPECT_EQ(sampling["measured"], fixture.pairs().size()) << sampling.dump();
  EXPECT_GE(sampling["dropped_short"].get<int64_t>(), 1) << sampling.dump();
  EXPECT_GE(sampling["dropped_long"].get<int64_t>(), 1) << sampling.dump();
  EXPECT_EQ(sampling["dropped_short"], fixture.too_short().size()) << sampling.dump();
  EXPECT_EQ(sampling["dropped_long"], fixture.too_long().size()) << sampling.dump();
  EXPECT_EQ(s["workload"]["prompts"], fixture.kept().size());
  EXPECT_TRUE(s["workload"]["tokenizer"]["exact"].get<bool>()) << s["workload"].dump();
  EXPECT_EQ(s["dataset"]["records_read"], 38);
  EXPECT_EQ(s["dataset"]["malformed"], 3) << s["dataset"].dump();
  EXPECT_EQ(s["dataset"]["skipped_turns"], 2) << s["dataset"].dump();
  EXPECT_EQ(s["dataset"]["accepted"], fixture.kept().size()) << s["dataset"].dump();
}

TEST(IntegrationShareGpt, FixedOutputLengthSetsEveryMaxTokens) {
  const ShareGptFixture fixture;
  MockServer mock({});
  const BenchRun run =
      run_llmperf(concat(sharegpt_args(mock), {"--sharegpt-output-len", "7", "--ignore-eos",
                                               "--parallel", "2", "-n", "12"}));
  const fs::path dir = only_run_dir(run);
  ASSERT_FALSE(dir.empty());
  const std::vector<json> records = read_requests(dir);
  EXPECT_EQ(records.size(), 12u);
  for (const json& r : records) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    EXPECT_EQ(r["target_output_tokens"], 7) << r.dump();
    EXPECT_EQ(r["output_tokens"], 7) << r.dump();
    EXPECT_EQ(r["input_tokens"], r["target_input_tokens"]) << r.dump();
    const std::set<std::string> ids = fixture.prompt_matches(r);
    EXPECT_FALSE(ids.empty()) << "a prompt not in the fixture: " << r.dump();
    for (const std::string& id : ids) EXPECT_TRUE(fixture.kept().contains(id)) << id;
  }
  EXPECT_EQ(run.summary["config"]["sharegpt_output_len"], 7);
  EXPECT_EQ(run.summary["exactness"]["output"]["matched"], 12);
}

// `n` tokens of the mock's tokenizer: "abcd" then " abc" (one token each).
std::string mock_tokens(int64_t n) {
  std::string text = n > 0 ? "abcd" : "";
  for (int64_t i = 1; i < n; ++i) text += " abc";
  return text;
}

// Issue 23: the filter counts each text alone (BOS, no template), as vLLM does; the mock's
// template adds 10 more tokens to a prompt, which made "Hi" pass before.
TEST(IntegrationShareGpt, FilterCountsPromptsAndAnswersOnTheirOwn) {
  const std::string long_answer = mock_tokens(20);
  const json conversations = json::array({
      {{"id", "hi"},
       {"conversations",
        {{{"from", "human"}, {"value", "Hi"}}, {{"from", "gpt"}, {"value", long_answer}}}}},
      {{"id", "ok"},
       {"conversations",
        {{{"from", "human"}, {"value", mock_tokens(8)}}, {{"from", "gpt"}, {"value", "ok"}}}}},
      {{"id", "p1024"},
       {"conversations",
        {{{"from", "human"}, {"value", mock_tokens(1023)}},
         {{"from", "gpt"}, {"value", long_answer}}}}},
      {{"id", "p1025"},
       {"conversations",
        {{{"from", "human"}, {"value", mock_tokens(1024)}},
         {{"from", "gpt"}, {"value", long_answer}}}}},
  });
  // The counts as vLLM's filter sees them, from the mock's own tokenizer.
  ASSERT_EQ(mock::tokenize("Hi", true).size(), 2u);  // BOS + 1 token
  ASSERT_EQ(mock::tokenize("ok", true).size(), 2u);  // a 2-token answer
  ASSERT_EQ(mock::tokenize(mock_tokens(1023), true).size(), 1024u);
  ASSERT_EQ(mock::tokenize(mock_tokens(1024), true).size(), 1025u);
  const std::string dir = make_temp_dir();
  const std::string path = dir + "/pairs.json";
  std::ofstream(path) << conversations.dump();

  MockServer mock({});
  const BenchRun run =
      run_llmperf({"--url", mock.chat_url(), "--model", "mock-model", "--dataset", "sharegpt",
                   "--dataset-path", path, "--ignore-eos", "--parallel", "2", "-n", "4"});
  const fs::path run_dir = only_run_dir(run);
  ASSERT_FALSE(run_dir.empty());
  for (const json& r : read_requests(run_dir)) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    // Only p1024 is sent, its target the templated count the mock's usage reports.
    EXPECT_EQ(r["target_input_tokens"], 1023 + 11) << r.dump();
    EXPECT_EQ(r["input_tokens"], r["target_input_tokens"]) << r.dump();
    EXPECT_EQ(r["target_output_tokens"], 21) << r.dump();  // the answer's 20 tokens + BOS
  }
  const json& sampling = run.summary["workload"]["sharegpt"];
  EXPECT_EQ(sampling["measured"], 4) << sampling.dump();
  EXPECT_EQ(sampling["dropped_short"], 2) << sampling.dump();
  EXPECT_EQ(sampling["dropped_long"], 1) << sampling.dump();
  EXPECT_EQ(run.summary["workload"]["prompts"], 1);
  fs::remove_all(dir);
}

TEST(IntegrationShareGpt, SeedChoosesThePromptOrder) {
  const ShareGptFixture fixture;
  MockServer mock({});
  const auto order_with_seed = [&](const std::string& seed) {
    SCOPED_TRACE("--seed " + seed);
    const BenchRun run =
        run_llmperf(concat(sharegpt_args(mock), {"--seed", seed, "--parallel", "2", "-n", "10"}));
    const fs::path dir = only_run_dir(run);
    return dir.empty() ? std::vector<std::string>{} : fixture.sampled_order(read_requests(dir));
  };
  const std::vector<std::string> first = order_with_seed("1");
  const std::vector<std::string> again = order_with_seed("1");
  const std::vector<std::string> other = order_with_seed("2");
  ASSERT_EQ(first.size(), 10u);
  EXPECT_EQ(again, first);
  EXPECT_NE(other, first);
}

// The "Serving Benchmark Result" block of `out`: each line's label (or the whole line for
// section rules) and value, in order.
std::vector<std::pair<std::string, std::string>> vllm_block(const std::string& out) {
  const std::string top = "============ Serving Benchmark Result ============";
  std::vector<std::pair<std::string, std::string>> lines;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line) && line != top) {
  }
  if (!in) return lines;
  lines.emplace_back(line, "");
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '=' || line[0] == '-') {
      lines.emplace_back(line, "");
      if (line == std::string(50, '=')) break;
      continue;
    }
    // "{:<40} {:<10}": the label padded to 40 columns, a space, the value padded to 10.
    EXPECT_GE(line.size(), 51u) << line;
    EXPECT_EQ(line.substr(40, 1), " ") << line;
    const size_t label_end = line.find_last_not_of(' ', 39);
    const size_t value_end = line.find_last_not_of(' ');
    lines.emplace_back(line.substr(0, label_end + 1), line.substr(41, value_end - 40));
  }
  return lines;
}

TEST(IntegrationShareGpt, VllmSummaryAgreesWithSummaryJson) {
  // Delays large enough that every statistic printed to two decimals is not zero.
  MockServer mock({"--ttft-ms", "3", "--itl-ms", "0.5", "--tokens-per-chunk", "8"});
  const BenchRun run =
      run_llmperf(concat(sharegpt_args(mock), {"--ignore-eos", "--parallel", "3", "-n", "12",
                                               "--summary-format", "vllm"}));
  const fs::path dir = only_run_dir(run);
  ASSERT_FALSE(dir.empty());
  const json& s = run.summary;
  const json& m = s["metrics"];

  const std::vector<std::pair<std::string, std::string>> expected = {
      {"============ Serving Benchmark Result ============", ""},
      {"Successful requests:", s["requests"]["succeeded"].dump()},
      {"Failed requests:", s["requests"]["failed"].dump()},
      {"Maximum request concurrency:", "3"},
      {"Benchmark duration (s):", two_decimals(s["window_s"])},
      {"Total input tokens:", s["tokens"]["input_total"].dump()},
      {"Total generated tokens:", s["tokens"]["output_total"].dump()},
      {"Request throughput (req/s):", two_decimals(s["qps"])},
      {"Output token throughput (tok/s):", two_decimals(s["output_throughput_tok_s"])},
      {"Peak output token throughput (tok/s):", two_decimals(s["peak_output_throughput_tok_s"])},
      {"Peak concurrent requests:", two_decimals(s["peak_concurrency"])},
      {"Total token throughput (tok/s):", two_decimals(s["total_throughput_tok_s"])},
      {"---------------Time to First Token----------------", ""},
      {"Mean TTFT (ms):", two_decimals(m["ttft_ms"]["mean"])},
      {"Median TTFT (ms):", two_decimals(m["ttft_ms"]["percentiles"]["p50"])},
      {"P99 TTFT (ms):", two_decimals(m["ttft_ms"]["percentiles"]["p99"])},
      {"-----Time per Output Token (excl. 1st token)------", ""},
      {"Mean TPOT (ms):", two_decimals(m["tpot_ms"]["mean"])},
      {"Median TPOT (ms):", two_decimals(m["tpot_ms"]["percentiles"]["p50"])},
      {"P99 TPOT (ms):", two_decimals(m["tpot_ms"]["percentiles"]["p99"])},
      {"---------------Inter-token Latency----------------", ""},
      {"Mean ITL (ms):", two_decimals(m["itl_ms"]["mean"])},
      {"Median ITL (ms):", two_decimals(m["itl_ms"]["percentiles"]["p50"])},
      {"P99 ITL (ms):", two_decimals(m["itl_ms"]["percentiles"]["p99"])},
      {std::string(50, '='), ""},
  };
  EXPECT_EQ(vllm_block(run.process.out), expected) << run.process.out;
  EXPECT_EQ(s["requests"]["succeeded"], 12);
  EXPECT_GT(m["itl_ms"]["mean"].get<double>(), 0.0);

  const json result = json::parse(read_file((dir / "vllm_result.json").string()));
  const std::vector<std::string> head = words(
      "date endpoint_type backend label model_id tokenizer_id num_prompts request_rate "
      "burstiness max_concurrency duration completed failed total_input_tokens "
      "total_output_tokens request_throughput request_goodput output_throughput "
      "total_token_throughput input_lens output_lens ttfts itls latencies start_times "
      "queue_times generated_texts errors max_output_tokens_per_s max_concurrent_requests rtfx");
  const nlohmann::ordered_json ordered =
      nlohmann::ordered_json::parse(read_file((dir / "vllm_result.json").string()));
  std::vector<std::string> keys;
  for (const auto& item : ordered.items()) keys.push_back(item.key());
  ASSERT_GE(keys.size(), head.size());
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.begin() + head.size()), head);
  for (const char* metric : {"ttft", "tpot", "itl", "e2el"}) {
    for (const char* stat : {"mean", "median", "std", "p99"}) {
      EXPECT_TRUE(result.contains(fmt::format("{}_{}_ms", stat, metric))) << stat << metric;
    }
  }

  EXPECT_EQ(result["backend"], "openai-chat");
  EXPECT_EQ(result["model_id"], "mock-model");
  EXPECT_EQ(result["num_prompts"], 12);
  EXPECT_EQ(result["request_rate"], "inf");
  EXPECT_EQ(result["max_concurrency"], 3);
  EXPECT_EQ(result["completed"], s["requests"]["succeeded"]);
  EXPECT_EQ(result["failed"], s["requests"]["failed"]);
  EXPECT_EQ(result["total_input_tokens"], s["tokens"]["input_total"]);
  EXPECT_EQ(result["total_output_tokens"], s["tokens"]["output_total"]);
  EXPECT_DOUBLE_EQ(result["duration"].get<double>(), s["window_s"].get<double>());
  EXPECT_DOUBLE_EQ(result["request_throughput"].get<double>(), s["qps"].get<double>());
  EXPECT_DOUBLE_EQ(result["mean_ttft_ms"].get<double>(), m["ttft_ms"]["mean"].get<double>());
  EXPECT_DOUBLE_EQ(result["p99_itl_ms"].get<double>(),
                   m["itl_ms"]["percentiles"]["p99"].get<double>());

  const std::vector<json> records = read_requests(dir);
  std::vector<json> measured;
  for (const json& r : records) {
    if (!r["warmup"].get<bool>()) measured.push_back(r);
  }
  EXPECT_EQ(measured.size(), 12u);
  ASSERT_EQ(result["ttfts"].size(), measured.size());
  ASSERT_EQ(result["input_lens"].size(), measured.size());
  ASSERT_EQ(result["output_lens"].size(), measured.size());
  for (size_t i = 0; i < measured.size(); ++i) {
    SCOPED_TRACE(measured[i].dump());
    EXPECT_NEAR(result["ttfts"][i].get<double>(), measured[i]["ttft_ms"].get<double>() / 1000.0,
                1e-12);
    EXPECT_EQ(result["input_lens"][i], measured[i]["input_tokens"]);
    EXPECT_EQ(result["output_lens"][i], measured[i]["output_tokens"]);
    EXPECT_EQ(result["errors"][i], "");
  }
}

TEST(IntegrationShareGpt, VllmSeedCommandMapsOneToOne) {
  // vllm bench serve's flags, as a script written for it passes them (plus where and what).
  MockServer mock({});
  const BenchRun run =
      run_llmperf({"--url", mock.chat_url(), "--model", "mock-model", "--dataset-name", "sharegpt",
                   "--dataset-path", kFixture, "--request-rate", "32", "--num-prompts", "20",
                   "--summary-format", "vllm"});
  const fs::path dir = only_run_dir(run);
  ASSERT_FALSE(dir.empty());
  const json& s = run.summary;
  EXPECT_EQ(s["config"]["dataset"], "sharegpt");
  EXPECT_EQ(s["run"]["number"], 20);
  EXPECT_EQ(s["run"]["rate"], 32.0);
  ASSERT_TRUE(s["open_loop"].is_object()) << s.dump();
  EXPECT_EQ(s["open_loop"]["requested_rate"], 32.0) << s["open_loop"].dump();
  EXPECT_EQ(s["requests"]["succeeded"], 20);
  EXPECT_EQ(read_requests(dir).size(), 20u);

  bool rate_line = false;
  for (const auto& [label, value] : vllm_block(run.process.out)) {
    if (label == "Request rate configured (RPS):") rate_line = value == "32.00";
  }
  EXPECT_TRUE(rate_line) << run.process.out;

  const json result = json::parse(read_file((dir / "vllm_result.json").string()));
  EXPECT_EQ(result["request_rate"], 32.0);
  EXPECT_EQ(result["num_prompts"], 20);
  EXPECT_EQ(result["completed"], 20);
}

TEST(IntegrationShareGpt, ConfigFileReproducesTheCommand) {
  const ShareGptFixture fixture;
  MockServer mock({});
  const std::vector<std::string> flags =
      concat({"--url", mock.chat_url(), "--model", "mock-model", "--dataset-path", kFixture},
             words("--dataset-name sharegpt --max-concurrency 3 --num-prompts 12 --seed 7 "
                   "--ignore-eos --sharegpt-max-input-len 100 --summary-format vllm "
                   "--no-test-connection --no-timestamp --sleep-interval 0"));
  const std::string config_dir = make_temp_dir();
  const std::string toml = (fs::path(config_dir) / "bench.toml").string();
  std::ofstream(toml) << "# the command above, as a file\n"
                      << "url = \"" << mock.chat_url() << "\"\n"
                      << "model = \"mock-model\"\n"
                      << "dataset-name = \"sharegpt\"\n"
                      << "dataset-path = \"" << kFixture << "\"\n"
                      << "max-concurrency = [3]\n"
                      << "num-prompts = [12]\n"
                      << "seed = 7\n"
                      << "ignore-eos = true\n"
                      << "sharegpt-max-input-len = 100\n"
                      << "summary-format = \"vllm\"\n"
                      << "no-test-connection = true\n"
                      << "no-timestamp = true\n"
                      << "sleep-interval = 0\n";

  const BenchRun command = run_llmperf(flags);
  const BenchRun file = run_llmperf({"--config", toml});
  const fs::path command_dir = only_run_dir(command);
  const fs::path file_dir = only_run_dir(file);
  ASSERT_FALSE(command_dir.empty());
  ASSERT_FALSE(file_dir.empty());

  // --no-timestamp: <outputs>/<model>/<run>, the same in both.
  EXPECT_EQ(fs::relative(command_dir, command.outputs_dir), "mock-model/parallel_3_number_12");
  EXPECT_EQ(fs::relative(file_dir, file.outputs_dir),
            fs::relative(command_dir, command.outputs_dir));
  json command_config = command.summary["config"];
  json file_config = file.summary["config"];
  command_config.erase("outputs_dir");
  file_config.erase("outputs_dir");
  EXPECT_EQ(file_config, command_config);
  EXPECT_EQ(file_config["sharegpt_max_input_len"], 100);
  EXPECT_FALSE(file_config["probe"].get<bool>());
  EXPECT_EQ(file.summary["workload"]["sharegpt"], command.summary["workload"]["sharegpt"]);
  EXPECT_GE(file.summary["workload"]["sharegpt"]["dropped_long"].get<int64_t>(), 2);
  // The same prompts, in the same order, with the same lengths.
  EXPECT_EQ(fixture.sampled_order(read_requests(file_dir)),
            fixture.sampled_order(read_requests(command_dir)));
  for (const BenchRun* run : {&command, &file}) {
    EXPECT_EQ(vllm_block(run->process.out).size(), 25u) << run->process.out;
    EXPECT_EQ(run->process.err.find("probe:"), std::string::npos) << run->process.err;
    EXPECT_EQ(run->summary["exactness"]["output"]["matched"], 12);
  }
}

}  // namespace
}  // namespace llmperf::testing
