// Trace replay, workload stage (see trace.h): the prompt builder that gives every Mooncake hash id
// one block of text shared by all the prompts that name it, and the prompts of body traces.
#include "workload/replay/trace.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "workload/datasets/dataset_readers.h"
#include "workload/utf8.h"
#include "workload/synthetic/word_list.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

}  // namespace
namespace {

constexpr size_t kTextsPerCall = 256;     // texts per tokenizer call
constexpr size_t kPromptsPerBatch = 256;  // prompts built per round of tokenizer calls
constexpr int kMaxCounts = 4;             // counts per prompt while fitting its last piece

// splitmix64's finaliser: spreads seeds so that neighbouring hash ids draw unrelated words.
uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
uint64_t block_seed(uint64_t seed, int64_t hash_id) {
  return mix64(seed ^ mix64(static_cast<uint64_t>(hash_id)));
}
uint64_t tail_seed(uint64_t seed, int64_t line) {
  constexpr uint64_t kTailSalt = 0x7472616365746c21ULL;  // keeps tails apart from blocks
  return mix64(seed ^ mix64(static_cast<uint64_t>(line) ^ kTailSalt) ^ kTailSalt);
}

// Random English words, each after a space, enough for `tokens` tokens (every word is at least
// one token). English only, so that a cut falls between ASCII characters.
std::string random_words(uint64_t seed, int64_t tokens) {
  std::mt19937_64 rng(seed);
  std::string text;
  append_random_words(rng, tokens + tokens / 8 + 16, 0, text);
  return text;
}

// Where the tokens of one prompt's text come from.
struct Layout {
  size_t full = 0;      // leading hash ids used as whole blocks
  int64_t partial = 0;  // tokens of the block of hash_ids[full] after them (0: none)
  int64_t tail = 0;     // tokens after the blocks, unique to the line
};

Layout lay_out(const TraceEntry& entry, int64_t body, int64_t block) {
  Layout layout;
  int64_t left = body;
  for (size_t k = 0; k < entry.hash_ids.size() && left > 0; ++k) {
    if (left >= block) {
      ++layout.full;
      left -= block;
    } else {
      layout.partial = left;
      left = 0;
    }
  }
  layout.tail = left;
  return layout;
}

// A cut of one text: its first n tokens.
struct CutSource {
  const std::string* text = nullptr;
  const Encoding* encoding = nullptr;
  int64_t n = 0;
};

// The words of `words` (each after a space) while `model` estimates fewer than `tokens` tokens.
std::string estimated_cut(const LengthModel& model, const std::string& words, int64_t tokens) {
  double estimate = 0;
  size_t at = 0;
  while (estimate < static_cast<double>(tokens) && at < words.size()) {
    const size_t next = std::min(words.find(' ', at + 1), words.size());
    estimate += model.per_word +
                model.per_code_point *
                    static_cast<double>(utf8_length(std::string_view(words).substr(at, next - at)));
    at = next;
  }
  return words.substr(0, at);
}

// Builds the prompts of Mooncake entries batch by batch; keeps each block's text (or ids) from
// its first use to its last.
class PromptBuilder {
 public:
  PromptBuilder(Tokenizer* tokenizer, const LengthModel* estimate, const TraceBuildOptions& options)
      : tokenizer_(tokenizer), estimate_(estimate), options_(options) {}

  TracePrompts build(const std::vector<TraceEntry>& entries, const FitProgress& progress) {
    if (!options_.token_ids && tokenizer_ != nullptr) overhead_ = count_all({""}).at(0);
    if (tokenizer_ == nullptr) overhead_ = std::llround(estimate_->overhead);
    out_.prompts.reserve(entries.size());
    // A block is kept from its first use to the end of the batch of its last use.
    const size_t batches = (entries.size() + kPromptsPerBatch - 1) / kPromptsPerBatch;
    std::vector<std::vector<int64_t>> expiring(batches);  // hash ids last used in each batch
    {
      std::unordered_map<int64_t, size_t> last_batch;
      int64_t uses = 0;
      for (size_t i = 0; i < entries.size(); ++i) {
        const size_t used = used_blocks(entries[i]);
        uses += static_cast<int64_t>(used);
        for (size_t k = 0; k < used; ++k) last_batch[entries[i].hash_ids[k]] = i / kPromptsPerBatch;
      }
      for (const auto& [id, batch] : last_batch) expiring[batch].push_back(id);
      out_.distinct_blocks = static_cast<int64_t>(last_batch.size());
      out_.reused_blocks = uses - out_.distinct_blocks;
    }
    for (size_t b = 0; b < batches; ++b) {
      const size_t start = b * kPromptsPerBatch;
      const size_t end = std::min(entries.size(), start + kPromptsPerBatch);
      std::vector<Layout> layouts;
      std::vector<int64_t> missing;  // hash ids whose block is not made yet, in order of need
      for (size_t i = start; i < end; ++i) {
        const TraceEntry& entry = entries[i];
        layouts.push_back(lay_out(entry, body_tokens(entry), options_.block_tokens));
        for (size_t k = 0; k < used_blocks(entry); ++k) {
          if (blocks_.try_emplace(entry.hash_ids[k]).second) missing.push_back(entry.hash_ids[k]);
        }
      }
      make_blocks(missing);
      const std::span<const TraceEntry> batch(entries.data() + start, end - start);
      if (options_.token_ids) {
        build_ids(batch, layouts);
      } else if (tokenizer_ != nullptr) {
        build_counted(batch, layouts);
      } else {
        build_estimated(batch, layouts);
      }
      for (const int64_t id : expiring[b]) blocks_.erase(id);
      if (progress) progress(end, entries.size());
    }
    return std::move(out_);
  }

 private:
  struct Block {
    std::string text;          // the block's text (not with token_ids)
    std::vector<int64_t> ids;  // with token_ids: its block_tokens ids
  };
  // The last piece of one prompt, whose cut moves until the prompt counts its target.
  struct Fit {
    std::string head;    // the whole blocks' text before it
    std::string source;  // the text it is cut from ("" : the prompt ends with a whole block)
    Encoding encoding;   // source's tokens
    int64_t n = 0;       // tokens of the next cut
    std::set<int64_t> tried;
    std::string best;       // the closest prompt text so far
    int64_t realized = -1;  // its count
    bool open = true;
  };

  // How many of the entry's hash ids contribute tokens.
  size_t used_blocks(const TraceEntry& entry) const {
    const Layout layout = lay_out(entry, body_tokens(entry), options_.block_tokens);
    return layout.full + (layout.partial > 0 ? 1 : 0);
  }

  int64_t body_tokens(const TraceEntry& entry) const {
    if (options_.token_ids) return entry.input_length;
    return std::max<int64_t>(1, entry.input_length - overhead_);
  }

  std::vector<Encoding> encode_all(const std::vector<std::string>& texts) {
    std::vector<Encoding> out;
    out.reserve(texts.size());
    for (size_t at = 0; at < texts.size(); at += kTextsPerCall) {
      const std::vector<std::string> chunk(
          texts.begin() + static_cast<std::ptrdiff_t>(at),
          texts.begin() + static_cast<std::ptrdiff_t>(std::min(texts.size(), at + kTextsPerCall)));
      std::vector<Encoding> encoded = tokenizer_->encode(chunk);
      if (encoded.size() != chunk.size()) {
        throw TokenizerError("tokenizer: encode answered a different number of texts");
      }
      for (Encoding& encoding : encoded) {
        if (!tokenizer_->can_decode() && encoding.ends.size() != encoding.ids.size()) {
          throw TokenizerError("tokenizer: a text has no token offsets, and it cannot decode");
        }
        out.push_back(std::move(encoding));
      }
    }
    return out;
  }

  std::vector<int64_t> count_all(const std::vector<std::string>& prompts) {
    std::vector<int64_t> out;
    out.reserve(prompts.size());
    for (size_t at = 0; at < prompts.size(); at += kTextsPerCall) {
      const std::vector<std::string> chunk(
          prompts.begin() + static_cast<std::ptrdiff_t>(at),
          prompts.begin() +
              static_cast<std::ptrdiff_t>(std::min(prompts.size(), at + kTextsPerCall)));
      const std::vector<int64_t> counts = tokenizer_->count(chunk);
      if (counts.size() != chunk.size()) {
        throw TokenizerError("tokenizer: count answered a different number of texts");
      }
      out.insert(out.end(), counts.begin(), counts.end());
    }
    return out;
  }

  // The text of each cut: decoded ids where the tokenizer decodes, else the text up to the end of
  // token n; a character broken by the cut is dropped.
  std::vector<std::string> cut_all(const std::vector<CutSource>& cuts) {
    std::vector<std::string> out(cuts.size());
    if (!tokenizer_->can_decode()) {
      for (size_t k = 0; k < cuts.size(); ++k) {
        const CutSource& cut = cuts[k];
        const size_t end = cut.n == 0 ? 0 : cut.encoding->ends.at(static_cast<size_t>(cut.n - 1));
        out[k] = utf8_whole_prefix(std::string_view(*cut.text).substr(0, end));
      }
      return out;
    }
    std::vector<size_t> which;  // the cuts in `heads`
    std::vector<std::vector<int64_t>> heads;
    const auto flush = [&] {
      const std::vector<std::string> texts = tokenizer_->decode(heads);
      if (texts.size() != heads.size()) {
        throw TokenizerError("tokenizer: decode answered a different number of texts");
      }
      for (size_t j = 0; j < texts.size(); ++j) {
        std::string& text = out[which[j]];
        // Decoders of the SentencePiece kind drop the space a text starts with; every block and
        // tail keeps it, so that it does not merge with what comes before it.
        if (cuts[which[j]].text->starts_with(' ') && !texts[j].starts_with(' ')) text = " ";
        text += utf8_whole_prefix(texts[j]);
      }
      which.clear();
      heads.clear();
    };
    for (size_t k = 0; k < cuts.size(); ++k) {
      if (cuts[k].n == 0) continue;
      const auto& ids = cuts[k].encoding->ids;
      which.push_back(k);
      heads.emplace_back(ids.begin(), ids.begin() + cuts[k].n);
      if (heads.size() == kTextsPerCall) flush();
    }
    if (!heads.empty()) flush();
    return out;
  }

  // Makes the block of each hash id in `ids`: its words cut to block_tokens tokens.
  void make_blocks(const std::vector<int64_t>& ids) {
    const int64_t tokens = options_.block_tokens;
    std::vector<std::string> words;
    words.reserve(ids.size());
    for (const int64_t id : ids)
      words.push_back(random_words(block_seed(options_.seed, id), tokens));
    if (tokenizer_ == nullptr) {
      for (size_t k = 0; k < ids.size(); ++k) {
        blocks_[ids[k]].text = estimated_cut(*estimate_, words[k], tokens);
      }
      return;
    }
    const std::vector<Encoding> encodings = encode_all(words);
    std::vector<CutSource> cuts;
    for (size_t k = 0; k < ids.size(); ++k) {
      const auto& encoded = encodings[k].ids;
      if (static_cast<int64_t>(encoded.size()) < tokens) {
        throw TokenizerError(
            fmt::format("tokenizer: {} bytes of random words made only {} tokens, "
                        "fewer than a {}-token block",
                        words[k].size(), encoded.size(), tokens));
      }
      if (options_.token_ids) {
        blocks_[ids[k]].ids.assign(encoded.begin(), encoded.begin() + tokens);
      } else {
        cuts.push_back({&words[k], &encodings[k], tokens});
      }
    }
    if (options_.token_ids) return;
    std::vector<std::string> texts = cut_all(cuts);
    for (size_t k = 0; k < ids.size(); ++k) blocks_[ids[k]].text = std::move(texts[k]);
  }

  Prompt& add_prompt(const TraceEntry& entry) {
    Prompt& prompt = out_.prompts.emplace_back();
    prompt.target_input_tokens = entry.input_length;
    prompt.target_output_tokens = entry.output_length;
    return prompt;
  }

  void build_ids(std::span<const TraceEntry> batch, const std::vector<Layout>& layouts) {
    std::vector<std::string> tails;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (layouts[i].tail > 0) {
        tails.push_back(random_words(tail_seed(options_.seed, batch[i].line), layouts[i].tail));
      }
    }
    const std::vector<Encoding> encodings = encode_all(tails);
    size_t next_tail = 0;
    for (size_t i = 0; i < batch.size(); ++i) {
      const TraceEntry& entry = batch[i];
      const Layout& layout = layouts[i];
      Prompt& prompt = add_prompt(entry);
      prompt.token_ids.reserve(static_cast<size_t>(entry.input_length));
      for (size_t k = 0; k < layout.full; ++k) {
        const auto& ids = blocks_.at(entry.hash_ids[k]).ids;
        prompt.token_ids.insert(prompt.token_ids.end(), ids.begin(), ids.end());
      }
      if (layout.partial > 0) {
        const auto& ids = blocks_.at(entry.hash_ids[layout.full]).ids;
        prompt.token_ids.insert(prompt.token_ids.end(), ids.begin(), ids.begin() + layout.partial);
      }
      if (layout.tail > 0) {
        const auto& ids = encodings[next_tail++].ids;
        if (static_cast<int64_t>(ids.size()) < layout.tail) {
          throw TokenizerError(
              fmt::format("tokenizer: random words for line {} made only {} tokens, fewer than {}",
                          entry.line, ids.size(), layout.tail));
        }
        prompt.token_ids.insert(prompt.token_ids.end(), ids.begin(), ids.begin() + layout.tail);
      }
    }
  }

  void build_estimated(std::span<const TraceEntry> batch, const std::vector<Layout>& layouts) {
    for (size_t i = 0; i < batch.size(); ++i) {
      const TraceEntry& entry = batch[i];
      const Layout& layout = layouts[i];
      std::string text;
      for (size_t k = 0; k < layout.full; ++k) text += blocks_.at(entry.hash_ids[k]).text;
      if (layout.partial > 0) {
        const std::string& block = blocks_.at(entry.hash_ids[layout.full]).text;
        text += estimated_cut(*estimate_, block, layout.partial);
      }
      if (layout.tail > 0) {
        text += estimated_cut(*estimate_,
                              random_words(tail_seed(options_.seed, entry.line), layout.tail),
                              layout.tail);
      }
      Prompt& prompt = add_prompt(entry);
      prompt.length = utf8_length(text);
      text.shrink_to_fit();
      prompt.text = std::move(text);
    }
  }

  // Text prompts, counted: each prompt's last partial block or tail is cut, the prompt counted,
  // and the cut moved by the difference until the count matches (or kMaxCounts counts).
  void build_counted(std::span<const TraceEntry> batch, const std::vector<Layout>& layouts) {
    std::vector<Fit> fits(batch.size());
    std::vector<std::string> sources;
    std::vector<size_t> with_source;
    for (size_t i = 0; i < batch.size(); ++i) {
      const TraceEntry& entry = batch[i];
      const Layout& layout = layouts[i];
      Fit& fit = fits[i];
      for (size_t k = 0; k < layout.full; ++k) fit.head += blocks_.at(entry.hash_ids[k]).text;
      if (layout.partial > 0) {
        fit.source = blocks_.at(entry.hash_ids[layout.full]).text;
        fit.n = layout.partial;
      } else if (layout.tail > 0) {
        fit.source = random_words(tail_seed(options_.seed, entry.line), layout.tail);
        fit.n = layout.tail;
      }
      if (!fit.source.empty()) {
        with_source.push_back(i);
        sources.push_back(fit.source);
      }
    }
    std::vector<Encoding> encodings = encode_all(sources);
    for (size_t j = 0; j < with_source.size(); ++j) {
      Fit& fit = fits[with_source[j]];
      fit.encoding = std::move(encodings[j]);
      fit.n = std::min<int64_t>(fit.n, available(fit, layouts[with_source[j]]));
    }
    for (int round = 0; round < kMaxCounts; ++round) {
      std::vector<size_t> open;
      std::vector<CutSource> cuts;
      for (size_t i = 0; i < fits.size(); ++i) {
        if (!fits[i].open) continue;
        open.push_back(i);
        if (!fits[i].source.empty()) {
          cuts.push_back({&fits[i].source, &fits[i].encoding, fits[i].n});
        }
      }
      if (open.empty()) break;
      std::vector<std::string> cut_texts = cut_all(cuts);
      std::vector<std::string> texts;
      texts.reserve(open.size());
      size_t next_cut = 0;
      for (const size_t i : open) {
        const std::string_view cut =
            fits[i].source.empty() ? std::string_view() : cut_texts[next_cut++];
        std::string& text = texts.emplace_back();
        text.reserve(fits[i].head.size() + cut.size());  // kept as the prompt: no slack
        text.append(fits[i].head).append(cut);
      }
      const std::vector<int64_t> counts = count_all(texts);
      out_.fit_counts += static_cast<int64_t>(open.size());
      for (size_t j = 0; j < open.size(); ++j) {
        Fit& fit = fits[open[j]];
        const int64_t target = batch[open[j]].input_length;
        if (fit.realized < 0 ||
            std::llabs(target - counts[j]) < std::llabs(target - fit.realized)) {
          fit.best = std::move(texts[j]);
          fit.realized = counts[j];
        }
        fit.tried.insert(fit.n);
        const int64_t gap = target - counts[j];
        // At least one token when nothing precedes the cut: a prompt is never empty.
        const int64_t most = available(fit, layouts[open[j]]);
        const int64_t next = std::clamp<int64_t>(
            fit.n + gap, std::min<int64_t>(fit.head.empty() ? 1 : 0, most), most);
        if (gap == 0 || fit.source.empty() || fit.tried.contains(next)) {
          fit.open = false;
        } else {
          fit.n = next;
        }
      }
    }
    for (size_t i = 0; i < batch.size(); ++i) {
      Fit& fit = fits[i];
      if (fit.realized != batch[i].input_length) ++out_.misses;
      Prompt& prompt = add_prompt(batch[i]);
      prompt.length = utf8_length(fit.best);
      prompt.text = std::move(fit.best);
    }
  }

  // The most tokens a fit's last piece may take: a block's, or all of its tail's.
  int64_t available(const Fit& fit, const Layout& layout) const {
    const auto encoded = static_cast<int64_t>(fit.encoding.ids.size());
    return layout.partial > 0 ? std::min(encoded, options_.block_tokens) : encoded;
  }

  Tokenizer* tokenizer_;
  const LengthModel* estimate_;
  TraceBuildOptions options_;
  int64_t overhead_ = 0;                       // tokens the template adds to every prompt
  std::unordered_map<int64_t, Block> blocks_;  // the blocks still to be used
  TracePrompts out_;
};

// Whether a body asks for constrained decoding, where ignore_eos is unsafe (EvalScope's
// _has_constrained_decoding: response_format json_object/json_schema, or tools with a forced
// tool_choice).
bool constrained_decoding(const Json& body) {
  const auto format = body.find("response_format");
  if (format != body.end() && format->is_object()) {
    const auto type = format->find("type");
    if (type != format->end() && (*type == "json_object" || *type == "json_schema")) return true;
  }
  const auto tools = body.find("tools");
  const auto choice = body.find("tool_choice");
  const bool has_tools = tools != body.end() && !tools->is_null() && !tools->empty() &&
                         !(tools->is_boolean() && !tools->get<bool>());
  const bool forced =
      choice != body.end() && !choice->is_null() && *choice != "none" && *choice != "auto";
  return has_tools && forced;
}

}  // namespace

TracePrompts make_trace_prompts(Tokenizer* tokenizer, const LengthModel* estimate,
                                const std::vector<TraceEntry>& entries,
                                const TraceBuildOptions& options, const FitProgress& progress) {
  if (options.block_tokens < 1) {
    throw std::invalid_argument(
        fmt::format("trace block size {} tokens is below 1", options.block_tokens));
  }
  if (tokenizer == nullptr && (estimate == nullptr || options.token_ids)) {
    throw std::invalid_argument(options.token_ids
                                    ? "trace prompts as token ids need the server's tokenizer"
                                    : "trace prompts need a tokenizer or a length estimate");
  }
  for (const TraceEntry& entry : entries) {
    if (entry.input_length < 1 || !entry.body_json.empty()) {
      throw std::invalid_argument(
          fmt::format("trace line {} is not a Mooncake entry (no input_length)", entry.line));
    }
  }
  return PromptBuilder(tokenizer, estimate, options).build(entries, progress);
}

std::vector<Prompt> make_trace_body_prompts(const std::vector<TraceEntry>& entries,
                                            const TraceBuildOptions& options) {
  std::vector<Prompt> prompts;
  prompts.reserve(entries.size());
  for (const TraceEntry& entry : entries) {
    if (entry.body_json.empty()) {
      throw std::invalid_argument(
          fmt::format("trace line {} is not a workload-trace entry (no body)", entry.line));
    }
    Json body = Json::parse(entry.body_json);
    Prompt& prompt = prompts.emplace_back();
    std::string reason;
    if (const auto messages = body.find("messages"); messages != body.end()) {
      prompt.length = detail::messages_length(*messages, reason).value_or(0);
    } else if (const auto text = body.find("prompt"); text != body.end() && text->is_string()) {
      prompt.length = utf8_length(text->get_ref<const std::string&>());
    }
    if (options.match_output_length && entry.output_length > 0) {
      body["max_tokens"] = entry.output_length;
      if (!constrained_decoding(body)) body["ignore_eos"] = true;
      prompt.target_output_tokens = entry.output_length;
      prompt.body_json = body.dump();
    } else {
      prompt.body_json = entry.body_json;
    }
  }
  return prompts;
}

}  // namespace llmperf
