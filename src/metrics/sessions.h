// Conversations (--multi-turn): statistics by turn index, and by conversation. A conversation is
// the run's turns that share a session_id; its turns are sent one after another on one slot, and a
// failed turn ends it. Built from the records like every other statistic.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/record.h"
#include "metrics/stats/stats.h"

namespace llmperf {

// The measured requests that were turn `turn` of their conversation.
struct TurnStats {
  int32_t turn = 0;  // 0-based
  int64_t requests = 0;
  int64_t failed = 0;
  Distribution ttft_ns;       // successful streamed turns
  Distribution input_tokens;  // successful turns: usage.prompt_tokens (history + new message)
  // Where the server reports usage.prompt_tokens_details.cached_tokens: the prompt tokens of the
  // successful turns that carried it, and how many of those it found in its prefix cache.
  int64_t cached_reported = 0;  // turns that carried cached_tokens
  int64_t cached_tokens = 0;
  int64_t cached_of_input = 0;  // their input tokens
  // cached_tokens / cached_of_input; -1 when no turn carried it.
  double cached_share() const {
    return cached_of_input > 0 ? static_cast<double>(cached_tokens) / cached_of_input : -1;
  }
};

struct SessionSummary {
  int64_t conversations = 0;  // measured conversations that sent at least one turn
  int64_t completed = 0;      // every planned turn succeeded
  int64_t failed = 0;         // ended by a failed turn
  int64_t cut = 0;            // stopped early without a failure (interrupt or --duration)
  int64_t turns_planned = 0;  // over the measured conversations
  Distribution turns_done;    // successful turns per conversation
  // First turn's send to the last turn's end, of the completed conversations (think time
  // included).
  Distribution duration_ns;
  std::vector<TurnStats> turns;  // by turn index
  bool empty() const { return conversations == 0; }
};

// Folds the measured records of a multi-turn run (records with session_id >= 0, warm-up excluded
// by the caller) into a SessionSummary.
class SessionTally {
 public:
  void add(const RequestRecord& record);
  SessionSummary finish(const std::vector<double>& percentiles);

 private:
  struct Conversation {
    int64_t first_sent_ns = -1;
    int64_t last_end_ns = -1;
    int32_t planned = 0;
    int32_t succeeded = 0;
    bool failed = false;
  };
  struct Turn {
    int64_t requests = 0;
    int64_t failed = 0;
    std::vector<double> ttft_ns;
    std::vector<double> input_tokens;
    int64_t cached_reported = 0;
    int64_t cached_tokens = 0;
    int64_t cached_of_input = 0;
  };
  std::unordered_map<int64_t, Conversation> conversations_;
  std::vector<Turn> turns_;
};

}  // namespace llmperf
