// libFuzzer target: `llmperf tune --slots` (study/slots.h) comes from users and from study.json,
// so no input may crash its parser: it throws std::invalid_argument or succeeds, and nothing else
// escapes. Checked: a parse has 1 to kMaxSlots slots, none empty, no item in two places, every
// item free of characters a shell would read; its text parses back to the same slots.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "study/slots.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace llmperf;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<Slot> slots;
  try {
    slots = parse_slots(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (slots.empty() || slots.size() > kMaxSlots) std::abort();
  std::set<std::string> seen;
  for (const Slot& slot : slots) {
    if (slot.items.empty()) std::abort();
    for (const std::string& item : slot.items) {
      if (item.empty() || !seen.insert(item).second) std::abort();
      if (item.find_first_of(" \t;,'\"$`\\(){}<>|&*?!#~\n") != std::string::npos) std::abort();
    }
    if (const auto ids = slot.gpu_ids(); ids && ids->size() != slot.items.size()) std::abort();
  }
  if (parse_slots(slots_text(slots)) != slots) std::abort();
  return 0;
}
