// EvalScope and vLLM compatibility (see compat.h). Three kinds of flags: mapped onto llmperf's
// own meaning, ignored with a warning saying why, or refused with what to do instead.
#include "cli/compat.h"

#include "cli/flags.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

// A flag accepted for compatibility whose value llmperf has no use for.
struct IgnoredFlag {
  const char* name;
  bool takes_value;
  const char* reason;
};

constexpr IgnoredFlag kIgnoredFlags[] = {
    {"--tokenizer-path", true,
     "llmperf counts tokens with the server under test (its tokenize API, chat template "
     "included, and its usage report); no tokenizer files are needed"},
    {"--wandb-api-key", true, "results are written to --outputs-dir only"},
    {"--swanlab-api-key", true, "results are written to --outputs-dir only"},
    {"--swanlab-host", true, "results are written to --outputs-dir only"},
    {"--db-commit-interval", true,
     "llmperf writes benchmark_data.db once, when the run ends, so that nothing is written "
     "for it while the run measures"},
    {"--queue-size-multiplier", true, "llmperf's engine has no request queue to size"},
    {"--in-flight-task-multiplier", true, "llmperf's engine has no task pool to size"},
    {"--enable-progress-tracker", false,
     "progress is on stderr, and requests.jsonl.partial grows as requests finish"},
    {"--dataset-offset", true, "synthetic prompts are fresh text in every run already"},
    {"--num-workers", true, "prompts are measured by the server's tokenizer, concurrently"},
    {"--attn-implementation", true, "it is only for --api local, which llmperf does not run"},
    {"--image-format", true, "synthetic images are PNG"},
    {"--image-patch-size", true,
     "the server counts image tokens; llmperf takes them from usage.prompt_tokens"},
    {"--disable-tqdm", false,
     "llmperf's progress is on stderr: a bar on a terminal, a log line now and then otherwise"},
};

// A flag llmperf refuses, with what to do instead.
struct RefusedFlag {
  const char* name;
  bool takes_value;
  const char* instead;
};


constexpr RefusedFlag kRefusedFlags[] = {
    {"--query-template", true,
     "put whole request bodies (one JSON object per line) in a --dataset line_by_line file "
     "instead"},
    {"--visualizer", true,
     "llmperf does not upload to wandb, swanlab or clearml: its results are in --outputs-dir "
     "(summary.json, report.html)"},
    {"--multi-turn-args", true,
     "give the conversation's shape with --min-turns, --max-turns, --history and --turn-delay"},
};

// EvalScope's --sla-params metrics as llmperf SLO metrics and the unit of their values.
struct SlaMetric {
  const char* name;    // EvalScope's key
  const char* metric;  // llmperf's metric.stat
  const char* unit;    // the value's unit in EvalScope (seconds, or none for rates)
};

constexpr SlaMetric kSlaMetrics[] = {
    {"avg_latency", "latency.mean", "s"},
    {"p99_latency", "latency.p99", "s"},
    {"avg_ttft", "ttft.mean", "s"},
    {"p99_ttft", "ttft.p99", "s"},
    {"avg_tpot", "tpot.mean", "s"},
    {"p99_tpot", "tpot.p99", "s"},
    {"rps", "qps", ""},
    {"tps", "output_throughput", ""},
};

// --sla-params as --slo expressions: one object (its keys ANDed), each value "<=2", ">100", ...
std::vector<std::string> slos_from_sla_params(const std::string& text,
                                              std::vector<std::string>& errors) {
  std::vector<std::string> slos;
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_array() || doc.empty() || !doc.front().is_object()) {
    errors.push_back(fmt::format(
        "--sla-params must be a JSON list of objects such as '[{{\"p99_latency\": \"<=2\"}}]', "
        "got {}",
        text));
    return slos;
  }
  if (doc.size() > 1) {
    errors.push_back(
        "--sla-params with several groups (OR) is not supported: run one search per group, each "
        "with its own --sla-params '[{...}]' (or --slo expressions)");
    return slos;
  }
  for (const auto& item : doc.front().items()) {  // (clang 14 cannot capture structured bindings)
    const std::string& key = item.key();
    const nlohmann::json& value = item.value();
    const auto* metric = std::find_if(std::begin(kSlaMetrics), std::end(kSlaMetrics),
                                      [&](const SlaMetric& m) { return key == m.name; });
    if (metric == std::end(kSlaMetrics)) {
      errors.push_back(fmt::format(
          "--sla-params: unknown metric \"{}\" (known: avg_latency, p99_latency, avg_ttft, "
          "p99_ttft, avg_tpot, p99_tpot, rps, tps)",
          key));
      continue;
    }
    std::string condition = value.is_string() ? value.get<std::string>() : value.dump();
    std::erase(condition, ' ');  // "<= 2" as "<=2"
    if (condition == "max" || condition == "min") {
      errors.push_back(fmt::format(
          "--sla-params \"{}\": \"{}\" (optimising one metric) is not supported: sweep --parallel "
          "or --rate and read the sweep table",
          key, condition));
      continue;
    }
    const size_t digits = condition.find_first_of("0123456789.");
    const std::string op = condition.substr(0, digits);
    if (digits == std::string::npos || (op != "<=" && op != "<" && op != ">=" && op != ">")) {
      errors.push_back(
          fmt::format("--sla-params \"{}\": \"{}\" must be an operator (<=, <, >=, >) and a number",
                      key, condition));
      continue;
    }
    slos.push_back(
        fmt::format("{}{}{}{}", metric->metric, op, condition.substr(digits), metric->unit));
  }
  return slos;
}

// --sla-auto-tune and its family, mapped onto --search with --slo expressions.
void resolve_sla(const CLI::App& app, const CompatFlags& compat, Config& config,
                 std::vector<std::string>& warnings, std::vector<std::string>& errors) {
  if (app.count("--sla-auto-tune") == 0) {
    for (const char* flag :
         {"--sla-variable", "--sla-params", "--sla-num-runs", "--sla-upper-bound",
          "--sla-lower-bound", "--sla-fixed-parallel", "--sla-number-multiplier"}) {
      if (app.count(flag) > 0) errors.push_back(fmt::format("{} needs --sla-auto-tune", flag));
    }
    return;
  }
  if (!config.verdicts.search.empty()) {
    errors.push_back("--sla-auto-tune and --search both ask for a search: give one");
    return;
  }
  if (compat.sla_params.empty()) {
    errors.push_back("--sla-auto-tune needs --sla-params, e.g. '[{\"p99_latency\": \"<=2\"}]'");
    return;
  }
  const bool by_rate = compat.sla_variable == "rate";
  config.verdicts.search = compat.sla_variable;
  // EvalScope starts at the --parallel (or --rate) given, else at the lower bound, and doubles.
  double start = compat.sla_lower_bound;
  if (!by_rate && app.count("--parallel") > 0 && !config.load.parallel.empty()) {
    start = config.load.parallel.front();
  }
  if (by_rate && !config.load.rate.empty()) start = config.load.rate.front();
  config.verdicts.search_range = {start, compat.sla_upper_bound};
  config.verdicts.search_doubling = true;
  config.verdicts.search_number_multiplier =
      compat.sla_number_multiplier > 0 ? compat.sla_number_multiplier : 2;
  if (by_rate) {
    config.load.rate = {start};
    if (compat.sla_fixed_parallel > 0) {
      config.load.parallel = {compat.sla_fixed_parallel};
      config.load.default_cap = false;  // a cap the user chose
    } else if (app.count("--parallel") == 0) {
      config.load.parallel = {kOpenLoopDefaultCap};  // as for --rate without --parallel
      config.load.default_cap = true;
    }
  }
  std::vector<std::string> slos = slos_from_sla_params(compat.sla_params, errors);
  slos.push_back("error_rate<=0%");  // EvalScope: a point below 100 % success violates the SLA
  config.verdicts.slo.insert(config.verdicts.slo.end(), slos.begin(), slos.end());
  if (compat.sla_num_runs > 1) {
    warnings.push_back(fmt::format(
        "llmperf: warning: --sla-num-runs {}: each search point is one run (EvalScope averages "
        "several)",
        compat.sla_num_runs));
  }
}

// A flag that sets nothing: what it means is read from app.count() after parsing.
CLI::Option* add_plain_flag(CLI::App& app, const char* name, const char* description) {
  const std::string text = description;
  return app.add_flag(name, text);
}

}  // namespace

void add_compat_flags(CLI::App& app, Config& config, CompatFlags& compat) {
  const char* group = "EvalScope and vLLM compatibility";
  app.add_option("--api", compat.api,
                 "API: openai (chat, completions, embeddings, rerank or responses, by the --url "
                 "path), openai_embedding, openai_rerank or openai_responses (EvalScope's names)")
      ->group(group);
  app.add_flag_callback(
         "--no-test-connection", [&config] { config.target.probe = false; },
         "EvalScope's name for --no-probe")
      ->group(group);
  app.add_flag("--no-timestamp", config.output.no_timestamp,
               "No <YYYYmmdd_HHMMSS> level in the output path (EvalScope)")
      ->group(group);
  app.add_flag("--open-loop", config.load.open_loop_unbounded,
               "With --rate: no cap on requests in flight (EvalScope's open loop; --parallel is "
               "ignored)")
      ->group(group);
  app.add_option("--apply-chat-template", compat.apply_template,
                 "Accepted (EvalScope): the server applies its chat template to "
                 "/v1/chat/completions requests, never to /v1/completions")
      ->expected(0, 1)
      ->group(group);
  add_plain_flag(app, "--no-apply-chat-template", "Accepted (EvalScope), as --apply-chat-template")
      ->group(group);
  app.add_option("--dataset-args", compat.dataset_args,
                 "EvalScope's per-dataset JSON: refused unless empty (use llmperf's flags)")
      ->group(group);
  app.add_option("--data-source", compat.data_source,
                 "local only: llmperf reads --dataset-path and downloads nothing")
      ->group(group);
  add_plain_flag(app, "--sla-auto-tune",
                 "EvalScope's SLA search, run as --search: doubling from the start value, then "
                 "bisection")
      ->group(group);
  app.add_option("--sla-variable", compat.sla_variable, "parallel or rate")
      ->check(CLI::IsMember({"parallel", "rate"}))
      ->group(group);
  app.add_option("--sla-params", compat.sla_params,
                 "One JSON object of limits (avg_latency, p99_latency, avg_ttft, p99_ttft, "
                 "avg_tpot, p99_tpot in seconds; rps, tps), e.g. '[{\"p99_latency\": \"<=2\"}]'")
      ->group(group);
  app.add_option("--sla-num-runs", compat.sla_num_runs, "Accepted; each point is one run")
      ->group(group);
  app.add_option("--sla-lower-bound", compat.sla_lower_bound, "Lowest value searched")
      ->group(group);
  app.add_option("--sla-upper-bound", compat.sla_upper_bound, "Highest value searched")
      ->group(group);
  app.add_option("--sla-fixed-parallel", compat.sla_fixed_parallel,
                 "Concurrency cap while searching the rate")
      ->group(group);
  app.add_option("--sla-number-multiplier", compat.sla_number_multiplier,
                 "Requests per point = value x this (default 2)")
      ->group(group);
  for (const IgnoredFlag& flag : kIgnoredFlags) {
    if (flag.takes_value) {
      app.add_option(flag.name, "Accepted for compatibility; ignored")->group(group);
    } else {
      add_plain_flag(app, flag.name, "Accepted for compatibility; ignored")->group(group);
    }
  }
  for (const RefusedFlag& flag : kRefusedFlags) {
    if (flag.takes_value) {
      app.add_option(flag.name, "Not supported (the error says what to do instead)")->group(group);
    } else {
      add_plain_flag(app, flag.name, "Not supported (the error says what to do instead)")
          ->group(group);
    }
  }
}

void resolve_compat(const CLI::App& app, const CompatFlags& compat, Config& config,
                    std::vector<std::string>& warnings, std::vector<std::string>& errors) {
  for (const IgnoredFlag& flag : kIgnoredFlags) {
    if (app.count(flag.name) > 0) {
      warnings.push_back(
          fmt::format("llmperf: warning: {} is accepted for compatibility and ignored ({})",
                      flag.name, flag.reason));
    }
  }
  for (const RefusedFlag& flag : kRefusedFlags) {
    if (app.count(flag.name) > 0) {
      errors.push_back(fmt::format("{} is not supported: {}", flag.name, flag.instead));
    }
  }
  // Refused here with guidance, so validation does not refuse it a second time.
  config.target.api = "openai";
  if (compat.api == "local" || compat.api == "local_vllm") {
    errors.push_back(fmt::format(
        "--api {} is not supported: llmperf benchmarks a running server; start it (e.g. `vllm "
        "serve MODEL`) and give its URL with --url",
        compat.api));
  } else if (compat.api == "openai_embedding" || compat.api == "openai_rerank" ||
             compat.api == "openai_responses") {
    config.target.api = compat.api;
  } else if (compat.api != "openai") {
    errors.push_back(fmt::format(
        "--api {} is not supported: use openai (the API chosen by the --url path: "
        "/v1/chat/completions, /v1/completions, /v1/embeddings, /v1/rerank, /v1/responses), "
        "openai_embedding, openai_rerank or openai_responses",
        compat.api));
  }
  if (app.count("--apply-chat-template") + app.count("--no-apply-chat-template") > 0) {
    warnings.push_back(
        "llmperf: warning: --apply-chat-template is decided by the URL: the server applies its "
        "chat template to /v1/chat/completions requests, never to /v1/completions");
  }
  if (!compat.dataset_args.empty() && compat.dataset_args != "{}") {
    errors.push_back(
        "--dataset-args is not supported: use llmperf's flags for what it sets (--input-tokens, "
        "--output-tokens, --prefix-length, --min/--max-prompt-length, --sharegpt-*)");
  }
  if (!compat.data_source.empty() && compat.data_source != "local") {
    errors.push_back(fmt::format(
        "--data-source {} is not supported: llmperf downloads nothing; download the dataset and "
        "give the file with --dataset-path",
        compat.data_source));
  }
  if (config.load.open_loop_unbounded) {
    if (config.load.rate.empty()) {
      errors.push_back("--open-loop needs --rate (the arrival rate of the open loop)");
    } else {
      if (app.count("--parallel") > 0) {
        warnings.push_back(
            "llmperf: warning: --open-loop ignores --parallel: nothing caps requests in flight");
      }
      int64_t most = 1;
      for (const int64_t n : config.load.number) most = std::max(most, n);
      const int64_t cap = most + static_cast<int64_t>(std::ceil(
                                     config.load.warmup_num >= 1 ? config.load.warmup_num
                                                                 : config.load.warmup_num * most));
      config.load.parallel = {
          static_cast<int>(std::min<int64_t>(cap, std::numeric_limits<int>::max()))};
      config.load.default_cap = true;  // no cap the user chose
    }
  }
  resolve_sla(app, compat, config, warnings, errors);
}

std::string dataset_guidance(const std::string& name) {
  static const std::pair<std::vector<std::string>, const char*> kGuidance[] = {
      {{"custom"},
       "use --dataset line_by_line (a text line is a prompt, a JSON array line a messages list, a "
       "JSON object line a whole request body)"},
      {{"flickr8k", "kontext_bench", "mmmu_multi_image"},
       "put the questions in a line_by_line file of messages whose image_url parts name image "
       "files, or use --dataset random_vl"},
      {{"embedding", "embedding_batch", "rerank"},
       "put the texts in an openqa or line_by_line file and give --api openai_embedding "
       "(--batch-size N) or --api openai_rerank (--documents N)"},
      {{"random_embedding_batch"}, "use --dataset random_embedding --batch-size N"},
      {{"share_gpt_zh_multi_turn", "share_gpt_en_multi_turn"},
       "download the ShareGPT file and use --dataset sharegpt --multi-turn --dataset-path FILE"},
      {{"custom_multi_turn"},
       "use --dataset conversations --dataset-path FILE (JSON lines of {\"messages\": [...]})"},
      {{"swe_smith"}, "agent trajectories are not supported yet: use --dataset conversations"},
      {{"gsm8k", "cmmlu"}, "put the questions in an openqa or line_by_line file"},
  };
  for (const auto& [names, guidance] : kGuidance) {
    if (std::find(names.begin(), names.end(), name) != names.end()) return guidance;
  }
  return "";
}

}  // namespace llmperf
