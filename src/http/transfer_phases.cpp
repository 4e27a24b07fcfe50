// HTTP phases from curl's cumulative marks (see transfer_phases.h).
#include "http/transfer_phases.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>

namespace llmperf {

HttpPhases phases_from_curl_times(const CurlTimes& times, bool new_connection,
                                  HttpVersion version) {
  constexpr int64_t kNsPerUs = 1000;
  std::array<int64_t, 6> marks = {times.namelookup_us,  times.connect_us,       times.appconnect_us,
                                  times.pretransfer_us, times.starttransfer_us, times.total_us};
  // On a reused connection curl still sets a name-lookup mark (the microseconds it took to pick
  // the connection from its pool): no lookup, connect or handshake happened, so that time is
  // set-up.
  if (!new_connection) marks[0] = marks[1] = marks[2] = 0;
  // The last intermediate mark reached; the ones after it end at the total.
  int last_reached = -1;
  for (int i = 0; i < 5; ++i) {
    if (marks[static_cast<size_t>(i)] > 0) last_reached = i;
  }
  std::array<int64_t, 6> phases{};
  int64_t previous = 0;
  for (int i = 0; i < 6; ++i) {
    int64_t mark = marks[static_cast<size_t>(i)];
    if (mark <= 0) mark = i > last_reached ? times.total_us : previous;
    mark = std::max(mark, previous);
    phases[static_cast<size_t>(i)] = (mark - previous) * kNsPerUs;
    previous = mark;
  }
  HttpPhases p;
  p.measured = true;
  p.new_connection = new_connection;
  p.version = version;
  p.dns_ns = phases[0];
  p.connect_ns = phases[1];
  p.tls_ns = phases[2];
  p.send_ns = phases[3];
  p.wait_ns = phases[4];
  p.receive_ns = phases[5];
  return p;
}

HttpVersion http_version_from_curl(long curl_version) {
  switch (curl_version) {
    case CURL_HTTP_VERSION_1_0:
      return HttpVersion::kHttp10;
    case CURL_HTTP_VERSION_1_1:
      return HttpVersion::kHttp11;
    case CURL_HTTP_VERSION_2_0:
      return HttpVersion::kHttp2;
    case CURL_HTTP_VERSION_3:
      return HttpVersion::kHttp3;
    default:
      return HttpVersion::kUnknown;
  }
}

}  // namespace llmperf
