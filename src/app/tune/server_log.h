// A trial's server.log read back: why the server failed to start (the first line of its own output
// that looks like an error, such as vLLM's `ValueError: max_num_batched_tokens (535) is smaller
// than max_model_len (32768) ...` or llama.cpp's `error: invalid argument: --bogus`), and its last
// lines, for the study ledger.
//
// llmperf writes lines of its own into server.log, each beginning with kLogMarker: one when it
// starts the server (kLogStartMarker), and a few while it stops it (kLogStopMarker). Both readers
// read only the section after the last start line, so that a trial run again on --resume (whose
// log is appended to) is judged by its own output, and in it only what the server wrote before
// llmperf began to stop it: the stop command's output and the server's shutdown noise (vLLM's
// CancelledError tracebacks, llama-server's "terminate called without an active exception") are
// not why it failed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace llmperf {

// The beginning of every line llmperf writes into server.log.
inline constexpr std::string_view kLogMarker = "[llmperf] ";
// The beginning of the line llmperf writes when it starts the server.
inline constexpr std::string_view kLogStartMarker = "[llmperf] start";
// The beginning of the lines llmperf writes while it stops the server (process_guardian.cpp).
inline constexpr std::string_view kLogStopMarker = "[llmperf] stop:";

// The line of `log_text` (a whole server.log, or its last section) that best says why the server
// failed, "" when none looks like an error. By preference, the first of:
//   1. an exception line: the last line of a Python traceback (`ValueError: ...`, also without a
//      message or a name ending in Error), or `<Name>Error: ...` / `<Name>Exception: ...` at the
//      start of a line or after a log prefix ending in "] ", ") " or ": " (the prefix is dropped
//      from the result, as is the prefix repeated on every line of a logged traceback);
//   2. a line logged at ERROR/CRITICAL/FATAL, or mentioning error, exception, fatal, panic,
//      "terminate called after throwing", a segmentation fault or running out of memory;
//   3. a line saying something failed, could not or cannot be done, was not found, no such file,
//      permission denied, address already in use, aborted, killed;
//   4. one of those logged at WARNING level.
// Lines logged at INFO, DEBUG or TRACE never count. Colour escapes and all but the last segment
// of a line rewritten with \r (progress bars) are dropped; the line is trimmed and cut at 1,000
// characters. A pydantic `N validation error for X` gets the next line (the message) appended,
// and C++'s "terminate called after throwing ..." the `what():` line after it.
std::string find_error_line(std::string_view log_text);

// The last `n` non-empty lines of `log_text`'s last section (before the stop), cleaned as above,
// each cut at 500 characters, oldest first.
std::vector<std::string> last_log_lines(std::string_view log_text, size_t n);

// Whether the last section of `log_text` (before the stop) says the server could not bind `port`:
// a line with "address already in use" or EADDRINUSE (vLLM's and SGLang's uvicorn, Node, Go,
// llmperf-mock), or one that mentions bind and the port (llama.cpp's "couldn't bind HTTP server
// socket, hostname: 127.0.0.1, port: 8080"), case aside.
bool says_port_taken(std::string_view log_text, int port);

// says_port_taken over the file (streamed: any size); false when it cannot be read.
bool log_says_port_taken(const std::string& log_path, int port);

// find_error_line over the file (streamed: any size); "" when the file cannot be read.
std::string first_error_line(const std::string& log_path);

// last_log_lines over the end of the file (at most its last MiB is read); empty when the file
// cannot be read.
std::vector<std::string> log_tail(const std::string& log_path, size_t n);

}  // namespace llmperf
