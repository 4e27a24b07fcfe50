// server.log read back: the reason of a start failure (the first line of the server's own output
// that looks like an error) on the shapes real servers write, and the log's last lines.
#include "app/tune/server_log.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace llmperf {
namespace {

// vLLM 0.5/0.6: the engine's arguments are checked in the API server's own process; the Python
// traceback ends with the exception line of the field report.
constexpr const char* kVllmTraceback =
    R"(INFO 07-15 10:00:00 api_server.py:212] vLLM API server version 0.5.1
INFO 07-15 10:00:00 api_server.py:213] args: Namespace(host=None, port=8000, max_num_batched_tokens=535, enable_chunked_prefill=False, disable_log_stats=False, max_log_len=None)
WARNING 07-15 10:00:01 utils.py:580] Failed to get the IP address, using 0.0.0.0 by default.
Traceback (most recent call last):
  File "/usr/lib/python3.10/runpy.py", line 196, in _run_module_as_main
    return _run_code(code, main_globals, None,
  File "/usr/local/lib/python3.10/dist-packages/huggingface_hub/utils/_errors.py", line 304, in hf_raise_for_status
    response.raise_for_status()
  File "/usr/local/lib/python3.10/dist-packages/vllm/config.py", line 727, in _verify_args
    raise ValueError(
ValueError: max_num_batched_tokens (535) is smaller than max_model_len (32768). This effectively limits the maximum sequence length to max_num_batched_tokens and makes vLLM reject longer sequences. Please increase max_num_batched_tokens or decrease max_model_len.
)";

// vLLM V1: the engine core fails in its own process, which logs the traceback at ERROR with a
// prefix on every line; the API server then raises a RuntimeError pointing at it.
constexpr const char* kVllmEngineCore =
    R"((APIServer pid=1) INFO 08-01 12:00:00 [api_server.py:1805] vLLM API server version 0.10.0
(EngineCore_0 pid=77) ERROR 08-01 12:00:05 [core.py:632] EngineCore failed to start.
(EngineCore_0 pid=77) ERROR 08-01 12:00:05 [core.py:632] Traceback (most recent call last):
(EngineCore_0 pid=77) ERROR 08-01 12:00:05 [core.py:632]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 623, in run_engine_core
(EngineCore_0 pid=77) ERROR 08-01 12:00:05 [core.py:632]     engine_core = EngineCoreProc(*args, **kwargs)
(APIServer pid=1) INFO 08-01 12:00:05 [async_llm.py:270] Waiting for the engine core
(EngineCore_0 pid=77) ERROR 08-01 12:00:05 [core.py:632]     raise ValueError(
(EngineCore_0 pid=77) ERROR 08-01 12:00:05 [core.py:632] ValueError: To serve at least one request with the models's max seq len (32768), (3.50 GiB KV cache is needed, which is larger than the available KV cache memory (1.20 GiB).
(EngineCore_0 pid=77) Process EngineCore_0:
(APIServer pid=1) Traceback (most recent call last):
(APIServer pid=1)   File "/usr/local/bin/vllm", line 10, in <module>
(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
)";

// Recent vLLM checks its configuration with pydantic: the message is on the next line.
constexpr const char* kVllmPydantic = R"(Traceback (most recent call last):
  File "/usr/local/bin/vllm", line 8, in <module>
    sys.exit(main())
             ^^^^^^
pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig
  Value error, max_num_batched_tokens (535) is smaller than max_model_len (32768). [type=value_error, input_value=ArgsKwargs((), {'runner_type': 'generate'}), input_type=ArgsKwargs]
    For further information visit https://errors.pydantic.dev/2.11/v/value_error
)";

TEST(ServerLog, VllmTracebackGivesItsExceptionLine) {
  EXPECT_EQ(find_error_line(kVllmTraceback),
            "ValueError: max_num_batched_tokens (535) is smaller than max_model_len (32768). This "
            "effectively limits the maximum sequence length to max_num_batched_tokens and makes "
            "vLLM reject longer sequences. Please increase max_num_batched_tokens or decrease "
            "max_model_len.");
}

TEST(ServerLog, PrefixedEngineCoreTracebackGivesTheRootCauseWithoutThePrefix) {
  EXPECT_EQ(find_error_line(kVllmEngineCore),
            "ValueError: To serve at least one request with the models's max seq len (32768), "
            "(3.50 GiB KV cache is needed, which is larger than the available KV cache memory "
            "(1.20 GiB).");
}

TEST(ServerLog, PydanticValidationErrorGetsItsMessageLine) {
  EXPECT_EQ(find_error_line(kVllmPydantic),
            "pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig "
            "- Value error, max_num_batched_tokens (535) is smaller than max_model_len (32768).");
}

TEST(ServerLog, TracebackEndingInABareNameCounts) {
  EXPECT_EQ(find_error_line("Traceback (most recent call last):\n  File \"a.py\", line 1\n"
                            "    assert n > 0\nAssertionError\n"),
            "AssertionError");
  EXPECT_EQ(find_error_line("Traceback (most recent call last):\n  File \"a.py\", line 1\n"
                            "KeyboardInterrupt\n"),
            "KeyboardInterrupt");
}

// llama.cpp's llama-server (../shared/llama-server, Feb 2025), as it writes them.
TEST(ServerLog, LlamaServerStartFailures) {
  EXPECT_EQ(find_error_line("error: invalid argument: --bogus-flag\n"),
            "error: invalid argument: --bogus-flag");
  EXPECT_EQ(find_error_line("gguf_init_from_file: failed to open GGUF file 'missing.gguf'\n"
                            "terminate called without an active exception\n"),
            "gguf_init_from_file: failed to open GGUF file 'missing.gguf'");
  EXPECT_EQ(
      find_error_line(
          "main: loading model\n"
          "load: special_eos_id is not in special_eog_ids - the tokenizer config may be "
          "incorrect\n"
          "llama_init_from_model: n_ctx_pre_seq (2000000000) > n_ctx_train (4096) -- possible "
          "training context overflow\n"
          "terminate called after throwing an instance of 'std::bad_alloc'\n"
          "  what():  std::bad_alloc\n"),
      "terminate called after throwing an instance of 'std::bad_alloc' - what():  "
      "std::bad_alloc");
  // Older builds: the loader's error line comes before the lines that merely say it failed.
  EXPECT_EQ(find_error_line("llama_model_load: error loading model: llama_model_loader: failed "
                            "to load model from m.gguf\n"
                            "common_init_from_params: failed to load model 'm.gguf'\n"
                            "main: exiting due to model loading error\n"),
            "llama_model_load: error loading model: llama_model_loader: failed to load model "
            "from m.gguf");
  // A CUDA build on a machine without a GPU warns with "failed" first; the error line still wins.
  EXPECT_EQ(find_error_line("ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device\n"
                            "main: error: unknown model architecture: 'foo'\n"),
            "main: error: unknown model architecture: 'foo'");
}

TEST(ServerLog, OtherServersAndShells) {
  EXPECT_EQ(find_error_line("sh: 1: vllm: not found\n"), "sh: 1: vllm: not found");
  EXPECT_EQ(find_error_line("2024-05-01T10:00:00.000000Z  INFO text_generation_launcher: Args\n"
                            "2024-05-01T10:00:09.000000Z ERROR text_generation_launcher: Shard 0 "
                            "failed to start\n"),
            "2024-05-01T10:00:09.000000Z ERROR text_generation_launcher: Shard 0 failed to start");
  EXPECT_EQ(find_error_line("listening\npanic: runtime error: index out of range [3]\n"),
            "panic: runtime error: index out of range [3]");
  EXPECT_EQ(find_error_line("thread 'main' panicked at router/src/main.rs:10:5:\n"),
            "thread 'main' panicked at router/src/main.rs:10:5:");
  EXPECT_EQ(find_error_line("Error: listen EADDRINUSE: address already in use :::8000\n"),
            "Error: listen EADDRINUSE: address already in use :::8000");
  EXPECT_EQ(find_error_line("[2025-01-01 10:00:00] [error] cannot bind port\n"),
            "[2025-01-01 10:00:00] [error] cannot bind port");
}

TEST(ServerLog, InformationAndWarningsAreNotReasonsWhileAnErrorIsThere) {
  EXPECT_EQ(find_error_line("INFO:     Started server process [123]\n"
                            "INFO 01-01 10:00:00 [arg_utils.py:1] error_log=none, 0 errors\n"
                            "DEBUG retrying after failure\n"),
            "");
  EXPECT_EQ(find_error_line("WARNING 01-01 10:00:00 [x.py:1] Failed to import triton\n"
                            "plain output line\n"),
            "WARNING 01-01 10:00:00 [x.py:1] Failed to import triton");
  EXPECT_EQ(find_error_line("WARNING 01-01 10:00:00 [x.py:1] Failed to import triton\n"
                            "RuntimeError: no GPU\n"),
            "RuntimeError: no GPU");
  EXPECT_EQ(find_error_line("starting\nready\n"), "");
  EXPECT_EQ(find_error_line(""), "");
}

TEST(ServerLog, ColoursProgressBarsAndLengthAreCleaned) {
  EXPECT_EQ(find_error_line("\x1b[31mERROR\x1b[0m boom\n"), "ERROR boom");
  EXPECT_EQ(find_error_line("Loading: 10%\rLoading: 50%\rfatal: disk full\r\n"),
            "fatal: disk full");
  const std::string long_line = "error: " + std::string(3000, 'x');
  const std::string reason = find_error_line(long_line);
  EXPECT_EQ(reason.size(), 1003u);
  EXPECT_TRUE(reason.ends_with("..."));
}

TEST(ServerLog, LlmperfLinesAreSkippedAndOnlyTheLastStartCounts) {
  const std::string log = std::string(kLogStartMarker) +
                          " 2025-01-01T00:00:00Z port 8000\n"
                          "ValueError: the first attempt failed\n"
                          "[llmperf] stop: SIGTERM to process group 12\n" +
                          std::string(kLogStartMarker) +
                          " 2025-01-02T00:00:00Z port 8001\n"
                          "loading\n"
                          "[llmperf] error-looking line of llmperf's own\n"
                          "serving\n";
  EXPECT_EQ(find_error_line(log), "");
  EXPECT_EQ(last_log_lines(log, 5), (std::vector<std::string>{"loading", "serving"}));
}

TEST(ServerLog, WhatComesAfterTheStopBeganDoesNotCount) {
  const std::string log = std::string(kLogStartMarker) +
                          " 2025-01-01T00:00:00Z port 8000\n"
                          "INFO serving\n"
                          "WARNING slow request\n" +
                          std::string(kLogStopMarker) +
                          " running the stop command\n"
                          "Error response from daemon: No such container: llmperf-3\n" +
                          std::string(kLogStopMarker) +
                          " SIGTERM to process group 12\n"
                          "asyncio.exceptions.CancelledError\n"
                          "terminate called without an active exception\n";
  EXPECT_EQ(find_error_line(log), "");
  EXPECT_EQ(last_log_lines(log, 5),
            (std::vector<std::string>{"INFO serving", "WARNING slow request"}));
}

TEST(ServerLog, LastLinesKeepTheNewestNonEmptyOnes) {
  EXPECT_EQ(last_log_lines("a\n\nb\r\nc  \n\x1b[1md\x1b[0m\n", 3),
            (std::vector<std::string>{"b", "c", "d"}));
  EXPECT_EQ(last_log_lines("a\nb", 10), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(last_log_lines("a\nb\n", 0).empty());
  EXPECT_EQ(last_log_lines(std::string(800, 'y'), 1).at(0).size(), 503u);
}

class ServerLogFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "llmperf-server-log-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& text) {
    const std::string path = dir_ + "/server.log";
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string dir_;
};

TEST_F(ServerLogFile, ReadsTheFileAndItsTail) {
  const std::string path = write(kVllmTraceback);
  EXPECT_TRUE(first_error_line(path).starts_with("ValueError: max_num_batched_tokens (535)"));
  const std::vector<std::string> tail = log_tail(path, 2);
  ASSERT_EQ(tail.size(), 2u);
  EXPECT_EQ(tail[0], "raise ValueError(");
  EXPECT_TRUE(tail[1].starts_with("ValueError: max_num_batched_tokens"));
  EXPECT_EQ(first_error_line(dir_ + "/absent.log"), "");
  EXPECT_TRUE(log_tail(dir_ + "/absent.log", 3).empty());
}

// A port of the trial's own that another process bound first: the lines real servers write.
TEST(ServerLog, SaysWhenTheServerCouldNotBindItsPort) {
  // llama.cpp's server (b4000 and later), as it exits.
  EXPECT_TRUE(
      says_port_taken("main: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 57895\n"
                      "srv    operator(): operator(): cleaning up before exit...\n",
                      57895));
  // vLLM's and SGLang's uvicorn; Python's own OSError; llmperf-mock; Node.
  EXPECT_TRUE(
      says_port_taken("ERROR:    [Errno 98] error while attempting to bind on address "
                      "('0.0.0.0', 8000): address already in use\n",
                      8000));
  EXPECT_TRUE(says_port_taken("OSError: [Errno 98] Address already in use\n", 8000));
  EXPECT_TRUE(says_port_taken(
      "llmperf-mock: cannot listen on 127.0.0.1:47679: bind: Address already in use\n", 47679));
  EXPECT_TRUE(says_port_taken("Error: listen EADDRINUSE: :::3000\n", 3000));
  // A bind line about another port, or a port inside a longer number, is not this port's.
  EXPECT_FALSE(says_port_taken("main: couldn't bind HTTP server socket, port: 57895\n", 5789));
  EXPECT_FALSE(says_port_taken("main: couldn't bind HTTP server socket, port: 157895\n", 57895));
  EXPECT_FALSE(says_port_taken("ValueError: no such model\n", 8000));
  // Only the last start's section before the stop counts.
  EXPECT_FALSE(
      says_port_taken("[llmperf] start 2026-12-07T00:00:00Z port 8000\n"
                      "OSError: [Errno 98] Address already in use\n"
                      "[llmperf] start 2026-12-07T00:00:01Z port 9000\n"
                      "ValueError: out of memory\n",
                      8000));
  EXPECT_FALSE(
      says_port_taken("[llmperf] start 2026-12-07T00:00:00Z port 8000\n"
                      "[llmperf] stop: SIGTERM to the server's group\n"
                      "OSError: [Errno 98] Address already in use\n",
                      8000));
}

TEST_F(ServerLogFile, ReadsWhetherThePortWasTaken) {
  EXPECT_TRUE(log_says_port_taken(write("OSError: [Errno 98] Address already in use\n"), 8000));
  EXPECT_FALSE(log_says_port_taken(write("ValueError: no such model\n"), 8000));
  EXPECT_FALSE(log_says_port_taken(dir_ + "/absent.log", 8000));
}

TEST_F(ServerLogFile, TailOfALongLogReadsOnlyItsEnd) {
  std::string text;
  for (int i = 0; i < 100'000; ++i) text += "line " + std::to_string(i) + " of a long log\n";
  const std::string path = write(text);  // about 2.2 MB: longer than the tail's window
  EXPECT_EQ(log_tail(path, 2),
            (std::vector<std::string>{"line 99998 of a long log", "line 99999 of a long log"}));
}

}  // namespace
}  // namespace llmperf
