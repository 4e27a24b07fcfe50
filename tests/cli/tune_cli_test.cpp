// `llmperf tune`'s flags: the study's own flags are taken out, every other argument is kept in
// order as the benchmark's; usage errors for what a study cannot start without.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/tune.h"
#include "core/exit_codes.h"

namespace llmperf {
namespace {

TuneCli tune_argv(std::vector<std::string> args) {
  args.insert(args.begin(), {"llmperf", "tune"});
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  return parse_tune(static_cast<int>(argv.size()), argv.data());
}

TEST(TuneCli, TakesTheTieAndPerGpuFlags) {
  const TuneCli cli = tune_argv({"--serve", "x {port}", "--param", "tp=1,2", "--prefer",
                                 "gpus:min,np:max", "--confirm", "--gpus-per-trial", "{tp}",
                                 "--gpu-hour-cost", "2.5", "--url", "http://127.0.0.1:{port}/"});
  ASSERT_TRUE(cli.proceed) << cli.outcome.err;
  EXPECT_EQ(cli.spec.prefer, "gpus:min,np:max");
  EXPECT_TRUE(cli.spec.confirm);
  EXPECT_EQ(cli.spec.gpus_per_trial, "{tp}");
  EXPECT_DOUBLE_EQ(cli.spec.gpu_hour_cost, 2.5);
  EXPECT_EQ(cli.spec.bench_args, (std::vector<std::string>{"--url", "http://127.0.0.1:{port}/"}));
  EXPECT_FALSE(tune_argv({"--serve", "x", "--param", "a=1", "--gpu-hour-cost", "-1"}).proceed);
}

TEST(TuneCli, SplitsTheStudysFlagsFromTheBenchmarksInOrder) {
  const TuneCli cli = tune_argv(
      {"--serve", "vllm serve q --port {port} --max-num-seqs {mns}", "--param", "mns=64,128",
       "--url", "http://127.0.0.1:{port}/v1/chat/completions", "--param", "cp=true,false",
       "--model", "qwen", "-n", "300", "--parallel={mns}", "--objective", "ttft.p99",
       "--strategy", "random:4", "--exclude", "cp==false", "--num-runs", "3", "--slo",
       "ttft.p99<=2s", "--stop-timeout", "5", "--dry-run"});
  ASSERT_TRUE(cli.proceed) << cli.outcome.err;
  EXPECT_EQ(cli.spec.serve, "vllm serve q --port {port} --max-num-seqs {mns}");
  EXPECT_EQ(cli.spec.params, (std::vector<std::string>{"mns=64,128", "cp=true,false"}));
  EXPECT_EQ(cli.spec.objective, "ttft.p99");
  EXPECT_EQ(cli.spec.strategy, "random:4");
  EXPECT_EQ(cli.spec.excludes, std::vector<std::string>{"cp==false"});
  EXPECT_EQ(cli.spec.num_runs, 3);
  EXPECT_DOUBLE_EQ(cli.spec.stop_timeout_s, 5);
  EXPECT_TRUE(cli.dry_run);
  EXPECT_EQ(cli.spec.bench_args,
            (std::vector<std::string>{"--url", "http://127.0.0.1:{port}/v1/chat/completions",
                                      "--model", "qwen", "-n", "300", "--parallel={mns}",
                                      "--slo", "ttft.p99<=2s"}));
}

TEST(TuneCli, NeedsAServerAndAParameter) {
  TuneCli cli = tune_argv({"--param", "a=1,2", "--url", "http://x"});
  EXPECT_FALSE(cli.proceed);
  EXPECT_EQ(cli.outcome.exit_code, kExitUsage);
  EXPECT_NE(cli.outcome.err.find("--serve"), std::string::npos) << cli.outcome.err;
  cli = tune_argv({"--serve", "x --port {port}"});
  EXPECT_FALSE(cli.proceed);
  EXPECT_NE(cli.outcome.err.find("--param"), std::string::npos) << cli.outcome.err;
}

TEST(TuneCli, ResumeTakesNoOtherFlags) {
  const std::string dir = ::testing::TempDir();
  TuneCli cli = tune_argv({"--resume", dir});
  EXPECT_TRUE(cli.proceed);
  EXPECT_EQ(cli.resume_dir, dir);
  cli = tune_argv({"--resume", dir, "--url", "http://x"});
  EXPECT_FALSE(cli.proceed);
  EXPECT_NE(cli.outcome.err.find("study.json"), std::string::npos) << cli.outcome.err;
}

TEST(TuneCli, HelpNamesEveryStrategyAndItsCost) {
  const TuneCli cli = tune_argv({"--help"});
  EXPECT_FALSE(cli.proceed);
  EXPECT_EQ(cli.outcome.exit_code, kExitOk);
  for (const char* word : {"grid", "random:N", "halving", "costs", "{port}", "--serve"}) {
    EXPECT_NE(cli.outcome.out.find(word), std::string::npos) << word;
  }
}

// --objective is repeatable: the first stays `objective` (one objective reads as before), the
// others follow in order, one value per flag (a word after it is the benchmark's).
TEST(TuneCli, ObjectiveIsRepeatable) {
  const TuneCli one =
      tune_argv({"--serve", "x {port}", "--param", "a=1", "--objective", "ttft.p99", "positional"});
  ASSERT_TRUE(one.proceed) << one.outcome.err;
  EXPECT_EQ(one.spec.objective, "ttft.p99");
  EXPECT_TRUE(one.spec.more_objectives.empty());
  EXPECT_EQ(one.spec.bench_args, std::vector<std::string>{"positional"});
  const TuneCli none = tune_argv({"--serve", "x {port}", "--param", "a=1"});
  ASSERT_TRUE(none.proceed) << none.outcome.err;
  EXPECT_EQ(none.spec.objective, "output_throughput");
  EXPECT_TRUE(none.spec.more_objectives.empty());
  const TuneCli several = tune_argv({"--serve", "x {port}", "--param", "a=1", "--objective",
                                     "output_throughput:max", "--strategy", "nsga2:8",
                                     "--objective", "ttft.p99:min", "--objective", "latency.p50"});
  ASSERT_TRUE(several.proceed) << several.outcome.err;
  EXPECT_EQ(several.spec.objective, "output_throughput:max");
  EXPECT_EQ(several.spec.more_objectives,
            (std::vector<std::string>{"ttft.p99:min", "latency.p50"}));
  EXPECT_EQ(spec_objectives(several.spec),
            (std::vector<std::string>{"output_throughput:max", "ttft.p99:min", "latency.p50"}));
  EXPECT_TRUE(several.spec.bench_args.empty());
}

}  // namespace
}  // namespace llmperf
