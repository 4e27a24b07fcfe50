// The calibration comparison (metrics/calibration.h) on a hand-made event log and records whose
// times make the expected errors obvious: the server writes chunks 100, 110 and 120 ms after it
// received the request; the client stamps them 100.2, 110.5 and 120.3 ms after sending it.
#include "metrics/calibration.h"
#include "test_units.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

namespace llmperf {
namespace {

constexpr int64_t kUs = 1'000;
constexpr int64_t kAnchor = 5'000 * kMs;  // records count from here (as in requests.jsonl)
constexpr int64_t kRecv = 7'000 * kMs;    // the server received request 7 (CLOCK_MONOTONIC)

ServerEvents log_of(const std::string& text) {
  std::istringstream in(text);
  return parse_event_log(in);
}

std::string hand_log() {
  return "start_profile 1\n"
         "recv 7 " +
         std::to_string(kRecv) + "\n" + "evt 7 0 " + std::to_string(kRecv + 100 * kMs) + "\n" +
         "evt 7 1 " + std::to_string(kRecv + 110 * kMs) + "\n" + "evt 7 2 " +
         std::to_string(kRecv + 120 * kMs) + "\n";
}

// Sent when the server received it; chunks stamped 100.2, 110.5 and 120.3 ms later.
RequestRecord hand_record() {
  RequestRecord r;
  r.response_id = "chatcmpl-7";
  r.sent_ns = kRecv - kAnchor;
  for (const int64_t offset :
       {100 * kMs + 200 * kUs, 110 * kMs + 500 * kUs, 120 * kMs + 300 * kUs}) {
    r.chunk_ns.push_back(r.sent_ns + offset);
  }
  r.first_content_ns = r.chunk_ns.front();
  return r;
}

TEST(CalibrationTest, ParsesEventLog) {
  const ServerEvents events = log_of(hand_log());
  ASSERT_EQ(events.received_ns.at(7), kRecv);
  ASSERT_EQ(events.write_ns.at(7).size(), 3u);
  EXPECT_EQ(events.write_ns.at(7)[2], kRecv + 120 * kMs);
  EXPECT_THROW(log_of("evt 7 x 12\n"), std::runtime_error);
}

TEST(CalibrationTest, MockSequenceFromResponseId) {
  EXPECT_EQ(mock_sequence("chatcmpl-42"), 42);
  EXPECT_EQ(mock_sequence("chatcmpl-"), -1);
  EXPECT_EQ(mock_sequence("chatcmpl-4x"), -1);
  EXPECT_EQ(mock_sequence("resp-42"), -1);
}

TEST(CalibrationTest, ComparesClientStampsWithServerWrites) {
  RequestRecord failed = hand_record();
  failed.error = ErrorKind::kStreamTruncated;  // ignored
  RequestRecord stranger = hand_record();
  stranger.response_id = "chatcmpl-99";  // not in the log
  RequestRecord warmup = hand_record();
  warmup.warmup = true;  // opened a connection: left out
  const CalibrationErrors e =
      compare_with_server({hand_record(), failed, stranger, warmup}, log_of(hand_log()), kAnchor);

  EXPECT_EQ(e.requests_matched, 1);
  EXPECT_EQ(e.requests_unmatched, 1);
  EXPECT_EQ(e.events_matched, 3);
  EXPECT_EQ(e.events_unmatched, 3);
  // TTFT: 100.2 ms (client) - 100 ms (server).
  ASSERT_EQ(e.ttft_error_ns.count, 1u);
  EXPECT_DOUBLE_EQ(e.ttft_error_ns.percentiles[0], 200.0 * kUs);
  EXPECT_DOUBLE_EQ(e.server_ttft_ns.percentiles[0], 100.0 * kMs);
  // ITL: gaps 10.3 and 9.8 ms against 10 and 10: errors +0.3 and -0.2 ms; p50 0.05, p99 0.295.
  ASSERT_EQ(e.itl_error_ns.count, 2u);
  EXPECT_DOUBLE_EQ(e.itl_error_ns.min, -200.0 * kUs);
  EXPECT_DOUBLE_EQ(e.itl_error_ns.max, 300.0 * kUs);
  EXPECT_NEAR(e.itl_error_ns.percentiles[0], 50.0 * kUs, 1e-6);
  EXPECT_NEAR(e.itl_error_ns.percentiles[1], 295.0 * kUs, 1e-6);
  EXPECT_DOUBLE_EQ(e.server_itl_ns.percentiles[0], 10.0 * kMs);
  // Stamp delay: 0.2, 0.5 and 0.3 ms; p50 0.3, p99 0.3 + 0.98 x 0.2 = 0.496.
  EXPECT_NEAR(e.stamp_delay_ns.percentiles[0], 300.0 * kUs, 1e-6);
  EXPECT_NEAR(e.stamp_delay_ns.percentiles[1], 496.0 * kUs, 1e-6);
}

TEST(CalibrationTest, MissingServerWriteIsUnmatchedAndBreaksItsGaps) {
  const ServerEvents events =
      log_of("recv 7 " + std::to_string(kRecv) + "\nevt 7 0 " + std::to_string(kRecv + 100 * kMs) +
             "\nevt 7 2 " + std::to_string(kRecv + 120 * kMs) + "\n");
  const CalibrationErrors e = compare_with_server({hand_record()}, events, kAnchor);
  EXPECT_EQ(e.events_matched, 2);
  EXPECT_EQ(e.events_unmatched, 1);
  EXPECT_EQ(e.itl_error_ns.count, 0u);  // neither gap has both server writes
}

ClientLoad light_load() {
  ClientLoad load;
  load.cpu_s = 3;  // 0.3 of a core over 10 s
  load.wall_s = 10;
  load.threads = 1;
  load.events = 100'000;
  load.cores = 2;
  return load;
}

TEST(CalibrationTest, FaithfulWhenErrorsAreSmall) {
  const CalibrationErrors e = compare_with_server({hand_record()}, log_of(hand_log()), kAnchor);
  const CalibrationVerdict v = judge_calibration(e, light_load());
  EXPECT_TRUE(v.faithful);
  EXPECT_TRUE(v.reasons.empty());
  EXPECT_DOUBLE_EQ(v.cpu_per_worker, 0.3);
  EXPECT_DOUBLE_EQ(v.events_per_s, 10'000);
  EXPECT_NEAR(v.cpu_per_event_s, 30e-6, 1e-12);
  EXPECT_EQ(v.workers_needed, 1);
  EXPECT_EQ(v.cores_to_spare, 1);
  EXPECT_NE(v.recommendation.find("can be measured faithfully here"), std::string::npos);
}

TEST(CalibrationTest, NotFaithfulNamesWhyAndWhatWouldHelp) {
  RequestRecord late = hand_record();
  late.chunk_ns[2] += 2 * kMs;  // the last gap 2 ms late: ITL error p99 > 0.5 ms
  const CalibrationErrors e = compare_with_server({late}, log_of(hand_log()), kAnchor);
  ClientLoad load = light_load();
  load.cpu_s = 18;  // 1.8 cores over 10 s on 2 workers: needs ceil(1.8 / 0.6) = 3 workers
  load.threads = 2;
  load.client_bound = true;
  load.client_warnings = {"p99 stamp delay 3 ms > 1 ms"};
  CalibrationVerdict v = judge_calibration(e, load);
  EXPECT_FALSE(v.faithful);
  ASSERT_EQ(v.reasons.size(), 2u);
  EXPECT_NE(v.reasons[0].find("p99 ITL error"), std::string::npos);
  EXPECT_NE(v.reasons[1].find("client-bound: p99 stamp delay"), std::string::npos);
  EXPECT_EQ(v.workers_needed, 3);
  EXPECT_FALSE(v.machine_suffices);  // 2 cores, one kept for the server
  EXPECT_NE(v.recommendation.find("can't be measured faithfully here"), std::string::npos);

  load.cores = 8;
  v = judge_calibration(e, load);
  EXPECT_TRUE(v.machine_suffices);
  EXPECT_EQ(v.cores_to_spare, 7);
  EXPECT_NE(v.recommendation.find("--threads 3"), std::string::npos);
}

// A client late because the machine was busy (issue 37) makes the run's numbers unfaithful too,
// and says so as the machine's doing, not llmperf's.
TEST(CalibrationTest, ABusyMachineIsNotFaithful) {
  const CalibrationErrors e = compare_with_server({hand_record()}, log_of(hand_log()), kAnchor);
  ClientLoad load = light_load();
  load.machine_busy = true;
  load.machine_warnings = {"ready events waited 3.19 ms (p99) before being time-stamped"};
  const CalibrationVerdict v = judge_calibration(e, load);
  EXPECT_FALSE(v.faithful);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0],
            "the machine was busy: ready events waited 3.19 ms (p99) before being time-stamped");
}

TEST(CalibrationTest, NothingMatchedIsNotFaithful) {
  const CalibrationVerdict v = judge_calibration(CalibrationErrors{}, light_load());
  EXPECT_FALSE(v.faithful);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_NE(v.reasons[0].find("no client stamp"), std::string::npos);
}

}  // namespace
}  // namespace llmperf
