// libFuzzer target for one dataset format (LLMPERF_FUZZ_DATASET_KIND: openqa, line_by_line or
// longalpaca): the input is written to a file that the real streaming reader then consumes to the
// end. Readers may reject a file (DatasetError) but never crash, and every record they hand out
// has a consistent length.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "workload/dataset.h"

namespace {

// A per-process scratch file, rewritten for every input.
const std::string& scratch_path() {
  static const std::string path =
      "/tmp/llmperf_fuzz_" LLMPERF_FUZZ_DATASET_KIND "_" + std::to_string(getpid());
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::FILE* f = std::fopen(scratch_path().c_str(), "wb");
  if (f == nullptr) std::abort();
  std::fwrite(data, 1, size, f);
  std::fclose(f);

  llmperf::DatasetOptions options;
  options.kind = LLMPERF_FUZZ_DATASET_KIND;
  options.path = scratch_path();
  try {
    auto reader = llmperf::open_dataset(options);
    llmperf::Prompt prompt;
    while (reader->next(prompt)) {
    }
    const llmperf::DatasetStats& stats = reader->stats();
    if (stats.malformed_lines.size() > 10) std::abort();
  } catch (const llmperf::DatasetError&) {
  }
  return 0;
}
