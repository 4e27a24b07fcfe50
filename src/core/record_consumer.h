// What takes a run's finished records as they arrive (k6's Output): the summary, requests.jsonl,
// EvalScope's database, vLLM's arrays, the Pushgateway and the others each implement
// RecordConsumer, and one RecordFanout hands every batch to each of them in turn. Adding a
// consumer touches nothing but the place that wires a run's consumers
// (app/benchmark/run_consumers.cpp). Here, below every stage, so that metrics, report and app can
// all implement it.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "core/record.h"

namespace llmperf {

// One consumer of a run's records. begin_run() before the run's first request, add() with each
// batch of finished records (warm-up included, in completion order, on the one thread that
// collects them; calls never overlap), end_run() once the last has been added. What a consumer
// gathered is read from its own type afterwards.
class RecordConsumer {
 public:
  virtual ~RecordConsumer() = default;
  virtual void begin_run() {}
  virtual void add(std::span<const RequestRecord> records) = 0;
  virtual void end_run() {}

 protected:
  RecordConsumer() = default;
  RecordConsumer(const RecordConsumer&) = default;
  RecordConsumer& operator=(const RecordConsumer&) = default;
};

// Hands each batch to every consumer, in the order they were given (end_run() too), then, when
// asked to keep the records, moves them into `kept`: one virtual call per consumer per batch.
class RecordFanout {
 public:
  // `kept`: where the records go after the consumers have seen them (null: they are dropped).
  explicit RecordFanout(std::vector<RequestRecord>* kept = nullptr) : kept_(kept) {}

  // A consumer that must outlive the fanout's use (null: none, so that optional ones read simply).
  void attach(RecordConsumer* consumer) {
    if (consumer != nullptr) consumers_.push_back(consumer);
  }

  void begin_run() {
    for (RecordConsumer* consumer : consumers_) consumer->begin_run();
  }
  // The engine's record sink (engine/engine.h's RecordSink): the records may be moved out.
  void add(std::span<RequestRecord> records) {
    for (RecordConsumer* consumer : consumers_) consumer->add(records);
    if (kept_ == nullptr) return;
    for (RequestRecord& record : records) kept_->push_back(std::move(record));
  }
  void end_run() {
    for (RecordConsumer* consumer : consumers_) consumer->end_run();
  }

 private:
  std::vector<RecordConsumer*> consumers_;
  std::vector<RequestRecord>* kept_;
};

}  // namespace llmperf
