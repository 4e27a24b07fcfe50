// End-to-end tests of conversations (--multi-turn, issue 14): the real llmperf binary against
// llmperf-mock, whose tokenizer (mock/tokenizer.h, linked here) counts usage.prompt_tokens, so the
// history each turn carries can be checked token for token, and whose prefix cache makes a turn
// that repeats its history measurably faster than the first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llmperf_run.h"
#include "test_process.h"
#include "tokenizer.h"

namespace llmperf::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int64_t kNsPerMs = 1'000'000;

std::vector<std::string> chat_args(const MockServer& mock) {
  return {"--url", mock.chat_url(), "--model", "mock-model", "--sleep-interval", "0"};
}

// The records of each conversation, in turn order.
std::map<int64_t, std::vector<json>> by_session(const std::vector<json>& records) {
  std::map<int64_t, std::vector<json>> sessions;
  for (const json& r : records) sessions[r.at("session_id").get<int64_t>()].push_back(r);
  for (auto& [id, turns] : sessions) {
    std::sort(turns.begin(), turns.end(),
              [](const json& a, const json& b) { return a["turn"] < b["turn"]; });
  }
  return sessions;
}

// A JSON lines file of conversations in the test's temp dir.
std::string write_conversations(const std::vector<json>& lines, const std::string& extra = "") {
  const std::string path = make_temp_dir() + "/conversations.jsonl";
  std::ofstream out(path);
  for (const json& line : lines) out << line.dump() << "\n";
  out << extra;
  return path;
}

std::string words(int count, const std::string& seed) {
  std::string text;
  for (int i = 0; i < count; ++i) text += seed + std::to_string(i) + " ";
  return text;
}

TEST(IntegrationSessions, RandomConversationsCarryTheirGrowingHistoryTurnByTurn) {
  MockServer mock({"--ttft-ms", "2", "--itl-ms", "1", "--honour-max-tokens"});
  const BenchRun run =
      run_llmperf(concat(chat_args(mock), {"--dataset", "random_multi_turn", "--input-tokens", "60",
                                           "--output-tokens", "8", "--min-turns", "3",
                                           "--max-turns", "3", "--parallel", "3", "-n", "6"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> records = read_requests(run.run_dirs.front());
  ASSERT_EQ(records.size(), 18u);
  std::vector<int64_t> ids;
  for (const json& r : records) ids.push_back(r["id"].get<int64_t>());
  std::sort(ids.begin(), ids.end());
  for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(ids[i], static_cast<int64_t>(i));

  const auto sessions = by_session(records);
  ASSERT_EQ(sessions.size(), 6u);
  std::optional<int64_t> growth;  // tokens each later turn adds: answer + new message + template
  for (const auto& [id, turns] : sessions) {
    ASSERT_EQ(turns.size(), 3u) << id;
    for (size_t k = 0; k < turns.size(); ++k) {
      const json& r = turns[k];
      ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
      EXPECT_EQ(r["turn"], static_cast<int64_t>(k));
      EXPECT_EQ(r["session_turns"], 3);
      EXPECT_EQ(r["output_tokens"], 8);
      if (k == 0) {
        EXPECT_EQ(r["input_tokens"], 60) << r.dump();  // token-exact, as random prompts are
        EXPECT_EQ(r["target_input_tokens"], 60);
        continue;
      }
      const json& before = turns[k - 1];
      EXPECT_EQ(r["worker"], before["worker"]);
      EXPECT_GE(r["sent_ns"].get<int64_t>(), before["end_ns"].get<int64_t>());  // one after another
      EXPECT_TRUE(r["target_input_tokens"].is_null());  // history makes it unknown in advance
      const int64_t added =
          r["input_tokens"].get<int64_t>() - before["input_tokens"].get<int64_t>();
      if (!growth) growth = added;
      EXPECT_EQ(added, *growth) << r.dump();
    }
  }
  ASSERT_TRUE(growth.has_value());
  // The answer (8 tokens) and the new message (60 - 11 tokens of content) at the least.
  EXPECT_GE(*growth, 8 + 49);

  const json& c = run.summary["conversations"];
  ASSERT_TRUE(c.is_object()) << run.summary.dump(1).substr(0, 2000);
  EXPECT_EQ(c["conversations"], 6);
  EXPECT_EQ(c["completed"], 6);
  EXPECT_EQ(c["failed"], 0);
  EXPECT_EQ(c["turns_planned"], 18);
  ASSERT_EQ(c["by_turn"].size(), 3u);
  EXPECT_EQ(c["by_turn"][2]["requests"], 6);
  EXPECT_EQ(c["by_turn"][1]["input_tokens"]["mean"], 60.0 + *growth);
  EXPECT_EQ(c["duration_s"]["count"], 6);
  EXPECT_EQ(run.summary["exactness"]["input"]["matched"], 6) << run.summary["exactness"].dump();
  EXPECT_NE(run.process.out.find("Conversations: 6 (6 completed"), std::string::npos)
      << run.process.out;
  const std::string html = read_file((run.run_dirs.front() / "report.html").string());
  EXPECT_NE(html.find("<h2>Conversations</h2>"), std::string::npos);
  EXPECT_NE(html.find("TTFT by turn of the conversation"), std::string::npos);
  EXPECT_NE(html.find("6 conversations"), std::string::npos);
}

TEST(IntegrationSessions, RecordedHistoryIsSentAsRecordedAndCountedExactly) {
  // Both file shapes, a system message, a conversation too short for --min-turns 2, and a
  // malformed line.
  const std::vector<json> lines = {
      {{"messages",
        {{{"role", "system"}, {"content", "You answer briefly."}},
         {{"role", "user"}, {"content", "What is a prefix cache?"}},
         {{"role", "assistant"}, {"content", "Stored attention for a prompt's start."}},
         {{"role", "user"}, {"content", "Why does it help a chat?"}},
         {{"role", "assistant"}, {"content", "Each turn repeats the history."}},
         {{"role", "user"}, {"content", "Thanks!"}}}}},
      {{"conversations",
        {{{"from", "human"}, {"value", "Name a prime."}},
         {{"from", "gpt"}, {"value", "Seven."}},
         {{"from", "human"}, {"value", "Another?"}},
         {{"from", "gpt"}, {"value", "Eleven."}}}}},
      {{"messages", {{{"role", "user"}, {"content", "Only one turn."}}}}},
  };
  const std::string path = write_conversations(lines, "{not json\n");
  MockServer mock({"--ttft-ms", "1", "--itl-ms", "1"});
  const BenchRun run = run_llmperf(
      concat(chat_args(mock), {"--dataset", "conversations", "--dataset-path", path, "--history",
                               "recorded", "--min-turns", "2", "--parallel", "2", "-n", "4"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const std::vector<json> records = read_requests(run.run_dirs.front());
  ASSERT_EQ(records.size(), 10u);  // 3 + 2 turns, played twice
  // The messages each turn of each kept conversation must have sent.
  const std::vector<std::vector<json>> expected_messages = [&] {
    std::vector<std::vector<json>> all;
    std::vector<json> first;
    json history = json::array();
    history.push_back(lines[0]["messages"][0]);
    for (size_t k = 1; k < 6; k += 2) {
      history.push_back(lines[0]["messages"][k]);
      first.push_back(history);
      if (k + 1 < 6) history.push_back(lines[0]["messages"][k + 1]);
    }
    all.push_back(first);
    const json& turns = lines[1]["conversations"];
    json second = json::array({{{"role", "user"}, {"content", turns[0]["value"]}}});
    std::vector<json> two = {second};
    second.push_back({{"role", "assistant"}, {"content", turns[1]["value"]}});
    second.push_back({{"role", "user"}, {"content", turns[2]["value"]}});
    two.push_back(second);
    all.push_back(two);
    return all;
  }();
  for (const json& r : records) {
    ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
    const auto script = static_cast<size_t>(r["session_id"].get<int64_t>() % 2);
    const auto turn = r["turn"].get<size_t>();
    ASSERT_LT(turn, expected_messages[script].size()) << r.dump();
    const std::optional<int64_t> tokens = mock::chat_prompt_tokens(expected_messages[script][turn]);
    ASSERT_TRUE(tokens.has_value());
    EXPECT_EQ(r["input_tokens"], *tokens) << r.dump();
  }
  EXPECT_EQ(run.summary["dataset"]["malformed"], 1) << run.summary["dataset"].dump();
  EXPECT_EQ(run.summary["conversations"]["completed"], 4);
}

TEST(IntegrationSessions, ShareGptConversationsAreSentWithAllTheirTurns) {
  // The fixture's first 30 conversations have 2 turns (human, gpt, human, gpt) each; later items
  // are too short for --min-turns 2 or malformed, so -n 30 takes exactly those 30.
  const std::string path = LLMPERF_FIXTURES_DIR "/sharegpt/sample.json";
  std::ifstream in(path);
  const json file = json::parse(in);
  MockServer mock({"--ttft-ms", "1", "--itl-ms", "1"});
  const BenchRun run = run_llmperf(
      concat(chat_args(mock), {"--dataset", "sharegpt", "--multi-turn", "--dataset-path", path,
                               "--history", "recorded", "--parallel", "4", "-n", "30"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const auto sessions = by_session(read_requests(run.run_dirs.front()));
  ASSERT_EQ(sessions.size(), 30u);
  for (const auto& [id, turns] : sessions) {
    ASSERT_EQ(turns.size(), 2u) << id;
    const json& c = file[static_cast<size_t>(id)]["conversations"];
    const json first = json::array({{{"role", "user"}, {"content", c[0]["value"]}}});
    json second = first;
    second.push_back({{"role", "assistant"}, {"content", c[1]["value"]}});
    second.push_back({{"role", "user"}, {"content", c[2]["value"]}});
    EXPECT_EQ(turns[0]["input_tokens"], *mock::chat_prompt_tokens(first)) << turns[0].dump();
    EXPECT_EQ(turns[1]["input_tokens"], *mock::chat_prompt_tokens(second)) << turns[1].dump();
  }
}

TEST(IntegrationSessions, LaterTurnsFindTheirHistoryInThePrefixCache) {
  // The mock prefills at 0.2 ms per token its cache lacks: a first turn of about 1,200 new tokens
  // waits some 240 ms; a later turn adds a short question to a history it has seen, so it waits
  // for a few dozen tokens. (The start-up probe sends a neutral prompt, not a first turn.)
  std::vector<json> lines;
  for (const char* seed : {"alpha", "beta"}) {
    lines.push_back({{"messages",
                      {{{"role", "user"}, {"content", words(500, seed)}},
                       {{"role", "assistant"}, {"content", "Noted."}},
                       {{"role", "user"}, {"content", "Summarise it."}},
                       {{"role", "assistant"}, {"content", "Words and numbers."}},
                       {{"role", "user"}, {"content", "Shorter?"}}}}});
  }
  const std::string path = write_conversations(lines);
  MockServer mock({"--ttft-ms", "1", "--itl-ms", "1", "--output-tokens", "4",
                   "--prefix-cache-tokens", "1000000", "--prefill-us-per-token", "200"});
  const BenchRun run =
      run_llmperf(concat(chat_args(mock), {"--dataset", "conversations", "--dataset-path", path,
                                           "--history", "recorded", "--parallel", "2", "-n", "2"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const json& turns = run.summary["conversations"]["by_turn"];
  ASSERT_EQ(turns.size(), 3u) << run.summary["conversations"].dump(1);
  const double first = turns[0]["ttft_ms"]["mean"].get<double>();
  EXPECT_GT(turns[0]["input_tokens"]["mean"].get<double>(), 1000);
  EXPECT_GT(first, 200) << turns.dump(1);
  for (size_t k = 1; k < 3; ++k) {
    EXPECT_LT(turns[k]["ttft_ms"]["mean"].get<double>(), first - 150) << turns.dump(1);
    EXPECT_GT(turns[k]["cached_share"].get<double>(), 0.9) << turns.dump(1);
  }
  EXPECT_LT(turns[0]["cached_share"].get<double>(), 0.05);
}

TEST(IntegrationSessions, AFailedTurnEndsItsConversation) {
  MockServer mock({"--ttft-ms", "1", "--itl-ms", "1", "--fault-http-rate", "0.25", "--seed", "3"});
  const BenchRun run =
      run_llmperf(concat(chat_args(mock), {"--dataset", "random_multi_turn", "--input-tokens", "30",
                                           "--output-tokens", "4", "--min-turns", "4",
                                           "--max-turns", "4", "--parallel", "3", "-n", "12"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const auto sessions = by_session(read_requests(run.run_dirs.front()));
  ASSERT_EQ(sessions.size(), 12u);
  int64_t failed = 0, completed = 0;
  for (const auto& [id, turns] : sessions) {
    for (size_t k = 0; k < turns.size(); ++k) {
      EXPECT_EQ(turns[k]["turn"], static_cast<int64_t>(k)) << id;
      const bool last = k + 1 == turns.size();
      if (!turns[k]["ok"].get<bool>()) {
        EXPECT_TRUE(last) << "a turn was sent after a failed one: " << turns[k].dump();
        EXPECT_EQ(turns[k]["error_kind"], "http_500");
      }
    }
    if (!turns.back()["ok"].get<bool>()) {
      ++failed;
    } else {
      EXPECT_EQ(turns.size(), 4u) << id;
      ++completed;
    }
  }
  ASSERT_GT(failed, 0) << "the mock injected no failure";
  const json& c = run.summary["conversations"];
  EXPECT_EQ(c["failed"], failed);
  EXPECT_EQ(c["completed"], completed);
  EXPECT_EQ(c["cut"], 0);
}

TEST(IntegrationSessions, ThinkTimeSeparatesATurnFromTheAnswerBefore) {
  MockServer mock({"--ttft-ms", "1", "--itl-ms", "1"});
  const BenchRun run = run_llmperf(
      concat(chat_args(mock), {"--dataset", "random_multi_turn", "--input-tokens", "30",
                               "--output-tokens", "4", "--min-turns", "3", "--max-turns", "3",
                               "--turn-delay", "0.05", "--parallel", "2", "-n", "2"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  for (const auto& [id, turns] : by_session(read_requests(run.run_dirs.front()))) {
    ASSERT_EQ(turns.size(), 3u);
    for (size_t k = 1; k < turns.size(); ++k) {
      const int64_t end_before = turns[k - 1]["end_ns"].get<int64_t>();
      // The turn was due 50 ms after the answer before it was complete, and sent no earlier.
      EXPECT_GE(turns[k]["planned_ns"].get<int64_t>() - end_before, 50 * kNsPerMs);
      EXPECT_GE(turns[k]["sent_ns"], turns[k]["planned_ns"]);
    }
  }
}

}  // namespace
}  // namespace llmperf::testing
