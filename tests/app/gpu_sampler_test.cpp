// GPU memory sampling: nvidia-smi's CSV answer parsed, peaks kept per GPU, and the sampler run
// against a stand-in nvidia-smi put on PATH (and with none on PATH at all).
#include "app/tune/gpu_sampler.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/clock.h"

namespace llmperf {
namespace {

TEST(GpuMemoryParse, ReadsNvidiaSmiCsv) {
  EXPECT_EQ(parse_gpu_memory("0, 19344, 46068\n1, 512, 46068\n"),
            (std::vector<GpuMemory>{{0, 19344, 46068}, {1, 512, 46068}}));
  EXPECT_EQ(parse_gpu_memory("0,1,2"), (std::vector<GpuMemory>{{0, 1, 2}}));
  EXPECT_EQ(parse_gpu_memory("  3 ,\t80 , 81920 \r\n\r\n"),
            (std::vector<GpuMemory>{{3, 80, 81920}}));
  EXPECT_EQ(parse_gpu_memory("0, 10, 20, extra\n"), (std::vector<GpuMemory>{{0, 10, 20}}));
}

TEST(GpuMemoryParse, SkipsWhatIsNotANumberTable) {
  EXPECT_TRUE(parse_gpu_memory("").empty());
  EXPECT_TRUE(parse_gpu_memory("NVIDIA-SMI has failed because it couldn't communicate with the "
                               "NVIDIA driver. Make sure that the latest NVIDIA driver is "
                               "installed and running.\n")
                  .empty());
  EXPECT_EQ(parse_gpu_memory("0, [N/A], [N/A]\n1, 100, 200\n2, [Not Supported], 300\n"),
            (std::vector<GpuMemory>{{1, 100, 200}}));
  EXPECT_TRUE(parse_gpu_memory("0, 10\n").empty());
  EXPECT_TRUE(parse_gpu_memory("0, 10 MiB, 20 MiB\n").empty());
  EXPECT_TRUE(parse_gpu_memory("-1, 10, 20\n0, -5, 20\n").empty());
  EXPECT_TRUE(parse_gpu_memory("index, memory.used [MiB], memory.total [MiB]\n").empty());
}

TEST(GpuMemoryPeaks, KeepsTheHighestUseByIndex) {
  std::vector<GpuMemory> peaks;
  keep_peaks(peaks, {{1, 100, 1000}, {0, 50, 1000}});
  keep_peaks(peaks, {{0, 70, 1000}, {1, 20, 1000}});
  keep_peaks(peaks, {{2, 5, 500}});
  EXPECT_EQ(peaks, (std::vector<GpuMemory>{{0, 70, 1000}, {1, 100, 1000}, {2, 5, 500}}));
}

// A directory with a stand-in nvidia-smi, put at the front of PATH for the test's duration.
class GpuSamplerStandIn : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "llmperf-gpu-sampler-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    const char* path = std::getenv("PATH");
    old_path_ = path != nullptr ? path : "";
    setenv("PATH", (dir_ + ":" + old_path_).c_str(), 1);
  }
  void TearDown() override {
    setenv("PATH", old_path_.c_str(), 1);
    std::filesystem::remove_all(dir_);
  }
  void write_nvidia_smi(const std::string& body) {
    const std::string path = dir_ + "/nvidia-smi";
    std::ofstream(path) << "#!/bin/sh\n" << body;
    chmod(path.c_str(), 0755);
  }
  std::string dir_;
  std::string old_path_;
};

TEST(GpuMemoryPeaks, KeepsOnlyTheSlotsGpus) {
  std::vector<GpuMemory> peaks;
  keep_peaks(peaks, {{0, 100, 1000}, {1, 200, 1000}, {2, 300, 1000}}, {2, 0});
  EXPECT_EQ(peaks, (std::vector<GpuMemory>{{0, 100, 1000}, {2, 300, 1000}}));
}

TEST_F(GpuSamplerStandIn, KeepsThePeakOfEverySample) {
  // Each call answers the next line of a rising then falling series, checking its arguments.
  write_nvidia_smi(
      "[ \"$1\" = --query-gpu=index,memory.used,memory.total ] || exit 3\n"
      "[ \"$2\" = --format=csv,noheader,nounits ] || exit 3\n"
      "n=$(cat \"$(dirname \"$0\")/calls\" 2>/dev/null || echo 0)\n"
      "echo $((n + 1)) > \"$(dirname \"$0\")/calls\"\n"
      "case $n in\n"
      "  0) echo '0, 1000, 46068'; echo '1, 10, 46068' ;;\n"
      "  1) echo '0, 19344, 46068'; echo '1, 20, 46068' ;;\n"
      "  *) echo '0, 5000, 46068'; echo '1, 30, 46068' ;;\n"
      "esac\n");
  GpuSampler sampler(
      {.program = "nvidia-smi", .interval_ms = 10, .call_timeout_ms = 10'000, .gpu_ids = {}});
  ASSERT_TRUE(sampler.active());
  const int64_t deadline = now_ns() + 20'000'000'000;
  while (sampler.samples() < 4 && now_ns() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // polling a condition, bounded
  }
  ASSERT_GE(sampler.samples(), 4);
  EXPECT_EQ(sampler.stop(), (std::vector<GpuMemory>{{0, 19344, 46068}, {1, 30, 46068}}));
  EXPECT_EQ(sampler.stop(), (std::vector<GpuMemory>{{0, 19344, 46068}, {1, 30, 46068}}));
}

TEST_F(GpuSamplerStandIn, StopsPromptlyDuringAHungCall) {
  write_nvidia_smi("touch \"$(dirname \"$0\")/called\"\nexec sleep 60\n");
  GpuSampler sampler(
      {.program = "nvidia-smi", .interval_ms = 10, .call_timeout_ms = 60'000, .gpu_ids = {}});
  ASSERT_TRUE(sampler.active());
  const int64_t deadline = now_ns() + 20'000'000'000;
  while (!std::filesystem::exists(dir_ + "/called") && now_ns() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // polling a condition, bounded
  }
  ASSERT_TRUE(std::filesystem::exists(dir_ + "/called"));  // a call is in progress
  const int64_t start = now_ns();
  EXPECT_TRUE(sampler.stop().empty());
  EXPECT_LT(now_ns() - start, 2'000'000'000);
  EXPECT_EQ(sampler.samples(), 0);
}

TEST_F(GpuSamplerStandIn, AFailingNvidiaSmiRecordsNothing) {
  write_nvidia_smi(
      "echo \"$(cat \"$(dirname \"$0\")/calls\" 2>/dev/null)x\" > \"$(dirname \"$0\")/calls\"\n"
      "echo 'NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.'\n"
      "exit 9\n");
  GpuSampler sampler(
      {.program = "nvidia-smi", .interval_ms = 10, .call_timeout_ms = 10'000, .gpu_ids = {}});
  const int64_t deadline = now_ns() + 20'000'000'000;
  while (now_ns() < deadline) {  // until it has been called three times
    std::ifstream calls(dir_ + "/calls");
    std::string count;
    if (std::getline(calls, count) && count.size() >= 3) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // polling a condition, bounded
  }
  EXPECT_TRUE(sampler.stop().empty());
  EXPECT_EQ(sampler.samples(), 0);
}

TEST(GpuSampler, AbsentProgramSamplesNothing) {
  GpuSampler sampler({.program = "llmperf-no-such-nvidia-smi",
                      .interval_ms = 10,
                      .call_timeout_ms = 10,
                      .gpu_ids = {}});
  EXPECT_FALSE(sampler.active());
  EXPECT_TRUE(sampler.stop().empty());
  EXPECT_EQ(find_on_path("llmperf-no-such-nvidia-smi"), "");
  EXPECT_EQ(find_on_path("sh").empty(), false);
  EXPECT_EQ(find_on_path("/bin/sh"), "/bin/sh");
}

}  // namespace
}  // namespace llmperf
