// Signal handlers (see signals.h).
#include "signals.h"

#include <csignal>

namespace llmperf {
namespace {

std::atomic<int> g_interrupts{0};
static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need a lock-free counter");

void on_interrupt(int /*signal*/) { g_interrupts.fetch_add(1, std::memory_order_relaxed); }

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
}

const std::atomic<int>& interrupt_count() { return g_interrupts; }

}  // namespace llmperf
