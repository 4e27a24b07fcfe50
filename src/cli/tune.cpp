// `llmperf tune`'s flags. CLI11 takes the study's own flags; every argument it does not know is
// the benchmark's and stays in order for each trial, where parse_cli reads it after the templates
// are filled in.
#include "cli/tune.h"

#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli.h"
#include "cli/subcommand_parse.h"
#include "cli/unknown_flags.h"
#include "core/exit_codes.h"

namespace llmperf {
namespace {

constexpr const char* kDescription =
    "Start the server under test once per configuration, benchmark it, and find the best.\n"
    "  llmperf tune --serve 'CMD ... --port {port} --max-num-seqs {mns}' --param mns=64,128,256 \\\n"
    "    [tune flags] --url 'http://127.0.0.1:{port}/v1/chat/completions' [benchmark flags]\n"
    "Every flag below is the study's; all others are the benchmark's, as for `llmperf`, and may\n"
    "use the same {name} templates as --serve: a parameter's value, {port} (a free loopback port\n"
    "llmperf picks per trial), {trial} (the trial's index) and {outdir} (its directory).\n"
    "Outputs: <--outputs-dir>/<timestamp>/tune/ (study.jsonl, one line per trial as it ends;\n"
    "study_summary.json/.csv/.md; study.html; a directory per trial with server.log and the\n"
    "benchmark's files). See docs/tune.md.";

constexpr const char* kStrategyHelp =
    "How configurations are chosen. grid (default): every combination, in order, the first "
    "--param varying slowest; costs one server start and one benchmark per combination. "
    "random:N: N combinations drawn (seeded by --seed, reproducible); costs N. halving[:ETA] "
    "(ETA default 3): every combination gets a benchmark of -n/ETA^k requests, the best 1/ETA "
    "go on to runs ETA times longer, up to the full -n; costs about (rungs) x (combinations / "
    "(ETA-1)) short benchmarks, a server start each, and far fewer requests than grid. "
    "tpe:N, cmaes:N (numbers only), nsga2:N: Optuna's samplers (python3-optuna) choose each "
    "combination from the results before it, failures told as infeasible; N counts "
    "combinations benchmarked (start failures do not), at most 3N drawn";

}  // namespace

TuneCli parse_tune(int argc, const char* const* argv) {
  TuneCli cli;
  StudySpec& spec = cli.spec;
  CLI::App app(kDescription, "tune");
  app.allow_extras();
  app.add_option("--serve", spec.serve,
                 "The server's command line, run through `sh -c` (environment assignments and "
                 "quoting work as in a shell). It must listen on {port}");
  app.add_option("--param", spec.params,
                 "A parameter: name=a,b,c (choices), name=int:LO:HI[:STEP], "
                 "name=float:LO:HI[:N], name=log:LO:HI[:N] (N points in a grid), "
                 "name=flag:--some-flag (the flag or nothing). Repeatable");
  app.add_option("--stage", spec.stages,
                 "Search in stages, in the order given: each --stage lists the parameters it "
                 "searches as --param does, several separated by ';' (e.g. --stage 'tp=1,2,4' "
                 "--stage 'mns=64,128;mnbt=2048,8192'). Each stage is a study of its own with the "
                 "stages before it fixed at their best; until its stage, a parameter takes its "
                 "--param value (one), or else the first value its stage lists. Repeatable");
  app.add_option("--strategy", spec.strategy, kStrategyHelp)->capture_default_str();
  std::vector<std::string> objectives;  // every --objective: the first, then spec.more_objectives
  app.add_option("--objective", objectives,
                 "What to optimise: METRIC[.STAT][:max|:min], METRIC as in --slo (e.g. "
                 "output_throughput, ttft.p99, goodput). Rates default to max, the rest to min. "
                 "Only trials that meet every --slo can be best. With the benchmark's --search, "
                 "each trial's objective is its search's answer instead. Repeatable: with "
                 "several, the answer is their Pareto front (no single best)")
      ->default_str(spec.objective)
      ->allow_extra_args(false);  // one value per --objective, as before it was repeatable
  app.add_option("--exclude", spec.excludes,
                 "Skip combinations known to be invalid before starting them, e.g. "
                 "'cp==false and mnbt<4096': and/or/not, parentheses, == != < <= > >=, "
                 "parameter names, numbers, true/false, 'quoted strings'. Repeatable");
  app.add_option("--num-runs", spec.num_runs,
                 "Benchmarks per trial on the same server; the trial keeps the median and "
                 "reports the spread")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--between-cmd", spec.between_cmd,
                 "Run (sh -c) between repeated runs instead of resetting the server's prefix "
                 "cache (vLLM POST /reset_prefix_cache, SGLang POST /flush_cache)");
  app.add_flag("!--no-reset-cache", spec.reset_cache,
               "Do not reset the server's prefix cache between repeated runs");
  app.add_option("--ready-timeout", spec.ready_timeout_s,
                 "Seconds to wait for GET /health (or /v1/models) to answer 200")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--stop-timeout", spec.stop_timeout_s,
                 "Seconds between SIGTERM to the server's process group and SIGKILL")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--stop-cmd", spec.stop_cmd,
                 "Run (sh -c) to stop a server started through another program, e.g. "
                 "'docker stop llmperf-{trial}'; the process group is still signalled after it");
  app.add_option("--study-dir", cli.study_dir,
                 "The study's directory (default: <--outputs-dir>/<timestamp>/tune)");
  app.add_option("--resume", cli.resume_dir,
                 "Finish the study in DIR: trials already in its study.jsonl are kept, "
                 "interrupted ones run again. Takes no other study or benchmark flag")
      ->check(CLI::ExistingDirectory);
  app.add_option("--python", spec.python,
                 "The Python that runs Optuna for tpe, cmaes and nsga2 (default: the first of "
                 "python3 on $PATH and /usr/bin/python3 that imports optuna)");
  app.add_option("--slots", spec.slots,
                 "Run trials side by side, one per slot: the slots separated by ';', each a list "
                 "of GPU ids (or any tokens) separated by ',', e.g. '0,1;2,3' or '0;1;2;3'. In "
                 "templates, {gpus} is the trial's slot's list (CUDA_VISIBLE_DEVICES={gpus}) and "
                 "{slot} its index. Default: one trial at a time");
  app.add_flag("--dry-run", cli.dry_run,
               "Print every trial's server command and benchmark flags; start nothing");

  // Ties within noise and per-GPU figures (issue 39, items 3 and 6): kept together here.
  app.add_option("--prefer", spec.prefer,
                 "The tie-break among configurations tied within noise with the leader: "
                 "KEY[:min|:max],... where KEY is gpus, gpu_memory, a --param or a metric "
                 "(default gpus:min,gpu_memory:min: fewer GPUs, then less GPU memory)");
  app.add_flag("--confirm", spec.confirm,
               "Without --num-runs repeats: at the end, run the leader and the runner-up once "
               "more and say whether their order held (if not, they are tied)");
  app.add_option("--gpus-per-trial", spec.gpus_per_trial,
                 "GPUs each trial's server uses, a number or a parameter ({tp}): gives output "
                 "tok/s per GPU (--objective output_throughput_per_gpu)");
  app.add_option("--gpu-hour-cost", spec.gpu_hour_cost,
                 "The price of one GPU-hour (USD): gives the cost per million output tokens at "
                 "each trial's load (--objective cost_per_mtok:min); needs --gpus-per-trial")
      ->check(CLI::PositiveNumber);

  if (auto done = parse_subcommand(app, argc, argv)) {
    cli.outcome = *done;
    return cli;
  }
  spec.bench_args = app.remaining();
  if (!objectives.empty()) {
    spec.objective = objectives.front();
    spec.more_objectives.assign(objectives.begin() + 1, objectives.end());
  }
  const auto usage = [&](const std::string& why) {
    cli.outcome = {kExitUsage, "", fmt::format("llmperf tune: {}\nRun with --help for usage.\n", why)};
    return cli;
  };
  // A flag neither the study nor the benchmark knows, named with the closest of either now: a
  // mistyped study flag would otherwise reach every trial's benchmark and fail there, with a
  // suggestion from the benchmark's flags only.
  if (const std::vector<std::string> unknown =
          unaccepted_flag_errors(spec.bench_args, benchmark_flag_names(), flag_names(app));
      !unknown.empty()) {
    std::string why;
    for (const std::string& error : unknown) why += (why.empty() ? "" : "\nllmperf tune: ") + error;
    return usage(why);
  }
  if (!cli.resume_dir.empty()) {
    if (!spec.serve.empty() || !spec.params.empty() || !spec.stages.empty() ||
        !spec.bench_args.empty()) {
      return usage("--resume DIR takes the study's flags from DIR/study.json; give no others");
    }
    cli.proceed = true;
    return cli;
  }
  if (spec.serve.empty()) return usage("--serve CMD is required (the server's command line)");
  if (spec.params.empty() && spec.stages.empty()) {
    return usage("at least one --param name=VALUES (or --stage) is required");
  }
  cli.proceed = true;
  return cli;
}

Config tune_bench_config(const std::vector<std::string>& args, std::vector<std::string>* warnings) {
  std::vector<const char*> argv = {"llmperf"};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  Config config;
  const BenchmarkCli cli = parse_cli(static_cast<int>(argv.size()), argv.data(), config);
  if (!cli.proceed) {
    std::string message = cli.outcome.out + cli.outcome.err;  // help or the version, or errors
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw std::invalid_argument(cli.outcome.exit_code == 0
                                    ? "the benchmark flags ask for help or the version: " + message
                                    : "benchmark flags: " + message);
  }
  if (warnings != nullptr) *warnings = cli.warnings;
  return config;
}

}  // namespace llmperf
