// Config validation: checks every field, names the offending flag in each message, and derives
// the API shape (chat or completions) from the URL path.
#include "cli/cli.h"
#include "cli/compat.h"
#include "cli/flags.h"
#include "core/text.h"
#include "workload/dataset.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

struct UrlParts {
  std::string_view host;
  std::string_view path;  // without query or fragment; may be empty
};

// Splits "scheme://host[:port]/path?query#fragment"; nullopt when the scheme is not http(s).
std::optional<UrlParts> split_url(std::string_view url) {
  std::string_view rest;
  for (std::string_view scheme : {"http://", "https://"}) {
    if (url.substr(0, scheme.size()) == scheme) rest = url.substr(scheme.size());
  }
  if (rest.empty()) return std::nullopt;
  size_t authority_end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, authority_end);
  if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);
  }
  UrlParts parts;
  if (!authority.empty() && authority.front() == '[') {
    parts.host = authority.substr(0, authority.find(']') + 1);
  } else {
    parts.host = authority.substr(0, authority.find(':'));
  }
  if (authority_end != std::string_view::npos) {
    std::string_view tail = rest.substr(authority_end);
    parts.path = tail.substr(0, tail.find_first_of("?#"));
  }
  return parts;
}

ApiKind api_kind_for_path(std::string_view path) {
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (path.ends_with("/completions") && !path.ends_with("/chat/completions")) {
    return ApiKind::kCompletions;
  }
  if (path.ends_with("/embeddings")) return ApiKind::kEmbeddings;
  if (path.ends_with("/rerank")) return ApiKind::kRerank;
  if (path.ends_with("/responses")) return ApiKind::kResponses;
  return ApiKind::kChat;
}

// --api names the API outright (EvalScope's names); openai leaves it to the URL path.
ApiKind api_kind_for(std::string_view api, std::string_view path) {
  if (api == "openai_embedding") return ApiKind::kEmbeddings;
  if (api == "openai_rerank") return ApiKind::kRerank;
  if (api == "openai_responses") return ApiKind::kResponses;
  return api_kind_for_path(path);
}

const char* plural(size_t count, const char* one, const char* many) {
  return count == 1 ? one : many;
}

void check_timeout(double value, const char* flag, std::vector<std::string>& errors) {
  if (!(value >= 0)) {
    errors.push_back(fmt::format("{} must be >= 0 seconds (0 = no limit), got {}", flag, value));
  }
}

void validate_target(const Config& c, std::vector<std::string>& errors) {
  std::optional<UrlParts> url = split_url(c.target.url);
  if (!url || url->host.empty() || url->host == "[]") {
    errors.push_back(
        fmt::format("--url must be an http:// or https:// URL with a host, e.g. "
                    "http://127.0.0.1:8000/v1/chat/completions (got \"{}\")",
                    c.target.url));
  }
  if (c.target.api != "openai" && c.target.api != "openai_embedding" &&
      c.target.api != "openai_rerank" && c.target.api != "openai_responses") {
    errors.push_back(fmt::format(
        "--api must be openai, openai_embedding, openai_rerank or openai_responses (got \"{}\")",
        c.target.api));
  }
  if (!generates_text(c.target.api_kind) && (c.workload.multi_turn || c.workload.image_num > 0)) {
    errors.push_back(
        fmt::format("the {} API takes texts only: --multi-turn and --image-num need "
                    "the chat API (/v1/chat/completions)",
                    api_kind_name(c.target.api_kind)));
  }
  if (c.workload.image_num > 0 && c.target.api_kind != ApiKind::kChat &&
      c.target.api_kind != ApiKind::kResponses) {
    errors.push_back(
        "--image-num attaches images to chat messages: use /v1/chat/completions or /v1/responses");
  }
  if (c.target.http2 && c.target.http2_prior_knowledge) {
    errors.push_back(
        "--http2 and --http2-prior-knowledge exclude each other: --http2 for https:// URLs (ALPN), "
        "--http2-prior-knowledge for http:// (h2c)");
  }
  if (c.target.max_streams_per_connection < 0) {
    errors.push_back("--max-streams-per-connection must be at least 1 (0: the server's limit)");
  } else if (c.target.max_streams_per_connection > 0 && !c.target.http2 &&
             !c.target.http2_prior_knowledge) {
    errors.push_back(
        "--max-streams-per-connection applies to HTTP/2: add --http2 or --http2-prior-knowledge");
  }
  if (!c.target.cacert.empty() && !std::ifstream(c.target.cacert).good()) {
    errors.push_back(fmt::format(
        "--cacert: cannot read the CA bundle \"{}\"; give a readable PEM file", c.target.cacert));
  }
}

// Several --url (replicas): every URL valid and of one API (the same path). A URL given twice is
// allowed: it gets twice the share of the requests.
void validate_replicas(const Config& c, std::vector<std::string>& errors) {
  if (c.target.url_policy != "round-robin" && c.target.url_policy != "least-inflight") {
    errors.push_back(fmt::format("--url-policy must be round-robin or least-inflight (got \"{}\")",
                                 c.target.url_policy));
  }
  if (c.target.urls.size() < 2) return;
  const auto normal_path = [](std::string_view path) {
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    return path;
  };
  const std::optional<UrlParts> first = split_url(c.target.urls.front());
  for (size_t i = 0; i < c.target.urls.size(); ++i) {
    const std::optional<UrlParts> url = split_url(c.target.urls[i]);
    if (!url || url->host.empty() || url->host == "[]") {
      errors.push_back(
          fmt::format("--url #{} must be an http:// or https:// URL with a host (got "
                      "\"{}\")",
                      i + 1, c.target.urls[i]));
      continue;
    }
    if (first && normal_path(url->path) != normal_path(first->path)) {
      errors.push_back(fmt::format(
          "every --url must name the same endpoint path (one API for all replicas): --url #1 has "
          "\"{}\", --url #{} has \"{}\"",
          first->path, i + 1, url->path));
    }
  }
  if (!c.server.metrics_url.empty()) {
    errors.push_back(
        "--metrics-url names one /metrics, but several --url are given: each "
        "replica's /metrics is read at its own base URL (or --no-server-metrics)");
  }
  if (c.server.profile) errors.push_back("--profile starts one server's profiler: give one --url");
}

// --cancel-rate and --cancel-after.
void validate_cancellation(const Config& c, std::vector<std::string>& errors) {
  if (!(c.load.cancel_rate >= 0 && c.load.cancel_rate <= 1)) {
    errors.push_back(
        fmt::format("--cancel-rate must be a fraction in [0, 1], got {}", c.load.cancel_rate));
  }
  const std::optional<CancelAfter> after = parse_cancel_after(c.load.cancel_after);
  if (!after) {
    errors.push_back(fmt::format(
        "--cancel-after must be SECONDS (e.g. 2.5), ttft or N-tokens (e.g. 20-tokens), got \"{}\"",
        c.load.cancel_after));
  } else if (c.load.cancel_rate > 0 && after->chunks > 0 &&
             (!c.body.stream || !generates_text(c.target.api_kind))) {
    errors.push_back(
        fmt::format("--cancel-after {} counts streamed output chunks: it needs a "
                    "stream (no --no-stream) of an API that generates text; give "
                    "SECONDS instead",
                    c.load.cancel_after));
  }
}

// --dataset random (and speed_benchmark): lengths in tokens.
void validate_synthetic(const Config& c, std::vector<std::string>& errors) {
  if (c.workload.input_tokens.empty() &&
      c.workload.max_prompt_length == std::numeric_limits<int64_t>::max()) {
    errors.push_back(fmt::format(
        "--dataset {} needs input lengths in tokens: --input-tokens N (fixed; several values make "
        "a grid) or --min-prompt-length/--max-prompt-length (drawn per request)",
        c.workload.dataset));
  }
  if (!c.workload.input_tokens.empty() &&
      (c.workload.min_prompt_length != 0 ||
       c.workload.max_prompt_length != std::numeric_limits<int64_t>::max())) {
    errors.push_back(
        "--input-tokens and --min/--max-prompt-length both set input lengths: give one");
  }
  for (const int64_t n : c.workload.input_tokens) {
    if (n < 1) errors.push_back(fmt::format("--input-tokens must be >= 1, got {}", n));
  }
  for (const int64_t n : c.workload.output_tokens) {
    if (n < 1) errors.push_back(fmt::format("--output-tokens must be >= 1, got {}", n));
  }
  if (c.workload.input_tokens.empty() && c.workload.max_prompt_length < 1) {
    errors.push_back(fmt::format("--max-prompt-length must be >= 1 token, got {}",
                                 c.workload.max_prompt_length));
  }
  if (c.workload.prefix_length < 0) {
    errors.push_back(fmt::format("--prefix-length must be >= 0, got {}", c.workload.prefix_length));
  }
  if (c.workload.dataset == "shared_prefix") {
    if (c.workload.prefix_length < 1) {
      errors.push_back("--dataset shared_prefix needs each group's prefix length: --prefix-length S");
    }
    if (c.workload.input_tokens.size() > 1) {
      errors.push_back("--dataset shared_prefix takes one question length: --input-tokens Q");
    }
    if (c.workload.input_tokens.empty() &&
        c.workload.max_prompt_length != std::numeric_limits<int64_t>::max()) {
      errors.push_back("--dataset shared_prefix takes a fixed question length: --input-tokens Q");
    }
    if (c.workload.prefix_groups < 1 || c.workload.prefix_groups > 100'000) {
      errors.push_back(fmt::format("--prefix-groups must be between 1 and 100000, got {}",
                                   c.workload.prefix_groups));
    }
    if (c.workload.prompts_per_group < 0) {
      errors.push_back(
          fmt::format("--prompts-per-group must be >= 0, got {}", c.workload.prompts_per_group));
    }
    if (!(c.workload.prefix_zipf >= 0) || c.workload.prefix_zipf > 10) {
      errors.push_back(
          fmt::format("--prefix-zipf must be between 0 and 10, got {}", c.workload.prefix_zipf));
    }
  }
  if (!c.workload.prompt.empty()) {
    errors.push_back(fmt::format("--prompt gives a fixed prompt; --dataset {} makes its own",
                                 c.workload.dataset));
  }
  if (c.workload.tokenize_prompt && c.target.api_kind != ApiKind::kCompletions) {
    errors.push_back(
        "--tokenize-prompt sends token ids, which only the completions API "
        "(/v1/completions) takes");
  }
}

// --dataset sharegpt: a file, and vLLM's limits in tokens.
void validate_sharegpt(const Config& c, std::vector<std::string>& errors) {
  if (c.workload.dataset_path.empty()) {
    errors.push_back(
        fmt::format("--dataset-path is required for --dataset {} (the ShareGPT JSON file, e.g. "
                    "ShareGPT_V3_unfiltered_cleaned_split.json)",
                    c.workload.dataset));
  }
  if (!c.workload.prompt.empty()) {
    errors.push_back(fmt::format("--prompt gives a fixed prompt; --dataset {} samples its own",
                                 c.workload.dataset));
  }
  if (c.workload.sharegpt_output_len == 0 || c.workload.sharegpt_output_len < -1) {
    errors.push_back(
        fmt::format("--sharegpt-output-len must be >= 1, got {}", c.workload.sharegpt_output_len));
  }
  for (const auto& [value, flag] :
       {std::pair{c.workload.sharegpt_min_len, "--sharegpt-min-len"},
        std::pair{c.workload.sharegpt_max_input_len, "--sharegpt-max-input-len"},
        std::pair{c.workload.sharegpt_max_total_len, "--sharegpt-max-total-len"}}) {
    if (value < 0) errors.push_back(fmt::format("{} must be >= 0, got {}", flag, value));
  }
}

// --multi-turn: checks the conversations' flags.
void validate_sessions(const Config& c, std::vector<std::string>& errors) {
  const bool turn_flags =
      c.workload.max_turns.has_value() || c.workload.history_recorded || c.workload.turn_delay.on();
  if (!c.workload.multi_turn) {
    if (turn_flags) {
      errors.push_back(
          "--max-turns, --history and --turn-delay shape conversations: add --multi-turn (with "
          "--dataset sharegpt) or use --dataset random_multi_turn or conversations");
    }
    return;
  }
  if (c.workload.dataset != "random_multi_turn" && !is_conversation_dataset(c.workload.dataset) &&
      !is_sharegpt_dataset(c.workload.dataset)) {
    errors.push_back(fmt::format(
        "--multi-turn sends conversations: use --dataset random_multi_turn, sharegpt or "
        "conversations (not --dataset {})",
        c.workload.dataset));
  }
  if (c.target.api_kind != ApiKind::kChat) {
    errors.push_back(
        "--multi-turn sends a history of chat messages: use the chat API (/v1/chat/completions)");
  }
  if (c.workload.min_turns < 1)
    errors.push_back(fmt::format("--min-turns must be >= 1, got {}", c.workload.min_turns));
  if (c.workload.max_turns && (*c.workload.max_turns < 1 || *c.workload.max_turns > 1000)) {
    errors.push_back(
        fmt::format("--max-turns must be between 1 and 1000, got {}", *c.workload.max_turns));
  }
  if (c.workload.max_turns && c.workload.min_turns > *c.workload.max_turns) {
    errors.push_back(fmt::format("--min-turns {} is more than --max-turns {}", c.workload.min_turns,
                                 *c.workload.max_turns));
  }
  if (c.workload.dataset == "random_multi_turn" && !c.workload.max_turns &&
      c.workload.min_turns > 5) {
    errors.push_back(
        fmt::format("--min-turns {} is more than the default --max-turns 5: give --max-turns",
                    c.workload.min_turns));
  }
  if (c.workload.dataset == "random_multi_turn" && c.workload.history_recorded) {
    errors.push_back("--history recorded needs recorded answers: random_multi_turn has none");
  }
  if (c.workload.prefix_length != 0) {
    errors.push_back("--prefix-length is not supported with conversations");
  }
}

// Traces: a file, and how to replay it.
void validate_trace(const Config& c, std::vector<std::string>& errors) {
  if (c.workload.dataset_path.empty()) {
    errors.push_back(fmt::format(
        "--dataset-path is required for --dataset {} (the trace, JSON lines)", c.workload.dataset));
  }
  if (!(c.workload.trace_speedup > 0) || c.workload.trace_speedup > 1e6) {
    errors.push_back(fmt::format("--trace-speedup must be > 0 (and at most 1e6), got {}",
                                 c.workload.trace_speedup));
  }
  if (c.workload.trace_block_tokens < 1 || c.workload.trace_block_tokens > 1'000'000) {
    errors.push_back(fmt::format("--trace-block-tokens must be between 1 and 1000000, got {}",
                                 c.workload.trace_block_tokens));
  }
  if (!c.load.rate.empty() || c.load.ramp_up.on()) {
    errors.push_back(
        "--dataset mooncake_trace sends at the trace's timestamps: drop --rate and --ramp-up-* "
        "(scale the timestamps with --trace-speedup)");
  }
  if (!c.workload.prompt.empty()) {
    errors.push_back(fmt::format("--prompt gives a fixed prompt; --dataset {} builds its own",
                                 c.workload.dataset));
  }
  if (c.load.warmup_num > 0) {
    errors.push_back(fmt::format(
        "--warmup-num would shift a trace's timestamps: --dataset {} replays them as they are",
        c.workload.dataset));
  }
  if (c.load.number.size() > 1) {
    errors.push_back("-n with a trace takes one value: how many of its first requests to replay");
  }
  if (!c.verdicts.search.empty()) errors.push_back("--search varies the load: a trace fixes it");
}

void validate_dataset(const Config& c, std::vector<std::string>& errors) {
  const std::vector<std::string_view> kinds = dataset_kinds();
  if (std::find(kinds.begin(), kinds.end(), c.workload.dataset) == kinds.end()) {
    // Only this message: what else the unknown kind would need is beside the point.
    const std::string guidance = dataset_guidance(c.workload.dataset);
    errors.push_back(fmt::format("--dataset must be one of {} (got \"{}\"{})",
                                 fmt::join(kinds, ", "), c.workload.dataset,
                                 guidance.empty() ? "" : ": " + guidance));
  } else if (is_synthetic_dataset(c.workload.dataset)) {
    validate_synthetic(c, errors);
  } else if (is_sharegpt_dataset(c.workload.dataset)) {
    validate_sharegpt(c, errors);
  } else if (is_trace_dataset(c.workload.dataset)) {
    validate_trace(c, errors);
  } else if (is_conversation_dataset(c.workload.dataset)) {
    if (c.workload.dataset_path.empty()) {
      errors.push_back(
          "--dataset-path is required for --dataset conversations (JSON lines of "
          "{\"messages\": [...]} or ShareGPT's {\"conversations\": [...]})");
    }
    if (!c.workload.prompt.empty())
      errors.push_back("--prompt gives a fixed prompt; conversations are read");
  } else {
    if (c.workload.dataset_path.empty() && c.workload.prompt.empty()) {
      errors.push_back(fmt::format(
          "--dataset-path is required for --dataset {} (or give a fixed prompt with --prompt)",
          c.workload.dataset));
    }
    for (const auto& [given, flag] :
         {std::pair{!c.workload.input_tokens.empty(), "--input-tokens"},
          std::pair{!c.workload.output_tokens.empty(), "--output-tokens"},
          std::pair{c.workload.prefix_length != 0, "--prefix-length"},
          std::pair{c.workload.tokenize_prompt, "--tokenize-prompt"}}) {
      if (given) {
        errors.push_back(
            fmt::format("{} makes synthetic prompts: use it with --dataset random "
                        "(not --dataset {})",
                        flag, c.workload.dataset));
      }
    }
  }
  if (c.workload.min_prompt_length < 0) {
    errors.push_back(
        fmt::format("--min-prompt-length must be >= 0, got {}", c.workload.min_prompt_length));
  } else if (c.workload.min_prompt_length > c.workload.max_prompt_length) {
    errors.push_back(
        fmt::format("--min-prompt-length ({}) must not exceed --max-prompt-length ({})",
                    c.workload.min_prompt_length, c.workload.max_prompt_length));
  }
}

void validate_load(const Config& c, std::vector<std::string>& errors) {
  if (c.load.parallel.empty()) errors.push_back("--parallel needs at least one value");
  if (c.load.number.empty()) errors.push_back("-n/--number needs at least one value");
  for (int p : c.load.parallel) {
    if (p < 1) errors.push_back(fmt::format("--parallel values must be >= 1, got {}", p));
  }
  for (int64_t n : c.load.number) {
    if (n < 1) errors.push_back(fmt::format("-n/--number values must be >= 1, got {}", n));
  }
  if (c.load.rate.empty()) {
    if (c.load.number.size() > 1 && c.load.number.size() != c.load.parallel.size()) {
      errors.push_back(fmt::format(
          "--parallel has {} {} but -n/--number has {}: give one -n for all runs or one per "
          "--parallel value",
          c.load.parallel.size(), plural(c.load.parallel.size(), "value", "values"),
          c.load.number.size()));
    }
  } else {
    // With --rate the rates drive the sweep; --parallel (the in-flight cap) and -n pair with them.
    const size_t runs = c.load.rate.size();
    if (c.load.parallel.size() > 1 && c.load.parallel.size() != runs) {
      errors.push_back(fmt::format(
          "--rate has {} {} but --parallel has {}: give one --parallel cap for all runs or one per "
          "--rate value",
          runs, plural(runs, "value", "values"), c.load.parallel.size()));
    }
    if (c.load.number.size() > 1 && c.load.number.size() != runs) {
      errors.push_back(fmt::format(
          "--rate has {} {} but -n/--number has {}: give one -n for all runs or one per --rate "
          "value",
          runs, plural(runs, "value", "values"), c.load.number.size()));
    }
    for (double r : c.load.rate) {
      if (!(r > 0))
        errors.push_back(fmt::format("--rate values must be > 0 requests/s, got {}", r));
    }
  }
  if (c.load.ramp_up.on()) {
    if (!(c.load.ramp_up.start_rps > 0) || !(c.load.ramp_up.end_rps > 0)) {
      errors.push_back(fmt::format(
          "--ramp-up-strategy needs --ramp-up-start-rps and --ramp-up-end-rps, both > 0 req/s "
          "(got {} and {})",
          c.load.ramp_up.start_rps, c.load.ramp_up.end_rps));
    }
    if (c.load.rate.size() > 1) {
      errors.push_back("--ramp-up-strategy sets the rate of each request: drop the --rate list");
    }
    if (!c.verdicts.search.empty())
      errors.push_back("--ramp-up-strategy cannot be combined with --search");
  } else if (c.load.ramp_up.start_rps != 0 || c.load.ramp_up.end_rps != 0) {
    errors.push_back(
        "--ramp-up-start-rps and --ramp-up-end-rps need --ramp-up-strategy linear|exponential");
  }
  if (c.load.arrival != "constant" && c.load.arrival != "poisson" && c.load.arrival != "gamma") {
    errors.push_back(
        fmt::format("--arrival must be constant, poisson or gamma, got '{}'", c.load.arrival));
  }
  if (!(c.load.burstiness > 0)) {
    errors.push_back(fmt::format("--burstiness must be > 0, got {}", c.load.burstiness));
  }
  if (!(c.load.duration_s >= 0)) {
    errors.push_back(fmt::format("--duration must be >= 0 seconds, got {}", c.load.duration_s));
  }
  if (!(c.load.warmup_num >= 0)) {
    errors.push_back(fmt::format("--warmup-num must be >= 0, got {}", c.load.warmup_num));
  }
  if (!c.verdicts.search.empty()) {
    if (c.verdicts.search != "parallel" && c.verdicts.search != "rate") {
      errors.push_back(
          fmt::format("--search must be parallel or rate, got '{}'", c.verdicts.search));
    }
    if (c.verdicts.search_range.size() != 2 || !(c.verdicts.search_range[0] > 0) ||
        !(c.verdicts.search_range[0] < c.verdicts.search_range[1])) {
      errors.push_back("--search needs --search-range LO HI with 0 < LO < HI");
    }
    if (c.verdicts.slo.empty()) {
      errors.push_back("--search needs at least one --slo to decide which runs pass");
    }
    if (!(c.verdicts.search_precision_pct > 0) || !(c.verdicts.search_precision_pct < 100)) {
      errors.push_back(fmt::format("--search-precision must be between 0 and 100 percent, got {}",
                                   c.verdicts.search_precision_pct));
    }
    if (!(c.verdicts.rate_tolerance_pct >= 0) || !(c.verdicts.rate_tolerance_pct < 100)) {
      errors.push_back(fmt::format("--rate-tolerance must be between 0 and 100 percent, got {}",
                                   c.verdicts.rate_tolerance_pct));
    }
  }
  if (c.load.threads < 0) {
    errors.push_back(fmt::format("--threads must be auto or >= 1, got {}", c.load.threads));
  }
  if (!(c.server.metrics_interval_s >= 0.05) || !(c.server.metrics_interval_s <= 3600)) {
    errors.push_back(fmt::format("--metrics-interval must be between 0.05 and 3600 seconds, got {}",
                                 c.server.metrics_interval_s));
  }
  if (!c.server.metrics_url.empty() && !c.server.metrics_url.starts_with("http://") &&
      !c.server.metrics_url.starts_with("https://")) {
    errors.push_back(fmt::format("--metrics-url must start with http:// or https://, got \"{}\"",
                                 c.server.metrics_url));
  }
  if (!c.output.push_gateway.empty() && !c.output.push_gateway.starts_with("http://") &&
      !c.output.push_gateway.starts_with("https://")) {
    errors.push_back(fmt::format("--push-gateway must start with http:// or https://, got \"{}\"",
                                 url_without_userinfo(c.output.push_gateway)));
  }
  if (!(c.output.push_interval_s >= 0.1) || !(c.output.push_interval_s <= 3600)) {
    errors.push_back(fmt::format("--push-interval must be between 0.1 and 3600 seconds, got {}",
                                 c.output.push_interval_s));
  }
  if (!c.server.server_metrics && !c.server.metrics_url.empty()) {
    errors.push_back("--metrics-url and --no-server-metrics contradict each other: drop one");
  }
  if (!(c.load.sleep_interval_s >= 0)) {
    errors.push_back(
        fmt::format("--sleep-interval must be >= 0 seconds, got {}", c.load.sleep_interval_s));
  }
}

void validate_body(const Config& c, std::vector<std::string>& errors) {
  if (c.body.max_tokens && *c.body.max_tokens < 1) {
    errors.push_back(fmt::format("--max-tokens must be >= 1, got {}", *c.body.max_tokens));
  }
  if (c.body.max_tokens_low >= 0 && c.body.max_tokens &&
      c.body.max_tokens_low > *c.body.max_tokens) {
    errors.push_back(fmt::format("--max-tokens MIN MAX: MIN ({}) must not exceed MAX ({})",
                                 c.body.max_tokens_low, *c.body.max_tokens));
  } else if (c.body.max_tokens_low == 0) {
    errors.push_back("--max-tokens MIN MAX: MIN must be >= 1, got 0");
  }
  if (c.body.min_tokens && *c.body.min_tokens < 0) {
    errors.push_back(fmt::format("--min-tokens must be >= 0, got {}", *c.body.min_tokens));
  } else if (c.body.min_tokens && c.body.max_tokens && *c.body.min_tokens > *c.body.max_tokens) {
    errors.push_back(fmt::format("--min-tokens ({}) must not exceed --max-tokens ({})",
                                 *c.body.min_tokens, *c.body.max_tokens));
  }
  if (c.body.top_k && *c.body.top_k < -1)
    errors.push_back(fmt::format("--top-k must be >= -1, got {}", *c.body.top_k));
  if (c.body.n_choices && *c.body.n_choices < 1) {
    errors.push_back(fmt::format("--n-choices must be >= 1, got {}", *c.body.n_choices));
  }
  if (c.body.temperature && !(*c.body.temperature >= 0)) {
    errors.push_back(fmt::format("--temperature must be >= 0, got {}", *c.body.temperature));
  }
  if (c.body.top_p && !(*c.body.top_p > 0 && *c.body.top_p <= 1)) {
    errors.push_back(fmt::format("--top-p must be in (0, 1], got {}", *c.body.top_p));
  }
  if (!c.body.extra_args.empty()) {
    try {
      if (!nlohmann::json::parse(c.body.extra_args).is_object()) {
        errors.push_back(fmt::format(
            "--extra-args must be a JSON object such as '{{\"ignore_eos\": true}}', got {}",
            c.body.extra_args));
      }
    } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
      errors.push_back(fmt::format("--extra-args is not valid JSON: {}", e.what()));
    }
  }
}

void validate_timeouts(const Config& c, std::vector<std::string>& errors) {
  check_timeout(c.target.connect_timeout_s, "--connect-timeout", errors);
  check_timeout(c.target.read_timeout_s, "--read-timeout", errors);
  check_timeout(c.target.total_timeout_s, "--total-timeout", errors);
}

void validate_output(const Config& c, std::vector<std::string>& errors) {
  if (c.output.log_every_n_query < 1) {
    errors.push_back(
        fmt::format("--log-every-n-query must be >= 1, got {}", c.output.log_every_n_query));
  }
  if (c.output.percentiles.empty()) errors.push_back("--percentiles needs at least one value");
  if (c.output.results_db_requests && c.output.results_db.empty()) {
    errors.push_back(
        "--results-db-requests stores the requests in --results-db: give --results-db FILE");
  }
  for (double p : c.output.percentiles) {
    if (!(p >= 0 && p <= 100)) {
      errors.push_back(fmt::format("--percentiles values must be in [0, 100], got {}", p));
    }
  }
}

}  // namespace

void resolve_config(Config& config) {
  if (const std::optional<UrlParts> url = split_url(config.target.url)) {
    config.target.api_kind = api_kind_for(config.target.api, url->path);
  }
  // Conversation datasets send conversations without --multi-turn.
  if (config.workload.dataset == "random_multi_turn" ||
      is_conversation_dataset(config.workload.dataset)) {
    config.workload.multi_turn = true;
  }
  // Synthetic workloads are about lengths, so outputs run to max_tokens unless told otherwise.
  // Mooncake traces ask for output_length tokens exactly, like vLLM's and SGLang's replays.
  if (!config.body.ignore_eos) {
    config.body.ignore_eos = is_synthetic_dataset(config.workload.dataset) ||
                             config.workload.dataset == "mooncake_trace";
  }
}

std::vector<std::string> validate_config(const Config& config) {
  std::vector<std::string> errors;
  validate_target(config, errors);
  validate_replicas(config, errors);
  validate_cancellation(config, errors);
  validate_sessions(config, errors);
  validate_dataset(config, errors);
  validate_load(config, errors);
  validate_body(config, errors);
  validate_timeouts(config, errors);
  validate_output(config, errors);
  validate_run_control(config, errors);
  validate_history_baseline(config, errors);
  return errors;
}

}  // namespace llmperf
