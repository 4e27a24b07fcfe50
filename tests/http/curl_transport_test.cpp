// How a curl result becomes a failure kind and message (http/curl_transport.cpp).
#include "http/curl_transport.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace llmperf {
namespace {

const std::string kUrl = "http://127.0.0.1:8000/v1/chat/completions";

TEST(ClassifyCurlResult, RefusedAndResetWhileConnectingAreRefusals) {
  const auto refused = classify_curl_result(CURLE_COULDNT_CONNECT, ECONNREFUSED, false,
                                            "Couldn't connect to server", kUrl);
  EXPECT_EQ(refused.kind, ErrorKind::kConnectRefused);
  EXPECT_EQ(refused.message, "connection refused by " + kUrl);
  // A listener killed between the handshake and accept() resets the half-made connection.
  const auto reset = classify_curl_result(CURLE_COULDNT_CONNECT, ECONNRESET, false,
                                          "Couldn't connect to server", kUrl);
  EXPECT_EQ(reset.kind, ErrorKind::kConnectRefused);
  EXPECT_EQ(reset.message, "connection reset by " + kUrl + " while connecting");
}

TEST(ClassifyCurlResult, OtherConnectFailuresNameTheOsError) {
  const auto unreachable = classify_curl_result(CURLE_COULDNT_CONNECT, ENETUNREACH, false,
                                                "Couldn't connect to server", kUrl);
  EXPECT_EQ(unreachable.kind, ErrorKind::kTransport);
  EXPECT_EQ(unreachable.message, "could not connect to " + kUrl +
                                     ": Couldn't connect to server (Network is unreachable)");
  const auto silent =
      classify_curl_result(CURLE_COULDNT_CONNECT, 0, false, "Couldn't connect to server", kUrl);
  EXPECT_EQ(silent.kind, ErrorKind::kTransport);
  EXPECT_NE(silent.message.find("(no OS error)"), std::string::npos) << silent.message;
}

TEST(ClassifyCurlResult, TimeoutsSplitOnWhetherAConnectionWasMade) {
  EXPECT_EQ(classify_curl_result(CURLE_OPERATION_TIMEDOUT, 0, false, "t", kUrl).kind,
            ErrorKind::kConnectTimeout);
  EXPECT_EQ(classify_curl_result(CURLE_OPERATION_TIMEDOUT, 0, true, "t", kUrl).kind,
            ErrorKind::kTimeoutTotal);
}

TEST(ClassifyCurlResult, CutTransfersAreTruncatedStreams) {
  for (const CURLcode code :
       {CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR}) {
    const auto verdict = classify_curl_result(code, ECONNRESET, true, "Recv failure", kUrl);
    EXPECT_EQ(verdict.kind, ErrorKind::kStreamTruncated) << code;
    EXPECT_EQ(verdict.message,
              "connection ended before the response was complete: Recv failure");
  }
  EXPECT_EQ(classify_curl_result(CURLE_OK, 0, true, "", kUrl).kind, ErrorKind::kNone);
  EXPECT_EQ(classify_curl_result(CURLE_COULDNT_RESOLVE_HOST, 0, false, "x", kUrl).kind,
            ErrorKind::kResolve);
  EXPECT_EQ(classify_curl_result(CURLE_SSL_CONNECT_ERROR, 0, false, "bad cert", kUrl).message,
            "bad cert (curl error 35)");
}

}  // namespace
}  // namespace llmperf
