// Conversations for --multi-turn: the script of each session (its user messages, and the answers a
// dataset recorded for them), and the chat messages each turn sends. A session's turns go out one
// after another on one slot; turn k carries the whole history: the system message (if any), every
// earlier user message with the answer to it, then turn k's user message. The answers are the ones
// received during the run (live, the default), or the dataset's recorded ones (--history recorded).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workload/datasets/sharegpt.h"

namespace llmperf {

struct ScriptTurn {
  std::string user;             // the user message
  std::string recorded_answer;  // the dataset's answer to it ("" where it has none)
  int64_t max_tokens = -1;      // the output length asked of this turn; -1: the config's
  // Tokens the user message was built to count on its own, as a single-message prompt (chat
  // template included); -1 where it was not measured.
  int64_t target_tokens = -1;
};

struct SessionScript {
  std::string system;  // a leading system message ("" for none)
  std::vector<ScriptTurn> turns;
};

// The chat messages of turn `turn` (a JSON array): system, then each earlier turn's user message
// and answer, then this turn's user message. Earlier answers come from `received` (answers[k] for
// turn k) unless `recorded`, where the script's recorded answers are used (falling back to the
// received one where the script has none). Requires turn < script.turns.size(). With `chars`,
// stores the Unicode code points of all the messages' contents there.
std::string turn_messages(const SessionScript& script, size_t turn,
                          const std::vector<std::string>& received, bool recorded,
                          int64_t* chars = nullptr);

// A conversation read from a ShareGPT or chat-format file as a script: a system message first is
// the system prompt; each user message ("human", "user") starts a turn; the assistant message after
// it ("gpt", "assistant", "chatgpt", "bard", "model") is its recorded answer; consecutive messages
// of one role are joined with a blank line; assistant messages before the first user message and
// other roles are dropped. At most `max_turns` turns are kept.
SessionScript script_from_conversation(const Conversation& conversation, size_t max_turns);

}  // namespace llmperf
