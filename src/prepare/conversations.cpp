// Conversations, made per run or read once (see conversations.h).
#include "prepare/conversations.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <random>

#include "core/clock.h"
#include "prepare/preparation.h"
#include "prepare/synthetic_prompts.h"
#include "workload/dataset.h"
#include "workload/datasets/sharegpt.h"

namespace llmperf {

std::vector<SessionScript> make_random_conversations(const PrepareSections& config,
                                                     const RunSpec& run, size_t index,
                                                     const LengthCounter& counter,
                                                     WorkloadInfo& workload) {
  const int64_t count = distinct_prompts(requests_of(config, run));
  std::mt19937_64 rng(run_seed(config.load.seed, index) + 0x5e55);
  std::uniform_int_distribution<int64_t> draw(config.workload.min_turns,
                                              config.workload.max_turns.value_or(5));
  std::vector<int64_t> turns(static_cast<size_t>(count));
  int64_t messages = 0;
  for (int64_t& t : turns) messages += (t = draw(rng));
  const int64_t started = now_ns();
  SyntheticPrompts made;
  {
    PrepareProgress progress(fmt::format("run {}", index + 1));
    made = counter.make(synthetic_spec(config, run, index, messages), std::ref(progress));
  }
  std::vector<SessionScript> sessions(static_cast<size_t>(count));
  size_t next = 0;
  for (size_t i = 0; i < sessions.size(); ++i) {
    for (int64_t t = 0; t < turns[i]; ++t) {
      Prompt& prompt = made.prompts[next++];
      sessions[i].turns.push_back(ScriptTurn{
          std::move(prompt.text), {}, prompt.target_output_tokens, prompt.target_input_tokens});
    }
  }
  record_made(workload, {messages, made.misses, made.fit_counts, started});
  spdlog::info("conversations: {} of {}-{} turns, {} user messages made in {:.2f} s ({})", count,
               config.workload.min_turns, config.workload.max_turns.value_or(5), messages,
               workload.prepare_s, counting_note(workload, counter.exact()));
  return sessions;
}

std::vector<SessionScript> load_conversations(const PrepareSections& config, DatasetStats& dataset,
                                              WorkloadInfo& workload) {
  const int64_t most = distinct_prompts(most_requests_of(config));
  std::ifstream file(config.workload.dataset_path, std::ios::binary);
  if (!file) {
    throw DatasetError(fmt::format("cannot open --dataset-path {}: {}",
                                   config.workload.dataset_path, std::strerror(errno)));
  }
  const size_t max_turns = config.workload.max_turns
                               ? static_cast<size_t>(*config.workload.max_turns)
                               : std::numeric_limits<size_t>::max();
  // Messages to read: a system message, then a user message and an answer per turn.
  const size_t max_messages =
      max_turns == std::numeric_limits<size_t>::max() ? max_turns : 2 * max_turns + 2;
  struct Enough {};
  std::vector<SessionScript> sessions;
  int64_t short_ones = 0;
  try {
    read_sharegpt(
        file, max_messages, 1,
        [&](Conversation&& conversation) {
          SessionScript script = script_from_conversation(conversation, max_turns);
          if (static_cast<int64_t>(script.turns.size()) < config.workload.min_turns) {
            ++short_ones;
            return;
          }
          for (ScriptTurn& turn : script.turns)
            turn.max_tokens = config.workload.sharegpt_output_len;
          sessions.push_back(std::move(script));
          if (static_cast<int64_t>(sessions.size()) >= most) throw Enough{};
        },
        dataset);
  } catch (const Enough&) {
  }
  dataset.skipped_turns += short_ones;
  if (sessions.empty()) {
    throw DatasetError(fmt::format(
        "{}: no conversation with at least {} turn(s) ({} read, {} malformed{}, {} shorter)",
        config.workload.dataset_path, config.workload.min_turns, dataset.records_read,
        dataset.malformed,
        dataset.first_malformed_reason.empty() ? "" : "; first: " + dataset.first_malformed_reason,
        short_ones));
  }
  int64_t turns = 0, recorded = 0;
  for (const SessionScript& script : sessions) {
    turns += static_cast<int64_t>(script.turns.size());
    for (const ScriptTurn& turn : script.turns) recorded += !turn.recorded_answer.empty();
  }
  workload.prompts = turns;
  spdlog::info(
      "conversations: {} from {} ({} turns, {} with a recorded answer; {} read, {} with fewer "
      "than {} turns, {} malformed)",
      sessions.size(), config.workload.dataset_path, turns, recorded, dataset.records_read,
      short_ones, config.workload.min_turns, dataset.malformed);
  if (dataset.malformed > 0) {
    spdlog::warn("conversations: skipped {} malformed items; first: {}", dataset.malformed,
                 dataset.first_malformed_reason);
  }
  if (static_cast<int64_t>(sessions.size()) < most) {
    spdlog::warn(
        "conversations: only {} in the file, fewer than the {} of the longest run: they are "
        "played again in turn",
        sessions.size(), most);
  }
  if (config.workload.history_recorded && recorded == 0) {
    spdlog::warn("--history recorded: the file records no answers; the answers received are used");
  }
  return sessions;
}

}  // namespace llmperf
