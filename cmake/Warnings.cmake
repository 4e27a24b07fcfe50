# llmperf_warnings: an INTERFACE target carrying the project's warning flags.
add_library(llmperf_warnings INTERFACE)
target_compile_options(llmperf_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
  -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough>)
if(LLMPERF_WERROR)
  target_compile_options(llmperf_warnings INTERFACE -Werror)
endif()
