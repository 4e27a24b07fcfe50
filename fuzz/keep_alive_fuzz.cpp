// libFuzzer target: the Keep-Alive header is whatever a server (or a proxy) sends, so reading
// any value must never crash. Checked: a timeout, when found, lies in [0, kKeepAliveTimeoutMaxS];
// prefixing another parameter or surrounding the value with blanks changes nothing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/keep_alive.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string value(reinterpret_cast<const char*>(data), size);
  const std::optional<int64_t> timeout = llmperf::parse_keep_alive_timeout_s(value);
  if (timeout && (*timeout < 0 || *timeout > llmperf::kKeepAliveTimeoutMaxS)) std::abort();
  if (llmperf::parse_keep_alive_timeout_s("max=7, " + value) != timeout) std::abort();
  if (value.find(',') == std::string::npos &&
      llmperf::parse_keep_alive_timeout_s(" " + value + " \t") != timeout) {
    std::abort();
  }
  return 0;
}
