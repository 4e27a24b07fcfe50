// libFuzzer target: `llmperf tune --prefer` (study/prefer.h), the tie-break among configurations
// tied within noise, comes from users and from study.json, so no input may crash its parser: it
// throws std::invalid_argument or succeeds, and nothing else escapes. Checked: a parsed
// preference's text parses back to the same keys; every key compares a record with itself as
// equal; two records compare in opposite directions under :min and :max when their values are of
// one kind (a number before text and any value before none, whatever the direction); the order is
// antisymmetric; prefer_value_text never throws.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "study/prefer.h"
#include "study/trial.h"

namespace {

using namespace llmperf;

TrialRecord fuzz_record(std::string_view text, int gpus) {
  TrialRecord record;
  record.gpus = gpus;
  record.gpu = {{0, 1000L * gpus, 24000}};
  record.params = {{"np", std::string(text.substr(0, 8))}, {"cp", gpus % 2 ? "true" : "false"}};
  record.metrics["ttft.p99"] = 100.0 * gpus;
  return record;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Preference preference;
  try {
    preference = parse_prefer(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (preference.keys.empty()) std::abort();
  const Preference again = parse_prefer(preference.text());
  if (again.keys != preference.keys) std::abort();
  const TrialRecord a = fuzz_record(text, 1);
  const TrialRecord b = fuzz_record(text.size() > 8 ? text.substr(8) : text, 2);
  for (const PreferKey& key : preference.keys) {
    if (prefer_compare(a, a, key) != 0) std::abort();
    PreferKey reversed = key;
    reversed.maximize = !key.maximize;
    const bool same_kind = prefer_value(a, key.name).index() == prefer_value(b, key.name).index();
    if (same_kind && prefer_compare(a, b, key) != -prefer_compare(a, b, reversed)) std::abort();
    if (prefer_compare(a, b, key) != -prefer_compare(b, a, key)) std::abort();
    prefer_value_text(a, key.name);
  }
  return 0;
}
