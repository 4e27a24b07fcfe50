// Which trial a log line belongs to. `llmperf tune --slots` runs several trials' benchmarks at
// once in one process, each on a slot's thread; their log lines would interleave on stderr with
// nothing to tell them apart. A thread may carry a tag ("[trial 3-64 slot 1] "), which every log
// line written on that thread starts with, and which a thread started for it (the progress
// display's) takes over. Without a tag, lines are as they were.
#pragma once

#include <memory>
#include <string>

#include <spdlog/formatter.h>

namespace llmperf {

// Tags the calling thread's log lines for its lifetime; the tag it replaced comes back after.
class ScopedLogTag {
 public:
  explicit ScopedLogTag(std::string tag);
  ~ScopedLogTag();
  ScopedLogTag(const ScopedLogTag&) = delete;
  ScopedLogTag& operator=(const ScopedLogTag&) = delete;

 private:
  std::string previous_;
};

// The calling thread's tag ("" without one).
const std::string& log_tag();

// spdlog's formatter for `pattern`, in which `%*` stands for the writing thread's tag.
std::unique_ptr<spdlog::formatter> tagged_log_formatter(const std::string& pattern);

}  // namespace llmperf
