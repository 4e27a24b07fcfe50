// The pure parts of the server's tokenizer: where its tokenize API lives (base_url_of), and the
// overhead wrapper for servers that cannot count their chat template. Probing and counting over
// HTTP are tested end to end against llmperf-mock and llama.cpp's server (tests/integration/).
#include "server/server_tokenizer.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace llmperf {
namespace {

TEST(BaseUrl, DropsTheApiPath) {
  EXPECT_EQ(base_url_of("http://h:8000/v1/chat/completions"), "http://h:8000");
  EXPECT_EQ(base_url_of("http://h:8000/v1/completions"), "http://h:8000");
  EXPECT_EQ(base_url_of("https://gw.example.com/openai/v1/chat/completions"),
            "https://gw.example.com/openai");
  EXPECT_EQ(base_url_of("http://h:8000/v1"), "http://h:8000");
  EXPECT_EQ(base_url_of("http://h:8000/generate"), "http://h:8000");
  EXPECT_EQ(base_url_of("http://h:8000"), "http://h:8000");
}

// Counts one token per byte, to see what the wrapper adds.
class BytesTokenizer final : public Tokenizer {
 public:
  const TokenizerInfo& info() const override { return info_; }
  bool can_decode() const override { return true; }
  std::vector<Encoding> encode(const std::vector<std::string>& texts) override {
    std::vector<Encoding> out;
    for (const std::string& text : texts) {
      Encoding e;
      for (const char c : text) e.ids.push_back(static_cast<unsigned char>(c));
      out.push_back(std::move(e));
    }
    return out;
  }
  std::vector<std::string> decode(const std::vector<std::vector<int64_t>>& ids) override {
    std::vector<std::string> out;
    for (const auto& sequence : ids) {
      std::string text;
      for (const int64_t id : sequence) text += static_cast<char>(id);
      out.push_back(std::move(text));
    }
    return out;
  }
  std::vector<int64_t> count(const std::vector<std::string>& prompts) override {
    std::vector<int64_t> out;
    for (const std::string& prompt : prompts) out.push_back(static_cast<int64_t>(prompt.size()));
    return out;
  }
  std::vector<int64_t> count_text(const std::vector<std::string>& texts) override {
    std::vector<int64_t> out;
    for (const std::string& text : texts) out.push_back(1 + static_cast<int64_t>(text.size()));
    return out;
  }

 private:
  TokenizerInfo info_{"bytes", "exact", true};
};

TEST(TemplateOverhead, AddsToEveryCountAndIsNotExact) {
  auto wrapped = with_template_overhead(std::make_unique<BytesTokenizer>(), 7, "calibrated");
  EXPECT_EQ(wrapped->count({"abc", ""}), (std::vector<int64_t>{10, 7}));
  EXPECT_EQ(wrapped->encode({"ab"}).front().ids.size(), 2u);  // encoding is the inner one's
  // A text's own count carries no template: the inner one's, special token included.
  EXPECT_EQ(wrapped->count_text({"abc", ""}), (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(wrapped->decode({{104, 105}}).front(), "hi");
  EXPECT_FALSE(wrapped->info().exact);
  EXPECT_EQ(wrapped->info().source, "bytes");
  EXPECT_EQ(wrapped->info().detail, "calibrated");
}

}  // namespace
}  // namespace llmperf
