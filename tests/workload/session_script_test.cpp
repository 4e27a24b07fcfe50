// Conversations for --multi-turn: the messages each turn sends (live and recorded history) and
// how a file's conversation becomes a script.
#include "workload/replay/session_script.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

using nlohmann::json;

SessionScript three_turns() {
  SessionScript script;
  script.turns = {{"u0", "r0", -1, -1}, {"u1", "", -1, -1}, {"u2", "r2", -1, -1}};
  return script;
}

json messages(const SessionScript& script, size_t turn, const std::vector<std::string>& received,
              bool recorded) {
  return json::parse(turn_messages(script, turn, received, recorded));
}

TEST(TurnMessages, FirstTurnIsItsUserMessageAlone) {
  EXPECT_EQ(messages(three_turns(), 0, {}, false),
            json::parse(R"([{"role":"user","content":"u0"}])"));
}

TEST(TurnMessages, LiveHistoryCarriesTheAnswersReceived) {
  EXPECT_EQ(messages(three_turns(), 2, {"a0", "a1"}, false), json::parse(R"([
      {"role":"user","content":"u0"},{"role":"assistant","content":"a0"},
      {"role":"user","content":"u1"},{"role":"assistant","content":"a1"},
      {"role":"user","content":"u2"}])"));
}

TEST(TurnMessages, RecordedHistoryCarriesTheDatasetsAnswersWhereItHasThem) {
  // Turn 1 recorded no answer: the one received stands in for it.
  EXPECT_EQ(messages(three_turns(), 2, {"a0", "a1"}, true), json::parse(R"([
      {"role":"user","content":"u0"},{"role":"assistant","content":"r0"},
      {"role":"user","content":"u1"},{"role":"assistant","content":"a1"},
      {"role":"user","content":"u2"}])"));
}

TEST(TurnMessages, SystemMessageLeadsAndContentsAreCounted) {
  SessionScript script = three_turns();
  script.system = "sys é";  // 5 code points, 6 bytes
  int64_t chars = 0;
  const json m = json::parse(turn_messages(script, 1, {"answer"}, false, &chars));
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0], json::parse(R"({"role":"system","content":"sys é"})"));
  EXPECT_EQ(chars, 5 + 2 + 6 + 2);
}

TEST(TurnMessages, ContentIsEscapedAsJson) {
  SessionScript script;
  script.turns = {{"say \"hi\"\n\\", "", -1, -1}};
  EXPECT_EQ(messages(script, 0, {}, false)[0]["content"], "say \"hi\"\n\\");
}

Conversation conversation(std::vector<ShareGptTurn> turns) { return Conversation{1, turns}; }

TEST(ScriptFromConversation, UserMessagesStartTurnsAndAnswersAreRecorded) {
  const SessionScript s = script_from_conversation(conversation({{"system", "be brief"},
                                                                 {"human", "q1"},
                                                                 {"gpt", "a1"},
                                                                 {"user", "q2"},
                                                                 {"assistant", "a2"},
                                                                 {"human", "q3"}}),
                                                   100);
  EXPECT_EQ(s.system, "be brief");
  ASSERT_EQ(s.turns.size(), 3u);
  EXPECT_EQ(s.turns[0].user, "q1");
  EXPECT_EQ(s.turns[0].recorded_answer, "a1");
  EXPECT_EQ(s.turns[1].recorded_answer, "a2");
  EXPECT_EQ(s.turns[2].user, "q3");
  EXPECT_EQ(s.turns[2].recorded_answer, "");
}

TEST(ScriptFromConversation, JoinsRepeatsDropsStrayMessagesAndCutsAtMaxTurns) {
  const SessionScript s =
      script_from_conversation(conversation({{"gpt", "greeting before any question"},
                                             {"human", "q1"},
                                             {"human", "more of q1"},
                                             {"tool", "ignored"},
                                             {"gpt", "a1"},
                                             {"gpt", "more of a1"},
                                             {"system", "not first: ignored"},
                                             {"human", "q2"},
                                             {"human", "q3"}}),
                               1);
  EXPECT_EQ(s.system, "");
  ASSERT_EQ(s.turns.size(), 1u);
  EXPECT_EQ(s.turns[0].user, "q1\n\nmore of q1");
  EXPECT_EQ(s.turns[0].recorded_answer, "a1\n\nmore of a1");
}

}  // namespace
}  // namespace llmperf
