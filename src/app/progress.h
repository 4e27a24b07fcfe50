// Progress on stderr while a run is going: a redrawn bar when stderr is a terminal (done/total,
// failed, req/s, elapsed), periodic log lines otherwise. Runs on its own thread and only reads the
// engine's per-request counters. A run whose thread carries a log tag (log_tag.h: trials side by
// side, `tune --slots`) gets log lines, tagged, even on a terminal: several bars redrawn with \r
// on one line would overwrite each other.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "engine/engine.h"

namespace llmperf {

class ProgressDisplay {
 public:
  // `label` names the run (e.g. "parallel 8, 100 requests"); `log_every` is --log-every-n-query.
  ProgressDisplay(const LoadProgress& counters, int64_t total, std::string label,
                  int64_t log_every);
  ~ProgressDisplay();  // stops and draws the final state
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

 private:
  void loop();
  void draw(bool final);

  const LoadProgress& counters_;
  int64_t total_;
  std::string label_;
  std::string tag_;  // the log tag of the thread that made the display (log_tag.h)
  int64_t log_every_;
  bool terminal_;  // a redrawn bar: stderr is a terminal and no tag
  int64_t start_ns_;
  int64_t last_logged_ = 0;  // finished count at the last log line
  int64_t last_log_ns_ = 0;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace llmperf
