// The run plan a Config describes: the (parallel, number, rate) of each run of a sweep and the
// warm-up count of each run. Pure functions of the validated fields.
#include "core/config.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>

#include <fmt/format.h>

namespace llmperf {

std::vector<std::pair<int, int64_t>> Config::runs() const {
  std::vector<std::pair<int, int64_t>> result;
  for (const RunSpec& run : run_specs()) result.emplace_back(run.parallel, run.number);
  return result;
}

std::vector<Config::RunSpec> Config::run_specs(const ResolvedFlags& resolved) const {
  const std::vector<int64_t>& numbers = resolved.number;
  const std::vector<double>& rates = resolved.rate;
  std::vector<RunSpec> result;
  if (numbers.empty() || parallel.empty()) return result;
  const size_t count = rates.empty() ? parallel.size() : rates.size();
  // A list of one value applies to every run; otherwise item i belongs to run i.
  const auto pick = [](const auto& list, size_t i) {
    return list.size() == 1 ? list.front() : list[std::min(i, list.size() - 1)];
  };
  for (size_t i = 0; i < count; ++i) {
    if (numbers.size() > 1 && i >= numbers.size()) break;
    RunSpec run;
    run.parallel = pick(parallel, i);
    run.number = pick(numbers, i);
    run.rate = rates.empty() ? -1.0 : rates[i];
    // The --input-tokens x --output-tokens grid, inputs outer; no lists: the run itself.
    const std::vector<int64_t> none = {-1};
    for (const int64_t in : input_tokens.empty() ? none : input_tokens) {
      for (const int64_t out : output_tokens.empty() ? none : output_tokens) {
        run.input_tokens = in;
        run.output_tokens = out;
        result.push_back(run);
      }
    }
  }
  return result;
}

double RampUp::rate_at(int64_t index, int64_t count) const {
  const double progress =
      static_cast<double>(index) / static_cast<double>(std::max<int64_t>(count - 1, 1));
  if (strategy == "exponential") return start_rps * std::pow(end_rps / start_rps, progress);
  return start_rps + (end_rps - start_rps) * progress;
}

std::string_view api_kind_name(ApiKind kind) {
  switch (kind) {
    case ApiKind::kChat:
      return "chat";
    case ApiKind::kCompletions:
      return "completions";
    case ApiKind::kEmbeddings:
      return "embeddings";
    case ApiKind::kRerank:
      return "rerank";
    case ApiKind::kResponses:
      return "responses";
  }
  return "chat";
}

ApiKind api_kind_from_name(std::string_view name) {
  for (const ApiKind kind : {ApiKind::kCompletions, ApiKind::kEmbeddings, ApiKind::kRerank,
                             ApiKind::kResponses}) {
    if (name == api_kind_name(kind)) return kind;
  }
  return ApiKind::kChat;
}

int64_t Config::texts_per_request() const {
  if (api_kind == ApiKind::kEmbeddings) return std::max<int64_t>(1, batch_size);
  if (api_kind == ApiKind::kRerank) return 1 + std::max<int64_t>(1, documents);
  return 1;
}

int64_t Config::warmup_count(int64_t run_number) const {
  if (warmup_num <= 0) return 0;
  if (warmup_num < 1) return std::llround(warmup_num * static_cast<double>(run_number));
  return static_cast<int64_t>(warmup_num);
}

int64_t TurnDelay::draw_ns(uint64_t seed, int64_t session, int64_t turn) const {
  if (!on()) return 0;
  if (kind == Kind::kFixed) return static_cast<int64_t>(low_s * 1e9);
  // One generator per (session, turn): the same delays whichever worker runs the session.
  std::seed_seq seq{static_cast<uint64_t>(seed), static_cast<uint64_t>(session),
                    static_cast<uint64_t>(turn), uint64_t{0x7475726e}};
  std::mt19937_64 rng(seq);
  double seconds = 0;
  if (kind == Kind::kUniform) {
    seconds = std::uniform_real_distribution<double>(low_s, high_s)(rng);
  } else {
    seconds = std::exponential_distribution<double>(1.0 / low_s)(rng);
  }
  return static_cast<int64_t>(seconds * 1e9);
}

std::string TurnDelay::text() const {
  switch (kind) {
    case Kind::kFixed:
      return fmt::format("{:g} s", low_s);
    case Kind::kUniform:
      return fmt::format("uniform {:g}-{:g} s", low_s, high_s);
    case Kind::kExponential:
      return fmt::format("exponential, mean {:g} s", low_s);
  }
  return {};
}

}  // namespace llmperf

namespace llmperf {

std::string CancelAfter::text() const {
  if (seconds >= 0) return fmt::format("{:g} s", seconds);
  if (chunks == 1) return "ttft";
  return fmt::format("{} tokens", chunks);
}

std::optional<CancelAfter> parse_cancel_after(std::string_view value) {
  CancelAfter after;
  if (value == "ttft") {
    after.chunks = 1;
    return after;
  }
  const auto number = [](std::string_view text, auto& out) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size();
  };
  for (std::string_view suffix : {"-tokens", "-token"}) {
    if (value.ends_with(suffix)) {
      int64_t n = 0;
      if (!number(value.substr(0, value.size() - suffix.size()), n) || n < 1) return std::nullopt;
      after.chunks = n;
      return after;
    }
  }
  double seconds = 0;
  if (!number(value, seconds) || !(seconds >= 0) || !std::isfinite(seconds)) return std::nullopt;
  after.seconds = seconds;
  return after;
}

}  // namespace llmperf
