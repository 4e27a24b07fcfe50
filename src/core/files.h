// Writing files safely, for every stage that writes one: whole files atomically (a temporary file
// in the same directory, then rename, so a reader never sees half of one), and the POSIX steps
// that a file streamed over a run (requests.jsonl) takes itself.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace llmperf {

// Writes `content` to `path` atomically: a temporary file in the same directory, then rename.
// Throws std::runtime_error "cannot write PATH: why".
void write_file_atomic(const std::string& path, const std::string& content);

// Writes all of `data` to `fd`, retrying on EINTR; returns 0 or the errno of the failure.
int write_all_fd(int fd, std::string_view data);

// fsync()s and closes `fd` (always closing it); returns 0 or the errno of the first failure.
int sync_and_close_fd(int fd);

// The error every file writer throws: "cannot write PATH: strerror(error)".
std::runtime_error file_write_error(const std::string& path, int error);

}  // namespace llmperf
