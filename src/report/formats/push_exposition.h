// --push-gateway's two texts: a run's live figures in Prometheus' text exposition format 0.0.4
// (what a Pushgateway accepts), and the Pushgateway URL path of a grouping key
// (/metrics/job/<job>/<label>/<value>..., values that need it in the @base64 form). Pure: the app
// stage pushes them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "metrics/live_figures.h"
#include "report/report.h"

namespace llmperf {

// A grouping key's labels, in order: (name, value).
using PushLabels = std::vector<std::pair<std::string, std::string>>;

// The figures as exposition text: llmperf_requests_total{outcome=...}, llmperf_requests_in_flight,
// llmperf_input_tokens_total, llmperf_output_tokens_total, llmperf_run_finished, and the summaries
// llmperf_ttft_seconds, llmperf_itl_seconds and llmperf_latency_seconds (quantile lines over the
// window, NaN when it was empty; _sum and _count over the run). Each with # HELP and # TYPE.
std::string push_exposition_text(const LiveFigures& figures);

// `value` as a label value inside double quotes: \ " and newline escaped.
std::string exposition_label_value(std::string_view value);

// "/metrics/job/<job>/<name>/<value>/...": a job or value made only of letters, digits and
// "-._~" is written as it is; any other (a "/", a space, UTF-8, empty) as <name>@base64/<value in
// RFC 4648 URL-safe base64>, "=" for an empty value, as the Pushgateway's README asks.
std::string push_grouping_path(std::string_view job, const PushLabels& labels);

// The text summary's line: "Pushgateway: 12 pushes to URL, 0 failed".
std::string render_push_gateway_text(const RunInfo::PushGateway& push);

// RFC 4648 §5 (URL- and filename-safe alphabet), padded.
std::string base64url(std::string_view bytes);

}  // namespace llmperf
