// The one validated configuration of an llmperf invocation: what the user asked for. CLI11 binds
// flags to these fields (cli/cli.cpp), resolve_config completes what the flags leave implicit (the
// API from the URL, which flags were given) and validate_config checks it; nothing else sees argv.
// run_benchmark takes a Config as it is: what the server and the workload settle before the first
// run (the model without --model, a trace's -n and rate) goes into plan/run_plan.h's
// BenchmarkPlan. (`llmperf tune` and `llmperf calibrate` write a Config of their own for each run
// they ask for.) Defaults live here and follow EvalScope's `perf` defaults.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/run_types.h"

namespace llmperf {

// vLLM's result-file flags (`vllm bench serve` / benchmark_serving.py): what vllm_result.json
// says about the run, and where a copy goes under vLLM's name.
struct VllmResultOptions {
  std::string backend;    // --backend as given ("": from the API); "backend" and "endpoint_type"
  std::string label;      // --label ("": null in the file; the backend in the default file name)
  std::string model_id;   // --model when --served-model-name names the model sent ("": --model)
  std::string tokenizer;  // --tokenizer: accepted (tokens are counted by the server); tokenizer_id
  std::vector<std::pair<std::string, std::string>> metadata;  // --metadata KEY=VALUE, in order
  bool save = false;      // --save-result (or --result-dir / --result-filename): write the copy
  bool detailed = false;  // the copy keeps the per-request arrays (always without `bench serve`)
  std::string dir;        // --result-dir ("": the working directory)
  std::string filename;   // --result-filename ("": vLLM's {label}-{rate}qps...-{date}.json)
};

struct Config {
  // --- target ---
  // --api: openai (chat, completions, embeddings, rerank or responses by the URL path), or
  // EvalScope's openai_embedding | openai_rerank | openai_responses, which name the API outright.
  std::string api = "openai";
  std::string url = "http://127.0.0.1:8000/v1/chat/completions";  // --url (the first, if several)
  // --url given more than once: every replica's URL, in the order given (urls[0] == url); empty
  // with one --url. Requests are spread over them by --url-policy.
  std::vector<std::string> urls;
  std::string url_policy = "round-robin";  // --url-policy: round-robin | least-inflight
  std::string model;    // --model ("": the one model the server's /v1/models lists)
  std::string api_key;  // --api-key or $OPENAI_API_KEY; secret, never written anywhere
  std::vector<std::pair<std::string, std::string>> headers;  // --headers k=v ...
  bool insecure = false;  // --insecure: skip TLS certificate verification
  std::string cacert;     // --cacert: CA bundle (PEM) to verify the server with; empty = system's
  bool http2 = false;     // --http2: HTTP/2 over TLS (ALPN h2), streams multiplexed
  bool http2_prior_knowledge = false;  // --http2-prior-knowledge: HTTP/2 in clear text (h2c)
  // --max-streams-per-connection: HTTP/2 streams carried at once by one connection; 0: as many
  // as the server allows (its SETTINGS_MAX_CONCURRENT_STREAMS).
  int64_t max_streams_per_connection = 0;
  double ready_timeout_s = 0;  // --ready-check-timeout-sec: wait for /v1/models to answer (0: no)

  // --- dataset ---
  std::string dataset = "openqa";  // --dataset: a kind of dataset file, or random
  std::string dataset_path;        // --dataset-path
  std::string prompt;              // --prompt: fixed prompt text ("@file" already resolved)
  int64_t min_prompt_length = 0;   // --min-prompt-length, Unicode code points, inclusive (tokens,
                                   // the input length range, for random)
  int64_t max_prompt_length = std::numeric_limits<int64_t>::max();  // --max-prompt-length

  // --- synthetic workloads: --dataset random (speed_benchmark is a preset of it) ---
  std::vector<int64_t> input_tokens;   // --input-tokens: fixed input lengths; a list makes a grid
  std::vector<int64_t> output_tokens;  // --output-tokens: fixed output lengths; a list makes a grid
  int64_t prefix_length = 0;           // --prefix-length: shared prefix tokens, on top of the input
  // --dataset shared_prefix (SGLang's generated-shared-prefix): --prefix-groups system prompts of
  // --prefix-length tokens, each request one group's prefix + a question of --input-tokens.
  int64_t prefix_groups = 8;       // --prefix-groups G
  int64_t prompts_per_group = 0;   // --prompts-per-group P: questions per group, cycled (0: a new
                                   // question for every request)
  double prefix_zipf = 0;          // --prefix-zipf s: group popularity ~ 1/rank^s (0: uniform)
  std::optional<bool> ignore_eos;      // --ignore-eos/--no-ignore-eos; validation resolves the
                                       // default: on for synthetic workloads, off otherwise
  bool tokenize_prompt = false;        // --tokenize-prompt: send token ids to /v1/completions
  std::string tokenize_url;            // --tokenize-url: base URL of /tokenize (default: --url's)
  std::string tokenizer_path;          // --tokenizer-path: accepted (EvalScope), not needed

  // --- embeddings, rerank and images ---
  int64_t batch_size = 1;  // --batch-size: inputs per embeddings request
  int64_t documents = 4;   // --documents: documents per rerank request (after one query)
  int64_t image_num = 0;   // --image-num: synthetic PNG images attached to each chat prompt
  int image_width = 512;   // --image-width, pixels
  int image_height = 512;  // --image-height, pixels

  // --- conversations (--multi-turn; --dataset random_multi_turn, sharegpt, conversations) ---
  bool multi_turn = false;          // --multi-turn: -n counts conversations, sent turn by turn
  int64_t min_turns = 2;            // --min-turns: fewest turns (random draws; datasets: skip fewer)
  std::optional<int64_t> max_turns; // --max-turns: most turns (random: 5 when absent; datasets:
                                    // later turns are cut)
  bool history_recorded = false;    // --history recorded: earlier answers from the dataset, not
                                    // the ones received (--history live, the default)
  TurnDelay turn_delay;             // --turn-delay: think time before each later turn

  // --- trace replay (--dataset mooncake_trace) ---
  int64_t trace_block_tokens = 512;  // --trace-block-tokens: tokens per hash id block
  double trace_speedup = 1;          // --trace-speedup X: timestamps divided by X
  bool trace_all = false;            // -n not given with a trace: replay every entry

  // --- the server's own view: its /metrics, identity and profiler ---
  bool server_metrics = true;     // --no-server-metrics turns the /metrics probe and scrapes off
  std::string metrics_url;        // --metrics-url (default: --url's base + "/metrics")
  double metrics_interval_s = 1;  // --metrics-interval: seconds between scrapes during a run
  bool profile = false;           // --profile: POST /start_profile and /stop_profile around runs

  // --- live figures for Prometheus ---
  std::string push_gateway;    // --push-gateway URL: a Pushgateway's base URL ("" = no pushes)
  double push_interval_s = 5;  // --push-interval: seconds between pushes during a run

  // --- ShareGPT (--dataset sharegpt): vLLM's sampling limits, in tokens ---
  int64_t sharegpt_output_len = -1;       // --sharegpt-output-len: fixed max_tokens (-1: answers')
  int64_t sharegpt_min_len = 4;           // --sharegpt-min-len: shortest prompt and answer
  int64_t sharegpt_max_input_len = 1024;  // --sharegpt-max-input-len: longest prompt
  int64_t sharegpt_max_total_len = 2048;  // --sharegpt-max-total-len: prompt + answer

  // --- sharded runs: one benchmark split across processes (--shard, or the launcher's env) ---
  int shard = 0;             // this process's index, 0-based
  int shards = 1;            // processes in the benchmark (1: not sharded)
  std::string shard_source;  // where shard/shards came from: "--shard", "Slurm (...)", ...
  int64_t start_at_unix_ns = -1;  // --start-at: wall-clock instant of the first send (-1: at once)

  // --- load ---
  std::vector<int> parallel = {1};       // --parallel: concurrency per run (a list sweeps)
  std::vector<int64_t> number = {1000};  // -n/--number: requests per run (paired with parallel)
  int threads = 0;  // --threads: worker threads, each with a curl multi; 0: auto (per run)
  double sleep_interval_s = 5.0;         // --sleep-interval: pause between runs of a sweep
  uint64_t seed = 0;                     // --seed

  // --- request body ---
  bool stream = true;                        // --stream / --no-stream
  std::optional<int64_t> max_tokens = 2048;  // --max-tokens (the upper end with two values)
  int64_t max_tokens_low = -1;        // --max-tokens MIN MAX: max_tokens drawn per request from
                                      // [MIN, MAX] (EvalScope's two-value form); -1: one value
  std::optional<int64_t> min_tokens;  // --min-tokens
  std::optional<double> temperature = 0.0;   // --temperature
  std::optional<double> top_p;               // --top-p
  std::vector<std::string> stop;             // --stop
  std::vector<int64_t> stop_token_ids;       // --stop-token-ids
  std::optional<int64_t> top_k;              // --top-k
  std::optional<double> frequency_penalty;   // --frequency-penalty
  std::optional<double> repetition_penalty;  // --repetition-penalty
  bool logprobs = false;                     // --logprobs: "logprobs": true
  std::optional<int64_t> n_choices;          // --n-choices: "n"
  bool seed_in_body = false;                 // --seed was given: also sent as "seed" (EvalScope)
  std::string extra_args;                    // --extra-args: JSON object merged into the body last

  // --- open loop, warm-up and duration ---
  std::vector<double> rate;  // --rate: requests/s per run (a list sweeps); empty: closed loop
  std::string arrival = "poisson";   // --arrival: constant | poisson | gamma
  double burstiness = 1.0;           // --burstiness: gamma shape (1 = Poisson, as in vLLM)
  double duration_s = 0;             // --duration: stop dispatching after this long (0: no limit)
  double warmup_num = 0;             // --warmup-num: a count, or a fraction of -n when < 1
  bool open_loop_unbounded = false;  // --open-loop: no cap on requests in flight (EvalScope)
  bool default_cap = false;          // no cap the user chose: --rate without --parallel (the cap
                                     // is kOpenLoopDefaultCap), or everything at once
  RampUp ramp_up;                    // --ramp-up-*: the rate moves across each run
  // --cancel-rate P: this fraction of the measured requests is closed on purpose, at the moment
  // --cancel-after says (chosen reproducibly from --seed); --include-cancelled keeps them in the
  // latency statistics.
  double cancel_rate = 0;
  std::string cancel_after = "ttft";  // --cancel-after SECONDS | ttft | N-tokens
  bool include_cancelled = false;     // --include-cancelled

  // --- verdicts ---
  std::vector<std::string> goodput;     // --goodput ttft:MS tpot:MS e2el:MS
  std::vector<std::string> slo;         // --slo EXPR, repeatable
  std::string junit_path;               // --junit FILE: JUnit XML of the SLO verdicts
  std::string baseline_path;            // --baseline PATH/summary.json
  std::string tolerance = "10%";        // --tolerance: allowed regression against the baseline
  // --baseline db:FILE (verdict/history_baseline.h): judged against the last --baseline-runs
  // matching runs of the history, with a noise band of --noise-k scaled MADs.
  int baseline_runs = 10;
  double noise_k = 3;
  // --baseline-ignore-tag KEY: tags that change on every run (a commit) that --baseline db: does
  // not match on
  std::vector<std::string> baseline_ignore_tags;
  std::string search;                   // --search parallel | rate ("" = off)
  std::vector<double> search_range;     // --search-range LO HI
  bool search_doubling = false;         // double from LO, then bisect (EvalScope's --sla-auto-tune)
  double search_number_multiplier = 0;  // each probe's -n = its value x this (--sla-number-
                                        // multiplier); 0: -n as given
  // --rate-tolerance: a rate probe of --search fails when the server sustained less than the rate
  // asked by more than this many percent (the implicit SLO rate_sustained >= 100 - this).
  double rate_tolerance_pct = 5;
  // --search-precision: --search rate stops when the interval between the highest passing and the
  // lowest failing rate is within this many percent of the failing one.
  double search_precision_pct = 2;

  // --- early stops and repeated runs (docs/flags.md, "Early stops" and "Repeated runs") ---
  double max_error_rate = -1;  // --max-error-rate: failed share of the last --error-window
                               // finished measured requests that stops a run (< 0: off)
  int64_t error_window = 100;  // --error-window: requests the error rate is taken over
  int64_t max_errors = 0;      // --max-errors: failed measured requests that stop a run (0: off)
  bool stop_on_saturation = false;  // --stop-on-saturation (open loop): the server cannot keep up
  double saturation_window_s = 2;   // --saturation-window: seconds per window of that test
  std::string on_stop = "next";     // --on-stop: after a stopped run, next (go on) | abort
  int num_runs = 1;                 // --num-runs: repeats of each run, for confidence intervals

  // --- timeouts (seconds; 0 disables) ---
  double connect_timeout_s = 600;  // --connect-timeout
  double read_timeout_s = 600;     // --read-timeout: longest silence between reads
  double total_timeout_s = 21600;  // --total-timeout: whole request

  // --- output ---
  std::string outputs_dir = "outputs";  // --outputs-dir
  std::string name;                     // --name: run name (defaults to the model)
  // --tag key=value, in the order given (cli/tags.h): the run's labels in the history database,
  // its filters and on the pushed live figures
  std::vector<std::pair<std::string, std::string>> tags;
  // --results-db FILE: every run appended to this history database (app/results_db.h; "": off)
  std::string results_db;
  bool results_db_requests = false;  // --results-db-requests: requests.jsonl's lines stored too
  bool no_timestamp = false;            // --no-timestamp: no <YYYYmmdd_HHMMSS> level
  int64_t log_every_n_query = 10;       // --log-every-n-query
  bool debug = false;                   // --debug
  bool verbose = false;  // --verbose: the text summary adds detail tables (HTTP phases)
  std::vector<double> percentiles = {10, 25, 50, 66, 75, 80, 90, 95, 98, 99};  // --percentiles
  bool probe = true;                       // --no-probe skips the start-up probe request
  bool allow_truncation = false;  // --allow-truncation: run though requests exceed the context
  std::string summary_format = "default";  // --summary-format: default | evalscope-legacy | vllm
  // vLLM's --percentile-metrics and --metric-percentiles: which metrics and percentiles its
  // console block (--summary-format vllm) and vllm_result.json give.
  std::vector<std::string> percentile_metrics = {"ttft", "tpot", "itl"};
  std::vector<double> metric_percentiles = {99};
  VllmResultOptions vllm;  // --save-result, --result-dir, --metadata, ...
  // --keep-text: MiB of answer text a run keeps for vllm_result.json's generated_texts (and
  // requests.jsonl's output_text); requests beyond it keep none. 0: keep none.
  double keep_text_mib = 64;

  // Set by resolve_config() (cli/cli.h): from --api, or from the URL path.
  ApiKind api_kind = ApiKind::kChat;

  // (parallel, number) pairs in run order: lists pair by position; a single -n applies to all.
  std::vector<std::pair<int, int64_t>> runs() const;

  // The runs of the sweep the flags describe, with `resolved`'s -n and --rate in place of their
  // own (run_specs(): as given).
  std::vector<RunSpec> run_specs(const ResolvedFlags& resolved) const;
  std::vector<RunSpec> run_specs() const { return run_specs(as_given()); }
  // The flags plan_benchmark resolves, as the user gave them.
  ResolvedFlags as_given() const { return {model, number, rate}; }

  // Dataset texts one request carries: --batch-size inputs (embeddings), a query and
  // --documents documents (rerank), one prompt otherwise.
  int64_t texts_per_request() const;

  // Warm-up requests for a run of `number` measured requests (--warmup-num).
  int64_t warmup_count(int64_t number) const;
};

}  // namespace llmperf
