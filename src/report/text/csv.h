// CSV quoting for every CSV file llmperf writes (sweep_summary.csv, sweep_table.csv,
// study_summary.csv). Private to src/report/.
#pragma once

#include <string>
#include <string_view>

namespace llmperf::report_detail {

// One CSV field (RFC 4180): `text` as it is, or in double quotes with each quote doubled when it
// holds a comma, a quote or a line break.
std::string csv_field(std::string_view text);

}  // namespace llmperf::report_detail
