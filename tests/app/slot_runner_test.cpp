// Jobs over slots (app/tune/slot_runner.h): every job runs once, never more at once than there are
// slots, never two at once in one slot, really side by side, none started after stop, and a job's
// exception comes back once the others have ended. Run under ThreadSanitizer (the "threads" label).
#include "app/tune/slot_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace llmperf {
namespace {

TEST(SlotRunner, EachJobOnceAtMostOnePerSlotAndSideBySide) {
  constexpr size_t kSlots = 3;
  constexpr size_t kJobs = 12;
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<int> runs(kJobs, 0);
  std::vector<bool> slot_busy(kSlots, false);
  size_t running = 0;
  size_t most = 0;
  bool shared_slot = false;
  run_in_slots(
      kSlots, kJobs,
      [&](size_t job, size_t slot) {
        std::unique_lock lock(mutex);
        ++runs[job];
        if (slot_busy[slot]) shared_slot = true;
        slot_busy[slot] = true;
        most = std::max(most, ++running);
        changed.notify_all();
        // The first jobs wait (bounded) until every slot is busy: they overlap by construction.
        if (job < kSlots) {
          changed.wait_for(lock, std::chrono::seconds(10), [&] { return most == kSlots; });
        }
        slot_busy[slot] = false;
        --running;
      },
      [] { return false; });
  EXPECT_EQ(runs, std::vector<int>(kJobs, 1));
  EXPECT_EQ(most, kSlots);
  EXPECT_FALSE(shared_slot);
}

TEST(SlotRunner, OneSlotRunsInOrderOnTheCallingThread) {
  std::vector<size_t> order;
  const std::thread::id caller = std::this_thread::get_id();
  run_in_slots(
      1, 4,
      [&](size_t job, size_t slot) {
        EXPECT_EQ(slot, 0U);
        EXPECT_EQ(std::this_thread::get_id(), caller);
        order.push_back(job);
      },
      [] { return false; });
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3}));
}

TEST(SlotRunner, NoJobStartsAfterStop) {
  std::atomic<int> started{0};
  std::atomic<bool> stop{false};
  run_in_slots(
      2, 100,
      [&](size_t, size_t) {
        if (++started >= 4) stop = true;
      },
      [&] { return stop.load(); });
  EXPECT_GE(started.load(), 4);
  EXPECT_LE(started.load(), 5);  // the other slot may have taken one before the flag was set
}

TEST(SlotRunner, AJobsExceptionComesBackAfterTheOthersEnd) {
  std::atomic<int> ended{0};
  EXPECT_THROW(run_in_slots(
                   2, 10,
                   [&](size_t job, size_t) {
                     if (job == 1) throw std::runtime_error("job 1");
                     ++ended;
                   },
                   [] { return false; }),
               std::runtime_error);
  EXPECT_LT(ended.load(), 10);
}

}  // namespace
}  // namespace llmperf
