// Request bodies of the other endpoints: embeddings batches and rerank queries (group_texts and
// the builder), the Responses API, and prompts with images, synthetic (decoded here: valid PNGs of
// the asked size) or named by dataset lines (inlined as data URLs).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config.h"
#include "workload/batching.h"
#include "workload/image_prompts.h"
#include "workload/request_builder.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

Config config_for(ApiKind kind) {
  Config config;
  config.target.model = "m";
  config.target.api_kind = kind;
  return config;
}

std::vector<Prompt> texts(std::initializer_list<const char*> items) {
  std::vector<Prompt> prompts;
  for (const char* item : items) {
    Prompt p;
    p.text = item;
    p.length = static_cast<int64_t>(std::string(item).size());
    p.target_input_tokens = 2;
    prompts.push_back(p);
  }
  return prompts;
}

Json body_of(const Config& config, const Prompt& prompt, uint64_t request = 0) {
  return Json::parse(
      RequestBuilder(request_sections(config.target, config.body, config.workload, config.load),
                     config.target.model)
          .build_body(prompt, request));
}

TEST(GroupTexts, EmbeddingsBatchesTakePromptsInTurnAndCycle) {
  Config config = config_for(ApiKind::kEmbeddings);
  config.workload.batch_size = 2;
  const std::vector<Prompt> grouped =
      group_texts(texts({"a", "b", "c"}), config.target.api_kind, texts_per_request(config));
  ASSERT_EQ(grouped.size(), 2u);  // ceil(3 / 2)
  EXPECT_EQ(grouped[0].texts, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(grouped[1].texts, (std::vector<std::string>{"c", "a"}));  // cycled
  EXPECT_EQ(grouped[0].target_input_tokens, 4);
  EXPECT_EQ(grouped[0].length, 2);

  const Json body = body_of(config, grouped[1]);
  EXPECT_EQ(body, Json({{"model", "m"}, {"input", {"c", "a"}}}));  // no generation parameters
}

TEST(GroupTexts, RerankIsAQueryAndTheNextDocuments) {
  Config config = config_for(ApiKind::kRerank);
  config.workload.documents = 2;
  const std::vector<Prompt> grouped = group_texts(
      texts({"q", "d1", "d2", "q2"}), config.target.api_kind, texts_per_request(config));
  ASSERT_EQ(grouped.size(), 2u);
  EXPECT_EQ(grouped[0].text, "q");
  EXPECT_EQ(grouped[0].texts, (std::vector<std::string>{"d1", "d2"}));
  EXPECT_EQ(grouped[0].target_input_tokens, -1);  // the server counts pairs its own way
  EXPECT_EQ(grouped[1].text, "q2");
  EXPECT_EQ(body_of(config, grouped[0]),
            Json({{"model", "m"}, {"query", "q"}, {"documents", {"d1", "d2"}}}));
}

TEST(GroupTexts, OneTextApisAreLeftAlone) {
  const std::vector<Prompt> prompts = texts({"a", "b"});
  EXPECT_EQ(
      group_texts(prompts, ApiKind::kChat, texts_per_request(config_for(ApiKind::kChat))).size(),
      2u);
  EXPECT_TRUE(group_texts(prompts, ApiKind::kEmbeddings,
                          texts_per_request(config_for(ApiKind::kEmbeddings)))[0]
                  .texts.empty());
  EXPECT_EQ(body_of(config_for(ApiKind::kEmbeddings), prompts[0])["input"], Json({"a"}));
}

TEST(ResponsesBody, InputAndMaxOutputTokens) {
  Config config = config_for(ApiKind::kResponses);
  config.body.max_tokens = 64;
  Prompt prompt = texts({"hi"})[0];
  Json body = body_of(config, prompt);
  EXPECT_EQ(body["input"], "hi");
  EXPECT_EQ(body["max_output_tokens"], 64);
  EXPECT_EQ(body["stream"], true);
  EXPECT_FALSE(body.contains("stream_options"));
  EXPECT_FALSE(body.contains("max_tokens"));
  prompt.target_output_tokens = 9;
  EXPECT_EQ(body_of(config, prompt)["max_output_tokens"], 9);
}

// --- images ---

uint32_t big_endian(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

std::string base64_decode(const std::string& text) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (const char c : text) {
    if (c == '=') break;
    const size_t value = kAlphabet.find(c);
    if (value == std::string::npos) throw std::runtime_error("not base64");
    buffer = (buffer << 6) | static_cast<uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

// Width and height of a PNG from its IHDR, after checking the signature.
std::pair<uint32_t, uint32_t> png_size(const std::string& png) {
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  return {big_endian(png, 16), big_endian(png, 20)};
}

TEST(ImagePrompts, ChatBodyCarriesBase64PngsOfTheAskedSize) {
  Config config = config_for(ApiKind::kChat);
  config.workload.image_num = 2;
  config.workload.image_width = 64;
  config.workload.image_height = 32;
  std::vector<Prompt> prompts = texts({"describe"});
  attach_synthetic_images(prompts, config.workload, config.load.seed);
  const Json body = body_of(config, prompts[0], 7);
  const Json& content = body["messages"][0]["content"];
  ASSERT_EQ(content.size(), 3u);
  EXPECT_EQ(content[0], Json({{"type", "text"}, {"text", "describe"}}));
  std::vector<std::string> images;
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(content[i]["type"], "image_url");
    const std::string url = content[i]["image_url"]["url"];
    const std::string prefix = "data:image/png;base64,";
    ASSERT_EQ(url.rfind(prefix, 0), 0u);
    images.push_back(base64_decode(url.substr(prefix.size())));
    EXPECT_EQ(png_size(images.back()), (std::pair<uint32_t, uint32_t>{64, 32}));
  }
  EXPECT_NE(images[0], images[1]);
  // Another request sends other pixels (no server-side cache hit), the same request the same.
  EXPECT_NE(body_of(config, prompts[0], 8), body);
  EXPECT_EQ(body_of(config, prompts[0], 7), body);
}

TEST(ImagePrompts, ResponsesBodyUsesInputImageParts) {
  Config config = config_for(ApiKind::kResponses);
  config.workload.image_num = 1;
  config.workload.image_width = 8;
  config.workload.image_height = 8;
  std::vector<Prompt> prompts = texts({"what"});
  attach_synthetic_images(prompts, config.workload, config.load.seed);
  const Json input = body_of(config, prompts[0])["input"];
  ASSERT_TRUE(input.is_array());
  const Json& content = input[0]["content"];
  EXPECT_EQ(content[0]["type"], "input_text");
  EXPECT_EQ(content[1]["type"], "input_image");
  EXPECT_EQ(content[1]["image_url"].get<std::string>().rfind("data:image/png;base64,", 0), 0u);
}

TEST(ImagePrompts, DatasetImageFilesAreInlinedBesideTheDataset) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("llmperf_images_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "cat.png", std::ios::binary) << std::string("\x89PNG\r\n\x1a\nrest", 12);
  Prompt prompt;
  prompt.messages_json =
      R"([{"role":"user","content":[{"type":"text","text":"what"},)"
      R"({"type":"image_url","image_url":{"url":"cat.png"}},)"
      R"({"type":"image_url","image_url":{"url":"https://x/y.png"}}]}])";
  std::vector<Prompt> prompts = {prompt};
  EXPECT_EQ(inline_image_files(prompts, (dir / "data.jsonl").string()), 1);
  const Json messages = Json::parse(prompts[0].messages_json);
  EXPECT_EQ(messages[0]["content"][1]["image_url"]["url"],
            "data:image/png;base64,iVBORw0KGgpyZXN0");
  EXPECT_EQ(messages[0]["content"][2]["image_url"]["url"], "https://x/y.png");

  prompts = {prompt};
  prompts[0].messages_json = R"([{"role":"user","content":[{"type":"image_url",)"
                             R"("image_url":{"url":"missing.png"}}]}])";
  try {
    inline_image_files(prompts, (dir / "data.jsonl").string());
    FAIL() << "a missing image file must be an error";
  } catch (const DatasetError& error) {
    EXPECT_NE(std::string(error.what()).find("missing.png"), std::string::npos) << error.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace llmperf
