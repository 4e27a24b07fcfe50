// Parsing and replies of llmperf-mock's embeddings and rerank endpoints (see pooling_api.h).
// Vectors and scores come from a 64-bit FNV-1a hash of the input expanded by splitmix64, so the
// same input always gets the same numbers, in any request and any process.
#include "pooling_api.h"

#include "openai_format.h"
#include "tokenizer.h"
#include "vocabulary.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>

namespace llmperf::mock {
namespace {

using nlohmann::json;

// Largest "dimensions" accepted.
constexpr std::int64_t kMaxDimensions = 1 << 16;

constexpr const char* kInputShape =
    "'input' must be a non-empty string, an array of non-empty strings, an array of token ids or "
    "an array of non-empty arrays of token ids";

std::uint64_t pooling_fnv1a(std::string_view bytes, std::uint64_t hash = 14695981039346656037ull) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A uniform double in (0, 1) from the top 53 bits of `bits`.
double unit_interval(std::uint64_t bits) {
  return (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53;
}

// A text input's tokens as an embedding model counts them: BOS + its tokens (as a completions
// prompt, so that prompts fitted for /v1/completions count the same here).
std::int64_t text_tokens(std::string_view text) {
  return 1 + static_cast<std::int64_t>(tokenize_spans(text).size());
}

// The key of a token-id input: its ids written out, so equal ids get equal vectors.
std::string ids_key(const json& ids) {
  std::string key = "ids:";
  for (const json& id : ids) fmt::format_to(std::back_inserter(key), "{},", id.get<std::int64_t>());
  return key;
}

bool all_integers(const json& array) {
  return std::all_of(array.begin(), array.end(),
                     [](const json& item) { return item.is_number_integer(); });
}

std::optional<std::string> read_embeddings(const json& body, PoolingRequest& out) {
  const auto input = body.find("input");
  if (input == body.end()) return std::string("missing required field 'input'");
  const auto add_text = [&out](const json& text) {
    out.inputs.push_back(text.get<std::string>());
    out.prompt_tokens += text_tokens(out.inputs.back());
  };
  const auto add_ids = [&out](const json& ids) {
    out.inputs.push_back(ids_key(ids));
    out.prompt_tokens += static_cast<std::int64_t>(ids.size());
  };
  if (input->is_string()) {
    if (input->get_ref<const std::string&>().empty()) return std::string(kInputShape);
    add_text(*input);
  } else if (!input->is_array() || input->empty()) {
    return std::string(kInputShape);
  } else if (all_integers(*input)) {
    add_ids(*input);
  } else {
    for (const json& item : *input) {
      if (item.is_string() && !item.get_ref<const std::string&>().empty()) {
        add_text(item);
      } else if (item.is_array() && !item.empty() && all_integers(item)) {
        add_ids(item);
      } else {
        return std::string(kInputShape);
      }
    }
  }
  if (const auto format = body.find("encoding_format");
      format != body.end() && !format->is_null() && *format != "float") {
    return *format == "base64"
               ? std::string(
                     "encoding_format 'base64' is not supported by llmperf-mock; use "
                     "'float'")
               : std::string("'encoding_format' must be 'float' or 'base64'");
  }
  if (const auto dimensions = body.find("dimensions");
      dimensions != body.end() && !dimensions->is_null()) {
    if (!dimensions->is_number_integer() || dimensions->get<std::int64_t>() < 1 ||
        dimensions->get<std::int64_t>() > kMaxDimensions) {
      return fmt::format("'dimensions' must be an integer from 1 to {}", kMaxDimensions);
    }
    out.dimensions = dimensions->get<std::int64_t>();
  }
  return std::nullopt;
}

std::optional<std::string> read_rerank(const json& body, PoolingRequest& out) {
  const auto query = body.find("query");
  if (query == body.end()) return std::string("missing required field 'query'");
  if (!query->is_string()) return std::string("'query' must be a string");
  out.query = query->get<std::string>();
  const auto documents = body.find("documents");
  if (documents == body.end()) return std::string("missing required field 'documents'");
  if (!documents->is_array() || documents->empty()) {
    return std::string("'documents' must be a non-empty array");
  }
  const std::int64_t query_tokens = text_tokens(out.query);
  for (const json& document : *documents) {
    const json* text = &document;
    if (document.is_object()) {
      const auto found = document.find("text");
      text = found == document.end() ? nullptr : &*found;
    }
    if (text == nullptr || !text->is_string()) {
      return std::string(
          "each entry of 'documents' must be a string or an object with a string 'text'");
    }
    out.inputs.push_back(text->get<std::string>());
    // One BOS per (query, document) pair: text_tokens counted one for each of the two.
    out.prompt_tokens += query_tokens + text_tokens(out.inputs.back()) - 1;
  }
  if (const auto top_n = body.find("top_n"); top_n != body.end() && !top_n->is_null()) {
    if (!top_n->is_number_integer() || top_n->get<std::int64_t>() < 0) {
      return std::string("'top_n' must be an integer >= 0");
    }
    out.top_n = top_n->get<std::int64_t>();
  }
  if (const auto echo = body.find("return_documents"); echo != body.end() && !echo->is_null()) {
    if (!echo->is_boolean()) return std::string("'return_documents' must be a boolean");
    out.return_documents = echo->get<bool>();
  }
  return std::nullopt;
}

// A unit vector of `dimensions` floats derived from `key`.
void append_embedding(std::string& out, std::string_view key, std::int64_t dimensions) {
  std::uint64_t state = pooling_fnv1a(key);
  std::vector<double> values(static_cast<std::size_t>(dimensions));
  for (double& value : values) value = 2 * unit_interval(splitmix64(state)) - 1;
  const double norm =
      std::sqrt(std::inner_product(values.begin(), values.end(), values.begin(), 0.0));
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    fmt::format_to(std::back_inserter(out), "{}", static_cast<float>(values[i] / norm));
  }
  out += ']';
}

void append_embeddings_body(std::string& out, const PoolingRequest& request,
                            const PoolingReply& reply) {
  out += R"({"object":"list","data":[)";
  std::size_t count = request.inputs.size();
  if (reply.drop_last_vector) --count;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) out += ',';
    fmt::format_to(std::back_inserter(out), R"({{"object":"embedding","index":{},"embedding":)", i);
    append_embedding(out, request.inputs[i], request.dimensions);
    out += '}';
  }
  fmt::format_to(std::back_inserter(out),
                 R"(],"model":"{}","usage":{{"prompt_tokens":{},"total_tokens":{}}}}})",
                 reply.model_escaped, request.prompt_tokens, request.prompt_tokens);
}

void append_rerank_body(std::string& out, const PoolingRequest& request,
                        const PoolingReply& reply) {
  const std::uint64_t query_hash = pooling_fnv1a(request.query);
  std::vector<std::pair<double, std::size_t>> ranked;  // (score, document index)
  ranked.reserve(request.inputs.size());
  for (std::size_t i = 0; i < request.inputs.size(); ++i) {
    std::uint64_t state = pooling_fnv1a(request.inputs[i], pooling_fnv1a(std::string_view("\0", 1), query_hash));
    ranked.emplace_back(unit_interval(splitmix64(state)), i);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  if (request.top_n > 0 && static_cast<std::size_t>(request.top_n) < ranked.size()) {
    ranked.resize(static_cast<std::size_t>(request.top_n));
  }
  fmt::format_to(std::back_inserter(out),
                 R"({{"id":"rerank-{}","model":"{}","usage":{{"prompt_tokens":{},)"
                 R"("total_tokens":{}}},"results":[)",
                 reply.seq, reply.model_escaped, request.prompt_tokens, request.prompt_tokens);
  for (std::size_t k = 0; k < ranked.size(); ++k) {
    if (k > 0) out += ',';
    const auto [score, index] = ranked[k];
    fmt::format_to(std::back_inserter(out), R"({{"index":{},"relevance_score":{})", index, score);
    if (request.return_documents) {
      out += R"(,"document":{"text":")";
      out += json_escape(request.inputs[index]);
      out += R"("})";
    }
    out += '}';
  }
  out += "]}";
}

}  // namespace

PoolingParse parse_pooling_request(Endpoint endpoint, std::string_view body_text,
                                   std::int64_t default_dimensions) {
  json body;
  try {
    body = json::parse(body_text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e999
    return std::string("request body is not valid JSON: ") + e.what();
  }
  if (!body.is_object()) return std::string("request body must be a JSON object");
  PoolingRequest request;
  request.endpoint = endpoint;
  request.dimensions = default_dimensions;
  auto problem =
      endpoint == Endpoint::kRerank ? read_rerank(body, request) : read_embeddings(body, request);
  if (problem) return *std::move(problem);
  return request;
}

void append_pooling_body(std::string& out, const PoolingRequest& request,
                         const PoolingReply& reply) {
  if (request.endpoint == Endpoint::kRerank) {
    append_rerank_body(out, request, reply);
  } else {
    append_embeddings_body(out, request, reply);
  }
}

}  // namespace llmperf::mock
