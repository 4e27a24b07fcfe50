// The shared run types' behaviour: API kind names, the ramp-up's rate, the turn delay's draw and
// --cancel-after's parsing. Pure functions of their fields.
#include "core/run_types.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>

#include <fmt/format.h>

namespace llmperf {

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

double RampUp::rate_at(int64_t index, int64_t count) const {
  const double progress =
      static_cast<double>(index) / static_cast<double>(std::max<int64_t>(count - 1, 1));
  if (strategy == "exponential") return start_rps * std::pow(end_rps / start_rps, progress);
  return start_rps + (end_rps - start_rps) * progress;
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
