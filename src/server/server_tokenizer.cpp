// The server's tokenizer over HTTP (see server_tokenizer.h).
#include "server/server_tokenizer.h"

#include <fmt/format.h>

#include <functional>
#include <span>
#include <unordered_map>
#include <utility>

#include "protocol/chunk_decoder.h"

namespace llmperf {
namespace {

using tokenize_api::chat_body;
using tokenize_api::detokenize_body;
using tokenize_api::parse_applied_template;
using tokenize_api::parse_count;
using tokenize_api::parse_detokenized;
using tokenize_api::parse_tokens;
using tokenize_api::tokenize_body;

// How a chat prompt is counted.
enum class ChatCount {
  kNone,           // completions API: raw prompt with special tokens
  kTokenizeChat,   // vLLM: /tokenize with "messages"
  kApplyTemplate,  // llama.cpp: /apply-template, then /tokenize with add_special
  kChatTokenize,   // TGI: /chat_tokenize
  kUncounted,      // the template cannot be counted: raw prompt with special tokens
};

constexpr std::string_view kProbeText = "Hello world, this is llmperf counting tokens.";

// A cache key for a text: its hash and length (collisions are negligible at 2^-64).
struct TextKey {
  size_t hash = 0;
  size_t size = 0;
  bool operator==(const TextKey&) const = default;
};
struct TextKeyHash {
  size_t operator()(const TextKey& key) const { return key.hash ^ (key.size * 0x9e3779b97f4a7c15); }
};
TextKey key_of(std::string_view text) { return {std::hash<std::string_view>{}(text), text.size()}; }

std::string describe(const HttpCall& call, const HttpReply& reply) {
  if (!reply.error.empty()) return fmt::format("POST {}: {}", call.url, reply.error);
  return fmt::format("POST {}: HTTP {}: {}", call.url, reply.status,
                     error_message_from_body(reply.body, 200));
}

class ServerTokenizer final : public Tokenizer {
 public:
  ServerTokenizer(const ServerTokenizerOptions& options, TokenizeShape shape, ChatCount chat,
                  std::unique_ptr<HttpPool> pool)
      : options_(options), shape_(shape), chat_(chat), pool_(std::move(pool)) {
    info_.source = fmt::format("server /tokenize ({})", tokenize_shape_name(shape));
    info_.exact = chat != ChatCount::kUncounted;
    switch (chat) {
      case ChatCount::kNone:
        info_.detail = "completions prompts counted raw, with special tokens";
        break;
      case ChatCount::kTokenizeChat:
        info_.detail = "chat template included (counted by /tokenize with messages)";
        break;
      case ChatCount::kApplyTemplate:
        info_.detail = "chat template included (/apply-template, then /tokenize)";
        break;
      case ChatCount::kChatTokenize:
        info_.detail = "chat template included (counted by /chat_tokenize)";
        break;
      case ChatCount::kUncounted:
        info_.detail = "the server cannot count its chat template";
        break;
    }
  }

  const TokenizerInfo& info() const override { return info_; }
  bool can_decode() const override { return shape_ != TokenizeShape::kTgi; }

  std::vector<Encoding> encode(const std::vector<std::string>& texts) override {
    std::vector<Encoding> out(texts.size());
    std::vector<size_t> missing;
    for (size_t i = 0; i < texts.size(); ++i) {
      const auto cached = encodings_.find(key_of(texts[i]));
      if (cached != encodings_.end()) {
        out[i] = cached->second;
      } else {
        missing.push_back(i);
      }
    }
    std::vector<HttpCall> calls;
    for (const size_t i : missing) {
      calls.push_back({url("/tokenize"), tokenize_body(shape_, options_.model, texts[i], false)});
    }
    const std::vector<std::string> bodies = send(calls, "tokenize");
    for (size_t k = 0; k < missing.size(); ++k) {
      const size_t i = missing[k];
      std::optional<TokenList> tokens = parse_tokens(shape_, bodies[k], texts[i]);
      if (!tokens) throw unexpected(calls[k], bodies[k], "a token list");
      out[i].ids = std::move(tokens->ids);
      out[i].ends = std::move(tokens->ends);
      encodings_.emplace(key_of(texts[i]), out[i]);
    }
    return out;
  }

  std::vector<std::string> decode(const std::vector<std::vector<int64_t>>& ids) override {
    if (!can_decode()) throw TokenizerError("tokenizer: this server has no /detokenize");
    std::vector<HttpCall> calls;
    calls.reserve(ids.size());
    for (const auto& sequence : ids) {
      calls.push_back({url("/detokenize"), detokenize_body(shape_, options_.model, sequence)});
    }
    const std::vector<std::string> bodies = send(calls, "detokenize");
    std::vector<std::string> out(ids.size());
    for (size_t i = 0; i < ids.size(); ++i) {
      std::optional<std::string> text = parse_detokenized(shape_, bodies[i]);
      if (!text) throw unexpected(calls[i], bodies[i], "a detokenized text");
      out[i] = std::move(*text);
    }
    return out;
  }

  std::vector<int64_t> count(const std::vector<std::string>& prompts) override {
    return counted(prompts, chat_, counts_);
  }

  std::vector<int64_t> count_text(const std::vector<std::string>& texts) override {
    const bool raw = chat_ == ChatCount::kNone || chat_ == ChatCount::kUncounted;
    return counted(texts, ChatCount::kNone, raw ? counts_ : text_counts_);
  }

 private:
  using Counts = std::unordered_map<TextKey, int64_t, TextKeyHash>;

  // The count of each prompt the way `how` says, through `cache`.
  std::vector<int64_t> counted(const std::vector<std::string>& prompts, ChatCount how,
                               Counts& cache) {
    std::vector<int64_t> out(prompts.size());
    std::vector<size_t> missing;
    for (size_t i = 0; i < prompts.size(); ++i) {
      const auto cached = cache.find(key_of(prompts[i]));
      if (cached != cache.end()) {
        out[i] = cached->second;
      } else {
        missing.push_back(i);
      }
    }
    std::vector<std::string> texts;  // what /tokenize (or /chat_tokenize) counts, per missing
    texts.reserve(missing.size());
    for (const size_t i : missing) texts.push_back(prompts[i]);
    if (how == ChatCount::kApplyTemplate) {
      std::vector<HttpCall> calls;
      for (const std::string& text : texts) {
        calls.push_back({url("/apply-template"), chat_body(options_.model, text)});
      }
      const std::vector<std::string> bodies = send(calls, "apply-template");
      for (size_t k = 0; k < texts.size(); ++k) {
        std::optional<std::string> templated = parse_applied_template(bodies[k]);
        if (!templated) throw unexpected(calls[k], bodies[k], "a templated prompt");
        texts[k] = std::move(*templated);
      }
    }
    std::vector<HttpCall> calls;
    calls.reserve(texts.size());
    for (const std::string& text : texts) {
      switch (how) {
        case ChatCount::kTokenizeChat:
          calls.push_back({url("/tokenize"), chat_body(options_.model, text)});
          break;
        case ChatCount::kChatTokenize:
          calls.push_back({url("/chat_tokenize"), chat_body(options_.model, text)});
          break;
        default:  // raw (or templated) text with special tokens
          calls.push_back({url("/tokenize"), tokenize_body(shape_, options_.model, text, true)});
          break;
      }
    }
    const std::vector<std::string> bodies = send(calls, "count");
    for (size_t k = 0; k < missing.size(); ++k) {
      const std::optional<int64_t> n = parse_count(shape_, bodies[k]);
      if (!n) throw unexpected(calls[k], bodies[k], "a token count");
      out[missing[k]] = *n;
      cache.emplace(key_of(prompts[missing[k]]), *n);
    }
    return out;
  }

  std::string url(std::string_view path) const { return options_.base_url + std::string(path); }

  // Runs every call; the bodies of their 2xx answers, or a TokenizerError naming the first failure.
  std::vector<std::string> send(const std::vector<HttpCall>& calls, std::string_view what) {
    const std::vector<HttpReply> replies = pool_->run(calls);
    std::vector<std::string> bodies;
    bodies.reserve(replies.size());
    for (size_t i = 0; i < replies.size(); ++i) {
      if (!replies[i].ok()) {
        throw TokenizerError(
            fmt::format("tokenizer ({}): {}", what, describe(calls[i], replies[i])));
      }
      bodies.push_back(replies[i].body);
    }
    return bodies;
  }

  static TokenizerError unexpected(const HttpCall& call, const std::string& body,
                                   std::string_view expected) {
    return TokenizerError(fmt::format("tokenizer: POST {} answered without {}: {}", call.url,
                                      expected, error_message_from_body(body, 200)));
  }

  ServerTokenizerOptions options_;
  TokenizeShape shape_;
  ChatCount chat_;
  std::unique_ptr<HttpPool> pool_;
  TokenizerInfo info_;
  std::unordered_map<TextKey, Encoding, TextKeyHash> encodings_;
  Counts counts_;       // count(): as the server counts a request's prompt
  Counts text_counts_;  // count_text(), where it differs: the text alone, special tokens added
};

// Adds a calibrated overhead to every count (with_template_overhead).
class OverheadTokenizer final : public Tokenizer {
 public:
  OverheadTokenizer(std::unique_ptr<Tokenizer> inner, int64_t overhead, std::string detail)
      : inner_(std::move(inner)), overhead_(overhead) {
    info_ = inner_->info();
    info_.exact = false;
    info_.detail = std::move(detail);
  }
  const TokenizerInfo& info() const override { return info_; }
  bool can_decode() const override { return inner_->can_decode(); }
  std::vector<Encoding> encode(const std::vector<std::string>& texts) override {
    return inner_->encode(texts);
  }
  std::vector<std::string> decode(const std::vector<std::vector<int64_t>>& ids) override {
    return inner_->decode(ids);
  }
  std::vector<int64_t> count(const std::vector<std::string>& prompts) override {
    std::vector<int64_t> counts = inner_->count(prompts);
    for (int64_t& n : counts) n += overhead_;
    return counts;
  }
  std::vector<int64_t> count_text(const std::vector<std::string>& texts) override {
    return inner_->count_text(texts);  // the overhead is the template's: not part of a text
  }

 private:
  std::unique_ptr<Tokenizer> inner_;
  int64_t overhead_;
  TokenizerInfo info_;
};

// One probe call: the answer's body when it is a 2xx, recorded in `attempts` either way.
std::optional<std::string> try_call(HttpPool& pool, const HttpCall& call, std::string_view label,
                                    std::vector<std::string>& attempts) {
  const HttpReply reply = pool.run_one(call);
  if (reply.ok()) {
    attempts.push_back(fmt::format("POST {} ({}): HTTP {}", call.url, label, reply.status));
    return reply.body;
  }
  attempts.push_back(fmt::format("{} ({})", describe(call, reply), label));
  return std::nullopt;
}

}  // namespace

TokenizerProbe probe_server_tokenizer(const ServerTokenizerOptions& options) {
  TokenizerProbe probe;
  auto pool = std::make_unique<HttpPool>(options.http);
  const std::string tokenize_url = options.base_url + "/tokenize";

  std::optional<TokenizeShape> shape;
  std::vector<int64_t> probe_ids;
  for (const TokenizeShape candidate :
       {TokenizeShape::kVllm, TokenizeShape::kLlamaCpp, TokenizeShape::kTgi}) {
    const HttpCall call{tokenize_url, tokenize_body(candidate, options.model, kProbeText, false)};
    const auto body = try_call(*pool, call, tokenize_shape_name(candidate), probe.attempts);
    if (!body) continue;
    const std::optional<TokenList> tokens = parse_tokens(candidate, *body, kProbeText);
    if (!tokens || tokens->ids.empty()) {
      probe.attempts.back() += ", but not a token list of that shape";
      continue;
    }
    shape = candidate;
    probe_ids = tokens->ids;
    probe.max_model_len = tokenize_api::parse_max_model_len(*body).value_or(0);
    break;
  }
  if (!shape) return probe;

  if (*shape != TokenizeShape::kTgi) {
    const HttpCall call{options.base_url + "/detokenize",
                        detokenize_body(*shape, options.model, probe_ids)};
    const auto body = try_call(*pool, call, "detokenize", probe.attempts);
    if (!body || !parse_detokenized(*shape, *body)) {
      if (body) probe.attempts.back() += ", but no detokenized text";
      return probe;  // prompts cannot be cut without it
    }
  }

  ChatCount chat = ChatCount::kNone;
  if (options.chat) {
    HttpCall call{tokenize_url, chat_body(options.model, kProbeText)};
    switch (*shape) {
      case TokenizeShape::kVllm:
        chat = ChatCount::kTokenizeChat;
        break;
      case TokenizeShape::kLlamaCpp:
        call.url = options.base_url + "/apply-template";
        chat = ChatCount::kApplyTemplate;
        break;
      case TokenizeShape::kTgi:
        call.url = options.base_url + "/chat_tokenize";
        chat = ChatCount::kChatTokenize;
        break;
    }
    const auto body = try_call(*pool, call, "chat template", probe.attempts);
    const bool usable =
        body && (chat == ChatCount::kApplyTemplate ? parse_applied_template(*body).has_value()
                                                   : parse_count(*shape, *body).has_value());
    if (!usable) {
      chat = ChatCount::kUncounted;
      probe.template_uncounted = true;
    }
  }
  // llama.cpp's server (cpp-httplib) serves each connection on one of a few threads (--parallel
  // + 2 by default) behind a listen backlog of 5, and answers a kept-alive connection only after
  // a delayed ACK (about 20 ms a call here): a fresh connection per call, at most 4 at once
  // (more drop SYNs: a 1 s retry). The async servers (vLLM, SGLang, TGI) take many at once.
  if (*shape == TokenizeShape::kLlamaCpp) pool->set_concurrency(4, false);
  probe.tokenizer = std::make_unique<ServerTokenizer>(options, *shape, chat, std::move(pool));
  return probe;
}

std::unique_ptr<Tokenizer> with_template_overhead(std::unique_ptr<Tokenizer> inner,
                                                  int64_t overhead, std::string detail) {
  return std::make_unique<OverheadTokenizer>(std::move(inner), overhead, std::move(detail));
}

}  // namespace llmperf
