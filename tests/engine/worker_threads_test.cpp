// --threads auto: worker threads from the concurrency and the usable cores.
#include "engine/worker_threads.h"

#include <gtest/gtest.h>

namespace llmperf {
namespace {

TEST(WorkerThreads, AutoIsOnePerFiveHundredStreamsWithinTheCores) {
  EXPECT_EQ(choose_worker_threads(0, 1, 8, false).threads, 1);
  EXPECT_EQ(choose_worker_threads(0, 500, 8, false).threads, 1);
  EXPECT_EQ(choose_worker_threads(0, 501, 8, false).threads, 2);
  EXPECT_EQ(choose_worker_threads(0, 2000, 8, false).threads, 4);
  EXPECT_EQ(choose_worker_threads(0, 10000, 8, false).threads, 8);
  // A server on this machine keeps a core.
  const WorkerThreads local = choose_worker_threads(0, 10000, 8, true);
  EXPECT_EQ(local.threads, 7);
  EXPECT_NE(local.reason.find("capped at 7 of 8 usable cores"), std::string::npos) << local.reason;
  EXPECT_NE(local.reason.find("left to the server"), std::string::npos) << local.reason;
  EXPECT_EQ(choose_worker_threads(0, 1000, 1, true).threads, 1);  // never none
  EXPECT_EQ(choose_worker_threads(0, 100, 2, true).reason, "auto: 100 streams / 500 per worker");
}

TEST(WorkerThreads, AGivenNumberIsKeptUpToTheConcurrency) {
  EXPECT_EQ(choose_worker_threads(4, 100, 2, true).threads, 4);
  EXPECT_EQ(choose_worker_threads(4, 100, 2, true).reason, "--threads 4");
  const WorkerThreads capped = choose_worker_threads(4, 2, 8, false);
  EXPECT_EQ(capped.threads, 2);
  EXPECT_EQ(capped.reason, "--threads 4, capped at --parallel 2");
}

TEST(WorkerThreads, LoopbackUrls) {
  EXPECT_TRUE(is_loopback_url("http://127.0.0.1:8000/v1/chat/completions"));
  EXPECT_TRUE(is_loopback_url("http://localhost/v1"));
  EXPECT_TRUE(is_loopback_url("https://[::1]:9/x"));
  EXPECT_TRUE(is_loopback_url("http://user:pw@127.1.2.3:80/"));
  EXPECT_FALSE(is_loopback_url("http://10.0.0.7:8000/v1"));
  EXPECT_FALSE(is_loopback_url("https://api.example.com/v1"));
  EXPECT_FALSE(is_loopback_url("http://127.example.com/v1"));
  EXPECT_GE(usable_cores(), 1);
}

}  // namespace
}  // namespace llmperf
