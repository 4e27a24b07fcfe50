// How a curl result becomes a failure kind and message (http/curl_transport.cpp).
#include "http/curl_transport.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace llmperf {
namespace {

const std::string kUrl = "http://127.0.0.1:8000/v1/chat/completions";

// What a transfer that ended with `code` left on its handle.
TransferFacts facts(CURLcode code, long os_errno = 0, bool connected = true,
                    bool response_started = true, bool reused = false) {
  TransferFacts f;
  f.code = code;
  f.os_errno = os_errno;
  f.connected = connected;
  f.response_started = response_started;
  f.reused = reused;
  return f;
}

TransportVerdict classify(const TransferFacts& f, const std::string& detail) {
  return classify_curl_result(f, detail, kUrl);
}

TEST(ClassifyCurlResult, RefusedAndResetWhileConnectingAreRefusals) {
  const auto refused =
      classify(facts(CURLE_COULDNT_CONNECT, ECONNREFUSED, false), "Couldn't connect to server");
  EXPECT_EQ(refused.kind, ErrorKind::kConnectRefused);
  EXPECT_EQ(refused.message, "connection refused by " + kUrl);
  // A listener killed between the handshake and accept() resets the half-made connection.
  const auto reset =
      classify(facts(CURLE_COULDNT_CONNECT, ECONNRESET, false), "Couldn't connect to server");
  EXPECT_EQ(reset.kind, ErrorKind::kConnectRefused);
  EXPECT_EQ(reset.message, "connection reset by " + kUrl + " while connecting");
}

TEST(ClassifyCurlResult, MessagesNeverShowTheUrlsCredentials) {
  const auto refused = classify_curl_result(facts(CURLE_COULDNT_CONNECT, ECONNREFUSED, false),
                                            "Couldn't connect to server",
                                            "http://user:s3cret@127.0.0.1:9091/metrics");
  EXPECT_EQ(refused.message, "connection refused by http://127.0.0.1:9091/metrics");
}

TEST(ClassifyCurlResult, OtherConnectFailuresNameTheOsError) {
  const auto unreachable =
      classify(facts(CURLE_COULDNT_CONNECT, ENETUNREACH, false), "Couldn't connect to server");
  EXPECT_EQ(unreachable.kind, ErrorKind::kTransport);
  EXPECT_EQ(unreachable.message, "could not connect to " + kUrl +
                                     ": Couldn't connect to server (Network is unreachable)");
  const auto silent =
      classify(facts(CURLE_COULDNT_CONNECT, 0, false), "Couldn't connect to server");
  EXPECT_EQ(silent.kind, ErrorKind::kTransport);
  EXPECT_NE(silent.message.find("(no OS error)"), std::string::npos) << silent.message;
}

TEST(ClassifyCurlResult, TimeoutsSplitOnWhetherAConnectionWasMade) {
  EXPECT_EQ(classify(facts(CURLE_OPERATION_TIMEDOUT, 0, false), "t").kind,
            ErrorKind::kConnectTimeout);
  EXPECT_EQ(classify(facts(CURLE_OPERATION_TIMEDOUT, 0, true), "t").kind, ErrorKind::kTimeoutTotal);
}

TEST(ClassifyCurlResult, CutTransfersAreTruncatedStreams) {
  for (const CURLcode code :
       {CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR}) {
    for (const bool reused : {false, true}) {
      const auto verdict = classify(facts(code, ECONNRESET, true, true, reused), "Recv failure");
      EXPECT_EQ(verdict.kind, ErrorKind::kStreamTruncated) << code;
      EXPECT_EQ(verdict.message, "connection ended before the response was complete: Recv failure");
      EXPECT_FALSE(verdict.resendable) << "a response had begun: the server saw the request";
    }
  }
  EXPECT_EQ(classify(facts(CURLE_OK, 0, true), "").kind, ErrorKind::kNone);
  EXPECT_EQ(classify(facts(CURLE_COULDNT_RESOLVE_HOST, 0, false), "x").kind, ErrorKind::kResolve);
  EXPECT_EQ(classify(facts(CURLE_SSL_CONNECT_ERROR, 0, false), "bad cert").message,
            "bad cert (curl error 35)");
}

// libcurl 7.88's verdict on the sixth dead reused connection of a handle (issue 23): nothing came
// back, so it is no response, not a stream cut short; and the connection was reused, so the
// server never saw the request and it may go again.
TEST(ClassifyCurlResult, NothingReceivedIsNoResponse) {
  const std::string died = "Connection died, tried 5 times before giving up";
  for (const CURLcode code : {CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING}) {
    const auto reused = classify(facts(code, 0, true, false, true), died);
    EXPECT_EQ(reused.kind, ErrorKind::kNoResponse) << code;
    EXPECT_EQ(reused.message,
              "no response: the reused connection was closed before any response byte "
              "arrived: " +
                  died);
    EXPECT_TRUE(reused.resendable) << code;
    EXPECT_EQ(failure_kind_name(reused.kind, 0), "no_response");
  }
  // On a new connection the request may have reached the server: never sent again.
  const auto fresh =
      classify(facts(CURLE_GOT_NOTHING, 0, true, false, false), "Empty reply from server");
  EXPECT_EQ(fresh.kind, ErrorKind::kNoResponse);
  EXPECT_EQ(fresh.message,
            "no response: the new connection was closed before any response byte arrived: "
            "Empty reply from server");
  EXPECT_FALSE(fresh.resendable);
  // Nothing else is ever resendable.
  for (const CURLcode code : {CURLE_OK, CURLE_PARTIAL_FILE, CURLE_OPERATION_TIMEDOUT,
                              CURLE_COULDNT_CONNECT, CURLE_WRITE_ERROR}) {
    EXPECT_FALSE(classify(facts(code, 0, true, false, true), "x").resendable) << code;
  }
}

// curl reuses a connection idle t seconds while floor(t) <= CURLOPT_MAXAGE_CONN.
TEST(ReuseMaxAge, CapsIdleReuseBelowTwoSecondsAndBelowTheServersTimeout) {
  EXPECT_EQ(kMaxIdleReuseS, 2);
  EXPECT_EQ(reuse_max_age_s(std::nullopt), 1);  // reused while idle < 2 s
  EXPECT_EQ(reuse_max_age_s(60), 1);            // a longer timeout does not lift the cap
  EXPECT_EQ(reuse_max_age_s(5), 1);             // cpp-httplib: idle < 2 s, 3 s of margin
  EXPECT_EQ(reuse_max_age_s(3), 1);             // idle < 2 s, 1 s of margin
  EXPECT_EQ(reuse_max_age_s(2), 0);             // idle < 1 s
  EXPECT_EQ(reuse_max_age_s(1), 0);             // the least curl can do; a resend covers the rest
  EXPECT_EQ(reuse_max_age_s(0), 0);
}

TEST(RetryCountPerHandle, FollowsTheRunningLibcurl) {
  const curl_version_info_data* info = curl_version_info(CURLVERSION_NOW);
  EXPECT_EQ(retry_count_per_handle(), info->version_num < 0x081100) << info->version;
}

}  // namespace
}  // namespace llmperf
