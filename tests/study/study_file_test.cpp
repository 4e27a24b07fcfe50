// study.json and the reader of a study's directory: every field survives write_study_file and
// read_study_dir, the file's text starts as documented, the ledger comes back with its bad lines
// as problems, and each wrong directory is refused with a message saying what is wrong: not a
// directory, no study.json or study.jsonl, not JSON, another schema, a missing spec.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "study/study_file.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

class StudyFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("llmperf_study_file_") + test->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void put(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }

  // The message read_study_dir throws for dir_ (fails the test when it does not throw).
  std::string error_of(const fs::path& dir) {
    try {
      read_study_dir(dir.string());
    } catch (const std::runtime_error& error) {
      return error.what();
    }
    ADD_FAILURE() << "read_study_dir did not throw for " << dir;
    return "";
  }

  fs::path dir_;
};

StudyInfo study_file_info() {
  StudyInfo info;
  info.spec.serve = "vllm serve q --port {port} --max-num-batched-tokens {mnbt}";
  info.spec.params = {"mnbt=64,128,256", "cp=true,false"};
  info.spec.strategy = "halving:3";
  info.spec.objective = "ttft.p99:min";
  info.spec.bench_args = {"--url", "http://127.0.0.1:{port}/v1/chat/completions", "-n", "90"};
  info.started = "2026-12-01T10:00:00Z";
  info.version = "llmperf 0.1.0";
  info.objective = "ttft.p99";
  info.unit = "ms";
  info.maximize = false;
  info.strategy = "halving:3";
  info.seed = 18446744073709551615ULL;  // the largest seed survives
  info.rungs = {{6, 10, 2}, {2, 30, 0}};
  return info;
}

TEST_F(StudyFileTest, EveryFieldSurvivesWriteAndRead) {
  const StudyInfo info = study_file_info();
  write_study_file(dir_.string(), info);
  TrialRecord trial;
  trial.trial = 2;
  trial.label = "2-128-enable";
  trial.params = {{"mnbt", "128"}, {"cp", "true"}};
  trial.objective = 12.5;
  put("study.jsonl", trial_to_json(trial) + "\n");
  EXPECT_TRUE(is_study_dir(dir_.string()));

  const StudyDir back = read_study_dir(dir_.string());
  EXPECT_EQ(study_info_to_json(back.info), study_info_to_json(info));
  EXPECT_EQ(back.info.objective, "ttft.p99");
  EXPECT_EQ(back.info.unit, "ms");
  EXPECT_FALSE(back.info.maximize);
  EXPECT_EQ(back.info.seed, info.seed);
  ASSERT_EQ(back.info.rungs.size(), 2U);
  EXPECT_EQ(back.info.rungs[0].configs, 6U);
  EXPECT_EQ(back.info.rungs[0].requests, 10);
  EXPECT_EQ(back.info.rungs[0].promoted, 2U);
  EXPECT_EQ(back.info.spec.bench_args, info.spec.bench_args);
  ASSERT_EQ(back.ledger.trials.size(), 1U);
  EXPECT_EQ(back.ledger.trials[0].label, "2-128-enable");
  EXPECT_TRUE(back.ledger.problems.empty());
  EXPECT_FALSE(fs::exists(dir_ / "study.json.tmp"));
}

// Several objectives: study.json lists each; one objective lists none.
TEST_F(StudyFileTest, SeveralObjectivesSurviveWriteAndRead) {
  StudyInfo info = study_file_info();
  EXPECT_FALSE(study_info_to_json(info).contains("objectives"));
  info.spec.more_objectives = {"output_throughput"};
  info.objectives = {{"ttft.p99", "ms", false}, {"output_throughput", "tok/s", true}};
  write_study_file(dir_.string(), info);
  put("study.jsonl", "");
  const StudyDir back = read_study_dir(dir_.string());
  EXPECT_EQ(back.info.objectives, info.objectives);
  EXPECT_EQ(back.info.spec.more_objectives, info.spec.more_objectives);
  EXPECT_EQ(study_info_to_json(back.info), study_info_to_json(info));
}

TEST_F(StudyFileTest, TheFileIsIndentedJsonWithItsSchemaFirst) {
  write_study_file(dir_.string(), study_file_info());
  std::ifstream in(dir_ / "study.json", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(
      text.rfind("{\n  \"schema\": \"llmperf.study/1\",\n  \"version\": \"llmperf 0.1.0\"", 0), 0U)
      << text;
  EXPECT_EQ(text.back(), '\n');
  const nlohmann::json json = nlohmann::json::parse(text);
  EXPECT_EQ(json["objective"]["name"], "ttft.p99");
  EXPECT_EQ(json["rungs"][1]["requests"], 30);
  EXPECT_EQ(json["spec"]["serve"], study_file_info().spec.serve);
}

TEST_F(StudyFileTest, NoRungsAreWrittenForOtherStrategies) {
  StudyInfo info = study_file_info();
  info.rungs.clear();
  EXPECT_FALSE(study_info_to_json(info).contains("rungs"));
  const StudyInfo back =
      study_info_from_json(nlohmann::json::parse(study_info_to_json(info).dump()));
  EXPECT_TRUE(back.rungs.empty());
}

TEST_F(StudyFileTest, BadLedgerLinesComeBackAsProblems) {
  write_study_file(dir_.string(), study_file_info());
  TrialRecord trial;
  put("study.jsonl", trial_to_json(trial) + "\nnot json\n" + trial_to_json(trial) + "\n");
  const StudyDir back = read_study_dir(dir_.string());
  EXPECT_EQ(back.ledger.trials.size(), 2U);
  ASSERT_EQ(back.ledger.problems.size(), 1U);
  EXPECT_NE(back.ledger.problems[0].find("study.jsonl:2"), std::string::npos);
}

TEST_F(StudyFileTest, WrongDirectoriesAreRefusedSayingWhy) {
  EXPECT_NE(error_of(dir_ / "absent").find("is not a directory"), std::string::npos);

  EXPECT_FALSE(is_study_dir(dir_.string()));
  std::string error = error_of(dir_);
  EXPECT_NE(error.find("is not a study directory: it has no study.json"), std::string::npos)
      << error;

  put("study.json", "{");
  error = error_of(dir_);
  EXPECT_NE(error.find("it has no study.jsonl"), std::string::npos) << error;

  put("study.jsonl", "");
  error = error_of(dir_);
  EXPECT_NE(error.find("study.json: not JSON"), std::string::npos) << error;

  put("study.json", R"({"schema": "llmperf.study/9", "spec": {"serve": "x"}})");
  error = error_of(dir_);
  EXPECT_NE(error.find("schema \"llmperf.study/9\" is not \"llmperf.study/1\""), std::string::npos)
      << error;
  EXPECT_NE(error.find((dir_ / "study.json").string()), std::string::npos) << error;

  put("study.json", R"({"schema": "llmperf.study/1"})");
  error = error_of(dir_);
  EXPECT_NE(error.find("\"spec\" is missing"), std::string::npos) << error;

  put("study.json", R"({"schema": "llmperf.study/1", "seed": "x", "spec": {"serve": "x"}})");
  error = error_of(dir_);
  EXPECT_NE(error.find("\"seed\" has the wrong type"), std::string::npos) << error;

  put("study.json", R"({"schema": "llmperf.study/1", "spec": {"serve": "x"}})");
  const StudyDir minimal = read_study_dir(dir_.string());
  EXPECT_EQ(minimal.info.spec.serve, "x");
  EXPECT_EQ(minimal.info.objective, "output_throughput");  // the spec's, when none was resolved
  EXPECT_TRUE(minimal.info.maximize);
  EXPECT_TRUE(minimal.ledger.trials.empty());
}

TEST_F(StudyFileTest, WritingIntoAMissingDirectoryNamesTheFile) {
  try {
    write_study_file((dir_ / "absent").string(), study_file_info());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("study.json: cannot write it"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace llmperf
