// RecordFanout: every consumer sees every batch, in the order they were attached, begin_run and
// end_run included; kept records are moved out after the consumers have seen them.
#include "core/record_consumer.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace llmperf {
namespace {

// Writes what it is told into a shared log, as "<name>:<event>".
class LoggingConsumer : public RecordConsumer {
 public:
  LoggingConsumer(std::string name, std::vector<std::string>* log)
      : name_(std::move(name)), log_(log) {}
  void begin_run() override { log_->push_back(name_ + ":begin"); }
  void add(std::span<const RequestRecord> records) override {
    for (const RequestRecord& record : records) {
      log_->push_back(name_ + ":" + std::to_string(record.id) + ":" + record.output_text);
    }
  }
  void end_run() override { log_->push_back(name_ + ":end"); }

 private:
  std::string name_;
  std::vector<std::string>* log_;
};

std::vector<RequestRecord> fanout_batch() {
  std::vector<RequestRecord> records(2);
  records[0].id = 1;
  records[0].output_text = "a";
  records[1].id = 2;
  records[1].output_text = "b";
  return records;
}

TEST(RecordFanout, EveryConsumerSeesEveryBatchInTheOrderAttached) {
  std::vector<std::string> log;
  LoggingConsumer first("first", &log);
  LoggingConsumer second("second", &log);
  RecordFanout fanout;
  fanout.attach(&first);
  fanout.attach(nullptr);  // an optional consumer that is not there
  fanout.attach(&second);
  fanout.begin_run();
  std::vector<RequestRecord> batch = fanout_batch();
  fanout.add(batch);
  fanout.end_run();
  EXPECT_EQ(log, (std::vector<std::string>{"first:begin", "second:begin", "first:1:a", "first:2:b",
                                           "second:1:a", "second:2:b", "first:end", "second:end"}));
  EXPECT_EQ(batch[1].output_text, "b");  // not kept: left as they were
}

TEST(RecordFanout, KeptRecordsAreMovedOutAfterTheConsumersSawThem) {
  std::vector<std::string> log;
  LoggingConsumer consumer("c", &log);
  std::vector<RequestRecord> kept;
  RecordFanout fanout(&kept);
  fanout.attach(&consumer);
  std::vector<RequestRecord> batch = fanout_batch();
  fanout.add(batch);
  EXPECT_EQ(log, (std::vector<std::string>{"c:1:a", "c:2:b"}));
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].id, 1u);
  EXPECT_EQ(kept[1].output_text, "b");
}

}  // namespace
}  // namespace llmperf
