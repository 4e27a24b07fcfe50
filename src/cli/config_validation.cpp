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
  std::optional<UrlParts> url = split_url(c.url);
  if (!url || url->host.empty() || url->host == "[]") {
    errors.push_back(
        fmt::format("--url must be an http:// or https:// URL with a host, e.g. "
                    "http://127.0.0.1:8000/v1/chat/completions (got \"{}\")",
                    c.url));
  }
  if (c.api != "openai" && c.api != "openai_embedding" && c.api != "openai_rerank" &&
      c.api != "openai_responses") {
    errors.push_back(fmt::format(
        "--api must be openai, openai_embedding, openai_rerank or openai_responses (got \"{}\")",
        c.api));
  }
  if (!generates_text(c.api_kind) && (c.multi_turn || c.image_num > 0)) {
    errors.push_back(fmt::format("the {} API takes texts only: --multi-turn and --image-num need "
                                 "the chat API (/v1/chat/completions)",
                                 api_kind_name(c.api_kind)));
  }
  if (c.image_num > 0 && c.api_kind != ApiKind::kChat && c.api_kind != ApiKind::kResponses) {
    errors.push_back(
        "--image-num attaches images to chat messages: use /v1/chat/completions or /v1/responses");
  }
  if (c.http2 && c.http2_prior_knowledge) {
    errors.push_back(
        "--http2 and --http2-prior-knowledge exclude each other: --http2 for https:// URLs (ALPN), "
        "--http2-prior-knowledge for http:// (h2c)");
  }
  if (c.max_streams_per_connection < 0) {
    errors.push_back("--max-streams-per-connection must be at least 1 (0: the server's limit)");
  } else if (c.max_streams_per_connection > 0 && !c.http2 && !c.http2_prior_knowledge) {
    errors.push_back(
        "--max-streams-per-connection applies to HTTP/2: add --http2 or --http2-prior-knowledge");
  }
  if (!c.cacert.empty() && !std::ifstream(c.cacert).good()) {
    errors.push_back(fmt::format(
        "--cacert: cannot read the CA bundle \"{}\"; give a readable PEM file", c.cacert));
  }
}

// Several --url (replicas): every URL valid and of one API (the same path). A URL given twice is
// allowed: it gets twice the share of the requests.
void validate_replicas(const Config& c, std::vector<std::string>& errors) {
  if (c.url_policy != "round-robin" && c.url_policy != "least-inflight") {
    errors.push_back(fmt::format("--url-policy must be round-robin or least-inflight (got \"{}\")",
                                 c.url_policy));
  }
  if (c.urls.size() < 2) return;
  const auto normal_path = [](std::string_view path) {
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    return path;
  };
  const std::optional<UrlParts> first = split_url(c.urls.front());
  for (size_t i = 0; i < c.urls.size(); ++i) {
    const std::optional<UrlParts> url = split_url(c.urls[i]);
    if (!url || url->host.empty() || url->host == "[]") {
      errors.push_back(
          fmt::format("--url #{} must be an http:// or https:// URL with a host (got "
                      "\"{}\")",
                      i + 1, c.urls[i]));
      continue;
    }
    if (first && normal_path(url->path) != normal_path(first->path)) {
      errors.push_back(fmt::format(
          "every --url must name the same endpoint path (one API for all replicas): --url #1 has "
          "\"{}\", --url #{} has \"{}\"",
          first->path, i + 1, url->path));
    }
  }
  if (!c.metrics_url.empty()) {
    errors.push_back(
        "--metrics-url names one /metrics, but several --url are given: each "
        "replica's /metrics is read at its own base URL (or --no-server-metrics)");
  }
  if (c.profile) errors.push_back("--profile starts one server's profiler: give one --url");
}

// --cancel-rate and --cancel-after.
void validate_cancellation(const Config& c, std::vector<std::string>& errors) {
  if (!(c.cancel_rate >= 0 && c.cancel_rate <= 1)) {
    errors.push_back(
        fmt::format("--cancel-rate must be a fraction in [0, 1], got {}", c.cancel_rate));
  }
  const std::optional<CancelAfter> after = parse_cancel_after(c.cancel_after);
  if (!after) {
    errors.push_back(fmt::format(
        "--cancel-after must be SECONDS (e.g. 2.5), ttft or N-tokens (e.g. 20-tokens), got \"{}\"",
        c.cancel_after));
  } else if (c.cancel_rate > 0 && after->chunks > 0 && (!c.stream || !generates_text(c.api_kind))) {
    errors.push_back(
        fmt::format("--cancel-after {} counts streamed output chunks: it needs a "
                    "stream (no --no-stream) of an API that generates text; give "
                    "SECONDS instead",
                    c.cancel_after));
  }
}

// --dataset random (and speed_benchmark): lengths in tokens.
void validate_synthetic(const Config& c, std::vector<std::string>& errors) {
  if (c.input_tokens.empty() && c.max_prompt_length == std::numeric_limits<int64_t>::max()) {
    errors.push_back(fmt::format(
        "--dataset {} needs input lengths in tokens: --input-tokens N (fixed; several values make "
        "a grid) or --min-prompt-length/--max-prompt-length (drawn per request)",
        c.dataset));
  }
  if (!c.input_tokens.empty() &&
      (c.min_prompt_length != 0 || c.max_prompt_length != std::numeric_limits<int64_t>::max())) {
    errors.push_back(
        "--input-tokens and --min/--max-prompt-length both set input lengths: give one");
  }
  for (const int64_t n : c.input_tokens) {
    if (n < 1) errors.push_back(fmt::format("--input-tokens must be >= 1, got {}", n));
  }
  for (const int64_t n : c.output_tokens) {
    if (n < 1) errors.push_back(fmt::format("--output-tokens must be >= 1, got {}", n));
  }
  if (c.input_tokens.empty() && c.max_prompt_length < 1) {
    errors.push_back(
        fmt::format("--max-prompt-length must be >= 1 token, got {}", c.max_prompt_length));
  }
  if (c.prefix_length < 0) {
    errors.push_back(fmt::format("--prefix-length must be >= 0, got {}", c.prefix_length));
  }
  if (c.dataset == "shared_prefix") {
    if (c.prefix_length < 1) {
      errors.push_back("--dataset shared_prefix needs each group's prefix length: --prefix-length S");
    }
    if (c.input_tokens.size() > 1) {
      errors.push_back("--dataset shared_prefix takes one question length: --input-tokens Q");
    }
    if (c.input_tokens.empty() && c.max_prompt_length != std::numeric_limits<int64_t>::max()) {
      errors.push_back("--dataset shared_prefix takes a fixed question length: --input-tokens Q");
    }
    if (c.prefix_groups < 1 || c.prefix_groups > 100'000) {
      errors.push_back(
          fmt::format("--prefix-groups must be between 1 and 100000, got {}", c.prefix_groups));
    }
    if (c.prompts_per_group < 0) {
      errors.push_back(
          fmt::format("--prompts-per-group must be >= 0, got {}", c.prompts_per_group));
    }
    if (!(c.prefix_zipf >= 0) || c.prefix_zipf > 10) {
      errors.push_back(fmt::format("--prefix-zipf must be between 0 and 10, got {}", c.prefix_zipf));
    }
  }
  if (!c.prompt.empty()) {
    errors.push_back(
        fmt::format("--prompt gives a fixed prompt; --dataset {} makes its own", c.dataset));
  }
  if (c.tokenize_prompt && c.api_kind != ApiKind::kCompletions) {
    errors.push_back(
        "--tokenize-prompt sends token ids, which only the completions API "
        "(/v1/completions) takes");
  }
}

// --dataset sharegpt: a file, and vLLM's limits in tokens.
void validate_sharegpt(const Config& c, std::vector<std::string>& errors) {
  if (c.dataset_path.empty()) {
    errors.push_back(
        fmt::format("--dataset-path is required for --dataset {} (the ShareGPT JSON file, e.g. "
                    "ShareGPT_V3_unfiltered_cleaned_split.json)",
                    c.dataset));
  }
  if (!c.prompt.empty()) {
    errors.push_back(
        fmt::format("--prompt gives a fixed prompt; --dataset {} samples its own", c.dataset));
  }
  if (c.sharegpt_output_len == 0 || c.sharegpt_output_len < -1) {
    errors.push_back(
        fmt::format("--sharegpt-output-len must be >= 1, got {}", c.sharegpt_output_len));
  }
  for (const auto& [value, flag] :
       {std::pair{c.sharegpt_min_len, "--sharegpt-min-len"},
        std::pair{c.sharegpt_max_input_len, "--sharegpt-max-input-len"},
        std::pair{c.sharegpt_max_total_len, "--sharegpt-max-total-len"}}) {
    if (value < 0) errors.push_back(fmt::format("{} must be >= 0, got {}", flag, value));
  }
}

// --multi-turn: checks the conversations' flags.
void validate_sessions(const Config& c, std::vector<std::string>& errors) {
  const bool turn_flags = c.max_turns.has_value() || c.history_recorded || c.turn_delay.on();
  if (!c.multi_turn) {
    if (turn_flags) {
      errors.push_back(
          "--max-turns, --history and --turn-delay shape conversations: add --multi-turn (with "
          "--dataset sharegpt) or use --dataset random_multi_turn or conversations");
    }
    return;
  }
  if (c.dataset != "random_multi_turn" && !is_conversation_dataset(c.dataset) &&
      !is_sharegpt_dataset(c.dataset)) {
    errors.push_back(fmt::format(
        "--multi-turn sends conversations: use --dataset random_multi_turn, sharegpt or "
        "conversations (not --dataset {})",
        c.dataset));
  }
  if (c.api_kind != ApiKind::kChat) {
    errors.push_back(
        "--multi-turn sends a history of chat messages: use the chat API (/v1/chat/completions)");
  }
  if (c.min_turns < 1) errors.push_back(fmt::format("--min-turns must be >= 1, got {}", c.min_turns));
  if (c.max_turns && (*c.max_turns < 1 || *c.max_turns > 1000)) {
    errors.push_back(fmt::format("--max-turns must be between 1 and 1000, got {}", *c.max_turns));
  }
  if (c.max_turns && c.min_turns > *c.max_turns) {
    errors.push_back(fmt::format("--min-turns {} is more than --max-turns {}", c.min_turns,
                                 *c.max_turns));
  }
  if (c.dataset == "random_multi_turn" && !c.max_turns && c.min_turns > 5) {
    errors.push_back(fmt::format(
        "--min-turns {} is more than the default --max-turns 5: give --max-turns", c.min_turns));
  }
  if (c.dataset == "random_multi_turn" && c.history_recorded) {
    errors.push_back("--history recorded needs recorded answers: random_multi_turn has none");
  }
  if (c.prefix_length != 0) {
    errors.push_back("--prefix-length is not supported with conversations");
  }
}

// Traces: a file, and how to replay it.
void validate_trace(const Config& c, std::vector<std::string>& errors) {
  if (c.dataset_path.empty()) {
    errors.push_back(
        fmt::format("--dataset-path is required for --dataset {} (the trace, JSON lines)",
                    c.dataset));
  }
  if (!(c.trace_speedup > 0) || c.trace_speedup > 1e6) {
    errors.push_back(
        fmt::format("--trace-speedup must be > 0 (and at most 1e6), got {}", c.trace_speedup));
  }
  if (c.trace_block_tokens < 1 || c.trace_block_tokens > 1'000'000) {
    errors.push_back(fmt::format("--trace-block-tokens must be between 1 and 1000000, got {}",
                                 c.trace_block_tokens));
  }
  if (!c.rate.empty() || c.ramp_up.on()) {
    errors.push_back(
        "--dataset mooncake_trace sends at the trace's timestamps: drop --rate and --ramp-up-* "
        "(scale the timestamps with --trace-speedup)");
  }
  if (!c.prompt.empty()) {
    errors.push_back(
        fmt::format("--prompt gives a fixed prompt; --dataset {} builds its own", c.dataset));
  }
  if (c.warmup_num > 0) {
    errors.push_back(fmt::format(
        "--warmup-num would shift a trace's timestamps: --dataset {} replays them as they are",
        c.dataset));
  }
  if (c.number.size() > 1) {
    errors.push_back("-n with a trace takes one value: how many of its first requests to replay");
  }
  if (!c.search.empty()) errors.push_back("--search varies the load: a trace fixes it");
}

void validate_dataset(const Config& c, std::vector<std::string>& errors) {
  const std::vector<std::string_view> kinds = dataset_kinds();
  if (std::find(kinds.begin(), kinds.end(), c.dataset) == kinds.end()) {
    // Only this message: what else the unknown kind would need is beside the point.
    const std::string guidance = dataset_guidance(c.dataset);
    errors.push_back(fmt::format("--dataset must be one of {} (got \"{}\"{})",
                                 fmt::join(kinds, ", "), c.dataset,
                                 guidance.empty() ? "" : ": " + guidance));
  } else if (is_synthetic_dataset(c.dataset)) {
    validate_synthetic(c, errors);
  } else if (is_sharegpt_dataset(c.dataset)) {
    validate_sharegpt(c, errors);
  } else if (is_trace_dataset(c.dataset)) {
    validate_trace(c, errors);
  } else if (is_conversation_dataset(c.dataset)) {
    if (c.dataset_path.empty()) {
      errors.push_back(
          "--dataset-path is required for --dataset conversations (JSON lines of "
          "{\"messages\": [...]} or ShareGPT's {\"conversations\": [...]})");
    }
    if (!c.prompt.empty()) errors.push_back("--prompt gives a fixed prompt; conversations are read");
  } else {
    if (c.dataset_path.empty() && c.prompt.empty()) {
      errors.push_back(fmt::format(
          "--dataset-path is required for --dataset {} (or give a fixed prompt with --prompt)",
          c.dataset));
    }
    for (const auto& [given, flag] : {std::pair{!c.input_tokens.empty(), "--input-tokens"},
                                      std::pair{!c.output_tokens.empty(), "--output-tokens"},
                                      std::pair{c.prefix_length != 0, "--prefix-length"},
                                      std::pair{c.tokenize_prompt, "--tokenize-prompt"}}) {
      if (given) {
        errors.push_back(
            fmt::format("{} makes synthetic prompts: use it with --dataset random "
                        "(not --dataset {})",
                        flag, c.dataset));
      }
    }
  }
  if (c.min_prompt_length < 0) {
    errors.push_back(fmt::format("--min-prompt-length must be >= 0, got {}", c.min_prompt_length));
  } else if (c.min_prompt_length > c.max_prompt_length) {
    errors.push_back(
        fmt::format("--min-prompt-length ({}) must not exceed --max-prompt-length ({})",
                    c.min_prompt_length, c.max_prompt_length));
  }
}

void validate_load(const Config& c, std::vector<std::string>& errors) {
  if (c.parallel.empty()) errors.push_back("--parallel needs at least one value");
  if (c.number.empty()) errors.push_back("-n/--number needs at least one value");
  for (int p : c.parallel) {
    if (p < 1) errors.push_back(fmt::format("--parallel values must be >= 1, got {}", p));
  }
  for (int64_t n : c.number) {
    if (n < 1) errors.push_back(fmt::format("-n/--number values must be >= 1, got {}", n));
  }
  if (c.rate.empty()) {
    if (c.number.size() > 1 && c.number.size() != c.parallel.size()) {
      errors.push_back(fmt::format(
          "--parallel has {} {} but -n/--number has {}: give one -n for all runs or one per "
          "--parallel value",
          c.parallel.size(), plural(c.parallel.size(), "value", "values"), c.number.size()));
    }
  } else {
    // With --rate the rates drive the sweep; --parallel (the in-flight cap) and -n pair with them.
    const size_t runs = c.rate.size();
    if (c.parallel.size() > 1 && c.parallel.size() != runs) {
      errors.push_back(fmt::format(
          "--rate has {} {} but --parallel has {}: give one --parallel cap for all runs or one per "
          "--rate value",
          runs, plural(runs, "value", "values"), c.parallel.size()));
    }
    if (c.number.size() > 1 && c.number.size() != runs) {
      errors.push_back(fmt::format(
          "--rate has {} {} but -n/--number has {}: give one -n for all runs or one per --rate "
          "value",
          runs, plural(runs, "value", "values"), c.number.size()));
    }
    for (double r : c.rate) {
      if (!(r > 0))
        errors.push_back(fmt::format("--rate values must be > 0 requests/s, got {}", r));
    }
  }
  if (c.ramp_up.on()) {
    if (!(c.ramp_up.start_rps > 0) || !(c.ramp_up.end_rps > 0)) {
      errors.push_back(fmt::format(
          "--ramp-up-strategy needs --ramp-up-start-rps and --ramp-up-end-rps, both > 0 req/s "
          "(got {} and {})",
          c.ramp_up.start_rps, c.ramp_up.end_rps));
    }
    if (c.rate.size() > 1) {
      errors.push_back("--ramp-up-strategy sets the rate of each request: drop the --rate list");
    }
    if (!c.search.empty()) errors.push_back("--ramp-up-strategy cannot be combined with --search");
  } else if (c.ramp_up.start_rps != 0 || c.ramp_up.end_rps != 0) {
    errors.push_back(
        "--ramp-up-start-rps and --ramp-up-end-rps need --ramp-up-strategy linear|exponential");
  }
  if (c.arrival != "constant" && c.arrival != "poisson" && c.arrival != "gamma") {
    errors.push_back(
        fmt::format("--arrival must be constant, poisson or gamma, got '{}'", c.arrival));
  }
  if (!(c.burstiness > 0)) {
    errors.push_back(fmt::format("--burstiness must be > 0, got {}", c.burstiness));
  }
  if (!(c.duration_s >= 0)) {
    errors.push_back(fmt::format("--duration must be >= 0 seconds, got {}", c.duration_s));
  }
  if (!(c.warmup_num >= 0)) {
    errors.push_back(fmt::format("--warmup-num must be >= 0, got {}", c.warmup_num));
  }
  if (!c.search.empty()) {
    if (c.search != "parallel" && c.search != "rate") {
      errors.push_back(fmt::format("--search must be parallel or rate, got '{}'", c.search));
    }
    if (c.search_range.size() != 2 || !(c.search_range[0] > 0) ||
        !(c.search_range[0] < c.search_range[1])) {
      errors.push_back("--search needs --search-range LO HI with 0 < LO < HI");
    }
    if (c.slo.empty()) {
      errors.push_back("--search needs at least one --slo to decide which runs pass");
    }
    if (!(c.search_precision_pct > 0) || !(c.search_precision_pct < 100)) {
      errors.push_back(fmt::format("--search-precision must be between 0 and 100 percent, got {}",
                                   c.search_precision_pct));
    }
    if (!(c.rate_tolerance_pct >= 0) || !(c.rate_tolerance_pct < 100)) {
      errors.push_back(fmt::format("--rate-tolerance must be between 0 and 100 percent, got {}",
                                   c.rate_tolerance_pct));
    }
  }
  if (c.threads < 0) {
    errors.push_back(fmt::format("--threads must be auto or >= 1, got {}", c.threads));
  }
  if (!(c.metrics_interval_s >= 0.05) || !(c.metrics_interval_s <= 3600)) {
    errors.push_back(fmt::format("--metrics-interval must be between 0.05 and 3600 seconds, got {}",
                                 c.metrics_interval_s));
  }
  if (!c.metrics_url.empty() && !c.metrics_url.starts_with("http://") &&
      !c.metrics_url.starts_with("https://")) {
    errors.push_back(fmt::format("--metrics-url must start with http:// or https://, got \"{}\"",
                                 c.metrics_url));
  }
  if (!c.push_gateway.empty() && !c.push_gateway.starts_with("http://") &&
      !c.push_gateway.starts_with("https://")) {
    errors.push_back(fmt::format("--push-gateway must start with http:// or https://, got \"{}\"",
                                 url_without_userinfo(c.push_gateway)));
  }
  if (!(c.push_interval_s >= 0.1) || !(c.push_interval_s <= 3600)) {
    errors.push_back(fmt::format("--push-interval must be between 0.1 and 3600 seconds, got {}",
                                 c.push_interval_s));
  }
  if (!c.server_metrics && !c.metrics_url.empty()) {
    errors.push_back("--metrics-url and --no-server-metrics contradict each other: drop one");
  }
  if (!(c.sleep_interval_s >= 0)) {
    errors.push_back(
        fmt::format("--sleep-interval must be >= 0 seconds, got {}", c.sleep_interval_s));
  }
}

void validate_body(const Config& c, std::vector<std::string>& errors) {
  if (c.max_tokens && *c.max_tokens < 1) {
    errors.push_back(fmt::format("--max-tokens must be >= 1, got {}", *c.max_tokens));
  }
  if (c.max_tokens_low >= 0 && c.max_tokens && c.max_tokens_low > *c.max_tokens) {
    errors.push_back(fmt::format("--max-tokens MIN MAX: MIN ({}) must not exceed MAX ({})",
                                 c.max_tokens_low, *c.max_tokens));
  } else if (c.max_tokens_low == 0) {
    errors.push_back("--max-tokens MIN MAX: MIN must be >= 1, got 0");
  }
  if (c.min_tokens && *c.min_tokens < 0) {
    errors.push_back(fmt::format("--min-tokens must be >= 0, got {}", *c.min_tokens));
  } else if (c.min_tokens && c.max_tokens && *c.min_tokens > *c.max_tokens) {
    errors.push_back(fmt::format("--min-tokens ({}) must not exceed --max-tokens ({})",
                                 *c.min_tokens, *c.max_tokens));
  }
  if (c.top_k && *c.top_k < -1)
    errors.push_back(fmt::format("--top-k must be >= -1, got {}", *c.top_k));
  if (c.n_choices && *c.n_choices < 1) {
    errors.push_back(fmt::format("--n-choices must be >= 1, got {}", *c.n_choices));
  }
  if (c.temperature && !(*c.temperature >= 0)) {
    errors.push_back(fmt::format("--temperature must be >= 0, got {}", *c.temperature));
  }
  if (c.top_p && !(*c.top_p > 0 && *c.top_p <= 1)) {
    errors.push_back(fmt::format("--top-p must be in (0, 1], got {}", *c.top_p));
  }
  if (!c.extra_args.empty()) {
    try {
      if (!nlohmann::json::parse(c.extra_args).is_object()) {
        errors.push_back(fmt::format(
            "--extra-args must be a JSON object such as '{{\"ignore_eos\": true}}', got {}",
            c.extra_args));
      }
    } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
      errors.push_back(fmt::format("--extra-args is not valid JSON: {}", e.what()));
    }
  }
}

void validate_timeouts(const Config& c, std::vector<std::string>& errors) {
  check_timeout(c.connect_timeout_s, "--connect-timeout", errors);
  check_timeout(c.read_timeout_s, "--read-timeout", errors);
  check_timeout(c.total_timeout_s, "--total-timeout", errors);
}

void validate_output(const Config& c, std::vector<std::string>& errors) {
  if (c.log_every_n_query < 1) {
    errors.push_back(fmt::format("--log-every-n-query must be >= 1, got {}", c.log_every_n_query));
  }
  if (c.percentiles.empty()) errors.push_back("--percentiles needs at least one value");
  if (c.results_db_requests && c.results_db.empty()) {
    errors.push_back(
        "--results-db-requests stores the requests in --results-db: give --results-db FILE");
  }
  for (double p : c.percentiles) {
    if (!(p >= 0 && p <= 100)) {
      errors.push_back(fmt::format("--percentiles values must be in [0, 100], got {}", p));
    }
  }
}

}  // namespace

void resolve_config(Config& config) {
  if (const std::optional<UrlParts> url = split_url(config.url)) {
    config.api_kind = api_kind_for(config.api, url->path);
  }
  // Conversation datasets send conversations without --multi-turn.
  if (config.dataset == "random_multi_turn" || is_conversation_dataset(config.dataset)) {
    config.multi_turn = true;
  }
  // Synthetic workloads are about lengths, so outputs run to max_tokens unless told otherwise.
  // Mooncake traces ask for output_length tokens exactly, like vLLM's and SGLang's replays.
  if (!config.ignore_eos) {
    config.ignore_eos = is_synthetic_dataset(config.dataset) || config.dataset == "mooncake_trace";
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
