// The server under test as a process of `llmperf tune`: started from a command line through
// `/bin/sh -c` with its output appended to the trial's server.log, in a process group of its own;
// ready when GET /health (or /v1/models) answers 2xx; stopped with the stop command (if any), then
// SIGTERM to its whole group, then SIGKILL after the stop timeout; gone when every process of it
// has been reaped and nothing listens on its port (and, when the user's command fixes the port,
// once the next server could bind it again).
//
// No server process outlives llmperf, whatever happens: a guardian process stands between llmperf
// and the server (process_guardian.h). It stops the server when llmperf asks (stop(), the
// destructor, stop_all_servers() on the interrupt and exit paths) and also when llmperf dies
// without asking: a crash or SIGKILL closes llmperf's end of the guardian's control pipe, and
// PR_SET_PDEATHSIG sends the guardian SIGTERM. As a child subreaper it also catches the server's
// descendants that leave its process group (daemons, `setsid`), and kills them too.
//
// PR_SET_PDEATHSIG fires when the *thread* that forked the guardian exits, not only the process:
// construct a ServerProcess on a thread that outlives it (the study's own thread or main).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

namespace llmperf {

// The server could not be started at all (no log file, no fork); what() says why. A server that
// starts and then exits is no error here: wait_ready() reports it.
class ServerStartError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What to start and how to stop it.
struct ServerSpec {
  std::string command;       // the --serve command, placeholders filled in: run as sh -c COMMAND
  std::string stop_command;  // --stop-cmd, filled in, also through sh -c; "" when none
  std::string log_path;      // the trial's server.log: the server's stdout and stderr, appended
  std::string host = "127.0.0.1";    // where the readiness probes and the port check go
  int port = 0;                      // the port it serves ({port}); 0: no probes, no port check
  // The port is not one picked for this server ({port}) but fixed by the user's command, so the
  // next server binds it again: stop() waits until it could (port_is_free), which may take up to
  // a minute after a server that leaves connections in TIME_WAIT. A port of its own only has to
  // have nothing listening on it: the next trial gets another one.
  bool fixed_port = false;
  int64_t stop_timeout_ms = 30'000;  // --stop-timeout: the stop command's budget, then SIGTERM's
  // How long stop() waits for a fixed port once every process is gone: beyond the kernel's 60 s
  // of TIME_WAIT.
  int64_t port_free_timeout_ms = 75'000;
};

// How waiting for the server to be ready ended.
enum class ReadyOutcome {
  kReady,        // GET /health or /v1/models answered 2xx
  kExited,       // the server's main process exited first (a start failure)
  kTimedOut,     // not ready within the ready timeout
  kInterrupted,  // the interrupt callback said so, or stop() was called meanwhile
};
const char* to_string(ReadyOutcome outcome);  // "ready", "exited", "timed_out", "interrupted"

struct ReadyOptions {
  int64_t timeout_ms = 900'000;      // --ready-timeout, counted from the server's start
  int64_t poll_interval_ms = 250;    // pause between two probes
  int64_t probe_timeout_ms = 5'000;  // longest wait for one probe's answer
  // Asked every 50 ms at most; true gives up at once (Ctrl-C). May be empty.
  std::function<bool()> interrupted;
};

struct ReadyResult {
  ReadyOutcome outcome = ReadyOutcome::kTimedOut;
  double elapsed_s = 0;    // from the server's start to the outcome: the time to ready if kReady
  std::string endpoint;    // kReady: the path that answered, "/health" or "/v1/models"
  int exit_code = -1;      // kExited: the exit status, or 128 + the signal that killed it
  std::string exit_text;   // kExited: "exited with status 1", "killed by signal 6 (SIGABRT)"
  std::string error_line;  // kExited: first_error_line(server.log), "" when no line looks like one
  // Why it is not ready, for the ledger: kExited: error_line, or "the server <exit_text> before it
  // was ready" when there is none; kTimedOut: how long and what the last probe got; kInterrupted:
  // "interrupted". "" when kReady.
  std::string reason;
};

struct StopResult {
  bool stop_command_ran = false;
  int stop_command_status = 0;   // its exit status (128 + signal); -1 when killed at the timeout
  bool terminated = false;       // SIGTERM went to the server's group
  bool killed = false;           // something still ran at the stop timeout and got SIGKILL
  bool gone = false;             // every process of the server was reaped: its group is gone
  // Nothing listens on the port and, for a fixed port, the next server could bind it (always true
  // when port is 0).
  bool port_free = false;
  std::optional<int> exit_code;  // the main process's exit status (128 + signal), when known
  double elapsed_s = 0;          // how long the stop took
};

class ServerProcess {
 public:
  // Starts the server: appends a "[llmperf] start ..." line to server.log (server_log.h), forks
  // the guardian, which starts `sh -c COMMAND`. Returns once the server's process exists. Throws
  // ServerStartError. The server is registered for stop_all_servers() until destroyed.
  explicit ServerProcess(ServerSpec spec);
  ~ServerProcess();  // stop(), then unregisters
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // Polls GET http://HOST:PORT/health (and /v1/models when /health is 404, 405 or 501) until one
  // answers 2xx. Returns at once (within milliseconds, not at the next probe) when the server's
  // main process exits first, after options.timeout_ms from the start, and within 50 ms of
  // options.interrupted() turning true. Called once, on the thread that owns the object.
  ReadyResult wait_ready(const ReadyOptions& options);

  // The main process's exit status (128 + signal when killed) once it has exited, without
  // waiting; nullopt while it runs. A server that dies during the benchmark shows here.
  std::optional<int> exit_code();

  // Stops the server (see the top of this file) and waits until every process of it is gone.
  // Then it checks, without waiting, that nothing listens on its port; a fixed port it waits for
  // until a server could bind it (at most port_free_timeout_ms), saying why in the log and in
  // server.log. Warns when something still listens. Blocks for at most the stop command's and
  // SIGTERM's timeouts plus a few seconds (and, for a fixed port, port_free_timeout_ms).
  // Idempotent: later calls return the first call's result at once. Callable from any thread.
  StopResult stop();

  pid_t process_group() const { return pgid_; }  // the server's group: its main process's pid
  pid_t guardian_pid() const { return guardian_; }
  const ServerSpec& spec() const { return spec_; }

 private:
  void read_messages_locked();  // whatever the guardian has said so far, without blocking
  std::string ready_url(const char* path) const;
  void release();  // closes the descriptors, reaps the guardian if it is done
  // stop()'s fallback when the guardian did not report every process gone: SIGTERM to the group
  // (when the guardian died), SIGKILL after the stop timeout; true once the group is gone.
  bool stop_group_without_guardian();
  // stop()'s port check once every process is gone (StopResult::port_free).
  bool port_free_after_stop();
  // Appends "[llmperf] stop: TEXT" to server.log (the guardian's lines say what it did; this,
  // what llmperf waits for after it).
  void append_log_line(const std::string& text) const;

  ServerSpec spec_;
  int64_t start_ns_ = 0;
  pid_t guardian_ = -1;
  pid_t pgid_ = -1;
  int control_fd_ = -1;  // write end of the guardian's control pipe: closing it means "stop"
  int status_fd_ = -1;   // read end of its status pipe (non-blocking), open until destruction
  int guardian_pidfd_ = -1;

  std::mutex mutex_;                // guards what follows and the reading of status_fd_
  std::string partial_;             // a message read in part
  std::optional<int> exit_status_;  // the main process's wait status, once reported
  bool guardian_closed_ = false;    // EOF on the status pipe: the guardian exited
  bool guardian_reaped_ = false;
  bool all_gone_ = false;  // the guardian reported every process reaped
  std::atomic<bool> stopping_{false};
  bool stopped_ = false;
  StopResult stop_result_;
};

// Stops every ServerProcess alive in this process (blocking, as stop()): for the interrupt path
// and fatal errors. The guardians stop them anyway should llmperf exit without calling it; calling
// it makes llmperf wait until they are gone and their ports are free.
void stop_all_servers();

}  // namespace llmperf
