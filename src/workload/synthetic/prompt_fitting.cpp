// Length fitting (see prompt_fitting.h): every round cuts and counts all prompts still open, so a
// tokenizer that is an HTTP API sees a few large batches rather than many small ones.
#include "workload/synthetic/prompt_fitting.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include "workload/utf8.h"

namespace llmperf {
namespace {

// One prompt's search over cut positions.
struct Search {
  size_t item = 0;          // index into the items
  std::string body;         // the candidate body being cut
  Encoding encoding;        // its plain tokens
  int64_t n = 0;            // body tokens of the next cut
  std::set<int64_t> tried;  // cuts already counted
  bool open = true;
};

void check_encoding(const Tokenizer& tokenizer, const Encoding& encoding, size_t index) {
  if (!tokenizer.can_decode() && encoding.ends.size() != encoding.ids.size()) {
    throw TokenizerError(fmt::format(
        "tokenizer: text {} has no token offsets, and the tokenizer cannot decode", index));
  }
  if (!encoding.ends.empty() && encoding.ends.size() != encoding.ids.size()) {
    throw TokenizerError(fmt::format("tokenizer: text {} has {} ids but {} offsets", index,
                                     encoding.ids.size(), encoding.ends.size()));
  }
}

// Encodes the bodies of `searches` in one batch.
void encode_all(Tokenizer& tokenizer, std::vector<Search>& searches) {
  std::vector<std::string> bodies;
  bodies.reserve(searches.size());
  for (const Search& search : searches) bodies.push_back(search.body);
  std::vector<Encoding> encodings = tokenizer.encode(bodies);
  if (encodings.size() != searches.size()) {
    throw TokenizerError("tokenizer: encode answered a different number of texts");
  }
  for (size_t k = 0; k < searches.size(); ++k) {
    check_encoding(tokenizer, encodings[k], searches[k].item);
    searches[k].encoding = std::move(encodings[k]);
  }
}

// The text of the first `n` tokens of each open search, in one batch where it takes a decoder.
std::vector<std::string> cut_all(Tokenizer& tokenizer, const std::vector<Search*>& open) {
  std::vector<std::string> cuts(open.size());
  if (tokenizer.can_decode()) {
    std::vector<std::vector<int64_t>> heads;
    heads.reserve(open.size());
    for (const Search* search : open) {
      const auto& ids = search->encoding.ids;
      heads.emplace_back(ids.begin(), ids.begin() + search->n);
    }
    std::vector<std::string> texts = tokenizer.decode(heads);
    if (texts.size() != open.size()) {
      throw TokenizerError("tokenizer: decode answered a different number of texts");
    }
    for (size_t k = 0; k < open.size(); ++k) cuts[k] = std::string(utf8_whole_prefix(texts[k]));
    return cuts;
  }
  for (size_t k = 0; k < open.size(); ++k) {
    const Search& search = *open[k];
    const size_t end =
        search.n == 0 ? 0 : search.encoding.ends.at(static_cast<size_t>(search.n - 1));
    cuts[k] = std::string(utf8_whole_prefix(std::string_view(search.body).substr(0, end)));
  }
  return cuts;
}

// Searches the cut of every search in rounds until each is exact or out of moves; keeps the
// closest attempt of each item in `results`.
void search_cuts(Tokenizer& tokenizer, const FitOptions& options, std::vector<Search>& searches,
                 std::vector<FitResult>& results) {
  const std::string& prefix = options.prefix;
  const int max_tries = options.max_tries;
  for (int round = 0; round < max_tries; ++round) {
    std::vector<Search*> open;
    for (Search& search : searches) {
      if (search.open) open.push_back(&search);
    }
    if (open.empty()) return;
    const std::vector<std::string> cuts = cut_all(tokenizer, open);
    std::vector<std::string> prompts(open.size());
    for (size_t k = 0; k < open.size(); ++k) prompts[k] = prefix + cuts[k];
    const std::vector<int64_t> counts = tokenizer.count(prompts);
    if (counts.size() != open.size()) {
      throw TokenizerError("tokenizer: count answered a different number of texts");
    }
    for (size_t k = 0; k < open.size(); ++k) {
      Search& search = *open[k];
      FitResult& result = results[search.item];
      ++result.tries;
      search.tried.insert(search.n);
      const int64_t gap = result.target - counts[k];
      if (result.tries == 1 || std::llabs(gap) < std::llabs(result.target - result.realized)) {
        result.text = std::move(prompts[k]);
        result.realized = counts[k];
      }
      const auto available = static_cast<int64_t>(search.encoding.ids.size());
      const int64_t next = std::clamp<int64_t>(search.n + gap, 0, available);
      if (gap == 0 || search.tried.contains(next)) {
        search.open = false;
        continue;
      }
      search.n = next;
    }
    if (options.progress) {
      const auto finished = static_cast<size_t>(std::count_if(
          results.begin(), results.end(), [](const FitResult& r) { return r.exact(); }));
      options.progress(finished, results.size());
    }
  }
}

}  // namespace

std::vector<FitResult> fit_prompts(Tokenizer& tokenizer, const std::vector<FitItem>& items,
                                   const FitOptions& options) {
  std::vector<FitResult> results(items.size());
  if (items.empty()) return results;
  std::vector<Search> searches(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    searches[i].item = i;
    searches[i].body = items[i].body;
    results[i].target = items[i].target;
  }
  encode_all(tokenizer, searches);

  if (options.token_ids) {
    // Sent as ids: the prompt is exactly the ids chosen.
    const auto prefix_tokens = static_cast<int64_t>(options.prefix_ids.size());
    for (size_t i = 0; i < items.size(); ++i) {
      const int64_t want = items[i].target - prefix_tokens;
      if (want < 0) {
        throw std::invalid_argument(
            fmt::format("a prompt of {} tokens cannot hold the {}-token prefix", items[i].target,
                        prefix_tokens));
      }
      const auto& ids = searches[i].encoding.ids;
      const auto take = std::min<int64_t>(want, static_cast<int64_t>(ids.size()));
      FitResult& r = results[i];
      r.ids = options.prefix_ids;
      r.ids.insert(r.ids.end(), ids.begin(), ids.begin() + take);
      r.realized = static_cast<int64_t>(r.ids.size());
    }
    if (tokenizer.can_decode()) {
      std::vector<std::vector<int64_t>> all_ids;
      for (const FitResult& r : results) all_ids.push_back(r.ids);
      std::vector<std::string> texts = tokenizer.decode(all_ids);
      for (size_t i = 0; i < results.size() && i < texts.size(); ++i) {
        results[i].text = std::move(texts[i]);
      }
    }
    if (options.progress) options.progress(items.size(), items.size());
    return results;
  }

  const int64_t base = tokenizer.count({options.prefix}).at(0);
  for (size_t i = 0; i < items.size(); ++i) {
    FitResult& result = results[i];
    if (result.target < base) {
      if (!options.raise_short_targets) {
        throw std::invalid_argument(fmt::format(
            "a prompt of {} tokens is shorter than what every request carries here ({} tokens: "
            "special tokens, chat template{})",
            result.target, base, options.prefix.empty() ? "" : " and the shared prefix"));
      }
      result.target = base;
      result.raised = true;
    }
  }
  const auto start = [&](Search& search) {
    const auto available = static_cast<int64_t>(search.encoding.ids.size());
    search.n = std::clamp<int64_t>(results[search.item].target - base, 0, available);
    search.tried.clear();
    search.open = true;
  };
  for (Search& search : searches) start(search);
  search_cuts(tokenizer, options, searches, results);

  // A prompt whose every cut misses (the tokenizer merges across the cut) gets new text.
  for (int redraw = 1; redraw <= options.max_redraws && options.redraw; ++redraw) {
    std::vector<Search> again;
    for (const Search& search : searches) {
      if (results[search.item].exact()) continue;
      again.emplace_back();
      again.back().item = search.item;
    }
    if (again.empty()) break;
    for (Search& search : again) search.body = options.redraw(search.item, redraw);
    encode_all(tokenizer, again);
    for (Search& search : again) start(search);
    search_cuts(tokenizer, options, again, results);
    for (Search& search : again) searches[search.item] = std::move(search);
  }
  if (options.progress) options.progress(items.size(), items.size());
  return results;
}

}  // namespace llmperf
