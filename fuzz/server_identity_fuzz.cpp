// libFuzzer target: the identity endpoints are asked of whatever answers on the server's URL (a
// proxy's error page, another service), so reading any answer on any endpoint must never crash
// or throw. The first input byte splits the rest into a Server header and the answer body, which
// is given to every endpoint, alone and in turn to one identity. Checked: an answer that is not
// understood changes nothing; an understood one records its endpoint once; models are distinct,
// non-empty and at most 32; details have distinct keys and non-empty values of at most 200 bytes;
// max_model_len is never negative; guess_engine never replaces an engine already known.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/server_identity_api.h"

namespace {

using llmperf::ServerIdentity;
namespace api = llmperf::identity_api;

void check(const ServerIdentity& id) {
  if (id.max_model_len < 0) std::abort();
  if (id.models.size() > 32) std::abort();
  for (size_t i = 0; i < id.models.size(); ++i) {
    if (id.models[i].empty()) std::abort();
    if (std::find(id.models.begin() + static_cast<std::ptrdiff_t>(i) + 1, id.models.end(),
                  id.models[i]) != id.models.end()) {
      std::abort();
    }
  }
  for (size_t i = 0; i < id.details.size(); ++i) {
    if (id.details[i].second.empty() || id.details[i].second.size() > 200) std::abort();
    for (size_t j = i + 1; j < id.details.size(); ++j) {
      if (id.details[i].first == id.details[j].first) std::abort();
    }
  }
  for (const std::string& endpoint : id.answered) {
    if (std::find(std::begin(api::kEndpoints), std::end(api::kEndpoints), endpoint) ==
        std::end(api::kEndpoints)) {
      std::abort();
    }
  }
}

bool same(const ServerIdentity& a, const ServerIdentity& b) {
  return a.server_header == b.server_header && a.models == b.models &&
         a.max_model_len == b.max_model_len && a.engine == b.engine && a.version == b.version &&
         a.details == b.details && a.answered == b.answered;
}

void absorb_checked(std::string_view endpoint, std::string_view body, ServerIdentity& id) {
  const ServerIdentity was = id;
  api::absorb(endpoint, body, id);
  check(id);
  if (id.answered.size() == was.answered.size()) {
    if (!same(id, was)) std::abort();  // not understood: nothing taken
  } else if (id.answered.size() != was.answered.size() + 1 || id.answered.back() != endpoint) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const size_t split = std::min<size_t>(data[0] % 64, rest.size());
  const std::string header(rest.substr(0, split));
  const std::string_view body = rest.substr(split);

  ServerIdentity all;
  all.server_header = header;
  for (const std::string_view endpoint : api::kEndpoints) {
    ServerIdentity alone;
    absorb_checked(endpoint, body, alone);
    absorb_checked(endpoint, rest, alone);  // the whole input as an answer too
    absorb_checked(endpoint, body, all);
  }
  api::absorb("/unknown", body, all);
  const std::string engine = all.engine;
  api::guess_engine(all);
  check(all);
  if (!engine.empty() && all.engine != engine) std::abort();
  if (engine.empty() && header.find("llama.cpp") != std::string::npos &&
      all.engine != "llama.cpp") {
    std::abort();
  }
  return 0;
}
