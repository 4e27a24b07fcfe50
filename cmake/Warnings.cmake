# llmperf_warnings: an INTERFACE target carrying the project's warning flags.
add_library(llmperf_warnings INTERFACE)
target_compile_options(llmperf_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
  -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough>)
if(LLMPERF_WERROR)
  target_compile_options(llmperf_warnings INTERFACE -Werror)
endif()
# GCC 12 reports false -Wrestrict positives inside libstdc++'s std::string concatenation at -O2
# (GCC bug 105329); they are not in our code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(llmperf_warnings INTERFACE -Wno-restrict)
endif()
