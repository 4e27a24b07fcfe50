// One trial (app/tune/trial_runner.h) fails alone, whatever its steps throw: a std::bad_alloc or
// an exception of no std type becomes its record's bench_failed with the reason, never an
// exception out of run_trial, which with --slots would stop the other slots and end the study.
#include "app/tune/trial_runner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <new>
#include <string>

namespace llmperf {
namespace {

namespace fs = std::filesystem;

class TrialRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("llmperf_trial_runner_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    spec_.serve = "true {port}";
    spec_.bench_args = {"--url", "http://127.0.0.1:{port}/v1/chat/completions"};
    objective_ = parse_objective("output_throughput");
    context_.spec = &spec_;
    context_.spaces = &spaces_;
    context_.objective = &objective_;
    context_.study_dir = dir_.string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  TrialRecord run(BenchFlagsParser parse) {
    context_.parse_bench_flags = std::move(parse);
    TrialSpec trial;
    trial.index = 3;
    trial.label = "3-x";
    trial.dir = "3-x";
    trial.slot = TrialSlot{1, Slot{{"b"}}};
    return run_trial(context_, trial);
  }

  fs::path dir_;
  StudySpec spec_;
  std::vector<ParamSpace> spaces_;
  Objective objective_;
  TrialContext context_;
};

TEST_F(TrialRunnerTest, AnExceptionOfNoStdTypeFailsTheTrialWithItsReason) {
  const TrialRecord record =
      run([](const std::vector<std::string>&, std::vector<std::string>*) -> Config { throw 42; });
  EXPECT_EQ(record.status, TrialStatus::kBenchFailed);
  EXPECT_EQ(record.reason, "the trial failed: an exception that is not a std::exception");
  EXPECT_EQ(record.trial, 3);
  EXPECT_EQ(record.label, "3-x");
  EXPECT_EQ(record.slot, 1);
  EXPECT_TRUE(record.port.has_value());  // what the trial got before it failed is kept
}

TEST_F(TrialRunnerTest, ABadAllocFailsTheTrialWithItsReason) {
  const TrialRecord record =
      run([](const std::vector<std::string>&, std::vector<std::string>*) -> Config {
        throw std::bad_alloc();
      });
  EXPECT_EQ(record.status, TrialStatus::kBenchFailed);
  EXPECT_EQ(record.reason, std::bad_alloc().what());
}

}  // namespace
}  // namespace llmperf
