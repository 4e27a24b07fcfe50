// --slots: GPU lists and tokens, white space, {gpus} and GPU ids, and each error named.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "study/slots.h"

namespace llmperf {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_slots(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(Slots, ParsesGpuListsInOrder) {
  const std::vector<Slot> slots = parse_slots("0,1;2,3;4;5");
  ASSERT_EQ(slots.size(), 4u);
  EXPECT_EQ(slots[0].gpus(), "0,1");
  EXPECT_EQ(slots[1].gpus(), "2,3");
  EXPECT_EQ(slots[3].gpus(), "5");
  EXPECT_EQ(slots[1].gpu_ids(), (std::vector<int>{2, 3}));
  EXPECT_EQ(slots_text(slots), "0,1;2,3;4;5");
  EXPECT_EQ(parse_slots(slots_text(slots)), slots);
}

TEST(Slots, TokensAndWhiteSpace) {
  const std::vector<Slot> slots = parse_slots(" a ; b , c ");
  ASSERT_EQ(slots.size(), 2u);
  EXPECT_EQ(slots[0].gpus(), "a");
  EXPECT_EQ(slots[1].gpus(), "b,c");
  EXPECT_FALSE(slots[0].gpu_ids());  // tokens, not GPU indices: the sampler sees every GPU
  const std::vector<Slot> uuids = parse_slots("GPU-8f3a-11;MIG-GPU-8f3a/1/0");
  EXPECT_EQ(uuids[1].gpus(), "MIG-GPU-8f3a/1/0");
  EXPECT_FALSE(parse_slots("1,x")[0].gpu_ids());
  EXPECT_FALSE(parse_slots("-1")[0].gpu_ids());
}

TEST(Slots, ErrorsSayWhatIsWrong) {
  EXPECT_NE(error_of("").find("no slot"), std::string::npos);
  EXPECT_NE(error_of("0;;1").find("slot 1 is empty"), std::string::npos);
  EXPECT_NE(error_of("0,;1").find("slot 0 has an empty item"), std::string::npos);
  EXPECT_EQ(error_of("0;0,1"),
            "--slots '0;0,1': '0' is in slot 0 and slot 1 (each GPU in one slot only: trials in "
            "two slots run at once)");
  EXPECT_NE(error_of("1,1").find("'1' is twice in slot 0"), std::string::npos);
  EXPECT_NE(error_of("0;$(reboot)").find("slot 1: '$(reboot)' has a character"), std::string::npos);
  EXPECT_NE(error_of("a b").find("'a b'"), std::string::npos);
  EXPECT_NE(error_of(std::string(200, 'x')).find("longer than"), std::string::npos);
  std::string many;
  for (size_t i = 0; i <= kMaxSlots; ++i) many += (i ? ";" : "") + std::to_string(i);
  EXPECT_NE(error_of(many).find("more than 256 slots"), std::string::npos);
}

}  // namespace
}  // namespace llmperf
