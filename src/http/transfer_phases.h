// libcurl's timing of a transfer turned into HttpPhases (core/http_phases.h): curl reports
// cumulative times from the transfer's start to each mark (CURLINFO_*_TIME_T, microseconds), and
// each phase is the difference between consecutive marks. Pure arithmetic, unit-tested with
// hand-made numbers; curl_transport.cpp reads the marks from the handle (read_transfer_facts).
#pragma once

#include <cstdint>

#include "core/http_phases.h"

namespace llmperf {

// curl's cumulative marks of one transfer, microseconds from its start; 0: the mark was not
// reached (no DNS lookup, connect or TLS handshake on a reused connection, no TLS over plain HTTP,
// no response byte on a failed transfer).
struct CurlTimes {
  int64_t namelookup_us = 0;     // CURLINFO_NAMELOOKUP_TIME_T
  int64_t connect_us = 0;        // CURLINFO_CONNECT_TIME_T
  int64_t appconnect_us = 0;     // CURLINFO_APPCONNECT_TIME_T (TLS done)
  int64_t pretransfer_us = 0;    // CURLINFO_PRETRANSFER_TIME_T (about to send the request)
  int64_t starttransfer_us = 0;  // CURLINFO_STARTTRANSFER_TIME_T (first response byte)
  int64_t total_us = 0;          // CURLINFO_TOTAL_TIME_T
};

// The phases between the marks. A mark that was not reached before the last one that was (a
// reused connection's DNS, connect and TLS; TLS over plain HTTP) adds a phase of 0; one after it
// (a transfer that failed) gives the rest of the total to the phase it would have ended, so a
// TLS handshake that failed shows as a long TLS phase. On a reused connection (!new_connection)
// the DNS, connect and TLS marks are ignored: none of them happened, whatever curl reports. Marks
// out of order are clamped to the one before, so no phase is negative and the phases always add up
// to the total.
HttpPhases phases_from_curl_times(const CurlTimes& times, bool new_connection, HttpVersion version);

// CURLINFO_HTTP_VERSION's value (CURL_HTTP_VERSION_1_0, ..._1_1, ..._2_0, ..._3) as HttpVersion.
HttpVersion http_version_from_curl(long curl_version);

}  // namespace llmperf
