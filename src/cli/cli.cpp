// Command-line front end: binds EvalScope-compatible `perf` flags to a Config with CLI11, resolves
// the values that need more than a conversion (--headers, --prompt @file, $OPENAI_API_KEY), and
// validates the result. --help carries the metric definitions (DESIGN §3) and the exit codes.
#include "cli/cli.h"

#include "core/exit_codes.h"
#include "core/version.h"

#include "cli/commands.h"
#include "cli/compat.h"
#include "cli/flags.h"
#include "cli/shards.h"
#include "cli/tags.h"
#include "cli/unknown_flags.h"
#include "cli/vllm_flags.h"

#include "metrics/goodput.h"
#include "workload/dataset.h"
#include "verdict/baseline.h"
#include "verdict/slo.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace llmperf {
namespace {

constexpr const char* kFooter =
    R"(Metrics (per-request times are measured from t_send, the moment the request is handed to curl;
open-loop runs also report latencies from the planned send time):
  TTFT           first chunk carrying generated output (non-empty content, reasoning_content, text
                 or tool-call delta) - t_send. Role-only, usage-only and comment events do not count.
                 For reasoning models this is the first reasoning token, as vLLM and EvalScope
                 count it.
  TTFAT          time to first answer token: first chunk carrying answer output (content, text,
                 tool call; not reasoning) - t_send. Equal to TTFT for streams that do not reason.
                 Streams that reason also get reasoning time (first answer - first reasoning
                 chunk), reasoning vs answer tokens (usage.completion_tokens_details, else
                 reasoning chunks, marked estimated) and ITL per phase.
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
  Embeddings,    latency, requests/s, inputs/s (documents/s), input tokens/s from usage; no TTFT.
  rerank         A reply without one vector per input (score per document at most) fails.
  Failures       transport error, timeout, HTTP status >= 400, an `error` event, or a stream that
                 ends without output. Failed requests are counted by kind and excluded from
                 latency statistics.
  Schedule lag   open loop (--rate): actual send - planned send. Latency and TTFT are also reported
                 from the planned send (coordinated-omission-correct, as wrk2 does). A send that
                 waited for a free slot (all --parallel slots held: the server fell behind) is
                 reported as the in-flight cap reached (summary.json open_loop, --slo cap_reached).
  Client health  stamp delay (socket ready -> event stamped, per loop turn), the client's own
                 lateness (schedule lag minus slot waits) and CPU use. A p99 delay or lateness
                 that matters (over 10% of the TTFT or ITL p50 or 25% of the gap between sends,
                 and over 1 ms) flags client_bound if llmperf was busy, machine_busy if it idled
                 while other processes held the cores; 90% CPU flags client_bound.

Subcommands (each has its own --help):
  llmperf bench serve ...    a `vllm bench serve` command line, with vLLM's defaults (127.0.0.1:8000,
                             the --backend's endpoint, every request at once without a cap or rate)
  llmperf compare DIR...     one table of several runs' summaries (--label NAME...)
  llmperf report DIR         rebuild a run's reports from its requests.jsonl
  llmperf merge DIR...       merge the shards of a sharded run (--shard I/N) into one run
  llmperf calibrate          the client's own error floor on this machine for a planned load,
                             against a local llmperf-mock with known timings
  llmperf tune ...           start the server per configuration (--serve, --param), benchmark
                             it, and find the best
  llmperf history ...        the trend of a history database (--results-db FILE); `history
                             import DIR...` stores existing runs in one
The commands share flag names (--outputs-dir, --results-db, --name, --tag, ...); an unknown flag
is named with the closest known one.

Exit codes:
  0    success
  1    the run could not proceed (e.g. server unreachable at start)
  2    usage or configuration error
  3    an --slo was violated or --baseline found a regression (all outputs are still written);
       calibrate: the load cannot be measured faithfully here
  130  interrupted (Ctrl-C / SIGTERM); partial results are written)";

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

// --turn-delay: "2" (fixed), "1-3" (uniform) or "exp:2" (exponential with that mean), seconds.
TurnDelay parse_turn_delay(const std::string& text, std::vector<std::string>& errors) {
  const auto number = [](std::string_view part, double& out) {
    const std::string copy(part);
    char* end = nullptr;
    errno = 0;
    out = std::strtod(copy.c_str(), &end);
    return !copy.empty() && end == copy.c_str() + copy.size() && errno == 0 && std::isfinite(out) &&
           out >= 0 && out <= 86'400;
  };
  TurnDelay delay;
  std::string_view value = text;
  bool ok = false;
  if (value.starts_with("exp:")) {
    delay.kind = TurnDelay::Kind::kExponential;
    ok = number(value.substr(4), delay.low_s) && delay.low_s > 0;
  } else if (const size_t dash = value.find('-'); dash != std::string_view::npos && dash > 0) {
    delay.kind = TurnDelay::Kind::kUniform;
    ok = number(value.substr(0, dash), delay.low_s) &&
         number(value.substr(dash + 1), delay.high_s) && delay.low_s <= delay.high_s;
  } else {
    ok = number(value, delay.low_s);
  }
  if (!ok) {
    errors.push_back(fmt::format(
        "--turn-delay takes seconds in [0, 86400]: a fixed time (2), a uniform range (1-3) or an "
        "exponential mean (exp:2), got \"{}\"",
        text));
    return {};
  }
  return delay;
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

// --dataset speed_benchmark: EvalScope's speed test as a grid of exact lengths (inputs of 1,
// 6,144, 14,336 and 30,720 tokens, or 63,488 and 129,024 for speed_benchmark_long; 2,048 output
// tokens, 2 requests each at parallel 1), on the completions API as EvalScope sends it. Flags
// given explicitly win.
void apply_speed_benchmark(const CLI::App& app, Config& config) {
  if (config.workload.input_tokens.empty()) {
    config.workload.input_tokens = config.workload.dataset == "speed_benchmark_long"
                                       ? std::vector<int64_t>{63488, 129024}
                                       : std::vector<int64_t>{1, 6144, 14336, 30720};
  }
  if (config.workload.output_tokens.empty()) config.workload.output_tokens = {2048};
  if (app.count("--parallel") == 0) config.load.parallel = {1};
  if (app.count("--number") == 0) config.load.number = {2};
}

// vLLM's --request-rate inf means no pacing: a closed loop (at --max-concurrency, else everything
// at once). vLLM's --metric-percentiles (and the median of its block) are reported from the
// summary, so with --metric-percentiles or --summary-format vllm they join --percentiles.
void resolve_rates_and_percentiles(const CLI::App& app, Config& config) {
  if (!config.load.rate.empty() && std::all_of(config.load.rate.begin(), config.load.rate.end(),
                                               [](double r) { return std::isinf(r); })) {
    config.load.rate.clear();
    if (app.count("--parallel") == 0) {
      int64_t most = 1;
      for (const int64_t n : config.load.number) most = std::max(most, n);
      config.load.parallel = {static_cast<int>(std::min<int64_t>(most, 1 << 20))};
      config.load.default_cap = true;  // no cap the user chose: vLLM's max_concurrency is None
    }
  }
  if (app.count("--metric-percentiles") == 0 && config.output.summary_format != "vllm") return;
  std::vector<double> wanted = config.output.metric_percentiles;
  wanted.push_back(50);  // the vllm block's median
  for (const double p : wanted) {
    if (std::find(config.output.percentiles.begin(), config.output.percentiles.end(), p) ==
        config.output.percentiles.end()) {
      config.output.percentiles.push_back(p);
    }
  }
  std::sort(config.output.percentiles.begin(), config.output.percentiles.end());
}

// The values of the flags that are resolved after parsing.
struct UnresolvedFlags {
  RawFlags raw;
  CompatFlags compat;
  VllmFlags vllm;
};

// llmperf's parser: every flag, bound to `config` and `flags`.
void add_benchmark_flags(CLI::App& app, Config& config, UnresolvedFlags& flags) {
  app.option_defaults()->always_capture_default();
  app.get_formatter()->column_width(32);
  app.set_version_flag("--version", std::string("llmperf ") + kLlmperfVersion, "Print the version and exit");
  app.footer(std::string(kFooter) + "\n\n" + slo_grammar_help());
  app.set_config("--config", "",
                 "Read flags from a TOML file (keys are flag names without dashes, e.g. "
                 "parallel = [1, 4], model = \"qwen\"); flags on the command line win");
  app.allow_config_extras(CLI::config_extras_mode::error);  // a misspelt key is an error
  add_flags(app, config, flags.raw);
  add_compat_flags(app, config, flags.compat);
  add_vllm_flags(app, config, flags.vllm);
}

constexpr const char* kBenchmarkDescription =
    "Load generator for OpenAI-compatible LLM servers (EvalScope perf flags).";

BenchmarkCli usage_error(const std::vector<std::string>& errors) {
  BenchmarkCli cli;
  cli.outcome.exit_code = kExitUsage;
  for (const std::string& error : errors) cli.outcome.err += "llmperf: error: " + error + "\n";
  cli.outcome.err += "Run with --help for usage.\n";
  return cli;
}

}  // namespace

BenchmarkCli parse_cli(int argc, const char* const* argv, Config& config) {
  CLI::App app{kBenchmarkDescription, "llmperf"};
  UnresolvedFlags flags;
  add_benchmark_flags(app, config, flags);
  const RawFlags& raw = flags.raw;

  // `llmperf bench serve FLAGS` reads as `vllm bench serve FLAGS` does (vLLM's defaults apply).
  std::vector<std::string> args;
  for (int i = argc - 1; i >= 1; --i) args.emplace_back(argv[i]);  // CLI11 takes them reversed
  const bool vllm_command = args.size() >= 2 && args.back() == "bench" && args.end()[-2] == "serve";
  if (vllm_command) args.resize(args.size() - 2);

  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    return {false, {kExitOk, app.help(), ""}, {}};
  } catch (const CLI::CallForVersion& e) {
    return {false, {kExitOk, std::string(e.what()) + "\n", ""}, {}};
  } catch (const CLI::ConfigError& e) {
    // A key no flag has: named with the closest flag's key, as an unknown flag is.
    constexpr std::string_view kUnknownKey = "INI was not able to parse ";
    if (const std::string_view what = e.what(); what.starts_with(kUnknownKey)) {
      const std::string key(what.substr(kUnknownKey.size()));
      std::string near = closest_flag(key, flag_names(app));
      near.erase(0, near.find_first_not_of('-'));
      return usage_error({fmt::format(
          "--config: unknown key {}{} (keys are flag names without the leading dashes)", key,
          near.empty() ? "" : fmt::format(" (did you mean {}?)", near))});
    }
    return usage_error({fmt::format(
        "--config: {} (keys are flag names without the leading dashes, e.g. parallel = [1, 4])",
        e.what())});
  } catch (const CLI::ParseError& e) {
    const char* first_word = argc > 1 && !vllm_command ? argv[1] : "";
    return usage_error(parse_error_lines(app, e, first_word, command_names()));
  }

  BenchmarkCli parsed;
  std::vector<std::string> errors;
  config.target.headers = parse_headers(raw.headers, errors);
  try {
    config.output.tags = parse_tags(raw.tags);
  } catch (const std::invalid_argument& error) {
    errors.emplace_back(error.what());
  }
  resolve_prompt_file(config.workload.prompt, errors);
  if (!raw.turn_delay.empty())
    config.workload.turn_delay = parse_turn_delay(raw.turn_delay, errors);
  const ShardChoice shard = resolve_shard(
      raw.shard, raw.shards, [](const char* name) { return std::getenv(name); }, errors);
  config.load.shard = shard.index;
  config.load.shards = shard.count;
  config.load.shard_source = shard.source;
  if (!raw.start_at.empty()) config.load.start_at_unix_ns = parse_start_at(raw.start_at, errors);
  if (!raw.urls.empty()) config.target.url = raw.urls.front();
  if (raw.urls.size() > 1) config.target.urls = raw.urls;
  if (app.count("--api-key") > 0) {
    config.target.api_key = raw.api_key;
  } else if (const char* env = std::getenv("OPENAI_API_KEY"); env != nullptr) {
    config.target.api_key = env;
  }
  // EvalScope's synthetic datasets of the other endpoints are random prompts of token lengths.
  if (config.workload.dataset == "random_vl") {
    config.workload.dataset = "random";
    if (app.count("--image-num") == 0) config.workload.image_num = 1;
  } else if (config.workload.dataset == "random_embedding" ||
             config.workload.dataset == "random_rerank") {
    config.workload.dataset = "random";
  }
  const bool speed_benchmark = config.workload.dataset.rfind("speed_benchmark", 0) == 0;
  if (speed_benchmark) apply_speed_benchmark(app, config);
  // A ramp-up is an open-loop run whose rate moves: its nominal rate (names, the in-flight cap's
  // default) is the higher end.
  if (config.load.ramp_up.on() && config.load.rate.empty()) {
    config.load.rate = {std::max(config.load.ramp_up.start_rps, config.load.ramp_up.end_rps)};
  }
  // A trace is replayed whole unless -n says how many of its first requests to send; like an
  // open-loop rate, nothing but the default cap bounds the requests in flight.
  const bool trace = is_trace_dataset(config.workload.dataset);
  if (trace && app.count("--number") == 0) config.workload.trace_all = true;
  // --search rate's probes are open-loop runs too: the same default cap, not the one slot of
  // --parallel's default, whose queue the probes would measure instead of the server.
  const bool rate_search = config.verdicts.search == "rate";
  if ((!config.load.rate.empty() || trace || rate_search) && app.count("--parallel") == 0) {
    config.load.parallel = {kOpenLoopDefaultCap};
    config.load.default_cap = true;
  }
  if ((config.workload.tokenize_prompt || speed_benchmark) &&
      config.target.url.ends_with("/chat/completions")) {
    constexpr std::string_view kChatPath = "/chat/completions";
    config.target.url.replace(config.target.url.size() - kChatPath.size(), kChatPath.size(),
                              "/completions");
    for (std::string& url : config.target.urls) {  // every replica's URL alike
      if (url.ends_with(kChatPath))
        url.replace(url.size() - kChatPath.size(), kChatPath.size(), "/completions");
    }
    parsed.warnings.push_back(
        fmt::format("llmperf: warning: {} uses the completions API: sending to {}",
                    config.workload.tokenize_prompt ? "--tokenize-prompt (token ids)"
                                                    : "--dataset " + config.workload.dataset,
                    config.target.url));
  }
  resolve_vllm(app, flags.vllm, vllm_command, config, parsed.warnings, errors);
  resolve_compat(app, flags.compat, config, parsed.warnings, errors);
  resolve_rates_and_percentiles(app, config);
  if (config.target.insecure) {
    parsed.warnings.push_back(
        "llmperf: warning: --insecure: TLS certificate verification is off; the server's identity "
        "is not checked");
  }
  // Verdict flags have their own grammars; check them now so mistakes are usage errors.
  for (const std::string& expression : config.verdicts.slo) {
    try {
      parse_slo(expression);
    } catch (const std::invalid_argument& error) {
      errors.push_back(error.what());
    }
  }
  try {
    parse_goodput(config.verdicts.goodput);
    parse_tolerance(config.verdicts.tolerance);
  } catch (const std::invalid_argument& error) {
    errors.push_back(error.what());
  }
  resolve_config(config);
  std::vector<std::string> invalid = validate_config(config);
  errors.insert(errors.end(), invalid.begin(), invalid.end());
  if (!errors.empty()) {
    BenchmarkCli failed = usage_error(errors);
    failed.warnings = std::move(parsed.warnings);
    return failed;
  }
  parsed.proceed = true;
  return parsed;
}

std::vector<std::string> benchmark_flag_names() {
  Config config;
  CLI::App app{kBenchmarkDescription, "llmperf"};
  UnresolvedFlags flags;
  add_benchmark_flags(app, config, flags);
  return flag_names(app);
}

}  // namespace llmperf
