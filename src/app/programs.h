// Programs llmperf starts (llmperf-mock for `calibrate`, the server under test and nvidia-smi for
// `tune`): finding them on $PATH, and what a wait status says.
#pragma once

#include <string>

namespace llmperf {

// Whether `path` is a regular file this process may execute.
bool is_executable_file(const std::string& path);

// The path of `program` in the directories of $PATH ("" when it is in none); a name with a '/'
// is taken as a path and only checked.
std::string find_on_path(const std::string& program);

// A wait status as a shell shows it: the exit status, or 128 + the signal that killed the
// process; -1 for anything else.
int exit_code_of(int wait_status);

}  // namespace llmperf
