// Routing and reply planning of llmperf-mock (see reply_plan.h).
#include "reply_plan.h"

#include <algorithm>

namespace llmperf::mock {
namespace {

// llama.cpp's server (n_keep 0): a prompt of `context` tokens or more loses whole blocks of
// context / 2 from its start until it fits (600 tokens in a 512-token slot keep 344).
std::int64_t cut_to_context(std::int64_t prompt, std::int64_t context) {
  if (prompt < context) return prompt;
  const std::int64_t block = std::max<std::int64_t>(1, context / 2);
  return prompt - (prompt - block) / block * block;
}

}  // namespace

std::optional<Endpoint> endpoint_of(std::string_view path) {
  if (path == "/v1/chat/completions") return Endpoint::kChat;
  if (path == "/v1/completions") return Endpoint::kCompletions;
  if (path == "/v1/responses") return Endpoint::kResponses;
  if (path == "/v1/embeddings" || path == "/embeddings") return Endpoint::kEmbeddings;
  if (path == "/v1/rerank" || path == "/rerank" || path == "/v2/rerank") return Endpoint::kRerank;
  return std::nullopt;
}

ResponsePlan plan_reply(Endpoint endpoint, const CompletionRequest& req,
                        const MockOptions& options) {
  ResponsePlan plan;
  plan.endpoint = endpoint;
  plan.prompt_tokens = req.prompt_tokens;
  plan.tokens_per_chunk = options.tokens_per_chunk;
  if (is_pooling(endpoint)) {
    plan.finish_stop = true;  // vLLM counts a pooling request as finished with "stop"
    return plan;
  }
  if (options.truncate_prompts) {
    plan.prompt_tokens = cut_to_context(plan.prompt_tokens, options.max_model_len);
  }
  plan.stream = req.stream;
  // The natural length is --output-tokens (where the model would stop); max_tokens caps it, and
  // with ignore_eos (or --honour-max-tokens) the reply runs to max_tokens exactly.
  plan.completion_tokens = options.output_tokens;
  if (req.max_tokens) {
    plan.completion_tokens = (req.ignore_eos || options.honour_max_tokens)
                                 ? *req.max_tokens
                                 : std::min<std::int64_t>(plan.completion_tokens, *req.max_tokens);
  }
  plan.finish_stop = req.max_tokens && *req.max_tokens > plan.completion_tokens;
  plan.incomplete = endpoint == Endpoint::kResponses && req.max_tokens && !plan.finish_stop;
  if (endpoint != Endpoint::kCompletions) {
    plan.reasoning_tokens = std::min(options.reasoning_tokens, plan.completion_tokens);
  }
  plan.reasoning_key = options.reasoning_field == "reasoning" ? "reasoning" : "reasoning_content";
  plan.reasoning_details = endpoint == Endpoint::kChat && options.reasoning_tokens > 0;
  plan.chunk_count = count_chunks(plan);
  plan.role_chunk = options.role_chunk && endpoint == Endpoint::kChat;
  plan.usage_chunk = options.usage_mode == UsageMode::kSeparate && req.include_usage;
  plan.usage_on_finish = options.usage_mode == UsageMode::kWithFinish;
  plan.usage_in_body = options.usage_mode != UsageMode::kNone;
  return plan;
}

std::string_view fault_name(Fault fault) {
  switch (fault) {
    case Fault::kNone:
      return "none";
    case Fault::kHttpError:
      return "http";
    case Fault::kTooMany:
      return "429";
    case Fault::kDrop:
      return "drop";
    case Fault::kStall:
      return "stall";
    case Fault::kMalformed:
      return "malformed";
    case Fault::kErrorEvent:
      return "error-event";
    case Fault::kReset:
      return "reset";
    case Fault::kTruncate:
      return "truncate";
    case Fault::kGarbage:
      return "garbage";
    case Fault::kHugeLine:
      return "huge-line";
    case Fault::kBadUtf8:
      return "bad-utf8";
  }
  return "?";
}

}  // namespace llmperf::mock
