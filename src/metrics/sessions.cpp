// Conversation statistics (see sessions.h).
#include "metrics/sessions.h"

#include <algorithm>

namespace llmperf {

void SessionTally::add(const RequestRecord& r) {
  if (r.session_id < 0 || r.turn < 0) return;
  Conversation& c = conversations_[r.session_id];
  c.planned = std::max(c.planned, r.session_turns);
  if (r.sent_ns >= 0 && (c.first_sent_ns < 0 || r.sent_ns < c.first_sent_ns)) {
    c.first_sent_ns = r.sent_ns;
  }
  c.last_end_ns = std::max(c.last_end_ns, r.end_ns);

  const auto index = static_cast<size_t>(r.turn);
  if (index >= turns_.size()) turns_.resize(index + 1);
  Turn& t = turns_[index];
  ++t.requests;
  if (!r.ok()) {
    ++t.failed;
    c.failed = true;
    return;
  }
  ++c.succeeded;
  if (r.stream && r.sent_ns >= 0 && r.first_content_ns >= r.sent_ns) {
    t.ttft_ns.push_back(static_cast<double>(r.first_content_ns - r.sent_ns));
  }
  if (r.input_source == TokenSource::kUsage) {
    t.input_tokens.push_back(static_cast<double>(r.input_tokens));
  }
  if (r.cached_tokens >= 0) {
    ++t.cached_reported;
    t.cached_tokens += r.cached_tokens;
    t.cached_of_input += r.input_tokens;
  }
}

SessionSummary SessionTally::finish(const std::vector<double>& percentiles) {
  SessionSummary s;
  std::vector<double> done, duration;
  done.reserve(conversations_.size());
  for (const auto& [id, c] : conversations_) {
    ++s.conversations;
    s.turns_planned += c.planned;
    done.push_back(c.succeeded);
    if (c.failed) {
      ++s.failed;
    } else if (c.succeeded >= c.planned) {
      ++s.completed;
      if (c.first_sent_ns >= 0 && c.last_end_ns >= c.first_sent_ns) {
        duration.push_back(static_cast<double>(c.last_end_ns - c.first_sent_ns));
      }
    } else {
      ++s.cut;
    }
  }
  s.turns_done = describe(std::move(done), percentiles);
  s.duration_ns = describe(std::move(duration), percentiles);
  for (size_t i = 0; i < turns_.size(); ++i) {
    Turn& t = turns_[i];
    TurnStats out;
    out.turn = static_cast<int32_t>(i);
    out.requests = t.requests;
    out.failed = t.failed;
    out.ttft_ns = describe(std::move(t.ttft_ns), percentiles);
    out.input_tokens = describe(std::move(t.input_tokens), percentiles);
    out.cached_reported = t.cached_reported;
    out.cached_tokens = t.cached_tokens;
    out.cached_of_input = t.cached_of_input;
    s.turns.push_back(std::move(out));
  }
  conversations_ = {};
  turns_ = {};
  return s;
}

}  // namespace llmperf
