// llmperf-mock's tokenizer and tokenize API: the splitting rules of tokenizer.h with concrete ids
// and pieces, the round trip through detokenize, the ChatML overhead, and every shape of the
// tokenize API agreeing on the count of one chat request (the count usage.prompt_tokens reports).
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tokenize_api.h"
#include "tokenizer.h"

namespace llmperf::mock {
namespace {

using nlohmann::json;

constexpr TokenId kCodePointBase = TokenId{1} << 28;
constexpr TokenId kInvalidByteBase = kCodePointBase + 0x110000;
constexpr TokenId kBos = TokenId{1} << 29;
constexpr std::int64_t kMaxModelLen = 4096;

// The bytes each token of `text` covers.
std::vector<std::string> pieces(std::string_view text) {
  std::vector<std::string> out;
  for (const TokenSpan& t : tokenize_spans(text)) {
    out.emplace_back(text.substr(t.begin, t.end - t.begin));
  }
  return out;
}

using Pieces = std::vector<std::string>;
using Ids = std::vector<TokenId>;

// One user message, as llmperf sends a synthetic prompt.
json one_message(const std::string& content) {
  return json::array({{{"role", "user"}, {"content", content}}});
}

// Answers POST `path` with `body`; fails the test when the path is not the API's.
ApiReply call(TokenizeApi api, std::string_view path, const json& body) {
  const std::optional<ApiReply> reply = answer_tokenize_api(api, path, body.dump(), kMaxModelLen);
  EXPECT_TRUE(reply.has_value()) << path;
  return reply.value_or(ApiReply{-1, "", ""});
}

TEST(MockTokenizer, SpaceJoinsTheFirstPieceOfTheNextWord) {
  EXPECT_EQ(pieces(" hello"), (Pieces{" hel", "lo"}));
  // An ASCII piece's id is its bytes in base 128: ' ' + 'h'*128 + 'e'*128^2 + 'l'*128^3.
  EXPECT_EQ(tokenize(" hello", false), (Ids{228160544, 14316}));
}

TEST(MockTokenizer, WordsAreCutIntoPiecesOfAtMostFourBytes) {
  EXPECT_EQ(pieces("hello"), (Pieces{"hell", "o"}));
  EXPECT_EQ(tokenize("hello", false), (Ids{228274920, 'o'}));
  EXPECT_EQ(pieces("hello world"), (Pieces{"hell", "o", " wor", "ld"}));
  EXPECT_EQ(pieces("abcdefgh12"), (Pieces{"abcd", "efgh", "12"}));
}

TEST(MockTokenizer, PunctuationAndLoneSpacesAreOneTokenEach) {
  EXPECT_EQ(pieces("a, b!\n"), (Pieces{"a", ",", " b", "!", "\n"}));
  EXPECT_EQ(pieces("  x"), (Pieces{" ", " x"}));
  EXPECT_EQ(tokenize(",", false), (Ids{','}));
}

TEST(MockTokenizer, EveryOtherCodePointIsOneToken) {
  EXPECT_EQ(pieces("你好"), (Pieces{"你", "好"}));
  EXPECT_EQ(tokenize("你好", false), (Ids{kCodePointBase + 0x4F60, kCodePointBase + 0x597D}));
  EXPECT_EQ(tokenize("é😀", false), (Ids{kCodePointBase + 0xE9, kCodePointBase + 0x1F600}));
}

TEST(MockTokenizer, EveryInvalidUtf8ByteIsOneToken) {
  EXPECT_EQ(tokenize("\xFF", false), (Ids{kInvalidByteBase + 0xFF}));
  // A lead byte without its continuation, then a lone continuation byte.
  EXPECT_EQ(tokenize("\xE4\xBD", false), (Ids{kInvalidByteBase + 0xE4, kInvalidByteBase + 0xBD}));
  // An overlong encoding of '/' is two invalid bytes, not one code point.
  EXPECT_EQ(tokenize("\xC0\xAF", false).size(), 2u);
}

TEST(MockTokenizer, MarkersAreOneSpecialTokenEach) {
  EXPECT_EQ(tokenize("<s>", false), (Ids{kBos}));
  EXPECT_EQ(tokenize("<|im_start|>", false), (Ids{kBos + 1}));
  EXPECT_EQ(tokenize("<|im_end|>", false), (Ids{kBos + 2}));
  EXPECT_EQ(pieces("<|im_start|>user\n"), (Pieces{"<|im_start|>", "user", "\n"}));
  // Something that only looks like a marker is plain text.
  EXPECT_EQ(pieces("<|im_x|>"), (Pieces{"<", "|", "im", "_", "x", "|", ">"}));
}

TEST(MockTokenizer, AddSpecialPrependsBos) {
  EXPECT_EQ(tokenize("hello", true), (Ids{kBos, 228274920, 'o'}));
  EXPECT_EQ(tokenize("", true), (Ids{kBos}));
  EXPECT_TRUE(tokenize("", false).empty());
}

TEST(MockTokenizer, DetokenizeInvertsTokenizeForTextsWithoutMarkers) {
  const std::vector<std::string> texts = {
      "hello world",
      "  The quick, brown fox; jumps over 13 lazy dogs!\n\tEnd.",
      "你好，世界。混合 mixed 文本 text",
      std::string("bytes \xFF\xFE and a cut \xE4\xBD sequence \xC0\xAF"),
      std::string("nul \0 inside", 12),
      "é😀 emoji",
      "",
  };
  for (const std::string& text : texts) {
    const std::vector<TokenId> ids = tokenize(text, false);
    EXPECT_EQ(detokenize(ids), text) << text;
  }
}

TEST(MockTokenizer, DetokenizeRejectsIdsOutsideTheVocabulary) {
  EXPECT_EQ(detokenize(Ids{0}), std::nullopt);
  EXPECT_EQ(detokenize(Ids{-5}), std::nullopt);
  EXPECT_EQ(detokenize(Ids{kBos + 3}), std::nullopt);
  EXPECT_EQ(detokenize(Ids{128}), std::nullopt);  // an ASCII "piece" with a 0 digit
  EXPECT_EQ(detokenize(Ids{kBos, kBos + 1, kBos + 2}), "<s><|im_start|><|im_end|>");
}

TEST(MockTokenizer, ChatTemplateIsChatMl) {
  EXPECT_EQ(apply_chat_template(one_message("hi"), true),
            "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n");
  EXPECT_EQ(apply_chat_template(one_message("hi"), false), "<|im_start|>user\nhi<|im_end|>\n");
  const json parts = json::array(
      {{{"role", "user"},
        {"content", json::array({{{"type", "text"}, {"text", "a"}}, {{"text", "b"}}})}}});
  EXPECT_EQ(apply_chat_template(parts, false), "<|im_start|>user\nab<|im_end|>\n");
  EXPECT_EQ(apply_chat_template(json::object(), true), std::nullopt);
  EXPECT_EQ(apply_chat_template(json::array({"not an object"}), true), std::nullopt);
}

TEST(MockTokenizer, OneUserMessageCountsItsContentPlusEleven) {
  ASSERT_EQ(kChatOverheadOneMessage, 11);
  const std::vector<std::string> contents = {
      "", "hello world", " leading space", "你好 world, again!", "trailing\n", "x<"};
  for (const std::string& content : contents) {
    const auto content_tokens = static_cast<std::int64_t>(tokenize(content, false).size());
    EXPECT_EQ(chat_prompt_tokens(one_message(content)), content_tokens + kChatOverheadOneMessage)
        << content;
  }
  EXPECT_EQ(chat_prompt_tokens(json::array({1, 2})), std::nullopt);
}

TEST(MockTokenizeApi, OtherPathsAreNotTheApis) {
  EXPECT_EQ(answer_tokenize_api(TokenizeApi::kAll, "/v1/completions", "{}", kMaxModelLen),
            std::nullopt);
  EXPECT_EQ(answer_tokenize_api(TokenizeApi::kNone, "/health", "{}", kMaxModelLen), std::nullopt);
}

TEST(MockTokenizeApi, NoneAnswers404OnEveryTokenizePath) {
  for (const char* path : {"/tokenize", "/detokenize", "/apply-template", "/chat_tokenize"}) {
    const ApiReply reply = call(TokenizeApi::kNone, path, {{"prompt", "hello"}});
    EXPECT_EQ(reply.status, 404) << path;
    EXPECT_TRUE(json::parse(reply.body).contains("error")) << reply.body;
  }
}

TEST(MockTokenizeApi, VllmCountsPromptsAndChats) {
  const ApiReply prompt = call(TokenizeApi::kVllm, "/tokenize", {{"prompt", "hello world"}});
  ASSERT_EQ(prompt.status, 200) << prompt.body;
  const json p = json::parse(prompt.body);
  EXPECT_EQ(p["count"], 5);  // BOS + 4
  EXPECT_EQ(p["tokens"], json(tokenize("hello world", true)));
  EXPECT_EQ(p["max_model_len"], kMaxModelLen);
  EXPECT_TRUE(p.contains("token_strs"));

  const ApiReply raw = call(TokenizeApi::kVllm, "/tokenize",
                            {{"prompt", "hello world"}, {"add_special_tokens", false}});
  EXPECT_EQ(json::parse(raw.body)["count"], 4);

  const ApiReply chat =
      call(TokenizeApi::kVllm, "/tokenize", {{"model", "m"}, {"messages", one_message("hi")}});
  ASSERT_EQ(chat.status, 200) << chat.body;
  EXPECT_EQ(json::parse(chat.body)["count"], 1 + 11);

  const ApiReply detok = call(TokenizeApi::kVllm, "/detokenize",
                              {{"model", "m"}, {"tokens", tokenize("你好 there", false)}});
  ASSERT_EQ(detok.status, 200) << detok.body;
  EXPECT_EQ(json::parse(detok.body)["prompt"], "你好 there");
}

TEST(MockTokenizeApi, VllmRejectsABodyWithoutPromptOrMessages) {
  const ApiReply reply = call(TokenizeApi::kVllm, "/tokenize", {{"content", "hello"}});
  EXPECT_EQ(reply.status, 400);
  const json body = json::parse(reply.body);
  EXPECT_EQ(body["error"]["code"], 400);  // vLLM's nested error object
  EXPECT_TRUE(body["error"]["message"].is_string());
  // The vLLM shape has neither llama.cpp's nor TGI's chat endpoints.
  EXPECT_EQ(call(TokenizeApi::kVllm, "/apply-template", {{"messages", one_message("a")}}).status,
            404);
  EXPECT_EQ(call(TokenizeApi::kVllm, "/chat_tokenize", {{"messages", one_message("a")}}).status,
            404);
}

TEST(MockTokenizeApi, LlamaCppTokenizesContentAndAppliesTheTemplate) {
  const ApiReply plain = call(TokenizeApi::kLlamaCpp, "/tokenize", {{"content", "hello"}});
  ASSERT_EQ(plain.status, 200) << plain.body;
  EXPECT_EQ(json::parse(plain.body)["tokens"],
            json(tokenize("hello", false)));  // add_special: false
  const ApiReply special =
      call(TokenizeApi::kLlamaCpp, "/tokenize", {{"content", "hello"}, {"add_special", true}});
  EXPECT_EQ(json::parse(special.body)["tokens"], json(tokenize("hello", true)));

  const ApiReply applied =
      call(TokenizeApi::kLlamaCpp, "/apply-template", {{"messages", one_message("hi")}});
  ASSERT_EQ(applied.status, 200) << applied.body;
  EXPECT_EQ(json::parse(applied.body)["prompt"],
            "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n");

  const ApiReply detok =
      call(TokenizeApi::kLlamaCpp, "/detokenize", {{"tokens", tokenize("a b", false)}});
  EXPECT_EQ(json::parse(detok.body)["content"], "a b");
  EXPECT_EQ(call(TokenizeApi::kLlamaCpp, "/chat_tokenize", {{"messages", one_message("a")}}).status,
            404);
}

TEST(MockTokenizeApi, LlamaCppAnswersNoTokensForABodyWithoutContent) {
  const ApiReply reply = call(TokenizeApi::kLlamaCpp, "/tokenize", json::object());
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(json::parse(reply.body), json({{"tokens", json::array()}}));
}

TEST(MockTokenizeApi, TgiListsTokensWithCodePointOffsets) {
  const ApiReply reply = call(TokenizeApi::kTgi, "/tokenize", {{"inputs", "你好 hello"}});
  ASSERT_EQ(reply.status, 200) << reply.body;
  const json tokens = json::parse(reply.body);
  ASSERT_TRUE(tokens.is_array());
  // BOS, 你, 好, " hel", "lo".
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[0]["id"], kBos);
  EXPECT_EQ(tokens[1]["text"], "你");
  EXPECT_EQ(tokens[2]["start"], 1);
  EXPECT_EQ(tokens[2]["stop"], 2);
  EXPECT_EQ(tokens[3]["text"], " hel");
  EXPECT_EQ(tokens[3]["start"], 2);
  EXPECT_EQ(tokens[3]["stop"], 6);
  EXPECT_EQ(tokens[4]["stop"], 8);
  // TGI has no /detokenize and no /apply-template.
  EXPECT_EQ(call(TokenizeApi::kTgi, "/detokenize", {{"tokens", Ids{1}}}).status, 404);
  EXPECT_EQ(call(TokenizeApi::kTgi, "/apply-template", {{"messages", one_message("a")}}).status,
            404);
}

TEST(MockTokenizeApi, TgiRejectsABodyWithoutInputsWith422) {
  const ApiReply reply = call(TokenizeApi::kTgi, "/tokenize", {{"prompt", "hello"}});
  EXPECT_EQ(reply.status, 422);
  EXPECT_NE(reply.content_type.find("text/plain"), std::string::npos);
  EXPECT_NE(reply.body.find("inputs"), std::string::npos) << reply.body;
}

TEST(MockTokenizeApi, EveryShapeCountsAChatRequestAsItsUsage) {
  // Texts a JSON body can carry (valid UTF-8).
  const std::vector<std::string> contents = {
      "hello world", "The quick brown fox, 你好!\nNext line: 42.", "é😀 <s> inside", ""};
  for (const std::string& content : contents) {
    const json messages = one_message(content);
    const std::int64_t usage = chat_prompt_tokens(messages).value();

    const ApiReply vllm =
        call(TokenizeApi::kVllm, "/tokenize", {{"model", "m"}, {"messages", messages}});
    EXPECT_EQ(json::parse(vllm.body)["count"], usage) << content;

    const ApiReply applied =
        call(TokenizeApi::kLlamaCpp, "/apply-template", {{"messages", messages}});
    const std::string templated = json::parse(applied.body)["prompt"];
    const ApiReply llamacpp =
        call(TokenizeApi::kLlamaCpp, "/tokenize", {{"content", templated}, {"add_special", true}});
    EXPECT_EQ(json::parse(llamacpp.body)["tokens"].size(), static_cast<size_t>(usage)) << content;

    const ApiReply tgi = call(TokenizeApi::kTgi, "/chat_tokenize", {{"messages", messages}});
    ASSERT_EQ(tgi.status, 200) << tgi.body;
    const json tgi_body = json::parse(tgi.body);
    EXPECT_EQ(tgi_body["tokenize_response"].size(), static_cast<size_t>(usage)) << content;
    EXPECT_EQ(tgi_body["templated_text"], json("<s>" + templated));

    // The "all" mode answers each request in the shape its fields name, with the same counts.
    const ApiReply all =
        call(TokenizeApi::kAll, "/tokenize", {{"model", "m"}, {"messages", messages}});
    EXPECT_EQ(json::parse(all.body)["count"], usage) << content;
  }
}

TEST(MockTokenizeApi, AllTellsShapesApartByTheirFields) {
  const json vllm = json::parse(call(TokenizeApi::kAll, "/tokenize", {{"prompt", "hello"}}).body);
  EXPECT_TRUE(vllm.contains("count"));
  const json llamacpp =
      json::parse(call(TokenizeApi::kAll, "/tokenize", {{"content", "hello"}}).body);
  EXPECT_EQ(llamacpp["tokens"], json(tokenize("hello", false)));
  const json tgi = json::parse(call(TokenizeApi::kAll, "/tokenize", {{"inputs", "hello"}}).body);
  EXPECT_TRUE(tgi.is_array());
  EXPECT_EQ(tgi.size(), 3u);  // BOS "hell" "o"
}

TEST(MockTokenizeApi, MalformedJsonIsA400) {
  const std::optional<ApiReply> reply =
      answer_tokenize_api(TokenizeApi::kAll, "/tokenize", "{not json", kMaxModelLen);
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->status, 400);
}

}  // namespace
}  // namespace llmperf::mock
