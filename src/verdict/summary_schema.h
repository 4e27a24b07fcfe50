// summary.json's schema name: written by report/summary_json.cpp, checked by the baseline reader
// (verdict/baseline.cpp). It lives in the verdict stage, the lowest that both can include.
#pragma once

namespace llmperf {

inline constexpr const char* kSummarySchema = "llmperf.summary/1";

}  // namespace llmperf
