// How llmperf-mock answers a parsed request, decided before anything is sent: the route of a
// path, and the ResponsePlan (lengths, reasoning split, chunking, usage placement) of a request.
#pragma once

#include "mock_options.h"
#include "openai_format.h"
#include "openai_request.h"

#include <optional>
#include <string_view>

namespace llmperf::mock {

// The API served at `path` (POST), if any.
std::optional<Endpoint> endpoint_of(std::string_view path);

// The plan of the reply to `request` on `endpoint`, but for its seq, created_s and fault.
// Generated replies: completion_tokens is --output-tokens capped by max_tokens (exactly
// max_tokens with ignore_eos or --honour-max-tokens), the first --reasoning-tokens of them
// reasoning (chat and responses); pooling replies generate nothing and finish with "stop".
ResponsePlan plan_reply(Endpoint endpoint, const CompletionRequest& request,
                        const MockOptions& options);

// The fault's name in --verbose lines.
std::string_view fault_name(Fault fault);

}  // namespace llmperf::mock
