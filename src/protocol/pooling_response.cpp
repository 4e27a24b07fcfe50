// Pooling response decoder: an embeddings or rerank body -> PoolingResponse through a SAX handler.
// The handler judges each container from its path (root, data[], item, vector, ...; sax_support.h
// keeps the stack) and keeps the state of the one item being read; a number inside a vector costs
// a scope check and an increment. An item is judged when it closes, since its keys come in any
// order. Names in the anonymous namespace carry a Pooling prefix: CI builds src/protocol as one
// unity source.
#include "protocol/pooling_response.h"

#include <algorithm>
#include <array>

#include "protocol/chunk_decoder.h"
#include "protocol/sax_support.h"

namespace llmperf {

namespace {

using sax_support::key_is;

// Keys the decoder cares about; everything else is kOther.
enum class PoolingKey : uint8_t {
  kOther,
  kData,
  kResults,
  kEmbedding,
  kScore,  // relevance_score, or TEI's score
  kUsage,
  kPromptTokens,
  kTotalTokens,
  kId,
  kError,
  kObject,
  kMessage,
  kDetail,
};

PoolingKey classify_pooling_key(std::string_view key) {
  using K = PoolingKey;
  switch (key.size()) {
    case 2:
      if (key_is(key, "id")) return K::kId;
      break;
    case 4:
      if (key_is(key, "data")) return K::kData;
      break;
    case 5:
      if (key_is(key, "usage")) return K::kUsage;
      if (key_is(key, "error")) return K::kError;
      if (key_is(key, "score")) return K::kScore;
      break;
    case 6:
      if (key_is(key, "object")) return K::kObject;
      if (key_is(key, "detail")) return K::kDetail;
      break;
    case 7:
      if (key_is(key, "results")) return K::kResults;
      if (key_is(key, "message")) return K::kMessage;
      break;
    case 9:
      if (key_is(key, "embedding")) return K::kEmbedding;
      break;
    case 12:
      if (key_is(key, "total_tokens")) return K::kTotalTokens;
      break;
    case 13:
      if (key_is(key, "prompt_tokens")) return K::kPromptTokens;
      break;
    case 15:
      if (key_is(key, "relevance_score")) return K::kScore;
      break;
    default:
      break;
  }
  return K::kOther;
}

// What a JSON container is, judged from its path.
enum class PoolingScope : uint8_t {
  kIgnored,  // anything not listed below
  kRoot,     // the top-level object
  kList,     // root.data or root.results, or a top-level array
  kItem,     // an object in the list
  kVector,   // an item's "embedding" array, or an array in the list (TEI's /embed)
  kRow,      // an array inside a vector (llama.cpp's per-token embeddings)
  kUsage,    // root.usage
  kError,    // root.error object
};

// Decoded float32 count of a base64 vector: -1 when it is not a whole number of floats (its
// length cannot be checked), -2 when the text is empty or not base64.
int64_t pooling_base64_floats(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.empty() || text.size() % 4 == 1) return -2;
  for (const char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '+' || c == '/' || c == '-' || c == '_';
    if (!ok) return -2;
  }
  const auto bytes = static_cast<int64_t>(text.size() * 3 / 4);
  return bytes % 4 == 0 ? bytes / 4 : -1;
}

// One open container on the path from the root.
struct PoolingFrame {
  PoolingScope scope = PoolingScope::kIgnored;  // what this container is
  PoolingKey key = PoolingKey::kOther;          // the key of the value being read
};

// SAX handler: the hooks of sax_support::SaxHandler. Interesting paths are at most 5 containers
// deep (root, data, item, vector, row); anything deeper is ignored.
class PoolingHandler
    : public sax_support::SaxHandler<PoolingHandler, PoolingFrame, 6, classify_pooling_key> {
 public:
  // Resets `out`.
  PoolingHandler(PoolingKind kind, PoolingResponse& out) : kind_(kind), out_(out) {
    out_ = PoolingResponse{};
  }

  // Completes `out` once the handler has seen a whole, valid JSON body.
  void finish(std::string_view body) {
    if (!root_is_container()) {
      out_ = PoolingResponse{};
      return;
    }
    out_.valid_json = true;
    out_.has_usage = has_prompt_tokens_ || has_total_tokens_;
    if (!has_prompt_tokens_ && has_total_tokens_) out_.prompt_tokens = out_.total_tokens;
    if (has_error_ || object_is_error_) {
      out_.has_error = true;
      for (const std::string* text : {&error_message_, &root_message_, &detail_}) {
        if (!text->empty()) {
          out_.error_message = *text;
          return;
        }
      }
      // Error bodies are small; a large one is cut before error_message_from_body parses it.
      constexpr size_t kMaxParsed = 64 * 1024;
      out_.error_message =
          error_message_from_body(body.size() <= kMaxParsed ? body : body.substr(0, 300));
    }
  }

 private:
  friend SaxHandler;
  using Frame = PoolingFrame;
  using K = PoolingKey;
  using S = PoolingScope;

  Frame root_array() { return {S::kList}; }

  Frame object_in(const Frame& parent) {
    switch (parent.scope) {
      case S::kRoot:
        if (parent.key == K::kUsage) return {S::kUsage};
        if (parent.key == K::kError) {
          has_error_ = true;
          return {S::kError};
        }
        if (parent.key == K::kDetail) has_error_ = true;
        break;
      case S::kList:
        start_item();
        return {S::kItem};
      case S::kItem:
      case S::kVector:
      case S::kRow:
        misplaced_value(parent);
        break;
      default:
        break;
    }
    return {};
  }

  Frame array_in(const Frame& parent) {
    switch (parent.scope) {
      case S::kRoot:
        // Embeddings are in data[]; rerank results in results[] (or data[]).
        if (parent.key == K::kData ||
            (parent.key == K::kResults && kind_ == PoolingKind::kRerank)) {
          return {S::kList};
        }
        if (parent.key == K::kDetail) has_error_ = true;
        break;
      case S::kList:
        if (kind_ != PoolingKind::kEmbeddings) {
          stray_list_entry();
          break;
        }
        // A bare vector in the list: the item is the vector itself.
        start_item();
        start_vector();
        vector_is_item_ = true;
        return {S::kVector};
      case S::kItem:
        if (parent.key == K::kEmbedding) {
          start_vector();
          return {S::kVector};
        }
        if (parent.key == K::kScore) item_has_score_ = false;
        break;
      case S::kVector:
        if (vector_numbers_ > 0) item_ok_ = false;  // numbers and rows mixed
        row_numbers_ = 0;
        return {S::kRow};
      case S::kRow:
        item_ok_ = false;  // deeper than rows of numbers
        break;
      default:
        break;
    }
    return {};
  }

  void on_end_object(const Frame& closing) {
    if (closing.scope == S::kItem) end_item();
  }

  void on_end_array(const Frame& closing) {
    if (closing.scope == S::kRow) {
      end_row();
    } else if (closing.scope == S::kVector) {
      end_vector();
      if (vector_is_item_) end_item();
    }
  }

  void on_string(const Frame& in, std::string_view value) {
    switch (in.scope) {
      case S::kRoot:
        switch (in.key) {
          case K::kId:
            out_.response_id.assign(value);
            break;
          case K::kObject:
            object_is_error_ = value == "error";
            break;
          case K::kMessage:
            root_message_.assign(value);
            break;
          case K::kError:
            has_error_ = true;
            error_message_.assign(value);
            break;
          case K::kDetail:
            has_error_ = true;
            detail_.assign(value);
            break;
          default:
            break;
        }
        break;
      case S::kError:
        if (in.key == K::kMessage) error_message_.assign(value);
        break;
      case S::kItem:
        if (in.key == K::kEmbedding) {
          item_has_embedding_ = true;
          const int64_t floats = pooling_base64_floats(value);
          item_ok_ = floats != -2;
          item_length_ = floats >= 0 ? floats : -1;
        } else if (in.key == K::kScore) {
          item_has_score_ = false;  // "0.9" is not a score; a repeated key replaces the earlier
        }
        break;
      case S::kList:
        stray_list_entry();
        break;
      case S::kVector:
      case S::kRow:
        item_ok_ = false;
        break;
      default:
        break;
    }
  }

  void on_integer(const Frame& in, int64_t value) { number(in, value, true); }

  void on_float(const Frame& in, const sax_support::JsonFloat& value) {
    // Only usage needs the value; a vector's float is just counted.
    int64_t rounded = 0;
    const bool exact = in.scope == S::kUsage && value.rounded(rounded);
    number(in, rounded, exact);
  }

  // A number; `exact` is false for a float whose value was not needed (and so not parsed).
  void number(const Frame& in, int64_t value, bool exact) {
    switch (in.scope) {
      case S::kVector:
        ++vector_numbers_;
        if (vector_rows_ > 0) item_ok_ = false;  // rows and numbers mixed
        break;
      case S::kRow:
        ++row_numbers_;
        break;
      case S::kItem:
        if (in.key == K::kScore) item_has_score_ = true;
        if (in.key == K::kEmbedding) {
          item_has_embedding_ = true;
          item_ok_ = false;
        }
        break;
      case S::kUsage:
        if (!exact) break;
        if (in.key == K::kPromptTokens) {
          out_.prompt_tokens = value;
          has_prompt_tokens_ = true;
        } else if (in.key == K::kTotalTokens) {
          out_.total_tokens = value;
          has_total_tokens_ = true;
        }
        break;
      case S::kList:
        stray_list_entry();
        break;
      default:
        break;
    }
  }

  void on_scalar(const Frame& in) { misplaced_value(in); }

  // A value in `in` where an item wants a number or a vector, or a list an item: null, true/false
  // (and binary, which JSON never yields), or an object.
  void misplaced_value(const Frame& in) {
    switch (in.scope) {
      case S::kVector:
      case S::kRow:
        item_ok_ = false;
        break;
      case S::kItem:
        if (in.key == K::kEmbedding) {
          item_has_embedding_ = true;
          item_ok_ = false;
        } else if (in.key == K::kScore) {
          item_has_score_ = false;
        }
        break;
      case S::kList:
        stray_list_entry();
        break;
      default:
        break;
    }
  }

  void start_item() {
    item_has_embedding_ = false;
    item_ok_ = true;
    item_length_ = -1;
    item_has_score_ = false;
    vector_is_item_ = false;
  }

  void start_vector() {
    item_has_embedding_ = true;
    item_ok_ = true;
    item_length_ = -1;
    vector_numbers_ = 0;
    vector_rows_ = 0;
    row_length_ = -1;
  }

  void end_row() {
    ++vector_rows_;
    if (row_numbers_ == 0 || (row_length_ >= 0 && row_numbers_ != row_length_)) item_ok_ = false;
    if (row_length_ < 0) row_length_ = row_numbers_;
  }

  void end_vector() {
    item_length_ = vector_rows_ > 0 ? row_length_ : vector_numbers_;
    if (item_length_ <= 0) item_ok_ = false;
  }

  // A list entry that is neither an object nor (embeddings) a vector: a bad rerank result; not an
  // embedding entry at all.
  void stray_list_entry() {
    if (kind_ != PoolingKind::kRerank) return;
    ++out_.items;
    ++out_.bad_items;
  }

  void end_item() {
    if (kind_ == PoolingKind::kRerank) {
      ++out_.items;
      if (!item_has_score_) ++out_.bad_items;
      return;
    }
    if (!item_has_embedding_) return;
    ++out_.items;
    if (!item_ok_) {
      ++out_.bad_items;
    } else if (item_length_ >= 0) {
      if (out_.dimension < 0) {
        out_.dimension = item_length_;
      } else if (item_length_ != out_.dimension) {
        ++out_.bad_items;
      }
    }
  }

  const PoolingKind kind_;
  PoolingResponse& out_;
  bool has_prompt_tokens_ = false;  // usage.prompt_tokens was a number
  bool has_total_tokens_ = false;   // usage.total_tokens was a number
  bool has_error_ = false;          // root.error (object or string) or root.detail
  bool object_is_error_ = false;    // root.object == "error" (vLLM error style)
  std::string error_message_;       // root.error.message, or the root.error string
  std::string root_message_;        // root.message (vLLM error style)
  std::string detail_;              // root.detail when a string (FastAPI)
  // The item being read.
  bool item_has_embedding_ = false;  // it has an "embedding" key (or is a bare vector)
  bool item_ok_ = true;              // its embedding passed the checks so far
  int64_t item_length_ = -1;         // its vector's length (-1: unknown)
  bool item_has_score_ = false;      // rerank: a numeric relevance_score / score
  bool vector_is_item_ = false;      // the item is a bare vector in the list
  int64_t vector_numbers_ = 0;       // numbers directly in the vector
  int64_t vector_rows_ = 0;          // arrays in the vector (per-token rows)
  int64_t row_numbers_ = 0;          // numbers in the row being read
  int64_t row_length_ = -1;          // length of the vector's first row
};

}  // namespace

void decode_pooling_response(PoolingKind kind, std::string_view body, PoolingResponse& out) {
  const auto finish = [body](PoolingHandler& handler) { handler.finish(body); };
  if (!sax_support::sax_decode<PoolingHandler>(body, finish, kind, out)) out = PoolingResponse{};
}

}  // namespace llmperf
