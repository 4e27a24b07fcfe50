// llmperf's version: what --version prints, summary.json's "llmperf_version" and study.json's
// "version". CMakeLists.txt checks that it equals project()'s, which the package carries.
#pragma once

namespace llmperf {

inline constexpr const char* kLlmperfVersion = "0.1.0";

}  // namespace llmperf
