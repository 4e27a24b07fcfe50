// HTTP phases from curl's cumulative marks (http/transfer_phases.cpp), with hand-made numbers.
#include "http/transfer_phases.h"

#include <gtest/gtest.h>

#include <curl/curl.h>

namespace llmperf {
namespace {

CurlTimes phase_marks(int64_t dns, int64_t connect, int64_t tls, int64_t pre, int64_t start,
                      int64_t total) {
  return CurlTimes{dns, connect, tls, pre, start, total};
}

TEST(TransferPhases, NewTlsConnectionHasEveryPhase) {
  // DNS 100 us, connect 300, TLS 1,600, send 10, wait 5,000, receive 20,000.
  const HttpPhases p = phases_from_curl_times(phase_marks(100, 400, 2000, 2010, 7010, 27010), true,
                                              HttpVersion::kHttp2);
  EXPECT_TRUE(p.measured);
  EXPECT_TRUE(p.new_connection);
  EXPECT_EQ(p.version, HttpVersion::kHttp2);
  EXPECT_EQ(p.dns_ns, 100'000);
  EXPECT_EQ(p.connect_ns, 300'000);
  EXPECT_EQ(p.tls_ns, 1'600'000);
  EXPECT_EQ(p.send_ns, 10'000);
  EXPECT_EQ(p.wait_ns, 5'000'000);
  EXPECT_EQ(p.receive_ns, 20'000'000);
  EXPECT_EQ(p.total_ns(), 27'010'000);
}

TEST(TransferPhases, PlainHttpHasNoTlsPhase) {
  // APPCONNECT is 0 without TLS: send counts from the connect mark.
  const HttpPhases p =
      phases_from_curl_times(phase_marks(50, 150, 0, 170, 1170, 3170), true, HttpVersion::kHttp11);
  EXPECT_EQ(p.dns_ns, 50'000);
  EXPECT_EQ(p.connect_ns, 100'000);
  EXPECT_EQ(p.tls_ns, 0);
  EXPECT_EQ(p.send_ns, 20'000);
  EXPECT_EQ(p.wait_ns, 1'000'000);
  EXPECT_EQ(p.receive_ns, 2'000'000);
  EXPECT_EQ(p.total_ns(), 3'170'000);
}

TEST(TransferPhases, ReusedConnectionHasNoDnsConnectOrTls) {
  const HttpPhases p =
      phases_from_curl_times(phase_marks(0, 0, 0, 15, 815, 1815), false, HttpVersion::kHttp11);
  EXPECT_FALSE(p.new_connection);
  EXPECT_EQ(p.dns_ns, 0);
  EXPECT_EQ(p.connect_ns, 0);
  EXPECT_EQ(p.tls_ns, 0);
  EXPECT_EQ(p.send_ns, 15'000);
  EXPECT_EQ(p.wait_ns, 800'000);
  EXPECT_EQ(p.receive_ns, 1'000'000);
  EXPECT_EQ(p.total_ns(), 1'815'000);
  // curl 7.88 sets a name-lookup mark on a reused connection too: it is set-up, not DNS.
  const HttpPhases q =
      phases_from_curl_times(phase_marks(18, 0, 0, 40, 840, 1840), false, HttpVersion::kHttp11);
  EXPECT_EQ(q.dns_ns, 0);
  EXPECT_EQ(q.send_ns, 40'000);
  EXPECT_EQ(q.total_ns(), 1'840'000);
}

TEST(TransferPhases, AFailedTransferGivesTheRestToThePhaseItDiedIn) {
  // A TLS handshake refused (bad certificate): no APPCONNECT and nothing after it.
  const HttpPhases tls =
      phases_from_curl_times(phase_marks(40, 140, 0, 0, 0, 2140), true, HttpVersion::kUnknown);
  EXPECT_EQ(tls.connect_ns, 100'000);
  EXPECT_EQ(tls.tls_ns, 2'000'000);
  EXPECT_EQ(tls.send_ns + tls.wait_ns + tls.receive_ns, 0);
  EXPECT_EQ(tls.total_ns(), 2'140'000);
  // The server closed the connection before any response byte: the time is waiting.
  const HttpPhases silent =
      phases_from_curl_times(phase_marks(0, 0, 0, 10, 0, 5010), false, HttpVersion::kUnknown);
  EXPECT_EQ(silent.send_ns, 10'000);
  EXPECT_EQ(silent.wait_ns, 5'000'000);
  EXPECT_EQ(silent.receive_ns, 0);
  // Connection refused: only the connect mark's phase.
  const HttpPhases refused =
      phases_from_curl_times(phase_marks(30, 0, 0, 0, 0, 230), true, HttpVersion::kUnknown);
  EXPECT_EQ(refused.dns_ns, 30'000);
  EXPECT_EQ(refused.connect_ns, 200'000);
  EXPECT_EQ(refused.total_ns(), 230'000);
}

TEST(TransferPhases, MarksOutOfOrderAreClampedSoNoPhaseIsNegative) {
  // A total below the first-byte mark (curl rounds each to microseconds separately).
  const HttpPhases p =
      phases_from_curl_times(phase_marks(0, 0, 0, 20, 900, 899), false, HttpVersion::kHttp11);
  EXPECT_EQ(p.wait_ns, 880'000);
  EXPECT_EQ(p.receive_ns, 0);
  EXPECT_EQ(p.total_ns(), 900'000);
  const HttpPhases q =
      phases_from_curl_times(phase_marks(500, 400, 0, 450, 600, 700), true, HttpVersion::kHttp11);
  EXPECT_EQ(q.dns_ns, 500'000);
  EXPECT_EQ(q.connect_ns, 0);
  EXPECT_EQ(q.send_ns, 0);
  EXPECT_EQ(q.wait_ns, 100'000);
  EXPECT_EQ(q.total_ns(), 700'000);
}

TEST(TransferPhases, HttpVersionNames) {
  EXPECT_EQ(http_version_from_curl(CURL_HTTP_VERSION_1_1), HttpVersion::kHttp11);
  EXPECT_EQ(http_version_from_curl(CURL_HTTP_VERSION_2_0), HttpVersion::kHttp2);
  EXPECT_EQ(http_version_from_curl(0), HttpVersion::kUnknown);
  EXPECT_EQ(http_version_name(HttpVersion::kHttp11), "http/1.1");
  EXPECT_EQ(http_version_name(HttpVersion::kHttp2), "h2");
  EXPECT_EQ(http_version_from_name("h2"), HttpVersion::kHttp2);
  EXPECT_EQ(http_version_from_name("spdy"), HttpVersion::kUnknown);
}

}  // namespace
}  // namespace llmperf
