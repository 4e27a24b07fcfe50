// Conversations sent turn by turn (--multi-turn): random_multi_turn's, made for each run with
// fresh text, reproducible from --seed; or a file's (--dataset conversations, or sharegpt with
// --multi-turn), read once for every run.
#pragma once

#include <cstddef>
#include <vector>

#include "core/config/prepare_sections.h"
#include "core/workload_info.h"
#include "prepare/length_counter.h"
#include "workload/replay/session_script.h"

namespace llmperf {

// --dataset random_multi_turn: conversations of [--min-turns, --max-turns] turns (drawn per
// conversation), each user message a synthetic prompt of run `index`'s input length. Records them
// in `workload` and logs them. Throws TokenizerError.
std::vector<SessionScript> make_random_conversations(const PrepareSections& config,
                                                     const RunSpec& run, size_t index,
                                                     const LengthCounter& counter,
                                                     WorkloadInfo& workload);

// The first conversations of --dataset-path with at least --min-turns turns, cut to --max-turns
// (as many as the longest run sends, at most kMaxSyntheticPrompts). Fills `dataset` and
// workload.prompts (the turns); logs what it read. Throws DatasetError when the file cannot be
// read or holds no conversation long enough.
std::vector<SessionScript> load_conversations(const PrepareSections& config, DatasetStats& dataset,
                                              WorkloadInfo& workload);

}  // namespace llmperf
