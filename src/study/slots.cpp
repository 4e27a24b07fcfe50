// --slots (see slots.h).
#include "study/slots.h"

#include <charconv>
#include <map>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.h"

namespace llmperf {
namespace {

constexpr size_t kMaxItemLength = 128;  // a GPU UUID or a MIG device name fits

bool item_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == ':' || c == '/' || c == '-';
}

}  // namespace

std::string Slot::gpus() const { return fmt::format("{}", fmt::join(items, ",")); }

std::optional<std::vector<int>> Slot::gpu_ids() const {
  std::vector<int> ids;
  for (const std::string& item : items) {
    int id = -1;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), id);
    if (error != std::errc() || end != item.data() + item.size() || id < 0) return std::nullopt;
    ids.push_back(id);
  }
  return ids;
}

std::vector<Slot> parse_slots(std::string_view text) {
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("--slots '{}': {}", text, why));
  };
  if (trim(text).empty()) {
    throw fail("no slot (write the GPUs of each concurrent trial, e.g. '0,1;2,3' or '0;1;2;3')");
  }
  std::vector<Slot> slots;
  std::map<std::string, size_t> owner;  // item -> the slot that has it
  for (const std::string_view slot_text : split_text(text, ';')) {
    const size_t index = slots.size();
    if (index == kMaxSlots) throw fail(fmt::format("more than {} slots", kMaxSlots));
    if (trim(slot_text).empty()) {
      throw fail(fmt::format("slot {} is empty (slots are separated by ';', GPUs by ',')", index));
    }
    Slot slot;
    for (const std::string_view raw : split_text(slot_text, ',')) {
      const std::string_view item = trim(raw);
      if (item.empty()) throw fail(fmt::format("slot {} has an empty item", index));
      if (item.size() > kMaxItemLength) {
        throw fail(
            fmt::format("slot {}: an item longer than {} characters", index, kMaxItemLength));
      }
      for (const char c : item) {
        if (!item_char(c)) {
          throw fail(fmt::format(
              "slot {}: '{}' has a character other than letters, digits and _ . : / - (the "
              "slot's text goes into shell commands as {{gpus}})",
              index, item));
        }
      }
      const auto [it, fresh] = owner.emplace(std::string(item), index);
      if (!fresh) {
        throw fail(it->second == index
                       ? fmt::format("'{}' is twice in slot {}", item, index)
                       : fmt::format("'{}' is in slot {} and slot {} (each GPU in one slot only: "
                                     "trials in two slots run at once)",
                                     item, it->second, index));
      }
      slot.items.emplace_back(item);
    }
    slots.push_back(std::move(slot));
  }
  return slots;
}

std::string slots_text(const std::vector<Slot>& slots) {
  std::vector<std::string> parts;
  for (const Slot& slot : slots) parts.push_back(slot.gpus());
  return fmt::format("{}", fmt::join(parts, ";"));
}

}  // namespace llmperf
