// libFuzzer target: decode_chunk never crashes, and its validity agrees with nlohmann's strict
// parser: the fast JsonScanner path may give up, but whatever it accepts nlohmann accepts, and
// decode_chunk calls a payload valid exactly when nlohmann accepts it as a JSON object.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "protocol/chunk_decoder.h"
#include "protocol/json_scanner.h"

namespace {

// A JsonScanner handler that accepts every value (json_scanner.h's handler interface).
struct AcceptAll {
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(int64_t) { return true; }
  bool number_unsigned(uint64_t) { return true; }
  bool float_number(std::string_view) { return true; }
  bool string(std::string_view) { return true; }
  bool key(std::string_view) { return true; }
  bool start_object(std::size_t) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view payload(reinterpret_cast<const char*>(data), size);
  const bool accepted = nlohmann::json::accept(payload);
  AcceptAll sink;
  if (llmperf::JsonScanner<AcceptAll>(payload, sink).scan() && !accepted) std::abort();

  llmperf::DecodedChunk chunk;
  llmperf::decode_chunk(payload, chunk);
  bool object = false;
  if (accepted) object = nlohmann::json::parse(payload).is_object();
  if (chunk.valid_json != object) std::abort();
  (void)llmperf::error_message_from_body(payload, 64);
  return 0;
}
