// Signal handlers (see signals.h).
#include "app/signals.h"

#include <unistd.h>

#include <csignal>
#include <cstddef>

namespace llmperf {
namespace {

std::atomic<int> g_interrupts{0};
static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need a lock-free counter");

// write(2) is async-signal-safe; the notices tell the user (and tests) what the signal did.
void notify(const char* text, size_t size) {
  [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, text, size);
}

void on_interrupt(int /*signal*/) {
  const int previous = g_interrupts.fetch_add(1, std::memory_order_relaxed);
  static constexpr char kFirst[] =
      "\nllmperf: interrupted: no new requests; in-flight ones get a short grace period "
      "(interrupt again to cancel them now)\n";
  static constexpr char kSecond[] = "\nllmperf: interrupted again: cancelling in-flight requests\n";
  if (previous == 0) {
    notify(kFirst, sizeof kFirst - 1);
  } else if (previous == 1) {
    notify(kSecond, sizeof kSecond - 1);
  }
}

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
