// Ctrl-C / SIGTERM handling: the handlers only count interrupts in a lock-free atomic that the
// engine polls (the one process-wide state in llmperf, as a signal handler requires).
#pragma once

#include <atomic>

namespace llmperf {

// Installs SIGINT/SIGTERM handlers that count interrupts, and ignores SIGPIPE.
void install_interrupt_handlers();

// Interrupts received so far: 1 = stop gracefully, 2+ = stop now.
const std::atomic<int>& interrupt_count();

// Whether the user has asked to stop (Ctrl-C or SIGTERM at least once).
inline bool interrupt_requested() { return interrupt_count().load() > 0; }

}  // namespace llmperf
