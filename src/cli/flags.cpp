// The benchmark's flags, bound to Config with CLI11, one group per table of docs/flags.md. Only
// binding happens here; what needs resolving after parsing (--headers, --prompt @file, the API
// key) is cli.cpp's, and EvalScope's and vLLM's other flags are compat.cpp's.
#include "cli/flags.h"

#include <limits>

#include <fmt/format.h>

#include "cli/shared_flags.h"

namespace llmperf {
namespace {

void add_target_options(CLI::App& app, Config& c, RawFlags& raw) {
  const char* group = "Target";
  app.add_option("--url", raw.urls,
                 "Endpoint; its path picks the API: /completions (not /chat/completions), "
                 "/embeddings, /rerank, /responses, otherwise chat. Given several times: "
                 "replicas without a load balancer, requests spread by --url-policy")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->default_str(c.target.url)
      ->group(group);
  app.add_option("--url-policy", c.target.url_policy,
                 "Several --url: round-robin (by request id) | least-inflight (the replica with "
                 "the fewest requests in flight at send time)")
      ->group(group);
  app.add_option("--model", c.target.model,
                 "Model name sent in every request (default: the one model the server's "
                 "/v1/models lists; required when it lists several)")
      ->group(group);
  app.add_option("--api-key", raw.api_key, "Bearer token (default: $OPENAI_API_KEY)")->group(group);
  app.add_option("--headers,--header", raw.headers, "Extra HTTP headers as key=value ...")
      ->group(group);
  app.add_flag("--insecure", c.target.insecure, "Skip TLS certificate verification (default: off)")
      ->group(group);
  app.add_option("--cacert", c.target.cacert,
                 "CA bundle (PEM file) to verify the server's certificate")
      ->group(group);
  app.add_flag("--http2", c.target.http2,
               "HTTP/2 over TLS, negotiated by ALPN; streams are multiplexed over few connections "
               "(default: HTTP/1.1)")
      ->group(group);
  app.add_flag("--http2-prior-knowledge", c.target.http2_prior_knowledge,
               "HTTP/2 in clear text (h2c) without negotiation, for http:// URLs (default: off)")
      ->group(group);
  app.add_option("--max-streams-per-connection", c.target.max_streams_per_connection,
                 "HTTP/2: streams at most per connection (default: the server's limit)")
      ->group(group);
}

void add_dataset_options(CLI::App& app, Config& c) {
  const char* group = "Dataset";
  app.add_option("--dataset,--dataset-name", c.workload.dataset,
                 "openqa | line_by_line | longalpaca | sharegpt (files), random (synthetic prompts "
                 "of exact token lengths; random_vl adds an image), speed_benchmark (a preset "
                 "grid of random), "
                 "shared_prefix, random_multi_turn | conversations (conversations), "
                 "mooncake_trace | workload_trace (traces replayed at their times)")
      ->group(group);
  app.add_option("--dataset-path", c.workload.dataset_path,
                 "Dataset file (required by the file datasets unless --prompt is given)")
      ->group(group);
  app.add_option("--prompt", c.workload.prompt,
                 "Fixed prompt for every request; @path reads a file")
      ->group(group);
  app.add_option("--min-prompt-length", c.workload.min_prompt_length,
                 "Skip prompts shorter than this (Unicode code points, inclusive); for random: "
                 "the shortest input, in tokens")
      ->group(group);
  app.add_option("--max-prompt-length", c.workload.max_prompt_length,
                 "Skip prompts longer than this (Unicode code points, inclusive); for random: "
                 "the longest input, in tokens")
      ->default_str(c.workload.max_prompt_length == std::numeric_limits<int64_t>::max()
                        ? "unlimited"
                        : std::to_string(c.workload.max_prompt_length))
      ->group(group);
  app.add_option("--sharegpt-output-len", c.workload.sharegpt_output_len,
                 "sharegpt: max_tokens of every request (default: each reference answer's length)")
      ->default_str("the answer's")
      ->group(group);
  app.add_option("--sharegpt-min-len", c.workload.sharegpt_min_len,
                 "sharegpt: drop prompts or answers with fewer tokens (vLLM's 4)")
      ->group(group);
  app.add_option("--sharegpt-max-input-len", c.workload.sharegpt_max_input_len,
                 "sharegpt: drop prompts with more tokens (vLLM's 1024)")
      ->group(group);
  app.add_option("--sharegpt-max-total-len", c.workload.sharegpt_max_total_len,
                 "sharegpt: drop pairs whose prompt + answer have more tokens (vLLM's 2048)")
      ->group(group);
}

void add_synthetic_options(CLI::App& app, Config& c) {
  const char* group = "Synthetic workloads (--dataset random)";
  app.add_option("--input-tokens,--random-input-len,--gsp-question-len", c.workload.input_tokens,
                 "Input length(s) in tokens, as the server counts them (chat template included); "
                 "several values make a grid with --output-tokens")
      ->group(group);
  app.add_option("--output-tokens,--random-output-len,--gsp-output-len", c.workload.output_tokens,
                 "Output length(s) in tokens, sent as max_tokens; several values make a grid")
      ->group(group);
  app.add_option("--prefix-length,--random-prefix-len,--gsp-system-prompt-len",
                 c.workload.prefix_length,
                 "Tokens of a random prefix shared by every request of a run, on top of the "
                 "input length (prefix-cache tests); shared_prefix: each group's system prompt")
      ->group(group);
  app.add_option("--prefix-groups,--gsp-num-groups", c.workload.prefix_groups,
                 "shared_prefix: groups, each with a prefix of its own")
      ->group(group);
  app.add_option("--prompts-per-group,--gsp-prompts-per-group", c.workload.prompts_per_group,
                 "shared_prefix: distinct questions per group, cycled (0: a new one per request)")
      ->group(group);
  app.add_option("--prefix-zipf", c.workload.prefix_zipf,
                 "shared_prefix: group popularity ~ 1/rank^s (0: uniform)")
      ->group(group);
  CLI::Option* ignore_eos =
      app.add_flag_callback(
             "--ignore-eos", [&c] { c.body.ignore_eos = true; },
             "Send \"ignore_eos\": true so outputs run to max_tokens (default: on for random)")
          ->group(group);
  app.add_flag_callback(
         "--no-ignore-eos", [&c] { c.body.ignore_eos = false; },
         "Let outputs end at the model's end of sequence, also for random")
      ->excludes(ignore_eos)
      ->group(group);
  app.add_flag("--tokenize-prompt", c.workload.tokenize_prompt,
               "Send prompts as token ids (\"prompt\": [ids]) to the completions API")
      ->group(group);
  app.add_option("--tokenize-url", c.workload.tokenize_url,
                 "Base URL of the server's tokenize API (default: --url without its /v1/... path)")
      ->group(group);
}

void add_endpoint_options(CLI::App& app, Config& c) {
  const char* group = "Embeddings, rerank and images";
  app.add_option("--batch-size", c.workload.batch_size,
                 "Embeddings: inputs per request (texts of the dataset, in turn)")
      ->check(CLI::Range(int64_t{1}, int64_t{100000}))
      ->group(group);
  app.add_option("--documents", c.workload.documents,
                 "Rerank: documents per request, after its query (texts of the dataset, in turn)")
      ->check(CLI::Range(int64_t{1}, int64_t{100000}))
      ->group(group);
  app.add_option("--image-num", c.workload.image_num,
                 "Synthetic PNG images (random noise) attached to every chat prompt as base64 "
                 "image_url parts (random_vl: 1)")
      ->check(CLI::Range(int64_t{0}, int64_t{64}))
      ->group(group);
  app.add_option("--image-width", c.workload.image_width,
                 "Width of the synthetic images, in pixels")
      ->check(CLI::Range(1, 8192))
      ->group(group);
  app.add_option("--image-height", c.workload.image_height,
                 "Height of the synthetic images, in pixels")
      ->check(CLI::Range(1, 8192))
      ->group(group);
}

void add_shard_options(CLI::App& app, RawFlags& raw) {
  const char* group = "Sharded runs (one benchmark across processes or machines)";
  app.add_option("--shard", raw.shard,
                 "This process's part of a sharded benchmark, I/N (0-based I); default: from the "
                 "launcher (Kubernetes JOB_COMPLETION_INDEX with --shards, Slurm, Open MPI, PMI)")
      ->group(group);
  app.add_option("--shards", raw.shards,
                 "Shards in the benchmark, for a Kubernetes Indexed Job (its completions)")
      ->check(CLI::Range(1, 100000))
      ->group(group);
  app.add_option("--start-at", raw.start_at,
                 "Prepare, then send the first request at this wall-clock instant: RFC 3339 "
                 "(2026-11-24T21:30:00Z) or Unix seconds; gives every shard the same start")
      ->group(group);
}

void add_conversation_options(CLI::App& app, Config& c, RawFlags& raw) {
  const char* group = "Conversations and traces";
  app.add_flag("--multi-turn", c.workload.multi_turn,
               "Send conversations turn by turn (-n counts conversations); with --dataset "
               "sharegpt every turn of each conversation (random_multi_turn and conversations "
               "imply it)")
      ->group(group);
  app.add_option("--min-turns", c.workload.min_turns,
                 "Fewest turns of a conversation: random_multi_turn draws from "
                 "[--min-turns, --max-turns]; datasets skip shorter conversations")
      ->group(group);
  app.add_option("--max-turns", c.workload.max_turns,
                 "Most turns of a conversation (random_multi_turn: default 5; datasets: later "
                 "turns are cut)")
      ->group(group);
  app.add_option_function<std::string>(
         "--history",
         [&c](const std::string& value) { c.workload.history_recorded = value == "recorded"; },
         "What earlier answers a turn carries: live (the answers received, default) or "
         "recorded (the dataset's)")
      ->check(CLI::IsMember({"live", "recorded"}))
      ->group(group);
  app.add_option("--turn-delay", raw.turn_delay,
                 "Think time before each later turn, in seconds: fixed (2), uniform (1-3) or "
                 "exponential with a mean (exp:2)")
      ->group(group);
  app.add_option("--trace-block-tokens", c.workload.trace_block_tokens,
                 "mooncake_trace: tokens per hash id block")
      ->group(group);
  app.add_option("--trace-speedup", c.workload.trace_speedup,
                 "Traces: replay the timestamps X times faster (0.5: slower)")
      ->group(group);
}

void add_server_view_options(CLI::App& app, Config& c) {
  const char* group = "Server metrics";
  app.add_option("--metrics-url", c.server.metrics_url,
                 "The server's Prometheus metrics (default: --url without its /v1/... path, "
                 "+ /metrics)")
      ->group(group);
  app.add_flag_callback(
         "--no-server-metrics", [&c] { c.server.server_metrics = false; },
         "Do not probe or scrape the server's /metrics (default: scrape when it answers)")
      ->group(group);
  app.add_option("--metrics-interval", c.server.metrics_interval_s,
                 "Seconds between /metrics scrapes during a run")
      ->group(group);
  app.add_flag("--profile", c.server.profile,
               "POST /start_profile before each run's requests and /stop_profile after "
               "(vLLM, SGLang); the run records that profiling slowed the server")
      ->group(group);
  app.add_option("--push-gateway", c.output.push_gateway,
                 "Push the run's live figures to this Prometheus Pushgateway (its base URL, e.g. "
                 "http://pushgateway:9091), job llmperf, every --push-interval seconds and at "
                 "the end")
      ->group("Live metrics");
  app.add_option("--push-interval", c.output.push_interval_s,
                 "Seconds between pushes to --push-gateway during a run (default 5)")
      ->group("Live metrics");
}

void add_load_options(CLI::App& app, Config& c) {
  const char* group = "Load";
  app.add_option(kParallelFlag, c.load.parallel,
                 "Requests kept in flight; several values sweep, one run each")
      ->group(group);
  app.add_option(kNumberFlag, c.load.number,
                 "Requests per run: one value for all runs or one per --parallel value")
      ->group(group);
  app.add_option_function<std::string>(
         "--threads",
         [&c](const std::string& value) {
           c.load.threads = value == "auto" ? 0 : std::stoi(value);
         },
         "Worker threads, each driving its own curl multi handle on a core: N, or auto (one per "
         "500 streams, at most the usable cores, less one for a server on this machine)")
      ->check(CLI::IsMember({"auto"}) | CLI::Range(1, 1024))
      ->default_str("auto")
      ->group(group);
  app.add_option("--sleep-interval", c.load.sleep_interval_s, "Seconds to pause between sweep runs")
      ->group(group);
  app.add_option("--seed", c.load.seed,
                 "Random seed of the arrival schedule, synthetic prompts and ShareGPT sampling; "
                 "when given, also sent as \"seed\" (EvalScope)")
      ->each([&c](const std::string&) { c.body.seed_in_body = true; })
      ->group(group);
}

void add_open_loop_options(CLI::App& app, Config& c) {
  const char* group = "Open loop, warm-up and duration";
  app.add_option(kRateFlag, c.load.rate,
                 "Requests per second sent at planned times (a list sweeps); --parallel then caps "
                 "requests in flight (default cap 1000)")
      ->group(group);
  app.add_option("--arrival", c.load.arrival,
                 "Arrival process with --rate: constant | poisson | gamma")
      ->group(group);
  app.add_option("--burstiness", c.load.burstiness,
                 "Gamma shape for --arrival gamma: 1 = Poisson, < 1 burstier, > 1 more regular")
      ->group(group);
  app.add_option("--ramp-up-strategy", c.load.ramp_up.strategy,
                 "vLLM's ramp-up: the rate moves from --ramp-up-start-rps to --ramp-up-end-rps "
                 "across each run, linear or exponential (replaces --rate)")
      ->check(CLI::IsMember({"linear", "exponential"}))
      ->group(group);
  app.add_option("--ramp-up-start-rps", c.load.ramp_up.start_rps,
                 "Request rate of a ramp-up's first request (req/s)")
      ->group(group);
  app.add_option("--ramp-up-end-rps", c.load.ramp_up.end_rps,
                 "Request rate of a ramp-up's last request (req/s)")
      ->group(group);
  app.add_option("--duration", c.load.duration_s,
                 "Stop dispatching after this many seconds (whichever of -n and duration comes "
                 "first; 0 = no limit)")
      ->group(group);
  app.add_option("--cancel-rate", c.load.cancel_rate,
                 "Fraction (0-1) of the measured requests closed on purpose, as a user closing a "
                 "chat does (chosen reproducibly from --seed); outcome 'cancelled'")
      ->group(group);
  app.add_option("--cancel-after", c.load.cancel_after,
                 "When a request chosen by --cancel-rate is closed: SECONDS after its send, ttft "
                 "(after its first output chunk) or N-tokens (after N output chunks)")
      ->group(group);
  app.add_flag("--include-cancelled", c.load.include_cancelled,
               "Keep cancelled requests in the latency and token statistics (TTFT, ITL, latency "
               "to the close)")
      ->group(group);
  app.add_option("--warmup-num,--num-warmups", c.load.warmup_num,
                 "Warm-up requests sent first and excluded from every statistic: a count, or a "
                 "fraction of -n when < 1")
      ->group(group);
}

void add_verdict_options(CLI::App& app, Config& c) {
  const char* group = "Goodput, SLOs and CI verdicts";
  app.add_option("--goodput", c.verdicts.goodput,
                 "A request is good when it meets every bound: ttft:MS ttfat:MS tpot:MS e2el:MS "
                 "(ttfat: time to first answer token, after reasoning)")
      ->group(group);
  app.add_option("--slo", c.verdicts.slo,
                 "Service-level objective, e.g. 'ttft.p99<=800ms', 'error_rate<=1%', "
                 "'output_throughput>=1000', 'length_miss<=0' (no request cut or changed by the "
                 "server), 'cap_reached<=0' (open loop: share of sends that found the in-flight "
                 "cap reached); repeatable; a violation exits with code 3")
      ->group(group);
  app.add_option("--junit", c.output.junit_path, "Write the SLO verdicts as JUnit XML to this file")
      ->group(group);
  app.add_option("--baseline", c.verdicts.baseline_path,
                 "A stored summary.json to compare with; a regression beyond --tolerance exits 3. "
                 "db:FILE: judge against the last --baseline-runs matching runs of a history "
                 "database (median ± --noise-k x MAD)")
      ->group(group);
  app.add_option("--tolerance", c.verdicts.tolerance,
                 "Allowed regression against --baseline, e.g. 10%")
      ->group(group);
  app.add_option("--baseline-runs", c.verdicts.baseline_runs,
                 "--baseline db: the last N runs with the same --name, run and --tag set (10)")
      ->group(group);
  app.add_option("--noise-k", c.verdicts.noise_k,
                 "--baseline db: the noise band's half-width in MADs around the median (3)")
      ->group(group);
  app.add_option("--baseline-ignore-tag", c.verdicts.baseline_ignore_tags,
                 "--baseline db: a --tag key not matched (one that changes every run, a commit); "
                 "repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(group);
  app.add_option("--search", c.verdicts.search,
                 "Find the highest parallel or rate meeting every --slo by bisection")
      ->group(group);
  app.add_option("--search-range", c.verdicts.search_range, "LO HI bounds for --search")
      ->expected(2)
      ->group(group);
  app.add_option("--search-precision", c.verdicts.search_precision_pct,
                 "--search rate: stop when the highest passing and the lowest failing rate are "
                 "within this many percent of each other (2)")
      ->group(group);
  app.add_option("--rate-tolerance", c.verdicts.rate_tolerance_pct,
                 "--search rate: a probe fails when the server sustained less than the rate asked "
                 "by more than this many percent (5)")
      ->group(group);
}

void add_body_options(CLI::App& app, Config& c) {
  const char* group = "Request body";
  CLI::Option* stream = app.add_flag_callback(
                               "--stream", [&c] { c.body.stream = true; },
                               "Stream the response with SSE (default: on)")
                            ->group(group);
  app.add_flag_callback(
         "--no-stream", [&c] { c.body.stream = false; },
         "Send non-streaming requests (no TTFT, TPOT or ITL)")
      ->excludes(stream)
      ->group(group);
  app.add_option_function<std::vector<int64_t>>(
         "--max-tokens",
         [&c](const std::vector<int64_t>& v) {
           c.body.max_tokens = v.back();
           c.body.max_tokens_low = v.size() == 2 ? v.front() : -1;
         },
         "max_tokens for every request; two values MIN MAX draw it per request (for random: "
         "the output length)")
      ->expected(1, 2)
      ->default_str(c.body.max_tokens ? std::to_string(*c.body.max_tokens) : "unset")
      ->group(group);
  app.add_option_function<int64_t>(
         "--min-tokens", [&c](const int64_t& v) { c.body.min_tokens = v; },
         "min_tokens for every request (vLLM extension)")
      ->default_str(c.body.min_tokens ? std::to_string(*c.body.min_tokens) : "unset")
      ->group(group);
  app.add_option_function<double>(
         "--temperature", [&c](const double& v) { c.body.temperature = v; }, "Sampling temperature")
      ->default_str(c.body.temperature ? fmt::format("{}", *c.body.temperature) : "unset")
      ->group(group);
  app.add_option_function<double>(
         "--top-p", [&c](const double& v) { c.body.top_p = v; },
         "Nucleus sampling top_p, in (0, 1]")
      ->default_str(c.body.top_p ? fmt::format("{}", *c.body.top_p) : "unset")
      ->group(group);
  app.add_option_function<int64_t>(
         "--top-k", [&c](const int64_t& v) { c.body.top_k = v; }, "top_k")
      ->group(group);
  app.add_option_function<double>(
         "--frequency-penalty", [&c](const double& v) { c.body.frequency_penalty = v; },
         "frequency_penalty")
      ->group(group);
  app.add_option_function<double>(
         "--repetition-penalty", [&c](const double& v) { c.body.repetition_penalty = v; },
         "repetition_penalty (vLLM, SGLang)")
      ->group(group);
  app.add_flag("--logprobs", c.body.logprobs, "Ask for logprobs (\"logprobs\": true)")
      ->group(group);
  app.add_option_function<int64_t>(
         "--n-choices", [&c](const int64_t& v) { c.body.n_choices = v; },
         "n: choices per request (usage counts them all)")
      ->group(group);
  app.add_option("--stop", c.body.stop, "Stop sequences")->group(group);
  app.add_option("--stop-token-ids", c.body.stop_token_ids, "Stop token ids (integers)")
      ->group(group);
  app.add_option("--extra-args", c.body.extra_args,
                 "JSON object merged into every request body last, e.g. '{\"ignore_eos\": true}'")
      ->group(group);
}

void add_timeout_options(CLI::App& app, Config& c) {
  const char* group = "Timeouts";
  app.add_option("--connect-timeout", c.target.connect_timeout_s,
                 "Seconds to establish a connection (0 = no limit)")
      ->group(group);
  app.add_option("--read-timeout", c.target.read_timeout_s,
                 "Longest silence between reads, seconds (0 = no limit)")
      ->group(group);
  app.add_option("--total-timeout", c.target.total_timeout_s,
                 "Whole-request limit, seconds (0 = no limit)")
      ->group(group);
}

void add_output_options(CLI::App& app, Config& c, RawFlags& raw) {
  const char* group = "Output";
  app.add_option(kOutputsDirFlag, c.output.outputs_dir, "Directory for result files")->group(group);
  app.add_option(kNameFlag, c.output.name, "Run name in the output path (default: the model)")
      ->group(group);
  app.add_option(kTagFlag, raw.tags,
                 "Label the run key=value (a commit, a deploy id), repeatable: kept in the "
                 "history database and on pushed live figures, and matched by --baseline db:")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(group);
  app.add_option(kResultsDbFlag, c.output.results_db,
                 "Append every run (config, tags, figures, verdicts, server) to this SQLite "
                 "history database, one transaction per run; a failure to store exits 1 after "
                 "every file is written (docs/history.md)")
      ->group(group);
  app.add_flag(kResultsDbRequestsFlag, c.output.results_db_requests,
               "With --results-db: store every line of requests.jsonl too (table requests)")
      ->group(group);
  app.add_option("--log-every-n-query", c.output.log_every_n_query,
                 "Progress log interval, requests")
      ->group(group);
  app.add_flag("--debug", c.output.debug, "Log request and response details (default: off)")
      ->group(group);
  app.add_flag("--verbose", c.output.verbose,
               "Text summary: add a table of the HTTP phases, new vs reused connections "
               "(default: off)")
      ->group(group);
  app.add_option("--percentiles", c.output.percentiles, "Percentiles to report, each in [0, 100]")
      ->group(group);
  app.add_option("--summary-format", c.output.summary_format,
                 "stdout summary: default, evalscope-legacy (EvalScope 0.5.x's \"Benchmarking "
                 "summary:\" block), or vllm (vLLM's \"Serving Benchmark Result\" block)")
      ->check(CLI::IsMember({"default", "evalscope-legacy", "vllm"}))
      ->group(group);
  app.add_option("--percentile-metrics", c.output.percentile_metrics,
                 "vLLM's: metrics of the vllm block and vllm_result.json (ttft,tpot,itl,e2el)")
      ->delimiter(',')
      ->check(CLI::IsMember({"ttft", "tpot", "itl", "e2el"}))
      ->group(group);
  app.add_option("--metric-percentiles", c.output.metric_percentiles,
                 "vLLM's: percentiles of the vllm block and vllm_result.json, e.g. 25,50,99 (added "
                 "to --percentiles)")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 100.0))
      ->group(group);
  app.add_option("--keep-text", c.output.keep_text_mib,
                 "MiB of answer text a run keeps, for vllm_result.json's generated_texts and "
                 "requests.jsonl's output_text; later requests keep none (0: none)")
      ->check(CLI::Range(0.0, 1048576.0).description(""))
      ->group(group);
  app.add_flag_callback(
         "--no-probe", [&c] { c.target.probe = false; },
         "Skip the start-up probe request (default: probe on)")
      ->group(group);
  app.add_flag("--allow-truncation", c.workload.allow_truncation,
               "Run even when the longest request (input + max_tokens) exceeds the server's "
               "context length (max_model_len, llama.cpp's n_ctx per slot); without it llmperf "
               "refuses with exit code 2")
      ->group(group);
}

}  // namespace

void add_flags(CLI::App& app, Config& config, RawFlags& raw) {
  add_target_options(app, config, raw);
  add_dataset_options(app, config);
  add_synthetic_options(app, config);
  add_conversation_options(app, config, raw);
  add_endpoint_options(app, config);
  add_shard_options(app, raw);
  add_load_options(app, config);
  add_open_loop_options(app, config);
  add_verdict_options(app, config);
  add_run_control_options(app, config);
  add_body_options(app, config);
  add_timeout_options(app, config);
  add_server_view_options(app, config);
  add_output_options(app, config, raw);
}

}  // namespace llmperf
