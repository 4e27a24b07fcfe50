// See preflight.h.
#include "app/benchmark/preflight.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "app/signals.h"
#include "core/clock.h"
#include "core/text.h"
#include "plan/side_channels.h"
#include "server/side_channel.h"
#include "workload/context_fit.h"

namespace llmperf {
namespace {

// Explains a failed probe; returns true when the run should not proceed.
bool probe_blocks_run(const TargetConfig& target, const RequestRecord& probe) {
  if (probe.ok()) {
    spdlog::info("probe request succeeded: HTTP {}, {} output tokens in {:.3f} s",
                 probe.http_status, probe.output_tokens,
                 static_cast<double>(probe.end_ns - probe.sent_ns) / 1e9);
    return false;
  }
  switch (probe.error) {
    case ErrorKind::kConnectRefused:
      spdlog::error(
          "cannot connect to {}: connection refused. Is the server running and listening "
          "on that host and port?",
          url_without_userinfo(target.url));
      return true;
    case ErrorKind::kResolve:
    case ErrorKind::kConnectTimeout:
      spdlog::error("cannot reach {}: {}", url_without_userinfo(target.url),
                    probe.error_message);
      return true;
    case ErrorKind::kHttp:
      if (probe.http_status >= 400 && probe.http_status < 500 && probe.http_status != 429) {
        spdlog::error(
            "the server rejected the probe request ({}). Check --url, --model, "
            "--api-key and the request options.",
            probe.error_message);
        return true;
      }
      break;
    default:
      break;
  }
  spdlog::warn("probe request failed ({}: {}); running anyway, failures will be recorded",
               failure_kind_name(probe.error, probe.http_status), probe.error_message);
  return false;
}

}  // namespace

std::string served_model(const TargetConfig& target) {
  if (!target.model.empty() && target.ready_timeout_s <= 0)
    return target.model;
  const std::vector<std::string> models = fetch_served_models(
      base_url_of(target.url), side_channel_options(target), target.ready_timeout_s);
  if (!target.model.empty()) return target.model;
  if (models.size() != 1) {
    throw std::invalid_argument(fmt::format(
        "--model is missing and the server's /v1/models lists {}: give --model{}",
        models.empty() ? std::string("no model") : fmt::format("{}", fmt::join(models, ", ")),
        models.empty() ? "" : " (one of those)"));
  }
  spdlog::info("model: {}, the one model the server lists (no --model given)", models.front());
  return models.front();
}

void check_context(bool allow_truncation, const PromptSource& source, const ServerIdentity& server) {
  ContextLength context{server.max_model_len, server.max_model_len_source};
  if (context.tokens <= 0) context = source.tokenize_context();
  const std::optional<PlannedLength> longest = source.longest_request();
  if (!longest) return;
  const std::optional<std::string> overflow = context_overflow(*longest, context);
  if (!overflow) return;
  if (!allow_truncation) {
    throw std::invalid_argument(fmt::format(
        "{}. Ask for shorter requests, or give the server a longer context (llama.cpp: -c is "
        "shared by the --parallel slots); --allow-truncation runs anyway",
        *overflow));
  }
  spdlog::warn(
      "{}; running anyway (--allow-truncation): the Lengths block and the length_miss "
      "figure will show what the server did",
      *overflow);
}

bool probe_allows_run(const TargetConfig& target, const RequestSettings& settings,
                      const PromptSource& source, const RequestBuilder& builder) {
  spdlog::info("probe: one request to {}{}", url_without_userinfo(target.url),
               target.urls.size() > 1
                   ? fmt::format(" (the first of {} replicas)", target.urls.size())
                   : "");
  LoadProgress probe_progress;
  std::vector<RequestRecord> probe;
  RequestSettings probe_settings = settings;
  probe_settings.cancel_rate = 0;  // the probe is never closed on purpose
  run_load(probe_settings, LoadPlan{}, source.probe_prompts(), builder, &probe_progress,
           StopControl{}, [&probe](std::span<RequestRecord> records) {
             for (RequestRecord& record : records) probe.push_back(std::move(record));
           });
  return !probe.empty() && !probe_blocks_run(target, probe.front());
}

void wait_for_start_at(int64_t start_at_unix_ns) {
  if (start_at_unix_ns < 0) return;
  const int64_t target = start_at_unix_ns;
  const int64_t left_ns = target - unix_now_ns();
  if (left_ns <= 0) {
    spdlog::warn("--start-at was {:.3f} s ago: starting now", static_cast<double>(-left_ns) / 1e9);
    return;
  }
  spdlog::info("waiting {:.3f} s for --start-at", static_cast<double>(left_ns) / 1e9);
  constexpr int64_t kSpinNs = 2'000'000;
  while (interrupt_count().load() == 0) {
    const int64_t rest = target - unix_now_ns();
    if (rest <= kSpinNs) break;
    std::this_thread::sleep_for(
        std::chrono::nanoseconds(std::min<int64_t>(rest - kSpinNs, 50'000'000)));
  }
  while (interrupt_count().load() == 0 && unix_now_ns() < target) {
  }
}

}  // namespace llmperf
