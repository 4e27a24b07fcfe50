// Command-line front end: binds EvalScope-compatible `perf` flags to a Config with CLI11, resolves
// the values that need more than a conversion (--headers, --prompt @file, $OPENAI_API_KEY), and
// validates the result. --help carries the metric definitions (DESIGN §3) and the exit codes.
#include "cli/cli.h"

#include "metrics/goodput.h"
#include "verdict/baseline.h"
#include "verdict/slo.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace llmperf {
namespace {

constexpr const char* kVersion = "llmperf 0.1.0";

constexpr const char* kFooter =
    R"(Metrics (per-request times are measured from t_send, the moment the request is handed to curl;
open-loop runs also report latencies from the planned send time):
  TTFT           first chunk carrying generated output (non-empty content, reasoning_content, text
                 or tool-call delta) - t_send. Role-only, usage-only and comment events do not count.
  TTFB           first response byte - t_send.
  E2E latency    last byte of the response - t_send.
  ITL            gaps between consecutive output-carrying chunks, pooled across requests (vLLM's
                 per-chunk definition); chunks per request are reported so multi-token chunks show.
  TPOT           (E2E - TTFT) / (output_tokens - 1) per request, only where output_tokens > 1;
                 aggregates are means/percentiles over requests.
  Output tokens  usage.completion_tokens when the server reports it (stream_options.include_usage is
                 always requested when streaming), else the number of output chunks, marked
                 estimated. Input tokens likewise from usage.prompt_tokens. Every summary states
                 where its token counts came from.
  Run window     earliest t_send to latest end among measured requests (warm-up excluded).
  QPS            successful requests / run window.
  Throughput     output: sum of output tokens / run window; total: adds input tokens.
  Non-stream     requests have latency and tokens only; TTFT, TPOT and ITL are null.
  Percentiles    linear interpolation between closest ranks (numpy's default), exact for
                 per-request metrics; plus min, max, mean and std.
  Failures       transport error, timeout, HTTP status >= 400, an `error` event, or a stream that
                 ends without output. Failed requests are counted by kind and excluded from
                 latency statistics.
  Schedule lag   open loop (--rate): actual send - planned send. Latency and TTFT are also reported
                 from the planned send (coordinated-omission-correct, as wrk2 does).
  Client health  stamp delay (socket ready -> event stamped, per loop turn), schedule lag and CPU
                 use; beyond 1 ms p99 delay/lag or 90% CPU the summary flags client_bound.

Exit codes:
  0  success
  1  the run could not proceed (e.g. server unreachable at start)
  2  usage or configuration error
  3  an --slo was violated or --baseline found a regression (all outputs are still written)
  130 interrupted (Ctrl-C / SIGTERM); partial results are written)";

// Flag values that are resolved after parsing rather than bound straight to Config.
struct RawFlags {
  std::vector<std::string> headers;
  std::string api_key;
  std::string query_template;
};

struct IgnoredFlag {
  const char* name;
  const char* reason;
};

constexpr IgnoredFlag kIgnoredFlags[] = {
    {"--tokenizer-path",
     "llmperf counts tokens with the server under test (its tokenize API, chat template "
     "included, and its usage report); no tokenizer files are needed"},
    {"--wandb-api-key", "results are written to --outputs-dir only"},
    {"--swanlab-api-key", "results are written to --outputs-dir only"},
};

void add_target_options(CLI::App& app, Config& c, RawFlags& raw) {
  const char* group = "Target";
  app.add_option("--url", c.url,
                 "Endpoint; a path ending in /completions (not /chat/completions) uses the "
                 "completions API")
      ->group(group);
  app.add_option("--model", c.model, "Model name sent in every request (required)")->group(group);
  app.add_option("--api", c.api, "API flavour; only \"openai\" is supported")->group(group);
  app.add_option("--api-key", raw.api_key, "Bearer token (default: $OPENAI_API_KEY)")->group(group);
  app.add_option("--headers", raw.headers, "Extra HTTP headers as key=value ...")->group(group);
  app.add_flag("--insecure", c.insecure, "Skip TLS certificate verification (default: off)")
      ->group(group);
  app.add_option("--cacert", c.cacert, "CA bundle (PEM file) to verify the server's certificate")
      ->group(group);
}

void add_dataset_options(CLI::App& app, Config& c) {
  const char* group = "Dataset";
  app.add_option("--dataset", c.dataset,
                 "openqa | line_by_line | longalpaca (files), random (synthetic prompts of exact "
                 "token lengths), speed_benchmark (a preset grid of random)")
      ->group(group);
  app.add_option("--dataset-path", c.dataset_path,
                 "Dataset file (required unless --prompt is given)")
      ->group(group);
  app.add_option("--prompt", c.prompt, "Fixed prompt for every request; @path reads a file")
      ->group(group);
  app.add_option("--min-prompt-length", c.min_prompt_length,
                 "Skip prompts shorter than this (Unicode code points, inclusive); for random: "
                 "the shortest input, in tokens")
      ->group(group);
  app.add_option("--max-prompt-length", c.max_prompt_length,
                 "Skip prompts longer than this (Unicode code points, inclusive); for random: "
                 "the longest input, in tokens")
      ->default_str(c.max_prompt_length == std::numeric_limits<int64_t>::max()
                        ? "unlimited"
                        : std::to_string(c.max_prompt_length))
      ->group(group);
  app.add_option("--query-template",
                 "Not supported: put whole request bodies (JSON objects) "
                 "in a line_by_line dataset instead")
      ->group(group);
}

void add_synthetic_options(CLI::App& app, Config& c) {
  const char* group = "Synthetic workloads (--dataset random)";
  app.add_option("--input-tokens", c.input_tokens,
                 "Input length(s) in tokens, as the server counts them (chat template included); "
                 "several values make a grid with --output-tokens")
      ->group(group);
  app.add_option("--output-tokens", c.output_tokens,
                 "Output length(s) in tokens, sent as max_tokens; several values make a grid")
      ->group(group);
  app.add_option("--prefix-length", c.prefix_length,
                 "Tokens of a random prefix shared by every request of a run, on top of the "
                 "input length (prefix-cache tests)")
      ->group(group);
  CLI::Option* ignore_eos =
      app.add_flag_callback(
             "--ignore-eos", [&c] { c.ignore_eos = true; },
             "Send \"ignore_eos\": true so outputs run to max_tokens (default: on for random)")
          ->group(group);
  app.add_flag_callback(
         "--no-ignore-eos", [&c] { c.ignore_eos = false; },
         "Let outputs end at the model's end of sequence, also for random")
      ->excludes(ignore_eos)
      ->group(group);
  app.add_flag("--tokenize-prompt", c.tokenize_prompt,
               "Send prompts as token ids (\"prompt\": [ids]) to the completions API")
      ->group(group);
  app.add_option("--tokenize-url", c.tokenize_url,
                 "Base URL of the server's tokenize API (default: --url without its /v1/... path)")
      ->group(group);
}

void add_load_options(CLI::App& app, Config& c) {
  const char* group = "Load";
  app.add_option("--parallel", c.parallel,
                 "Requests kept in flight; several values sweep, one run each")
      ->group(group);
  app.add_option("-n,--number", c.number,
                 "Requests per run: one value for all runs or one per --parallel value")
      ->group(group);
  app.add_option("--threads", c.threads, "Worker threads, each driving its own curl multi handle")
      ->group(group);
  app.add_option("--sleep-interval", c.sleep_interval_s, "Seconds to pause between sweep runs")
      ->group(group);
  app.add_option("--seed", c.seed, "Random seed of the --rate arrival schedule")->group(group);
}

// With --rate and no --parallel, this many requests may be in flight at once.
constexpr int kOpenLoopDefaultCap = 1000;

void add_open_loop_options(CLI::App& app, Config& c) {
  const char* group = "Open loop, warm-up and duration";
  app.add_option("--rate", c.rate,
                 "Requests per second sent at planned times (a list sweeps); --parallel then caps "
                 "requests in flight (default cap 1000)")
      ->group(group);
  app.add_option("--arrival", c.arrival, "Arrival process with --rate: constant | poisson | gamma")
      ->group(group);
  app.add_option("--burstiness", c.burstiness,
                 "Gamma shape for --arrival gamma: 1 = Poisson, < 1 burstier, > 1 more regular")
      ->group(group);
  app.add_option("--duration", c.duration_s,
                 "Stop dispatching after this many seconds (whichever of -n and duration comes "
                 "first; 0 = no limit)")
      ->group(group);
  app.add_option("--warmup-num", c.warmup_num,
                 "Warm-up requests sent first and excluded from every statistic: a count, or a "
                 "fraction of -n when < 1")
      ->group(group);
}

void add_verdict_options(CLI::App& app, Config& c) {
  const char* group = "Goodput, SLOs and CI verdicts";
  app.add_option("--goodput", c.goodput,
                 "A request is good when it meets every bound: ttft:MS tpot:MS e2el:MS")
      ->group(group);
  app.add_option("--slo", c.slo,
                 "Service-level objective, e.g. 'ttft.p99<=800ms', 'error_rate<=1%', "
                 "'output_throughput>=1000'; repeatable; a violation exits with code 3")
      ->group(group);
  app.add_option("--junit", c.junit_path, "Write the SLO verdicts as JUnit XML to this file")
      ->group(group);
  app.add_option("--baseline", c.baseline_path,
                 "A stored summary.json to compare with; a regression beyond --tolerance exits 3")
      ->group(group);
  app.add_option("--tolerance", c.tolerance, "Allowed regression against --baseline, e.g. 10%")
      ->group(group);
  app.add_option("--search", c.search,
                 "Find the highest parallel or rate meeting every --slo by bisection")
      ->group(group);
  app.add_option("--search-range", c.search_range, "LO HI bounds for --search")
      ->expected(2)
      ->group(group);
}

void add_body_options(CLI::App& app, Config& c) {
  const char* group = "Request body";
  CLI::Option* stream =
      app.add_flag_callback(
             "--stream", [&c] { c.stream = true; }, "Stream the response with SSE (default: on)")
          ->group(group);
  app.add_flag_callback(
         "--no-stream", [&c] { c.stream = false; },
         "Send non-streaming requests (no TTFT, TPOT or ITL)")
      ->excludes(stream)
      ->group(group);
  app.add_option_function<std::vector<int64_t>>(
         "--max-tokens",
         [&c](const std::vector<int64_t>& v) {
           c.max_tokens = v.back();
           c.max_tokens_low = v.size() == 2 ? v.front() : -1;
         },
         "max_tokens for every request; two values MIN MAX draw it per request (for random: "
         "the output length)")
      ->expected(1, 2)
      ->default_str(c.max_tokens ? std::to_string(*c.max_tokens) : "unset")
      ->group(group);
  app.add_option_function<int64_t>(
         "--min-tokens", [&c](const int64_t& v) { c.min_tokens = v; },
         "min_tokens for every request (vLLM extension)")
      ->default_str(c.min_tokens ? std::to_string(*c.min_tokens) : "unset")
      ->group(group);
  app.add_option_function<double>(
         "--temperature", [&c](const double& v) { c.temperature = v; }, "Sampling temperature")
      ->default_str(c.temperature ? fmt::format("{}", *c.temperature) : "unset")
      ->group(group);
  app.add_option_function<double>(
         "--top-p", [&c](const double& v) { c.top_p = v; }, "Nucleus sampling top_p, in (0, 1]")
      ->default_str(c.top_p ? fmt::format("{}", *c.top_p) : "unset")
      ->group(group);
  app.add_option("--stop", c.stop, "Stop sequences")->group(group);
  app.add_option("--stop-token-ids", c.stop_token_ids, "Stop token ids (integers)")->group(group);
  app.add_option("--extra-args", c.extra_args,
                 "JSON object merged into every request body last, e.g. '{\"ignore_eos\": true}'")
      ->group(group);
}

void add_timeout_options(CLI::App& app, Config& c) {
  const char* group = "Timeouts";
  app.add_option("--connect-timeout", c.connect_timeout_s,
                 "Seconds to establish a connection (0 = no limit)")
      ->group(group);
  app.add_option("--read-timeout", c.read_timeout_s,
                 "Longest silence between reads, seconds (0 = no limit)")
      ->group(group);
  app.add_option("--total-timeout", c.total_timeout_s,
                 "Whole-request limit, seconds (0 = no limit)")
      ->group(group);
}

void add_output_options(CLI::App& app, Config& c) {
  const char* group = "Output";
  app.add_option("--outputs-dir", c.outputs_dir, "Directory for result files")->group(group);
  app.add_option("--name", c.name, "Run name in the output path (default: the model)")
      ->group(group);
  app.add_option("--log-every-n-query", c.log_every_n_query, "Progress log interval, requests")
      ->group(group);
  app.add_flag("--debug", c.debug, "Log request and response details (default: off)")->group(group);
  app.add_option("--percentiles", c.percentiles, "Percentiles to report, each in [0, 100]")
      ->group(group);
  app.add_option("--summary-format", c.summary_format,
                 "stdout summary: default, or evalscope-legacy (EvalScope 0.5.x's \"Benchmarking "
                 "summary:\" block)")
      ->check(CLI::IsMember({"default", "evalscope-legacy"}))
      ->group(group);
  app.add_flag_callback(
         "--no-probe", [&c] { c.probe = false; },
         "Skip the start-up probe request (default: probe on)")
      ->group(group);
}

void add_ignored_options(CLI::App& app) {
  for (const IgnoredFlag& flag : kIgnoredFlags) {
    app.add_option(flag.name, "Accepted for EvalScope compatibility; ignored")
        ->group("Compatibility");
  }
}

std::vector<std::pair<std::string, std::string>> parse_headers(
    const std::vector<std::string>& items, std::vector<std::string>& errors) {
  std::vector<std::pair<std::string, std::string>> headers;
  for (const std::string& item : items) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      errors.push_back(fmt::format("--headers expects key=value items, got \"{}\"", item));
      continue;
    }
    headers.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return headers;
}

// Replaces "@path" by the file's whole content.
void resolve_prompt_file(std::string& prompt, std::vector<std::string>& errors) {
  if (prompt.empty() || prompt.front() != '@') return;
  std::string path = prompt.substr(1);
  if (path.empty()) {
    errors.push_back("--prompt @ needs a file path after the @");
    return;
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    errors.push_back(
        fmt::format("--prompt @{}: cannot read file {} ({})", path, path, std::strerror(errno)));
    return;
  }
  std::ostringstream content;
  content << file.rdbuf();
  prompt = content.str();
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// --dataset speed_benchmark: EvalScope's speed test as a grid of exact lengths (inputs of 1,
// 6,144, 14,336 and 30,720 tokens, 2,048 output tokens, 2 requests each at parallel 1), on the
// completions API as EvalScope sends it. Flags given explicitly win.
void apply_speed_benchmark(const CLI::App& app, Config& config) {
  if (config.input_tokens.empty()) config.input_tokens = {1, 6144, 14336, 30720};
  if (config.output_tokens.empty()) config.output_tokens = {2048};
  if (app.count("--parallel") == 0) config.parallel = {1};
  if (app.count("--number") == 0) config.number = {2};
}

CliOutcome usage_error(const std::vector<std::string>& errors) {
  CliOutcome outcome;
  outcome.exit_code = 2;
  for (const std::string& error : errors) outcome.output += "llmperf: error: " + error + "\n";
  outcome.output += "Run with --help for usage.\n";
  return outcome;
}

}  // namespace

CliOutcome parse_cli(int argc, const char* const* argv, Config& config) {
  CLI::App app{"Load generator for OpenAI-compatible LLM servers (EvalScope perf flags).",
               "llmperf"};
  app.option_defaults()->always_capture_default();
  app.get_formatter()->column_width(32);
  app.set_version_flag("--version", kVersion, "Print the version and exit");
  app.footer(kFooter);

  RawFlags raw;
  add_target_options(app, config, raw);
  add_dataset_options(app, config);
  add_synthetic_options(app, config);
  add_load_options(app, config);
  add_open_loop_options(app, config);
  add_verdict_options(app, config);
  add_body_options(app, config);
  add_timeout_options(app, config);
  add_output_options(app, config);
  add_ignored_options(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return {false, 0, app.help(), {}};
  } catch (const CLI::CallForVersion& e) {
    return {false, 0, std::string(e.what()) + "\n", {}};
  } catch (const CLI::ParseError& e) {
    return usage_error({e.what()});
  }

  CliOutcome outcome;
  std::vector<std::string> errors;
  config.headers = parse_headers(raw.headers, errors);
  resolve_prompt_file(config.prompt, errors);
  if (app.count("--api-key") > 0) {
    config.api_key = raw.api_key;
  } else if (const char* env = std::getenv("OPENAI_API_KEY"); env != nullptr) {
    config.api_key = env;
  }
  if (config.dataset == "speed_benchmark") apply_speed_benchmark(app, config);
  if (!config.rate.empty() && app.count("--parallel") == 0) {
    config.parallel = {kOpenLoopDefaultCap};
  }
  if ((config.tokenize_prompt || config.dataset == "speed_benchmark") &&
      ends_with(config.url, "/chat/completions")) {
    config.url.replace(config.url.size() - std::string_view("/chat/completions").size(),
                       std::string_view("/chat/completions").size(), "/completions");
    outcome.warnings.push_back(fmt::format(
        "llmperf: warning: {} uses the completions API: sending to {}",
        config.tokenize_prompt ? "--tokenize-prompt (token ids)" : "--dataset speed_benchmark",
        config.url));
  }
  if (app.count("--query-template") > 0) {
    errors.push_back(
        "--query-template is not supported: put whole request bodies (one JSON object per line) "
        "in a --dataset line_by_line file instead");
  }
  for (const IgnoredFlag& flag : kIgnoredFlags) {
    if (app.count(flag.name) > 0) {
      outcome.warnings.push_back(fmt::format(
          "llmperf: warning: {} is accepted for EvalScope compatibility and ignored ({})",
          flag.name, flag.reason));
    }
  }
  if (config.insecure) {
    outcome.warnings.push_back(
        "llmperf: warning: --insecure: TLS certificate verification is off; the server's identity "
        "is not checked");
  }
  // Verdict flags have their own grammars; check them now so mistakes are usage errors.
  for (const std::string& expression : config.slo) {
    try {
      parse_slo(expression);
    } catch (const std::invalid_argument& error) {
      errors.push_back(error.what());
    }
  }
  try {
    parse_goodput(config.goodput);
    parse_tolerance(config.tolerance);
  } catch (const std::invalid_argument& error) {
    errors.push_back(error.what());
  }
  std::vector<std::string> invalid = validate_config(config);
  errors.insert(errors.end(), invalid.begin(), invalid.end());
  if (!errors.empty()) {
    CliOutcome failed = usage_error(errors);
    failed.warnings = std::move(outcome.warnings);
    return failed;
  }
  outcome.proceed = true;
  return outcome;
}

}  // namespace llmperf
