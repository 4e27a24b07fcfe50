// TLS and HTTP/2 against a real front end (issue 26): Debian's nghttpx (package nghttp2-proxy)
// terminating TLS, and speaking HTTP/2 (ALPN h2 over TLS, h2c in clear), in front of
// llmperf-mock, with a CA and certificates made by openssl for each test. Verification is on by
// default, --cacert trusts the test CA, --insecure works with a warning, a certificate for another
// host name is refused; 500 concurrent TLS streams all succeed and the handshake shows in the
// phase timings; HTTP/2 streams are multiplexed over few connections (the records say h2).
// Skipped, saying so, where nghttpx or openssl is missing.
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "http/curl_transport.h"
#include "llmperf_run.h"
#include "app/tune/ports.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

using nlohmann::json;

constexpr const char* kNghttpx = "/usr/sbin/nghttpx";
constexpr const char* kOpenssl = "/usr/bin/openssl";

// A CA made for the test and two server certificates it signed: one for 127.0.0.1 and
// localhost, one for another host name.
struct TlsTestPki {
  std::string ca;          // the CA certificate (PEM), for --cacert
  std::string cert, key;   // SAN IP:127.0.0.1, DNS:localhost
  std::string other_cert;  // SAN DNS:other.example
  std::string other_key;
};

// Runs openssl; false with its stderr in `why` when it failed.
bool tls_openssl(const std::vector<std::string>& args, std::string* why) {
  std::vector<std::string> argv = {kOpenssl};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult result = run_process(argv, 60);
  if (result.exit_code != 0) *why = result.err;
  return result.exit_code == 0;
}

std::optional<TlsTestPki> tls_make_pki(std::string* why) {
  const std::string dir = make_temp_dir();
  TlsTestPki pki;
  pki.ca = dir + "/ca.pem";
  const std::string ca_key = dir + "/ca.key";
  // P-256 keys: 500 handshakes cost the front end little.
  const std::vector<std::string> ec = {"-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                       "-nodes"};
  std::vector<std::string> ca_args = {"req",     "-x509",
                                      "-days",   "2",
                                      "-subj",   "/CN=llmperf test CA",
                                      "-addext", "basicConstraints=critical,CA:TRUE",
                                      "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                                      "-keyout", ca_key,
                                      "-out",    pki.ca};
  ca_args.insert(ca_args.begin() + 2, ec.begin(), ec.end());
  if (!tls_openssl(ca_args, why)) return std::nullopt;
  auto server = [&](const std::string& name, const std::string& san, std::string& cert,
                    std::string& key) {
    key = dir + "/" + name + ".key";
    cert = dir + "/" + name + ".pem";
    const std::string csr = dir + "/" + name + ".csr";
    const std::string ext = dir + "/" + name + ".ext";
    std::ofstream(ext) << "subjectAltName=" << san << "\nbasicConstraints=CA:FALSE\n"
                       << "extendedKeyUsage=serverAuth\n";
    std::vector<std::string> req = {"req", "-subj", "/CN=" + name, "-keyout", key, "-out", csr};
    req.insert(req.begin() + 1, ec.begin(), ec.end());
    return tls_openssl(req, why) &&
           tls_openssl({"x509", "-req", "-in", csr, "-CA", pki.ca, "-CAkey", ca_key,
                        "-CAcreateserial", "-days", "2", "-extfile", ext, "-out", cert},
                       why);
  };
  if (!server("localhost", "IP:127.0.0.1,DNS:localhost", pki.cert, pki.key) ||
      !server("other.example", "DNS:other.example", pki.other_cert, pki.other_key)) {
    return std::nullopt;
  }
  return pki;
}

// nghttpx in front of `backend_port`: TLS (ALPN h2 and http/1.1) on tls_port, clear text (HTTP/1.1
// and h2c) on plain_port; one worker thread, in one process (so that killing it leaves nothing).
class TlsFront {
 public:
  TlsFront(int backend_port, const std::string& key, const std::string& cert,
           const std::vector<std::string>& extra = {})
      : tls_port(pick_free_port()), plain_port(pick_free_port()), process_([&] {
          std::vector<std::string> argv = {
              kNghttpx,
              "--conf=/dev/null",
              "--single-process",
              "--workers=1",
              "--frontend=127.0.0.1," + std::to_string(tls_port),
              "--frontend=127.0.0.1," + std::to_string(plain_port) + ";no-tls",
              "--backend=127.0.0.1," + std::to_string(backend_port),
              "--no-ocsp",
              "--accesslog-file=/dev/null",
              "--rlimit-nofile=8192"};
          argv.insert(argv.end(), extra.begin(), extra.end());
          argv.push_back(key);
          argv.push_back(cert);
          return argv;
        }()) {
    if (!process_.wait_for_stderr("Created worker thread", 30)) {
      throw std::runtime_error("nghttpx did not start: " + process_.stderr_text());
    }
  }
  std::string https_url(const std::string& host = "127.0.0.1") const {
    return "https://" + host + ":" + std::to_string(tls_port) + "/v1/chat/completions";
  }
  std::string h2c_url() const {
    return "http://127.0.0.1:" + std::to_string(plain_port) + "/v1/chat/completions";
  }
  const int tls_port;
  const int plain_port;

 private:
  BackgroundProcess process_;
};

#define TLS_REQUIRE_TOOLS()                                                                \
  do {                                                                                     \
    if (!std::filesystem::exists(kNghttpx)) {                                              \
      GTEST_SKIP() << "SKIPPED: " << kNghttpx                                              \
                   << " not found (Debian package nghttp2-proxy; scripts/setup.sh --test " \
                      "installs it)";                                                      \
    }                                                                                      \
    if (!std::filesystem::exists(kOpenssl))                                                \
      GTEST_SKIP() << "SKIPPED: " << kOpenssl << " not found";                             \
  } while (false)

std::vector<std::string> tls_args(const std::string& url, const std::vector<std::string>& more) {
  return concat({"--url", url, "--model", "mock-model", "--prompt", "hello", "--sleep-interval",
                 "0", "--no-server-metrics"},
                more);
}

// Every record's error message contains `part`.
void tls_expect_failures_say(const BenchRun& run, const std::string& part) {
  const std::vector<json> records = read_requests(only_run_dir(run));
  ASSERT_FALSE(records.empty());
  for (const json& r : records) {
    EXPECT_FALSE(r["ok"].get<bool>()) << r.dump();
    EXPECT_TRUE(contains(r["error_message"].get<std::string>(), part)) << r.dump();
  }
}

TEST(TlsFront, VerificationIsOnByDefaultCacertTrustsTheCaInsecureWarns) {
  TLS_REQUIRE_TOOLS();
  std::string why;
  const std::optional<TlsTestPki> pki = tls_make_pki(&why);
  ASSERT_TRUE(pki) << why;
  MockServer mock({"--output-tokens", "4"});
  const TlsFront front(mock.port(), pki->key, pki->cert);

  // The test CA is in no system store: refused, and the message names the certificate problem.
  const BenchRun refused = run_llmperf(tls_args(front.https_url(), {"-n", "2"}));
  ASSERT_EQ(refused.process.exit_code, 0) << diagnostics(refused);
  EXPECT_EQ(refused.summary["requests"]["failed"], 2) << diagnostics(refused);
  EXPECT_EQ(refused.summary["failures_by_kind"].value("transport", 0), 2);
  tls_expect_failures_say(refused,
                          "SSL certificate problem: unable to get local issuer certificate");
  EXPECT_TRUE(contains(refused.process.err, "certificate")) << refused.process.err;

  // --cacert: verified (by the name localhost this time), and the handshake shows in the phases
  // of the new connections.
  const BenchRun verified = run_llmperf(
      tls_args(front.https_url("localhost"), {"-n", "20", "--parallel", "4", "--cacert", pki->ca}));
  ASSERT_EQ(verified.process.exit_code, 0) << diagnostics(verified);
  EXPECT_EQ(verified.summary["requests"]["succeeded"], 20) << diagnostics(verified);
  int fresh = 0;
  for (const json& r : read_requests(only_run_dir(verified))) {
    EXPECT_EQ(r["http_version"], "http/1.1") << r.dump();
    if (r["connection"] != "new") {
      EXPECT_EQ(r["phases_ns"]["tls"], 0) << r.dump();
      continue;
    }
    ++fresh;
    EXPECT_GT(r["phases_ns"]["tls"].get<int64_t>(), 0) << r.dump();
    EXPECT_GT(r["phases_ns"]["connect"].get<int64_t>(), 0) << r.dump();
  }
  EXPECT_GE(fresh, 1);
  EXPECT_GT(verified.summary["http"]["phases_new_connection"]["tls_ms"]["mean"].get<double>(), 0);

  // --insecure: no verification, and a warning that says so.
  const BenchRun insecure = run_llmperf(tls_args(front.https_url(), {"-n", "2", "--insecure"}));
  ASSERT_EQ(insecure.process.exit_code, 0) << diagnostics(insecure);
  EXPECT_EQ(insecure.summary["requests"]["succeeded"], 2) << diagnostics(insecure);
  EXPECT_TRUE(contains(insecure.process.err, "warning: --insecure")) << insecure.process.err;
}

TEST(TlsFront, ACertificateForAnotherHostNameIsRefused) {
  TLS_REQUIRE_TOOLS();
  std::string why;
  const std::optional<TlsTestPki> pki = tls_make_pki(&why);
  ASSERT_TRUE(pki) << why;
  MockServer mock({"--output-tokens", "4"});
  const TlsFront front(mock.port(), pki->other_key, pki->other_cert);
  const BenchRun run = run_llmperf(tls_args(front.https_url(), {"-n", "2", "--cacert", pki->ca}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["failed"], 2) << diagnostics(run);
  tls_expect_failures_say(run,
                          "no alternative certificate subject name matches target host name "
                          "'127.0.0.1'");
}

TEST(TlsFront, FiveHundredConcurrentTlsStreams) {
  TLS_REQUIRE_TOOLS();
  std::string why;
  const std::optional<TlsTestPki> pki = tls_make_pki(&why);
  ASSERT_TRUE(pki) << why;
  // Slow enough (2 s to the first token) that all 500 are in flight together.
  MockServer mock({"--ttft-ms", "2000", "--itl-ms", "10", "--output-tokens", "16"});
  const TlsFront front(mock.port(), pki->key, pki->cert);
  const BenchRun run =
      run_llmperf(tls_args(front.https_url(), {"--parallel", "500", "-n", "1000", "--cacert",
                                               pki->ca, "--connect-timeout", "60"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["succeeded"], 1000) << run.summary["failure_examples"].dump();
  EXPECT_EQ(run.summary["requests"]["failed"], 0);
  EXPECT_GE(run.summary["peak_concurrency"].get<int64_t>(), 450) << "streams were concurrent";
  const json& http = run.summary["http"];
  EXPECT_GE(http["connections"]["new"].get<int64_t>(), 450) << http.dump();
  EXPECT_GT(http["phases_new_connection"]["tls_ms"]["mean"].get<double>(), 0) << http.dump();
  EXPECT_EQ(http["protocols"], json({{"http/1.1", 1000}}));
}

// The HTTP version of every record, and the connections the run opened (phase data).
struct Http2Tally {
  int h2 = 0;
  int other = 0;
  int fresh = 0;
  int streamed = 0;  // records with more than one output chunk
};
Http2Tally tls_h2_tally(const BenchRun& run) {
  Http2Tally t;
  for (const json& r : read_requests(only_run_dir(run))) {
    (r["http_version"] == "h2" ? t.h2 : t.other) += 1;
    if (r["connection"] == "new") ++t.fresh;
    if (r["chunk_ns"].size() > 1 && !r["ttft_ms"].is_null()) ++t.streamed;
  }
  return t;
}

TEST(Http2Front, AlpnH2MultiplexesStreamsOverFewConnections) {
  TLS_REQUIRE_TOOLS();
  std::string why;
  const std::optional<TlsTestPki> pki = tls_make_pki(&why);
  ASSERT_TRUE(pki) << why;
  MockServer mock({"--ttft-ms", "50", "--itl-ms", "5", "--output-tokens", "16"});
  const TlsFront front(mock.port(), pki->key, pki->cert);
  const std::vector<std::string> h2 = {"--http2", "--cacert", pki->ca,     "--parallel", "50",
                                       "-n",      "200",      "--threads", "1"};
  const BenchRun run = run_llmperf(tls_args(front.https_url(), h2));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["succeeded"], 200) << run.summary["failure_examples"].dump();
  const Http2Tally t = tls_h2_tally(run);
  EXPECT_EQ(t.h2, 200);
  EXPECT_EQ(t.streamed, 200) << "every response streamed its 16 chunks";
  // 50 streams fit in one connection (nghttpx allows 100 at once).
  EXPECT_GE(t.fresh, 1);
  EXPECT_LE(t.fresh, 2);
  EXPECT_EQ(run.summary["http"]["protocols"], json({{"h2", 200}}));
  EXPECT_EQ(run.summary["http"]["connections"]["new"], t.fresh);
  EXPECT_FALSE(contains(run.process.err, "asked for HTTP/2")) << run.process.err;
  EXPECT_TRUE(contains(run.process.out, "h2 200")) << run.process.out;

  // At most 10 streams per connection: 50 in flight need at least 5, and more connections are
  // opened than without the cap (requests started while a connection is still in its handshake
  // may open their own), never more than one per request in flight.
  const BenchRun capped =
      run_llmperf(tls_args(front.https_url(), concat(h2, {"--max-streams-per-connection", "10"})));
  ASSERT_EQ(capped.process.exit_code, 0) << diagnostics(capped);
  EXPECT_EQ(capped.summary["requests"]["succeeded"], 200);
  const Http2Tally c = tls_h2_tally(capped);
  EXPECT_EQ(c.h2, 200);
  EXPECT_GE(c.fresh, 5);
  EXPECT_GT(c.fresh, t.fresh);
  EXPECT_EQ(capped.summary["http"]["connections"]["new"], c.fresh);
}

TEST(Http2Front, TheServersStreamLimitOpensMoreConnections) {
  TLS_REQUIRE_TOOLS();
  std::string why;
  const std::optional<TlsTestPki> pki = tls_make_pki(&why);
  ASSERT_TRUE(pki) << why;
  MockServer mock({"--ttft-ms", "50", "--itl-ms", "5", "--output-tokens", "16"});
  const TlsFront front(mock.port(), pki->key, pki->cert,
                       {"--frontend-http2-max-concurrent-streams=10"});
  const BenchRun run =
      run_llmperf(tls_args(front.https_url(), {"--http2", "--cacert", pki->ca, "--parallel", "40",
                                               "-n", "120", "--threads", "1"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["succeeded"], 120) << run.summary["failure_examples"].dump();
  const Http2Tally t = tls_h2_tally(run);
  EXPECT_EQ(t.h2, 120);
  EXPECT_GE(t.fresh, 4) << "40 streams at 10 per connection";
}

TEST(Http2Front, PriorKnowledgeSpeaksH2cInClearText) {
  TLS_REQUIRE_TOOLS();
  std::string why;
  const std::optional<TlsTestPki> pki = tls_make_pki(&why);
  ASSERT_TRUE(pki) << why;
  MockServer mock({"--ttft-ms", "20", "--itl-ms", "2", "--output-tokens", "8"});
  const TlsFront front(mock.port(), pki->key, pki->cert);
  const BenchRun run =
      run_llmperf(tls_args(front.h2c_url(), {"--http2-prior-knowledge", "--parallel", "20", "-n",
                                             "60", "--threads", "1"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["succeeded"], 60) << run.summary["failure_examples"].dump();
  const Http2Tally t = tls_h2_tally(run);
  EXPECT_EQ(t.h2, 60);
  EXPECT_EQ(t.streamed, 60);
  if (h2c_reuse_broken()) {  // libcurl < 8.0.0: one connection per request, and a warning
    EXPECT_EQ(t.fresh, 60);
    EXPECT_TRUE(contains(run.process.err, "curl issue 10634")) << run.process.err;
  } else {
    EXPECT_LE(t.fresh, 2);
  }
  EXPECT_EQ(run.summary["http"]["phases_new_connection"]["tls_ms"]["max"], 0.0) << "clear text";
}

// llmperf-mock speaks HTTP/1.1 only: the run works, and says once that it was not HTTP/2.
TEST(Http2Front, AnHttp11AnswerToHttp2IsReportedOnce) {
  MockServer mock({"--output-tokens", "2"});
  const BenchRun run =
      run_llmperf(concat(base_args(mock), {"--http2", "-n", "10", "--parallel", "2"}));
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  EXPECT_EQ(run.summary["requests"]["succeeded"], 10);
  EXPECT_EQ(run.summary["http"]["protocols"], json({{"http/1.1", 10}}));
  const std::string& err = run.process.err;
  const size_t first = err.find("--http2 asked for HTTP/2, but the server answered 10 of 10");
  EXPECT_NE(first, std::string::npos) << err;
  EXPECT_EQ(err.find("asked for HTTP/2", first + 20), std::string::npos) << "said once: " << err;
}

}  // namespace
}  // namespace llmperf::testing
