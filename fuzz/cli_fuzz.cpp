// libFuzzer target for the command line: the input's lines become argv for parse_cli (which must
// answer with an outcome, never crash or throw), and each line is also given to the verdict
// grammars parse_slo, parse_goodput and parse_tolerance (which may only throw invalid_argument).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli.h"
#include "core/config.h"
#include "metrics/goodput.h"
#include "verdict/baseline.h"
#include "verdict/slo.h"

namespace {

// `--prompt @FILE` reads a file: keep the fuzzer away from endless or special files.
bool is_safe(std::string_view arg) {
  const size_t at = arg.find('@');
  if (at == std::string_view::npos) return true;
  const std::string_view path = arg.substr(at + 1);
  return !(path.starts_with("/dev") || path.starts_with("/proc") || path.starts_with("/sys"));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args = {"llmperf"};
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[i]));
    }
  }
  args.push_back(current);
  for (const std::string& arg : args) {
    if (!is_safe(arg)) return 0;
  }
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  llmperf::Config config;
  (void)llmperf::parse_cli(static_cast<int>(argv.size()), argv.data(), config);

  for (size_t i = 1; i < args.size(); ++i) {
    try {
      (void)llmperf::parse_slo(args[i]);
    } catch (const std::invalid_argument&) {
    }
    try {
      (void)llmperf::parse_tolerance(args[i]);
    } catch (const std::invalid_argument&) {
    }
  }
  try {
    (void)llmperf::parse_goodput(std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
