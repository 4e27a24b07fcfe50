// Vocabulary of llmperf-mock: mixes 1- to 4-byte UTF-8 sequences so clients meet multi-byte
// characters split across reads, plus a quote and a newline that must be escaped in JSON.
#include "vocabulary.h"

#include <nlohmann/json.hpp>

#include <array>

namespace llmperf::mock {
namespace {

constexpr std::array<std::string_view, 16> kTokens{
    " hello", " world", " 你好",  "，", " café", " benchmark", " token", " 世界",
    " naïve", " the",   " quick", " 🚀", "\n",    " \"mock\"",  " über",  " fox"};

}  // namespace

std::string json_escape(std::string_view text) {
  std::string quoted = nlohmann::json(std::string(text)).dump();
  return quoted.substr(1, quoted.size() - 2);
}

Vocabulary::Vocabulary() {
  escaped_.reserve(kTokens.size());
  for (std::string_view token : kTokens) escaped_.push_back(json_escape(token));
}

}  // namespace llmperf::mock
