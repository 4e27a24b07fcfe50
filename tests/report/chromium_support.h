// Headless Chromium for the tests that render llmperf's pages (report.html, study.html): where it
// is, and one run of it on a page.
#pragma once

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

namespace llmperf::testing {

inline constexpr const char* kChromium = "/usr/bin/chromium";

// Runs Chromium headless once on `html`, with a fresh profile in `profile`: it writes a screenshot
// of the page to `png` and returns the page's DOM once rendered (--dump-dom, its stdout). One run
// for both: Chromium's start is most of the 1.8 CPU s a run takes.
inline std::string run_chromium(const std::filesystem::path& html, const std::filesystem::path& png,
                                const std::filesystem::path& profile) {
  const std::string command =
      std::string("timeout 60 ") + kChromium +
      " --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking"
      " --disable-component-update --disable-sync --user-data-dir=" +
      profile.string() + " --window-size=1280,2000 --screenshot=" + png.string() +
      " --dump-dom file://" + html.string() + " 2>/dev/null";
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer{};
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  ::pclose(pipe);
  return out;
}

}  // namespace llmperf::testing
