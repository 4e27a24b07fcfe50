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
  # It also reports a false -Wnull-dereference inside CLI11's detail::split (libstdc++'s
  # vector<string>::emplace_back on an empty vector) at -O1 and -O2, in some translation units of
  # llmperf_cli, the stage that includes CLI11, and not others, by what else they inline.
  target_compile_options(llmperf_warnings INTERFACE
    $<$<STREQUAL:$<TARGET_PROPERTY:NAME>,llmperf_cli>:-Wno-null-dereference>)
endif()
