// Tests for the column names of `llmperf compare` (compare_labels.cpp) from hand-made facts, and
// for compare_outputs on hand-made run directories whose summary.json files are of one model:
// the columns are told apart by --name, then the server, then the differing config values, then
// the directory, and deployments that cannot be told apart are warned about.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/tools.h"
#include "report/views.h"

namespace llmperf::report_detail {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

DeploymentFacts facts(const std::string& dir, const std::string& server, json config) {
  DeploymentFacts f;
  f.label = "tiny-llama";
  f.server = server;
  f.config = std::move(config);
  f.dir = dir;
  return f;
}

json config(int in, int out) {
  return json{{"model", "tiny-llama"},
              {"input_tokens", json::array({in})},
              {"output_tokens", json::array({out})},
              {"outputs_dir", "outputs/" + std::to_string(in)},  // never telling
              {"parallel", json::array({4})}};
}

TEST(DeploymentLabels, DistinctLabelsAreKept) {
  std::vector<std::string> warnings;
  DeploymentFacts a = facts("a", "llama.cpp b1", config(100, 32));
  DeploymentFacts b = facts("b", "vLLM 0.11.0", config(100, 32));
  b.label = "other";
  EXPECT_EQ(deployment_labels({a, b}, &warnings),
            (std::vector<std::string>{"tiny-llama", "other"}));
  EXPECT_TRUE(warnings.empty());
}

TEST(DeploymentLabels, TheServerFirst) {
  std::vector<std::string> warnings;
  const auto labels = deployment_labels(
      {facts("a", "llama.cpp b4719", config(300, 64)), facts("b", "vLLM 0.11.0", config(100, 32)),
       facts("c", "", config(100, 32))},
      &warnings);
  EXPECT_EQ(labels,
            (std::vector<std::string>{"tiny-llama (llama.cpp b4719)", "tiny-llama (vLLM 0.11.0)",
                                      "tiny-llama (server unknown)"}));
  EXPECT_TRUE(warnings.empty());
}

TEST(DeploymentLabels, TheNameBeforeTheServer) {
  std::vector<std::string> warnings;
  DeploymentFacts a = facts("a", "vLLM 0.11.0", config(100, 32));
  a.name = "mindie";
  a.label = "x";
  DeploymentFacts b = facts("b", "vLLM 0.11.0", config(100, 32));
  b.name = "xinference";
  b.label = "x";
  EXPECT_EQ(deployment_labels({a, b}, &warnings),
            (std::vector<std::string>{"x (mindie)", "x (xinference)"}));
}

TEST(DeploymentLabels, TheDifferingConfigValuesWhenTheServerIsTheSame) {
  std::vector<std::string> warnings;
  const auto labels = deployment_labels(
      {facts("a", "llama.cpp b1", config(300, 64)), facts("b", "llama.cpp b1", config(100, 32)),
       facts("c", "vLLM 0.11.0", config(100, 32))},
      &warnings);
  // c is told apart by its server; a and b, of one server, by their lengths (not outputs_dir).
  EXPECT_EQ(labels, (std::vector<std::string>{"tiny-llama (llama.cpp b1, in 300 out 64)",
                                              "tiny-llama (llama.cpp b1, in 100 out 32)",
                                              "tiny-llama (vLLM 0.11.0)"}));
  EXPECT_TRUE(warnings.empty());
}

// Config values other than the lengths by their key: two endpoints of one server build.
TEST(DeploymentLabels, OtherConfigValuesByName) {
  std::vector<std::string> warnings;
  json a = config(100, 32);
  a["url"] = "http://10.0.0.1:8000/v1/chat/completions";
  json b = config(100, 32);
  b["url"] = "http://10.0.0.2:8000/v1/chat/completions";
  b["rate"] = json::array({2.5});
  const auto labels = deployment_labels({facts("a", "", a), facts("b", "", b)}, &warnings);
  EXPECT_EQ(labels, (std::vector<std::string>{
                        "tiny-llama (rate none url http://10.0.0.1:8000/v1/chat/completions)",
                        "tiny-llama (rate 2.5 url http://10.0.0.2:8000/v1/chat/completions)"}));
  EXPECT_TRUE(warnings.empty());
}

TEST(DeploymentLabels, TheDirectoryLast) {
  std::vector<std::string> warnings;
  const auto labels = deployment_labels({facts("runs/a", "vLLM 0.11.0", config(100, 32)),
                                         facts("runs/b", "vLLM 0.11.0", config(100, 32))},
                                        &warnings);
  EXPECT_EQ(labels, (std::vector<std::string>{"tiny-llama (runs/a)", "tiny-llama (runs/b)"}));
  EXPECT_TRUE(warnings.empty());
}

TEST(DeploymentLabels, WarnsWhenNothingTellsThemApart) {
  std::vector<std::string> warnings;
  const auto labels = deployment_labels({facts("runs/a", "vLLM 0.11.0", config(100, 32)),
                                         facts("runs/a", "vLLM 0.11.0", config(100, 32))},
                                        &warnings);
  EXPECT_EQ(labels, (std::vector<std::string>{"tiny-llama", "tiny-llama"}));
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_NE(warnings[0].find("2 deployments cannot be told apart"), std::string::npos);
  EXPECT_NE(warnings[0].find("runs/a, runs/a"), std::string::npos);
}

// --- compare_outputs on run directories ----------------------------------------------------------

class CompareTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("llmperf_compare_") + test->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A run directory of tiny-llama at concurrency 4, answered by `engine` `version`.
  std::string run_dir(const std::string& name, const std::string& engine,
                      const std::string& version, int in, int out) {
    json summary = {
        {"schema", "llmperf.summary/1"},
        {"run", {{"parallel", 4}, {"number", 8}, {"rate", nullptr}}},
        {"config", config(in, out)},
        {"requests", {{"total", 8}, {"succeeded", 8}, {"failed", 0}}},
        {"qps", 2.0},
        {"server",
         {{"identity",
           {{"engine", engine},
            {"version", version},
            {"server_header", nullptr},
            {"models", json::array({"tiny-llama"})}}}}},
    };
    summary["config"]["name"] = "";
    const fs::path dir = dir_ / name;
    fs::create_directories(dir);
    std::ofstream(dir / "summary.json") << summary.dump(2);
    return dir.string();
  }
  fs::path dir_;
};

// The first field report's case: one model on two servers, once before and once after.
TEST_F(CompareTest, OneModelOnTwoServersGetsTwoColumns) {
  CompareOptions options;
  options.dirs = {run_dir("a", "llama.cpp", "b4719", 300, 64),
                  run_dir("b", "vLLM", "0.11.0", 100, 32)};
  options.outputs_dir = (dir_ / "cmp").string();
  const CompareOutcome outcome = compare_outputs(options);
  EXPECT_TRUE(outcome.warnings.empty());
  EXPECT_NE(outcome.markdown.find(
                "| Concurrency | tiny-llama (llama.cpp b4719) | tiny-llama (vLLM 0.11.0) |\n"),
            std::string::npos)
      << outcome.markdown;
  EXPECT_NE(outcome.markdown.find("| tiny-llama (vLLM 0.11.0) | tiny-llama | vLLM 0.11.0 | 1 |"),
            std::string::npos)
      << outcome.markdown;
}

TEST_F(CompareTest, OneServerTwoWorkloadsAndTheSameDirectoryTwice) {
  CompareOptions options;
  const std::string a = run_dir("a", "llama.cpp", "b4719", 300, 64);
  options.dirs = {a, run_dir("b", "llama.cpp", "b4719", 100, 32)};
  options.outputs_dir = (dir_ / "cmp").string();
  EXPECT_NE(compare_outputs(options).markdown.find(
                "| Concurrency | tiny-llama (in 300 out 64) | tiny-llama (in 100 out 32) |\n"),
            std::string::npos);

  options.dirs = {a, a};
  const CompareOutcome twice = compare_outputs(options);
  ASSERT_EQ(twice.warnings.size(), 1U);
  EXPECT_NE(twice.markdown.find("WARNING: 2 deployments cannot be told apart"), std::string::npos);
  std::ifstream html(dir_ / "cmp" / "compare.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("WARNING: 2 deployments cannot be told apart"), std::string::npos);
}

}  // namespace
}  // namespace llmperf::report_detail
