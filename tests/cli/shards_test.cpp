// The shard of a process, from --shard or each launcher's environment, and --start-at parsing.
#include "cli/shards.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace llmperf {
namespace {

EnvReader env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    const auto found = vars.find(name);
    return found == vars.end() ? nullptr : found->second.c_str();
  };
}

TEST(Shards, FlagWinsOverTheEnvironment) {
  std::vector<std::string> errors;
  const ShardChoice c = resolve_shard("2/5", 0, env_of({{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "3"}}),
                                      errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(c.index, 2);
  EXPECT_EQ(c.count, 5);
  EXPECT_EQ(c.source, "--shard");
}

TEST(Shards, EachLauncherIsRead) {
  struct Case {
    std::map<std::string, std::string> env;
    int shards_flag;
    int index;
    int count;
    std::string source_start;
  };
  const Case cases[] = {
      {{{"JOB_COMPLETION_INDEX", "2"}}, 4, 2, 4, "Kubernetes"},
      {{{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "3"}}, 0, 1, 3, "Slurm"},
      {{{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}}, 0, 0, 2, "Open MPI"},
      {{{"PMI_RANK", "5"}, {"PMI_SIZE", "6"}}, 0, 5, 6, "PMI"},
      {{}, 0, 0, 1, ""},
      // mpirun inside a Slurm batch job: its ranks inherit SLURM_PROCID=0.
      {{{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"}, {"OMPI_COMM_WORLD_RANK", "2"},
        {"OMPI_COMM_WORLD_SIZE", "3"}},
       0, 2, 3, "Open MPI"},
  };
  for (const Case& tc : cases) {
    std::vector<std::string> errors;
    const ShardChoice c = resolve_shard("", tc.shards_flag, env_of(tc.env), errors);
    EXPECT_TRUE(errors.empty()) << tc.source_start;
    EXPECT_EQ(c.index, tc.index) << tc.source_start;
    EXPECT_EQ(c.count, tc.count) << tc.source_start;
    EXPECT_EQ(c.source.rfind(tc.source_start, 0), 0u) << c.source;
  }
}

TEST(Shards, BadValuesAreNamed) {
  const struct {
    std::string flag;
    std::map<std::string, std::string> env;
    int shards_flag;
    std::string needle;
  } cases[] = {
      {"3/3", {}, 0, "--shard must be I/N"},
      {"a/2", {}, 0, "--shard must be I/N"},
      {"1", {}, 0, "--shard must be I/N"},
      {"", {{"JOB_COMPLETION_INDEX", "0"}}, 0, "needs --shards N"},
      {"", {{"JOB_COMPLETION_INDEX", "4"}}, 4, "not a shard of --shards 4"},
      {"", {{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "3"}}, 0, "Slurm: SLURM_PROCID=3"},
      {"", {}, 3, "--shards 3 needs this process's index"},
  };
  for (const auto& tc : cases) {
    std::vector<std::string> errors;
    resolve_shard(tc.flag, tc.shards_flag, env_of(tc.env), errors);
    ASSERT_EQ(errors.size(), 1u) << tc.needle;
    EXPECT_NE(errors[0].find(tc.needle), std::string::npos) << errors[0];
  }
}

TEST(StartAt, Rfc3339AndUnixSeconds) {
  std::vector<std::string> errors;
  EXPECT_EQ(parse_start_at("1795555800", errors), 1'795'555'800'000'000'000);
  EXPECT_EQ(parse_start_at("1795555800.25", errors), 1'795'555'800'250'000'000);
  // 2026-11-24T21:30:00Z is 1795555800 s after the epoch.
  EXPECT_EQ(parse_start_at("2026-11-24T21:30:00Z", errors), 1'795'555'800'000'000'000);
  EXPECT_EQ(parse_start_at("2026-11-24T22:30:00.5+01:00", errors), 1'795'555'800'500'000'000);
  EXPECT_EQ(parse_start_at("2026-11-24T16:30:00-05:00", errors), 1'795'555'800'000'000'000);
  EXPECT_TRUE(errors.empty());
  for (const char* bad : {"", "soon", "2026-11-24", "2026-11-24T21:30:00", "2026-13-01T00:00:00Z",
                          "12:00", "1e9"}) {
    std::vector<std::string> e;
    EXPECT_EQ(parse_start_at(bad, e), -1) << bad;
    ASSERT_EQ(e.size(), 1u) << bad;
    EXPECT_NE(e[0].find("--start-at"), std::string::npos);
  }
}

}  // namespace
}  // namespace llmperf
