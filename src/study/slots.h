// `llmperf tune --slots`: what each of the trials that run side by side gets. Its grammar:
//
//   slots := slot (";" slot)*           e.g. "0,1;2,3;4;5" (four slots), "a;b"
//   slot  := item ("," item)*           the slot's GPUs, or any tokens that stand for them
//   item  := [A-Za-z0-9_.:/-]+          white space around an item is ignored
//
// `{gpus}` in a template is the slot's items joined by ',' (`CUDA_VISIBLE_DEVICES={gpus}`) and
// `{slot}` its index from 0. An item may appear in one slot only: two trials running at once
// would otherwise share a GPU. Items are restricted to characters that need no shell quoting,
// since `{gpus}` goes into `sh -c` command lines as it is. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmperf {

// The most slots a study may have: more than any machine's GPUs.
inline constexpr size_t kMaxSlots = 256;

// One slot: what one of the concurrent trials gets.
struct Slot {
  std::vector<std::string> items;  // in the order given: "0", "1" or "a"
  std::string gpus() const;        // {gpus}: the items joined by ','
  // The items as GPU indices (nvidia-smi's), when every item is a non-negative integer; else
  // none (the slot's tokens stand for something else, GPU UUIDs for example).
  std::optional<std::vector<int>> gpu_ids() const;
  bool operator==(const Slot&) const = default;
};

// Parses --slots. Throws std::invalid_argument naming --slots and what is wrong, e.g.
// "--slots '0;0,1': '0' is in slot 0 and slot 1 (each GPU in one slot only)".
std::vector<Slot> parse_slots(std::string_view text);

// The slots' text as parse_slots reads it back: "0,1;2,3".
std::string slots_text(const std::vector<Slot>& slots);

}  // namespace llmperf
