// HTTP phases from records to reports: HttpPhaseTally's split into new and reused connections
// and its protocol counts (metrics/http_phases.cpp), requests.jsonl's round trip of a record's
// phases, summary.json's "http" block, the text summary's line and --verbose table, and
// report.html's stacked chart (report/http_phases_view.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metrics/metrics.h"
#include "report/html/svg_chart.h"
#include "report/http_phases_view.h"
#include "report/internal.h"
#include "report/report.h"
#include "report/views.h"
#include "test_units.h"

namespace llmperf {
namespace {

// A successful request whose phases are given in ms; new connection when dns_ms > 0.
RequestRecord phased_record(uint64_t id, double dns_ms, double connect_ms, double tls_ms,
                            double wait_ms, double receive_ms) {
  RequestRecord r;
  r.id = id;
  r.sent_ns = static_cast<int64_t>(id) * kMs;
  r.first_byte_ns = r.sent_ns + kMs;
  r.end_ns = r.sent_ns + 10 * kMs;
  r.phases.measured = true;
  r.phases.new_connection = dns_ms > 0;
  r.phases.version = HttpVersion::kHttp11;
  r.phases.dns_ns = static_cast<int64_t>(dns_ms * kMs);
  r.phases.connect_ns = static_cast<int64_t>(connect_ms * kMs);
  r.phases.tls_ns = static_cast<int64_t>(tls_ms * kMs);
  r.phases.send_ns = kMs / 10;
  r.phases.wait_ns = static_cast<int64_t>(wait_ms * kMs);
  r.phases.receive_ns = static_cast<int64_t>(receive_ms * kMs);
  return r;
}

std::vector<RequestRecord> phased_run() {
  std::vector<RequestRecord> records = {
      phased_record(0, 1, 2, 3, 10, 100), phased_record(1, 1, 4, 5, 20, 100),
      phased_record(2, 0, 0, 0, 30, 200), phased_record(3, 0, 0, 0, 50, 200),
      phased_record(4, 0, 0, 0, 40, 200)};
  RequestRecord failed = phased_record(5, 1, 2, 0, 0, 0);  // refused at the TLS handshake
  failed.error = ErrorKind::kTransport;
  failed.phases.version = HttpVersion::kUnknown;
  records.push_back(failed);
  RequestRecord h2 = phased_record(6, 0, 0, 0, 10, 10);
  h2.phases.version = HttpVersion::kHttp2;
  records.push_back(h2);
  RequestRecord aborted;  // cancelled before curl finished: no phases
  aborted.id = 7;
  aborted.error = ErrorKind::kCancelled;
  records.push_back(aborted);
  return records;
}

TEST(HttpPhaseMetrics, SplitsNewAndReusedConnectionsAndCountsProtocols) {
  const RunSummary s = summarize(phased_run(), MetricsOptions{});
  const HttpPhaseSummary& h = s.http;
  EXPECT_EQ(h.new_connections, 3);     // two successes and the failed handshake
  EXPECT_EQ(h.reused_connections, 4);  // the aborted request had no phases
  EXPECT_EQ(h.protocols, (std::map<std::string, int64_t>{{"h2", 1}, {"http/1.1", 5}}));
  EXPECT_EQ(h.fresh.requests, 2);
  EXPECT_EQ(h.reused.requests, 4);
  EXPECT_DOUBLE_EQ(h.fresh.connect_ns.mean, 3 * kMs);
  EXPECT_DOUBLE_EQ(h.fresh.tls_ns.mean, 4 * kMs);
  EXPECT_DOUBLE_EQ(h.reused.connect_ns.max, 0);
  EXPECT_DOUBLE_EQ(h.reused.wait_ns.mean, 32.5 * kMs);  // (30 + 50 + 40 + 10) / 4
  // The total of each request is the sum of its phases: 1 + 2 + 3 + 0.1 + 10 + 100, ...
  EXPECT_EQ(h.fresh.total_ns.min, 116'100'000.0);
}

TEST(HttpPhaseRecords, PhasesSurviveRequestsJsonl) {
  RunInfo info;
  const RequestRecord record = phased_record(3, 1.5, 2, 3, 10, 100);
  const std::string line = record_to_json(record, info);
  EXPECT_NE(line.find(R"("connection":"new","http_version":"http/1.1","phases_ns":{"dns":1500000,)"
                      R"("connect":2000000,"tls":3000000,"send":100000,"wait":10000000,)"
                      R"("receive":100000000})"),
            std::string::npos)
      << line;
  const RequestRecord back = record_from_json(line);
  EXPECT_TRUE(back.phases.measured);
  EXPECT_TRUE(back.phases.new_connection);
  EXPECT_EQ(back.phases.version, HttpVersion::kHttp11);
  EXPECT_EQ(back.phases.dns_ns, record.phases.dns_ns);
  EXPECT_EQ(back.phases.receive_ns, record.phases.receive_ns);
  EXPECT_EQ(record_to_json(back, info), line);
  // A record without phases (aborted, or from an older file) writes and reads none.
  RequestRecord plain;
  const std::string no_phases = record_to_json(plain, info);
  EXPECT_EQ(no_phases.find("phases_ns"), std::string::npos);
  EXPECT_FALSE(record_from_json(no_phases).phases.measured);
  EXPECT_THROW(record_from_json(R"({"id":1,"connection":"new","phases_ns":{"dns":"x"}})"),
               std::runtime_error);
}

TEST(HttpPhaseReports, SummaryJsonTextAndHtml) {
  RunSummary s = summarize(phased_run(), MetricsOptions{});
  const auto j = report_detail::http_json(s);
  EXPECT_EQ(j["connections"]["new"], 3);
  EXPECT_EQ(j["connections"]["reused"], 4);
  EXPECT_EQ(j["protocols"]["http/1.1"], 5);
  EXPECT_EQ(j["phases_new_connection"]["requests"], 2);
  EXPECT_DOUBLE_EQ(j["phases_new_connection"]["tls_ms"]["mean"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(j["phases_reused_connection"]["wait_ms"]["mean"].get<double>(), 32.5);
  EXPECT_NE(j["phases_reused_connection"]["dns_ms"].dump().find("\"p99\""), std::string::npos);

  const std::string line = report_detail::http_phases_line(s);
  EXPECT_EQ(line,
            "HTTP phases (mean ms, dns/connect/tls/send/wait/receive): new connection 2: "
            "1/3/4/0.1/15/100 · reused 4: 0/0/0/0.1/32.5/152.5 · h2 1 · http/1.1 5\n");
  const std::string table = report_detail::http_phases_table(s);
  EXPECT_NE(table.find("TLS handshake"), std::string::npos) << table;
  EXPECT_NE(table.find("New: mean"), std::string::npos) << table;

  ReportOptions options;
  options.model = "m";
  RunInfo info;
  const std::string quiet = render_text_summary(options, info, s);
  EXPECT_NE(quiet.find(line), std::string::npos) << quiet;
  EXPECT_EQ(quiet.find("TLS handshake"), std::string::npos);
  options.verbose = true;
  EXPECT_NE(render_text_summary(options, info, s).find("TLS handshake"), std::string::npos);

  const std::string svg = report_detail::http_phases_svg(s);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("new (2)"), std::string::npos);
  EXPECT_NE(svg.find("TLS handshake: 4 ms"), std::string::npos) << svg;
  EXPECT_NE(report_detail::render_run_html(options, info, s, RunTrace{}).find("HTTP phases"),
            std::string::npos);

  // No phases at all (a run rebuilt from an older requests.jsonl): nothing is shown.
  const RunSummary none = summarize({RequestRecord{}}, MetricsOptions{});
  EXPECT_TRUE(report_detail::http_json(none).is_null());
  EXPECT_EQ(report_detail::http_phases_line(none), "");
  EXPECT_EQ(report_detail::http_phases_svg(none), "");
}

}  // namespace
}  // namespace llmperf
