// A run's prompts (see prompt_source.h): the dataset read once, or synthetic prompts made per run.
#include "engine/sweep/prompt_source.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <unordered_set>

#include "core/clock.h"
#include "http/http_pool.h"
#include "server/server_tokenizer.h"
#include "server/side_channel.h"
#include "server/usage_calibration.h"
#include "workload/batching.h"
#include "workload/image_prompts.h"
#include "workload/request_builder.h"
#include "workload/datasets/sharegpt.h"
#include "workload/synthetic/synthetic.h"
#include "workload/replay/trace.h"

namespace llmperf {
namespace {

// Requests a run sends, warm-up included: the prompts it needs (cycled past the cap).
int64_t requests_of(const Config& config, const Config::RunSpec& run) {
  return (run.number + config.warmup_count(run.number)) * config.texts_per_request();
}

// The most requests any run of the sweep sends, warm-up included: what a dataset read once must
// cover.
int64_t most_requests_of(const Config& config) {
  int64_t most = 0;
  for (const Config::RunSpec& run : config.run_specs()) {
    most = std::max(most, requests_of(config, run));
  }
  return most;
}

// A start-up probe that no run sends: a prompt of the workload would warm the server's prefix
// cache for the request that sends it first.
Prompt neutral_probe() {
  Prompt probe;
  probe.text = "Hello";
  probe.length = 5;
  probe.target_output_tokens = 8;
  return probe;
}

// The range a run draws its output lengths from: its grid cell, --max-tokens MIN MAX,
// --min-tokens..--max-tokens, or --max-tokens alone.
LengthRange output_range(const Config& config, const Config::RunSpec& run) {
  if (run.output_tokens >= 0) return {run.output_tokens, run.output_tokens};
  const int64_t high = config.max_tokens.value_or(2048);
  if (config.max_tokens_low >= 0) return {config.max_tokens_low, high};
  if (config.min_tokens) return {std::min(*config.min_tokens, high), high};
  return {high, high};
}

// Prints "preparing prompts: done/total" on stderr once preparation has taken over a second.
class PrepareProgress {
 public:
  explicit PrepareProgress(std::string what) : what_(std::move(what)), start_ns_(now_ns()) {}
  ~PrepareProgress() {
    if (shown_) std::fputs("\n", stderr);
  }
  void operator()(size_t done, size_t total) {
    if (now_ns() - start_ns_ < 1'000'000'000) return;
    shown_ = true;
    std::fputs(fmt::format("\r{}: {}/{} prompts fitted", what_, done, total).c_str(), stderr);
    std::fflush(stderr);
  }

 private:
  std::string what_;
  int64_t start_ns_;
  bool shown_ = false;
};

}  // namespace

struct PromptSource::Impl {
  const Config& config;
  DatasetStats dataset;
  WorkloadInfo workload;
  std::vector<Prompt> prompts;        // the dataset's, or the current run's
  std::vector<Prompt> probe_prompts;  // for the start-up probe
  // Synthetic: the server's tokenizer, or the model that estimates lengths without one.
  std::unique_ptr<Tokenizer> tokenizer;
  std::optional<LengthModel> estimate;
  ContextLength tokenize_context;        // what the tokenize API said of the context, if anything
  std::optional<size_t> prepared_index;  // the run whose synthetic prompts `prompts` holds
  std::vector<SessionScript> sessions;   // --multi-turn: the conversations
  // Trace replay: the trace's requests (read once) and their planned send offsets.
  std::vector<TraceEntry> trace;
  std::vector<int64_t> schedule;

  explicit Impl(const Config& c) : config(c) {}

  void load_dataset() {
    DatasetOptions options;
    options.kind = config.dataset;
    options.path = config.dataset_path;
    options.fixed_prompt = config.prompt;
    options.min_length = config.min_prompt_length;
    options.max_length = config.max_prompt_length;
    options.limit = most_requests_of(config);
    prompts = load_prompts(options, dataset);
    spdlog::info(
        "dataset: {} prompts from {} ({} records read, {} outside the length filter, {} "
        "malformed)",
        prompts.size(), config.prompt.empty() ? config.dataset_path : "--prompt",
        dataset.records_read, dataset.skipped_length, dataset.malformed);
    if (dataset.malformed > 0) {
      spdlog::warn("dataset: skipped {} malformed records; first: {}", dataset.malformed,
                   dataset.first_malformed_reason);
    }
    // EvalScope's --max-tokens MIN MAX: each prompt's max_tokens drawn from the range (seeded).
    if (config.max_tokens_low >= 0 && config.max_tokens) {
      std::mt19937_64 rng(config.seed);
      std::uniform_int_distribution<int64_t> draw(config.max_tokens_low, *config.max_tokens);
      for (Prompt& prompt : prompts) prompt.target_output_tokens = draw(rng);
    }
    if (const int64_t images = inline_image_files(prompts, config.dataset_path); images > 0) {
      spdlog::info("dataset: {} image files inlined as base64 data URLs", images);
    }
    shape_for_api();
    probe_prompts = {prompts.front()};
  }

  // Embeddings batches and rerank queries from the prompts, and synthetic images on them.
  void shape_for_api() {
    // group_texts returns a copy; one text per request (every chat run) needs none.
    if (config.texts_per_request() > 1) prompts = group_texts(prompts, config);
    attach_synthetic_images(prompts, config);
  }

  // ShareGPT: sampled and measured once, shared by every run like a dataset of text.
  void sample_conversations() {
    ShareGptSpec spec;
    spec.path = config.dataset_path;
    spec.count = std::clamp<int64_t>(most_requests_of(config), 1, kMaxSyntheticPrompts);
    spec.seed = config.seed;
    spec.limits.min_tokens = config.sharegpt_min_len;
    spec.limits.max_prompt_tokens = config.sharegpt_max_input_len;
    spec.limits.max_total_tokens = config.sharegpt_max_total_len;
    spec.limits.output_len = config.sharegpt_output_len;
    const int64_t started = now_ns();
    ShareGptSampling sampling;
    {
      PrepareProgress progress("sharegpt");
      prompts = sample_sharegpt(spec, tokenizer.get(), estimate ? &*estimate : nullptr, dataset,
                                sampling, std::ref(progress));
    }
    workload.counted = true;
    workload.prompts = static_cast<int64_t>(prompts.size());
    workload.candidates = sampling.candidates;
    workload.measured = sampling.measured;
    workload.dropped_short = sampling.too_short;
    workload.dropped_long = sampling.too_long;
    workload.prepare_s = static_cast<double>(now_ns() - started) / 1e9;
    spdlog::info(
        "sharegpt: {} prompts from {} conversations drawn of {} read ({} measured, {} too short, "
        "{} too long, {} malformed, {} with fewer than two turns) in {:.2f} s",
        prompts.size(), sampling.candidates, dataset.records_read, sampling.measured,
        sampling.too_short, sampling.too_long, dataset.malformed, dataset.skipped_turns,
        workload.prepare_s);
    if (static_cast<int64_t>(prompts.size()) < spec.count) {
      spdlog::warn(
          "sharegpt: only {} prompts pass the length limits, fewer than the {} requests "
          "of the longest run: they are sent again in turn",
          prompts.size(), spec.count);
    }
    if (dataset.malformed > 0) {
      spdlog::warn("sharegpt: skipped {} malformed items; first: {}", dataset.malformed,
                   dataset.first_malformed_reason);
    }
    shape_for_api();
    probe_prompts = {prompts.front()};
  }

  void find_tokenizer() {
    const HttpPoolOptions http = side_channel_options(config);
    ServerTokenizerOptions options;
    options.base_url = config.tokenize_url.empty() ? base_url_of(config.url) : config.tokenize_url;
    while (!options.base_url.empty() && options.base_url.back() == '/') options.base_url.pop_back();
    options.model = config.model;
    options.chat = (config.api_kind == ApiKind::kChat || config.api_kind == ApiKind::kResponses) &&
                   !config.tokenize_prompt;
    options.http = http;
    TokenizerProbe probe = probe_server_tokenizer(options);
    for (const std::string& attempt : probe.attempts) spdlog::debug("tokenizer probe: {}", attempt);
    if (probe.tokenizer && probe.template_uncounted) {
      const std::optional<int64_t> overhead =
          calibrate_template_overhead(config, http, *probe.tokenizer);
      probe.tokenizer = with_template_overhead(
          std::move(probe.tokenizer), overhead.value_or(0),
          overhead ? fmt::format("the server's /tokenize cannot apply the chat template: its "
                                 "{} tokens were calibrated from usage",
                                 *overhead)
                   : "the server's /tokenize cannot apply the chat template and reports no usage: "
                     "the template is not counted");
      spdlog::warn("tokenizer: {}", probe.tokenizer->info().detail);
    }
    if (probe.max_model_len > 0) {
      tokenize_context = {probe.max_model_len, "/tokenize max_model_len"};
    }
    if (probe.tokenizer) {
      tokenizer = std::move(probe.tokenizer);
      workload.tokenizer = tokenizer->info();
      spdlog::info("tokenizer: {}, {} ({})", workload.tokenizer.source, workload.tokenizer.detail,
                   options.base_url);
      return;
    }
    if (config.tokenize_prompt) {
      throw TokenizerError(fmt::format(
          "--tokenize-prompt needs the server's tokenize API, and {} has none (tried: {})",
          options.base_url, fmt::join(probe.attempts, "; ")));
    }
    const Calibration calibration = calibrate_from_usage(config, http);
    estimate = calibration.model;
    workload.tokenizer = calibration.info;
    spdlog::warn("tokenizer: no tokenize API at {} ({}); lengths are APPROXIMATE: {} ({})",
                 options.base_url,
                 probe.attempts.empty() ? "nothing answered" : probe.attempts.back(),
                 calibration.info.source, calibration.info.detail);
  }

  // --dataset shared_prefix: --prefix-groups prefixes of --prefix-length tokens; each request
  // takes a group (uniform or Zipf) and that group's next question of --input-tokens tokens.
  // Every group's prompts are fitted together, so they share the group's prefix exactly.
  void make_shared_prefix(const Config::RunSpec& run, size_t index) {
    const int64_t count = std::clamp<int64_t>(requests_of(config, run), 1, kMaxSyntheticPrompts);
    const uint64_t seed = config.seed * 1'000'003 + index;
    const std::vector<int32_t> order =
        draw_prefix_groups(config.prefix_groups, config.prefix_zipf, count, seed);
    std::vector<int64_t> uses(static_cast<size_t>(config.prefix_groups), 0);
    for (const int32_t g : order) ++uses[static_cast<size_t>(g)];

    const int64_t started = now_ns();
    std::vector<std::vector<Prompt>> groups(static_cast<size_t>(config.prefix_groups));
    int64_t misses = 0, fit_counts = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
      if (uses[g] == 0) continue;
      SyntheticSpec spec;
      spec.count = config.prompts_per_group > 0 ? std::min(uses[g], config.prompts_per_group)
                                                : uses[g];
      spec.input = {run.input_tokens, run.input_tokens};
      spec.output = output_range(config, run);
      spec.prefix_tokens = config.prefix_length;
      spec.seed = seed * 7919 + g;  // a prefix of its own per group
      spec.token_ids = config.tokenize_prompt;
      SyntheticPrompts made = tokenizer ? make_exact_prompts(*tokenizer, spec)
                                        : make_estimated_prompts(*estimate, spec);
      misses += made.misses;
      fit_counts += made.fit_counts;
      groups[g] = std::move(made.prompts);
    }
    prompts.clear();
    std::vector<int64_t> next(groups.size(), 0);
    for (const int32_t g : order) {
      std::vector<Prompt>& group = groups[static_cast<size_t>(g)];
      int64_t& n = next[static_cast<size_t>(g)];
      Prompt prompt = group[static_cast<size_t>(n % static_cast<int64_t>(group.size()))];
      prompt.prefix_group = g;
      prompt.prefix_first_use = n == 0;
      ++n;
      prompts.push_back(std::move(prompt));
    }
    workload.synthetic = true;
    workload.counted = true;
    workload.prompts = static_cast<int64_t>(prompts.size());
    workload.fit_misses = misses;
    workload.fit_counts = fit_counts;
    workload.prefix_tokens = config.prefix_length;
    workload.prepare_s = static_cast<double>(now_ns() - started) / 1e9;
    spdlog::info("prompts: {} made in {:.2f} s over {} prefix groups of {} tokens ({}{})",
                 prompts.size(), workload.prepare_s, config.prefix_groups, config.prefix_length,
                 workload.tokenizer.source,
                 tokenizer ? fmt::format("; {} missed their length", misses)
                           : std::string("; approximate"));
  }

  // --dataset random, and the user messages of random_multi_turn: `count` prompts of the run's
  // input and output lengths, with fresh text for every run, reproducible from --seed.
  SyntheticSpec synthetic_spec(const Config::RunSpec& run, size_t index, int64_t count) const {
    SyntheticSpec spec;
    spec.count = count;
    spec.input = run.input_tokens >= 0 ? LengthRange{run.input_tokens, run.input_tokens}
                                       : LengthRange{std::max<int64_t>(1, config.min_prompt_length),
                                                     config.max_prompt_length};
    spec.output = output_range(config, run);
    spec.prefix_tokens = config.prefix_length;
    spec.seed = config.seed * 1'000'003 + index;
    spec.token_ids = config.tokenize_prompt;
    return spec;
  }

  // --dataset random_multi_turn: conversations of [--min-turns, --max-turns] turns (drawn per
  // conversation), each user message a synthetic prompt of the run's input length.
  void make_random_sessions(const Config::RunSpec& run, size_t index) {
    const int64_t count = std::clamp<int64_t>(requests_of(config, run), 1, kMaxSyntheticPrompts);
    std::mt19937_64 rng(config.seed * 1'000'003 + index + 0x5e55);
    std::uniform_int_distribution<int64_t> draw(config.min_turns, config.max_turns.value_or(5));
    std::vector<int64_t> turns(static_cast<size_t>(count));
    int64_t messages = 0;
    for (int64_t& t : turns) messages += (t = draw(rng));
    const int64_t started = now_ns();
    SyntheticPrompts made;
    {
      PrepareProgress progress(fmt::format("run {}", index + 1));
      const SyntheticSpec spec = synthetic_spec(run, index, messages);
      made = tokenizer ? make_exact_prompts(*tokenizer, spec, std::ref(progress))
                       : make_estimated_prompts(*estimate, spec);
    }
    sessions.assign(static_cast<size_t>(count), {});
    size_t next = 0;
    for (size_t i = 0; i < sessions.size(); ++i) {
      for (int64_t t = 0; t < turns[i]; ++t) {
        Prompt& prompt = made.prompts[next++];
        sessions[i].turns.push_back(ScriptTurn{std::move(prompt.text), {},
                                               prompt.target_output_tokens,
                                               prompt.target_input_tokens});
      }
    }
    workload.synthetic = true;
    workload.counted = true;
    workload.prompts = messages;
    workload.fit_misses = made.misses;
    workload.fit_counts = made.fit_counts;
    workload.prepare_s = static_cast<double>(now_ns() - started) / 1e9;
    spdlog::info("conversations: {} of {}-{} turns, {} user messages made in {:.2f} s ({}{})",
                 count, config.min_turns, config.max_turns.value_or(5), messages,
                 workload.prepare_s, workload.tokenizer.source,
                 tokenizer ? fmt::format("; {} missed their length", made.misses)
                           : std::string("; approximate"));
  }

  // --dataset conversations, or sharegpt with --multi-turn: the first conversations of the file
  // with at least --min-turns turns, cut to --max-turns; read once for every run.
  void load_sessions() {
    const int64_t most = std::clamp<int64_t>(most_requests_of(config), 1, kMaxSyntheticPrompts);
    std::ifstream file(config.dataset_path, std::ios::binary);
    if (!file) {
      throw DatasetError(fmt::format("cannot open --dataset-path {}: {}", config.dataset_path,
                                     std::strerror(errno)));
    }
    const size_t max_turns =
        config.max_turns ? static_cast<size_t>(*config.max_turns) : std::numeric_limits<size_t>::max();
    // Messages to read: a system message, then a user message and an answer per turn.
    const size_t max_messages = max_turns == std::numeric_limits<size_t>::max()
                                    ? max_turns
                                    : 2 * max_turns + 2;
    struct Enough {};
    int64_t short_ones = 0;
    try {
      read_sharegpt(
          file, max_messages, 1,
          [&](Conversation&& conversation) {
            SessionScript script = script_from_conversation(conversation, max_turns);
            if (static_cast<int64_t>(script.turns.size()) < config.min_turns) {
              ++short_ones;
              return;
            }
            for (ScriptTurn& turn : script.turns) turn.max_tokens = config.sharegpt_output_len;
            sessions.push_back(std::move(script));
            if (static_cast<int64_t>(sessions.size()) >= most) throw Enough{};
          },
          dataset);
    } catch (const Enough&) {
    }
    dataset.skipped_turns += short_ones;
    if (sessions.empty()) {
      throw DatasetError(fmt::format(
          "{}: no conversation with at least {} turn(s) ({} read, {} malformed{}, {} shorter)",
          config.dataset_path, config.min_turns, dataset.records_read, dataset.malformed,
          dataset.first_malformed_reason.empty() ? "" : "; first: " + dataset.first_malformed_reason,
          short_ones));
    }
    int64_t turns = 0, recorded = 0;
    for (const SessionScript& script : sessions) {
      turns += static_cast<int64_t>(script.turns.size());
      for (const ScriptTurn& turn : script.turns) recorded += !turn.recorded_answer.empty();
    }
    workload.prompts = turns;
    spdlog::info(
        "conversations: {} from {} ({} turns, {} with a recorded answer; {} read, {} with fewer "
        "than {} turns, {} malformed)",
        sessions.size(), config.dataset_path, turns, recorded, dataset.records_read, short_ones,
        config.min_turns, dataset.malformed);
    if (dataset.malformed > 0) {
      spdlog::warn("conversations: skipped {} malformed items; first: {}", dataset.malformed,
                   dataset.first_malformed_reason);
    }
    if (static_cast<int64_t>(sessions.size()) < most) {
      spdlog::warn("conversations: only {} in the file, fewer than the {} of the longest run: "
                   "they are played again in turn",
                   sessions.size(), most);
    }
    if (config.history_recorded && recorded == 0) {
      spdlog::warn("--history recorded: the file records no answers; the answers received are "
                   "used");
    }
    probe_prompts = {neutral_probe()};
  }

  // Trace replay: the file read once (its first -n requests by timestamp, or all of them).
  void load_trace() {
    const int64_t limit = config.trace_all ? std::numeric_limits<int64_t>::max()
                                           : std::max<int64_t>(1, config.number.front());
    TraceFile file = read_trace(config.dataset_path, limit);
    dataset = file.stats;
    trace = std::move(file.entries);
    schedule = llmperf::trace_schedule(trace, config.trace_speedup);
    TraceInfo& info = workload.trace;
    info.on = true;
    info.bodies = file.bodies;
    info.entries = static_cast<int64_t>(trace.size());
    info.span_s = static_cast<double>(trace.back().offset_ns - trace.front().offset_ns) / 1e9;
    info.speedup = config.trace_speedup;
    info.out_of_order = file.out_of_order;
    spdlog::info("trace: {} requests from {} over {:.1f} s of timestamps ({}), replayed x{:g}",
                 trace.size(), config.dataset_path, info.span_s,
                 file.bodies ? "request bodies" : "Mooncake lengths and hash ids",
                 config.trace_speedup);
    if (file.out_of_order > 0) {
      spdlog::warn("trace: {} lines have a timestamp earlier than the line before: the requests "
                   "are replayed in timestamp order",
                   file.out_of_order);
    }
    if (dataset.malformed > 0) {
      spdlog::warn("trace: skipped {} malformed lines; first: {}", dataset.malformed,
                   dataset.first_malformed_reason);
    }
    if (file.bodies) {
      bool headers = false;
      for (const TraceEntry& entry : trace) headers = headers || !entry.headers.empty();
      if (headers) {
        spdlog::warn("trace: per-request \"headers\" are not sent; give common ones with "
                     "--headers");
      }
      return;  // bodies are sent as given: nothing to count
    }
    find_tokenizer();
  }

  // Trace replay: the run's prompts, with fresh block text for every run (from --seed), so that
  // one run's cache does not serve the next.
  void make_trace(size_t index) {
    TraceInfo& info = workload.trace;
    TraceBuildOptions options;
    options.block_tokens = config.trace_block_tokens;
    options.seed = config.seed * 1'000'003 + index;
    options.token_ids = config.tokenize_prompt;
    const int64_t started = now_ns();
    if (info.bodies) {
      prompts = make_trace_body_prompts(trace, options);
      workload.prompts = static_cast<int64_t>(prompts.size());
      return;
    }
    TracePrompts made;
    {
      PrepareProgress progress(fmt::format("run {}", index + 1));
      made = make_trace_prompts(tokenizer.get(), estimate ? &*estimate : nullptr, trace, options,
                                std::ref(progress));
    }
    prompts = std::move(made.prompts);
    info.block_tokens = config.trace_block_tokens;
    info.distinct_blocks = made.distinct_blocks;
    info.reused_blocks = made.reused_blocks;
    info.prompt_tokens = 0;
    info.reusable_tokens = 0;
    for (const TraceEntry& entry : trace) info.prompt_tokens += entry.input_length;
    info.reusable_tokens = reusable_tokens(trace, config.trace_block_tokens);
    workload.synthetic = true;
    workload.counted = true;
    workload.prompts = static_cast<int64_t>(prompts.size());
    workload.fit_misses = made.misses;
    workload.fit_counts = made.fit_counts;
    workload.prepare_s = static_cast<double>(now_ns() - started) / 1e9;
    spdlog::info("prompts: {} made in {:.2f} s from {} distinct blocks of {} tokens ({}{})",
                 prompts.size(), workload.prepare_s, made.distinct_blocks,
                 config.trace_block_tokens, workload.tokenizer.source,
                 tokenizer ? fmt::format("; {} missed their length", made.misses)
                           : std::string("; approximate"));
  }

  // The longest request of the sweep's synthetic runs, from their specs (see longest_request()).
  PlannedLength longest_synthetic() const {
    const bool generates = generates_text(config.api_kind);
    const bool conversations = config.dataset == "random_multi_turn";
    const int64_t turns = conversations ? config.max_turns.value_or(5) : 1;
    PlannedLength longest;
    size_t index = 0;
    for (const Config::RunSpec& run : config.run_specs()) {
      const SyntheticSpec spec = synthetic_spec(run, index++, 1);
      const int64_t input = spec.input.max + spec.prefix_tokens;
      const int64_t output = generates ? spec.output.max : 0;
      PlannedLength planned;
      if (conversations) {  // the last turn carries every earlier message and answer
        planned.input_tokens = turns * input + (turns - 1) * output;
        planned.output_tokens = output;
        planned.what = fmt::format(
            "the last turn of a {}-turn conversation of {}-token messages and {}-token answers",
            turns, input, output);
      } else {
        planned.input_tokens = input;
        planned.output_tokens = output;
        planned.what = fmt::format("{} input tokens{}, max_tokens {}", spec.input.max,
                                   spec.prefix_tokens > 0
                                       ? fmt::format(" + a {}-token prefix", spec.prefix_tokens)
                                       : std::string(),
                                   output);
      }
      longest = longer(longest, planned);
    }
    return longest;
  }

  // Prompt tokens in each entry's leading blocks named by an earlier entry (in send order).
  static int64_t reusable_tokens(const std::vector<TraceEntry>& entries, int64_t block) {
    std::unordered_set<int64_t> seen;
    int64_t total = 0;
    for (const TraceEntry& entry : entries) {
      int64_t leading = 0;
      while (static_cast<size_t>(leading) < entry.hash_ids.size() &&
             seen.count(entry.hash_ids[static_cast<size_t>(leading)]) > 0) {
        ++leading;
      }
      total += std::min(entry.input_length, leading * block);
      seen.insert(entry.hash_ids.begin(), entry.hash_ids.end());
    }
    return total;
  }

  void make_synthetic(const Config::RunSpec& run, size_t index) {
    if (config.dataset == "shared_prefix") {
      make_shared_prefix(run, index);
      return;
    }
    if (config.dataset == "random_multi_turn") {
      make_random_sessions(run, index);
      return;
    }
    const SyntheticSpec spec = synthetic_spec(
        run, index, std::clamp<int64_t>(requests_of(config, run), 1, kMaxSyntheticPrompts));

    const int64_t started = now_ns();
    SyntheticPrompts made;
    try {
      if (tokenizer) {
        PrepareProgress progress(fmt::format("run {}", index + 1));
        made = make_exact_prompts(*tokenizer, spec, std::ref(progress));
      } else {
        made = make_estimated_prompts(*estimate, spec);
      }
    } catch (const std::invalid_argument& error) {  // a fixed length the template cannot fit
      throw std::invalid_argument(fmt::format(
          "--input-tokens {}: {}; give a longer input (or use /v1/completions, which adds only "
          "special tokens)",
          run.input_tokens, error.what()));
    }
    if (made.raised > 0) {
      spdlog::warn(
          "prompts: {} drawn lengths were shorter than what every request carries (chat "
          "template, special tokens{}) and were raised to it",
          made.raised, config.prefix_length > 0 ? ", prefix" : "");
    }
    prompts = std::move(made.prompts);
    shape_for_api();
    workload.synthetic = true;
    workload.counted = true;
    workload.prompts = static_cast<int64_t>(prompts.size());
    workload.fit_misses = made.misses;
    workload.fit_counts = made.fit_counts;
    workload.prefix_tokens = config.prefix_length;
    workload.prepare_s = static_cast<double>(now_ns() - started) / 1e9;
    spdlog::info("prompts: {} made in {:.2f} s ({}{})", prompts.size(), workload.prepare_s,
                 workload.tokenizer.source,
                 tokenizer ? fmt::format("; {} missed their length", made.misses)
                           : std::string("; approximate"));
  }
};

PromptSource::PromptSource(const Config& config) : impl_(std::make_unique<Impl>(config)) {
  if (is_trace_dataset(config.dataset)) {
    impl_->load_trace();
    impl_->probe_prompts = {neutral_probe()};
    return;
  }
  if (config.multi_turn && config.dataset != "random_multi_turn") {
    impl_->load_sessions();
    return;
  }
  if (is_sharegpt_dataset(config.dataset)) {
    impl_->find_tokenizer();
    impl_->sample_conversations();
    return;
  }
  if (!is_synthetic_dataset(config.dataset)) {
    impl_->load_dataset();
    return;
  }
  impl_->find_tokenizer();
  impl_->probe_prompts = group_texts({neutral_probe()}, config);
}

PromptSource::~PromptSource() = default;

const std::vector<Prompt>& PromptSource::prepare(const Config::RunSpec& run, size_t index) {
  if (!impl_->trace.empty()) {
    if (impl_->prepared_index != index) {
      impl_->make_trace(index);
      impl_->prepared_index = index;
    }
    return impl_->prompts;
  }
  if (is_synthetic_dataset(impl_->config.dataset) && impl_->prepared_index != index) {
    impl_->make_synthetic(run, index);
    impl_->prepared_index = index;
  }
  return impl_->prompts;
}

const std::vector<Prompt>& PromptSource::probe_prompts() const { return impl_->probe_prompts; }
const std::vector<int64_t>* PromptSource::trace_schedule() const {
  return impl_->trace.empty() ? nullptr : &impl_->schedule;
}
const std::vector<SessionScript>* PromptSource::sessions() const {
  return impl_->config.multi_turn ? &impl_->sessions : nullptr;
}
const DatasetStats& PromptSource::dataset() const { return impl_->dataset; }
const WorkloadInfo& PromptSource::workload() const { return impl_->workload; }
const ContextLength& PromptSource::tokenize_context() const { return impl_->tokenize_context; }

std::optional<PlannedLength> PromptSource::longest_request() const {
  const Impl& s = *impl_;
  const Config& config = s.config;
  if (!s.trace.empty()) {
    if (s.workload.trace.bodies) return std::nullopt;
    PlannedLength longest;
    for (const TraceEntry& entry : s.trace) {
      longest = longer(longest, {entry.input_length, std::max<int64_t>(0, entry.output_length),
                                 fmt::format("line {} of the trace", entry.line)});
    }
    return longest;
  }
  if (config.multi_turn && config.dataset != "random_multi_turn") return std::nullopt;
  if (is_synthetic_dataset(config.dataset)) return s.longest_synthetic();
  if (!is_sharegpt_dataset(config.dataset)) return std::nullopt;
  PlannedLength longest;
  for (size_t i = 0; i < s.prompts.size(); ++i) {
    const Prompt& p = s.prompts[i];
    longest = longer(longest, {p.target_input_tokens, std::max<int64_t>(0, p.target_output_tokens),
                               fmt::format("ShareGPT prompt {} of {}", i + 1, s.prompts.size())});
  }
  return longest;
}

}  // namespace llmperf
