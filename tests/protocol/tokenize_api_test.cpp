// Tests for the tokenize API wire format: the request bodies of each server shape (parsed back
// and checked key by key), the answer parsers on answers shaped like those of vLLM, SGLang,
// llama.cpp and TGI (TGI's character offsets becoming byte offsets in Chinese text, its zero-width
// BOS dropped), and malformed answers, which give nullopt and never throw.
#include "protocol/tokenize_api.h"

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

using nlohmann::json;
namespace api = tokenize_api;

constexpr TokenizeShape kShapes[] = {TokenizeShape::kVllm, TokenizeShape::kLlamaCpp,
                                     TokenizeShape::kTgi};

TEST(TokenizeShapeName, NamesEveryShape) {
  EXPECT_EQ(tokenize_shape_name(TokenizeShape::kVllm), "vLLM/SGLang");
  EXPECT_EQ(tokenize_shape_name(TokenizeShape::kLlamaCpp), "llama.cpp");
  EXPECT_EQ(tokenize_shape_name(TokenizeShape::kTgi), "TGI");
}

TEST(TokenizeBody, VllmCarriesModelPromptAndSpecialTokens) {
  const json body =
      json::parse(api::tokenize_body(TokenizeShape::kVllm, "qwen", "Hello \"世界\"\n", false));
  EXPECT_EQ(
      body,
      (json{{"model", "qwen"}, {"prompt", "Hello \"世界\"\n"}, {"add_special_tokens", false}}));
  EXPECT_EQ(json::parse(api::tokenize_body(TokenizeShape::kVllm, "m", "x", true))
                .at("add_special_tokens"),
            true);
}

TEST(TokenizeBody, LlamaCppCarriesContentAndAddSpecialButNoModel) {
  const json body = json::parse(api::tokenize_body(TokenizeShape::kLlamaCpp, "m", "你好", true));
  EXPECT_EQ(body, (json{{"content", "你好"}, {"add_special", true}}));
}

TEST(TokenizeBody, TgiCarriesInputsOnly) {
  const json body = json::parse(api::tokenize_body(TokenizeShape::kTgi, "m", "abc", false));
  EXPECT_EQ(body, (json{{"inputs", "abc"}}));
}

TEST(TokenizeBody, InvalidUtf8IsReplacedNotThrown) {
  std::string dumped;
  ASSERT_NO_THROW(dumped = api::tokenize_body(TokenizeShape::kVllm, "m", "ab\xE4\xB8", false));
  const json body = json::parse(dumped);
  EXPECT_EQ(body.at("prompt"), "ab\xEF\xBF\xBD");
}

TEST(ChatBody, OneUserMessageWithGenerationPrompt) {
  const json body = json::parse(api::chat_body("llama", "Hi there"));
  ASSERT_TRUE(body.is_object());
  EXPECT_EQ(body.at("model"), "llama");
  EXPECT_EQ(body.at("messages"), json::parse(R"([{"role":"user","content":"Hi there"}])"));
  EXPECT_EQ(body.at("add_generation_prompt"), true);
  EXPECT_EQ(body.size(), 3u);
}

TEST(DetokenizeBody, VllmHasModelLlamaCppDoesNot) {
  const std::vector<int64_t> ids = {1, 15043, 3186};
  EXPECT_EQ(json::parse(api::detokenize_body(TokenizeShape::kVllm, "m", ids)),
            (json{{"model", "m"}, {"tokens", {1, 15043, 3186}}}));
  EXPECT_EQ(json::parse(api::detokenize_body(TokenizeShape::kLlamaCpp, "m", ids)),
            (json{{"tokens", {1, 15043, 3186}}}));
  EXPECT_EQ(json::parse(api::detokenize_body(TokenizeShape::kVllm, "m", {})).at("tokens"),
            json::array());
  // A model name is escaped, and one that is not UTF-8 replaced rather than thrown.
  EXPECT_EQ(json::parse(api::detokenize_body(TokenizeShape::kVllm, "a\"b\\", ids)).at("model"),
            "a\"b\\");
  const std::string replaced = api::detokenize_body(TokenizeShape::kVllm, "bad\xff", ids);
  EXPECT_FALSE(json::parse(replaced, nullptr, false).is_discarded()) << replaced;
}

// vLLM's /tokenize answer (ServingTokenization): count, max_model_len, tokens, token_strs.
constexpr const char* kVllmTokenize =
    R"({"count":5,"max_model_len":32768,"tokens":[9707,11,1879,0,151645],"token_strs":null})";

TEST(ParseTokens, VllmAnswer) {
  const auto tokens = api::parse_tokens(TokenizeShape::kVllm, kVllmTokenize, "Hello, world");
  ASSERT_TRUE(tokens.has_value());
  EXPECT_EQ(tokens->ids, (std::vector<int64_t>{9707, 11, 1879, 0, 151645}));
  EXPECT_TRUE(tokens->ends.empty());
}

TEST(ParseTokens, LlamaCppIdsAndWithPieces) {
  const auto plain =
      api::parse_tokens(TokenizeShape::kLlamaCpp, R"({"tokens":[15043,29892,3186]})", "");
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->ids, (std::vector<int64_t>{15043, 29892, 3186}));
  EXPECT_TRUE(plain->ends.empty());
  // with_pieces: a piece that is not valid UTF-8 comes as a list of bytes.
  const auto pieces =
      api::parse_tokens(TokenizeShape::kLlamaCpp,
                        R"({"tokens":[{"id":15043,"piece":"Hello"},{"id":29871,"piece":[228,189]},)"
                        R"({"id":160,"piece":[160]}]})",
                        "Hello你");
  ASSERT_TRUE(pieces.has_value());
  EXPECT_EQ(pieces->ids, (std::vector<int64_t>{15043, 29871, 160}));
}

TEST(ParseTokens, TgiDropsZeroWidthBosAndTurnsCharOffsetsIntoBytes) {
  // "你好 world": 你 and 好 are 3 bytes each; TGI counts characters.
  const std::string text = "你好 world";
  const std::string answer = R"([{"id":1,"text":"","special":true,"start":0,"stop":0},)"
                             R"({"id":29383,"text":"你","special":false,"start":0,"stop":1},)"
                             R"({"id":31076,"text":"好","special":false,"start":1,"stop":2},)"
                             R"({"id":3186,"text":" world","special":false,"start":2,"stop":8}])";
  const auto tokens = api::parse_tokens(TokenizeShape::kTgi, answer, text);
  ASSERT_TRUE(tokens.has_value());
  EXPECT_EQ(tokens->ids, (std::vector<int64_t>{29383, 31076, 3186}));
  EXPECT_EQ(tokens->ends, (std::vector<size_t>{3, 6, 12}));
}

TEST(ParseTokens, TgiOffsetsPastTheTextStopAtItsEnd) {
  const auto tokens =
      api::parse_tokens(TokenizeShape::kTgi, R"([{"id":5,"text":"ab","start":0,"stop":9}])", "ab");
  ASSERT_TRUE(tokens.has_value());
  EXPECT_EQ(tokens->ends, (std::vector<size_t>{2}));
}

TEST(ParseTokens, EmptyTokenListsAreEmptyNotErrors) {
  for (const char* body : {R"({"count":0,"max_model_len":8192,"tokens":[]})", R"({"tokens":[]})"}) {
    const auto tokens = api::parse_tokens(TokenizeShape::kVllm, body, "");
    ASSERT_TRUE(tokens.has_value()) << body;
    EXPECT_TRUE(tokens->ids.empty());
  }
  const auto tgi = api::parse_tokens(TokenizeShape::kTgi, "[]", "");
  ASSERT_TRUE(tgi.has_value());
  EXPECT_TRUE(tgi->ids.empty());
}

TEST(ParseTokens, MalformedAnswersAreRefused) {
  const char* const bad_for_object_shapes[] = {
      "",
      "not json",
      R"({"tokens":[1,2,)",                    // truncated
      R"([1,2,3])",                            // a list, not an object
      R"({"count":3})",                        // no tokens
      R"({"tokens":"1 2 3"})",                 // wrong type
      R"({"tokens":[1,"2",3]})",               // an id as a string
      R"({"tokens":[1,2.5]})",                 // a fractional id
      R"({"tokens":[1e30]})",                  // a float far out of range
      R"({"tokens":[18446744073709551615]})",  // past int64
      R"({"tokens":[{"piece":"a"}]})",         // an object without id
      R"({"tokens":[null]})",
      R"({"error":{"code":400,"message":"model not found","type":"invalid_request_error"}})",
      R"({"object":"error","message":"The model does not exist.","code":404})",
  };
  for (const TokenizeShape shape : {TokenizeShape::kVllm, TokenizeShape::kLlamaCpp}) {
    for (const char* body : bad_for_object_shapes) {
      EXPECT_FALSE(api::parse_tokens(shape, body, "text").has_value())
          << tokenize_shape_name(shape) << ": " << body;
    }
  }
  const char* const bad_tgi[] = {
      "not json",
      R"({"error":"Input validation error","error_type":"validation"})",
      R"([1,2,3])",                                      // ids, not token objects
      R"([{"id":1,"text":"a","start":0}])",              // no stop
      R"([{"id":1,"text":"a","start":2,"stop":1}])",     // stop before start
      R"([{"id":1,"text":"a","start":-1,"stop":1}])",    // negative offset
      R"([{"id":1e30,"text":"a","start":0,"stop":1}])",  // id out of range
      R"([{"id":1,"text":"a","start":0,"stop":"1"}])",   // offset as a string
  };
  for (const char* body : bad_tgi) {
    EXPECT_FALSE(api::parse_tokens(TokenizeShape::kTgi, body, "abc").has_value()) << body;
  }
}

// The token lists are read as they stream by (a SAX handler), not through a document; they must
// read as the document would: the last of a repeated key counts, a piece's other fields may hold
// anything, escapes (which the fast scanner leaves to nlohmann) change nothing.
TEST(ParseTokens, ReadsAnswersAsTheirDocumentWould) {
  const auto ids = [](const char* body) {
    return api::parse_tokens(TokenizeShape::kLlamaCpp, body, "");
  };
  ASSERT_TRUE(ids(R"({"tokens":[1,2],"tokens":[3]})").has_value());
  EXPECT_EQ(ids(R"({"tokens":[1,2],"tokens":[3]})")->ids, (std::vector<int64_t>{3}));
  EXPECT_FALSE(ids(R"({"tokens":[1,2],"tokens":"3"})").has_value());
  EXPECT_EQ(ids(R"({"note":"caf\u00e9","tokens":[7,-1]})")->ids, (std::vector<int64_t>{7, -1}));
  EXPECT_EQ(ids(R"({"tokens":[{"piece":{"bytes":[1,[2]]},"id":4,"x":null}]})")->ids,
            (std::vector<int64_t>{4}));
  EXPECT_EQ(ids(R"({"tokens":[{"id":"4","id":5}]})")->ids, (std::vector<int64_t>{5}));
  EXPECT_FALSE(ids(R"({"tokens":[{"id":5,"id":"4"}]})").has_value());
  EXPECT_FALSE(ids(R"({"tokens":[{"id":[5]}]})").has_value());
  EXPECT_FALSE(ids(R"({"tokens":[[5]]})").has_value());
  EXPECT_FALSE(ids(R"({"tokens":[9223372036854775808]})").has_value());  // 2^63
  EXPECT_EQ(ids(R"({"tokens":[9223372036854775807]})")->ids, (std::vector<int64_t>{INT64_MAX}));
  EXPECT_FALSE(ids(R"({"tokens":[1]} trailing)").has_value());
  EXPECT_FALSE(ids(R"({"tokens":{"id":1}})").has_value());

  // A thousand ids out through detokenize_body and back.
  std::vector<int64_t> many(1000);
  for (size_t i = 0; i < many.size(); ++i) many[i] = static_cast<int64_t>(i * 7919 % 151936);
  const std::string body = api::detokenize_body(TokenizeShape::kVllm, "m", many);
  EXPECT_EQ(api::parse_tokens(TokenizeShape::kVllm, body, "")->ids, many);
  EXPECT_EQ(api::parse_count(TokenizeShape::kLlamaCpp, body), 1000);
}

TEST(ParseCount, VllmPrefersCountOverTheList) {
  EXPECT_EQ(api::parse_count(TokenizeShape::kVllm, kVllmTokenize), 5);
  // The chat form counts the template: count and tokens agree, but count is what is read.
  EXPECT_EQ(api::parse_count(TokenizeShape::kVllm, R"({"count":7,"tokens":[1,2]})"), 7);
  EXPECT_EQ(api::parse_count(TokenizeShape::kVllm, R"({"tokens":[1,2,3]})"), 3);
}

TEST(ParseCount, LlamaCppCountsTheTokens) {
  EXPECT_EQ(api::parse_count(TokenizeShape::kLlamaCpp, R"({"tokens":[1,15043,3186]})"), 3);
  EXPECT_EQ(api::parse_count(TokenizeShape::kLlamaCpp,
                             R"({"tokens":[{"id":1,"piece":"<s>"},{"id":15043,"piece":"Hi"}]})"),
            2);
  // A "count" field is vLLM's; llama.cpp's answer is counted by its tokens.
  EXPECT_EQ(api::parse_count(TokenizeShape::kLlamaCpp, R"({"count":99,"tokens":[1]})"), 1);
}

TEST(ParseCount, TgiCountsEveryTokenSpecialOnesIncluded) {
  const std::string tokenize = R"([{"id":1,"text":"","start":0,"stop":0},)"
                               R"({"id":15043,"text":"Hi","start":0,"stop":2}])";
  EXPECT_EQ(api::parse_count(TokenizeShape::kTgi, tokenize), 2);
  // /chat_tokenize: the templated text and its tokens.
  const std::string chat =
      R"({"tokenize_response":[{"id":1,"text":"","start":0,"stop":0},)"
      R"({"id":518,"text":"[INST]","start":0,"stop":6},)"
      R"({"id":6324,"text":" Hi","start":6,"stop":9},)"
      R"({"id":518,"text":" [/INST]","start":9,"stop":17}],"templated_text":"[INST] Hi [/INST]"})";
  EXPECT_EQ(api::parse_count(TokenizeShape::kTgi, chat), 4);
}

TEST(ParseCount, MalformedAnswersAreRefused) {
  EXPECT_FALSE(api::parse_count(TokenizeShape::kVllm, "not json").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kVllm, R"({"count":-1,"tokens":[]})").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kVllm, R"({"count":1e30})").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kVllm, R"({"count":2.5})").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kVllm, R"({"count":"5"})").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kVllm, R"({"count":18446744073709551615})"));
  EXPECT_FALSE(api::parse_count(TokenizeShape::kVllm, R"({"count":[3],"tokens":[1,2,3]})"));
  EXPECT_EQ(api::parse_count(TokenizeShape::kVllm, R"({"count":"x","count":2})"), 2);
  EXPECT_FALSE(api::parse_count(TokenizeShape::kVllm, R"({"max_model_len":4096})").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kVllm, R"([1,2])").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kVllm,
                                R"({"object":"error","message":"bad","type":"BadRequestError"})")
                   .has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kLlamaCpp, R"({"tokens":[1,1e30]})").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kLlamaCpp, R"({"error":{"code":500}})").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kTgi, R"({"templated_text":"x"})").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kTgi, R"({"tokenize_response":{}})").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kTgi, R"([{"text":"a"}])").has_value());
  EXPECT_FALSE(api::parse_count(TokenizeShape::kTgi, R"("12")").has_value());
}

TEST(ParseCount, LlamaCppShapedAnswerToAVllmRequestIsAnEmptyCount) {
  // llama.cpp answers a vLLM-shaped body ({"prompt":...}, no "content") with {"tokens":[]}: the
  // parse succeeds with no ids, so a caller must treat 0 tokens for a non-empty text as a wrong
  // shape rather than trust it.
  const auto tokens = api::parse_tokens(TokenizeShape::kVllm, R"({"tokens":[]})", "Hello world");
  ASSERT_TRUE(tokens.has_value());
  EXPECT_TRUE(tokens->ids.empty());
  EXPECT_EQ(api::parse_count(TokenizeShape::kVllm, R"({"tokens":[]})"), 0);
}

TEST(ParseDetokenized, EachServersField) {
  EXPECT_EQ(api::parse_detokenized(TokenizeShape::kVllm, R"({"prompt":"Hello, world"})"),
            "Hello, world");
  EXPECT_EQ(api::parse_detokenized(TokenizeShape::kVllm, R"({"text":"你好"})"), "你好");  // SGLang
  EXPECT_EQ(api::parse_detokenized(TokenizeShape::kVllm, R"({"prompt":"a","text":"b"})"), "a");
  EXPECT_EQ(api::parse_detokenized(TokenizeShape::kLlamaCpp, R"({"content":" world"})"), " world");
  EXPECT_EQ(api::parse_detokenized(TokenizeShape::kVllm, R"({"prompt":""})"), "");
  // A detokenizer that met a cut character answers U+FFFD, escaped or not; it is kept as is.
  EXPECT_EQ(api::parse_detokenized(TokenizeShape::kVllm, R"({"prompt":"ab\ufffd"})"),
            "ab\xEF\xBF\xBD");
}

TEST(ParseDetokenized, MalformedAnswersAreRefused) {
  EXPECT_FALSE(api::parse_detokenized(TokenizeShape::kVllm, "oops").has_value());
  EXPECT_FALSE(api::parse_detokenized(TokenizeShape::kVllm, R"({"prompt":5})").has_value());
  EXPECT_FALSE(api::parse_detokenized(TokenizeShape::kVllm, R"(["Hello"])").has_value());
  EXPECT_FALSE(api::parse_detokenized(TokenizeShape::kVllm, R"({"content":"x"})").has_value());
  EXPECT_FALSE(api::parse_detokenized(TokenizeShape::kLlamaCpp, R"({"prompt":"x"})").has_value());
  EXPECT_FALSE(api::parse_detokenized(TokenizeShape::kLlamaCpp, R"({"content":null})").has_value());
  EXPECT_FALSE(api::parse_detokenized(TokenizeShape::kVllm,
                                      R"({"object":"error","message":"Not Found","code":404})")
                   .has_value());
}

TEST(ParseAppliedTemplate, LlamaCppPrompt) {
  EXPECT_EQ(api::parse_applied_template(
                R"({"prompt":"<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"})"),
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  EXPECT_FALSE(api::parse_applied_template("").has_value());
  EXPECT_FALSE(api::parse_applied_template(R"({"content":"x"})").has_value());
  EXPECT_FALSE(api::parse_applied_template(R"({"prompt":["x"]})").has_value());
  EXPECT_FALSE(api::parse_applied_template(
                   R"({"error":{"code":500,"message":"template failed","type":"server_error"}})")
                   .has_value());
}

TEST(ParseMaxModelLen, VllmTokenizeAnswer) {
  EXPECT_EQ(api::parse_max_model_len(R"({"count":2,"max_model_len":4096,"tokens":[1,2]})"), 4096);
  EXPECT_FALSE(api::parse_max_model_len(R"({"tokens":[1,2]})").has_value());  // llama.cpp's
  EXPECT_FALSE(api::parse_max_model_len(R"({"max_model_len":0})").has_value());
  EXPECT_FALSE(api::parse_max_model_len(R"({"max_model_len":-5})").has_value());
  EXPECT_FALSE(api::parse_max_model_len(R"({"max_model_len":"4096"})").has_value());
  EXPECT_FALSE(api::parse_max_model_len(R"({"max_model_len":1e30})").has_value());
  EXPECT_FALSE(api::parse_max_model_len("[1]").has_value());
}

TEST(Parsers, NeverThrowOnAnyShape) {
  const char* const bodies[] = {"",
                                "{",
                                "null",
                                "[]",
                                "{}",
                                "[null]",
                                "[{}]",
                                "\"s\"",
                                "1e999",
                                R"({"tokens":[-9223372036854775808]})",
                                R"({"tokens":[{"id":{"id":1}}]})",
                                "\xFF\xFE"};
  for (const TokenizeShape shape : kShapes) {
    for (const char* body : bodies) {
      EXPECT_NO_THROW({
        (void)api::parse_tokens(shape, body, "\xE4\xB8");
        (void)api::parse_count(shape, body);
        (void)api::parse_detokenized(shape, body);
        (void)api::parse_applied_template(body);
        (void)api::parse_max_model_len(body);
      }) << tokenize_shape_name(shape)
         << ": " << body;
    }
  }
  // The smallest int64 is an id like any other.
  const auto min =
      api::parse_tokens(TokenizeShape::kVllm, R"({"tokens":[-9223372036854775808]})", "");
  ASSERT_TRUE(min.has_value());
  EXPECT_EQ(min->ids, std::vector<int64_t>{INT64_MIN});
}

}  // namespace
}  // namespace llmperf
