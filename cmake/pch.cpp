// The one source of the targets that make precompiled headers (llmperf_pch in CMakeLists.txt,
// llmperf_test_pch in tests/CMakeLists.txt; LLMPERF_PCH): they exist to make the header the other
// targets reuse, and compile nothing of their own.
