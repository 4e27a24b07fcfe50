// libFuzzer target: `llmperf tune --storage URL` and `llmperf report --storage URL`
// (study/storage_url.h) come from users, and a URL may hold a password, so no input may crash the
// parser and no message may show the password. Each line is parsed as a URL (it throws
// std::invalid_argument or succeeds) and redacted as running text. Checked: a parsed URL's
// redacted form holds no password (unless the password is part of "***"); an error starts with
// the redacted URL, so it shows no more than that; redacting is idempotent; a study name is
// accepted or refused, nothing else.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz_lines.h"
#include "study/storage_url.h"

namespace {

using namespace llmperf;

void fuzz_url(std::string_view text) {
  StorageUrl url;
  try {
    url = parse_storage_url(text);
  } catch (const std::invalid_argument& error) {
    const std::string_view message = error.what();
    if (message.rfind("--storage '", 0) != 0) std::abort();
    return;
  }
  if (url.url != text) std::abort();
  if (!url.password.empty() && kRedactedPassword.find(url.password) == std::string_view::npos &&
      url.redacted.find(url.password) != std::string::npos) {
    std::abort();  // the password shown
  }
  if (url.scheme != "sqlite" && url.scheme != "postgresql" && url.scheme != "postgresql+psycopg2") {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz_url(text);
  const std::string once = redact_storage_text(text);
  if (redact_storage_text(once) != once) std::abort();
  for (const std::string_view line : llmperf::fuzz::lines_of(text)) {
    fuzz_url(line);
    try {
      check_study_name(line);
    } catch (const std::invalid_argument&) {
    }
  }
  return 0;
}
