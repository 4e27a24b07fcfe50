// Tests for the request builder: chat and completions bodies, streaming options, optional
// parameters, body_json fill-missing semantics, --extra-args, header lines and secret masking.
#include "workload/request_builder.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/config.h"

namespace llmperf {
namespace {

RequestSections sections_of(const Config& config) {
  return request_sections(config.target, config.body, config.workload, config.load);
}

using Json = nlohmann::json;

Config chat_config() {
  Config config;
  config.target.model = "qwen";
  config.target.api_kind = ApiKind::kChat;
  return config;
}

Prompt text_prompt(const std::string& text) {
  Prompt prompt;
  prompt.text = text;
  return prompt;
}

Json build(const Config& config, const Prompt& prompt) {
  return Json::parse(RequestBuilder(sections_of(config), config.target.model).build_body(prompt));
}

size_t count_with_prefix(const std::vector<std::string>& lines, const std::string& prefix) {
  return static_cast<size_t>(std::count_if(
      lines.begin(), lines.end(), [&](const auto& line) { return line.rfind(prefix, 0) == 0; }));
}

TEST(RequestBuilderTest, ChatStreamingBody) {
  const Json body = build(chat_config(), text_prompt("你好"));
  EXPECT_EQ(body["model"], "qwen");
  ASSERT_EQ(body["messages"].size(), 1U);
  EXPECT_EQ(body["messages"][0]["role"], "user");
  EXPECT_EQ(body["messages"][0]["content"], "你好");
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"], Json({{"include_usage", true}}));
  EXPECT_EQ(body["max_tokens"], 2048);
  EXPECT_EQ(body["temperature"], 0.0);
  EXPECT_FALSE(body.contains("prompt"));
}

TEST(RequestBuilderTest, NonStreamingBodyHasNoStreamOptions) {
  Config config = chat_config();
  config.body.stream = false;
  const Json body = build(config, text_prompt("hi"));
  EXPECT_EQ(body["stream"], false);
  EXPECT_FALSE(body.contains("stream_options"));
}

TEST(RequestBuilderTest, UnsetOptionalFieldsAreOmitted) {
  Config config = chat_config();
  config.body.max_tokens.reset();
  config.body.temperature.reset();
  const Json body = build(config, text_prompt("hi"));
  for (const char* key :
       {"max_tokens", "min_tokens", "temperature", "top_p", "stop", "stop_token_ids"}) {
    EXPECT_FALSE(body.contains(key)) << key;
  }
}

TEST(RequestBuilderTest, SetOptionalFieldsAreSent) {
  Config config = chat_config();
  config.body.max_tokens = 100;
  config.body.min_tokens = 10;
  config.body.temperature = 0.5;
  config.body.top_p = 0.9;
  config.body.stop = {"<|im_end|>", "###"};
  config.body.stop_token_ids = {151645, 2};
  const Json body = build(config, text_prompt("hi"));
  EXPECT_EQ(body["max_tokens"], 100);
  EXPECT_EQ(body["min_tokens"], 10);
  EXPECT_EQ(body["temperature"], 0.5);
  EXPECT_EQ(body["top_p"], 0.9);
  EXPECT_EQ(body["stop"], Json({"<|im_end|>", "###"}));
  EXPECT_EQ(body["stop_token_ids"], Json({151645, 2}));
}

TEST(RequestBuilderTest, CompletionsBodyUsesPrompt) {
  Config config = chat_config();
  config.target.api_kind = ApiKind::kCompletions;
  const Json body = build(config, text_prompt("Once upon a time"));
  EXPECT_EQ(body["prompt"], "Once upon a time");
  EXPECT_FALSE(body.contains("messages"));
  EXPECT_EQ(body["model"], "qwen");
}

TEST(RequestBuilderTest, MessagesPromptOnChatIsSentAsIs) {
  Prompt prompt;
  prompt.messages_json =
      R"([{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}])";
  const Json body = build(chat_config(), prompt);
  EXPECT_EQ(body["messages"], Json::parse(prompt.messages_json));
}

TEST(RequestBuilderTest, MessagesPromptOnCompletionsJoinsContents) {
  Config config = chat_config();
  config.target.api_kind = ApiKind::kCompletions;
  Prompt prompt;
  prompt.messages_json =
      R"([{"role":"system","content":"Be brief."},)"
      R"({"role":"user","content":[{"type":"text","text":"Hi"},{"type":"text","text":"there"}]}])";
  const Json body = build(config, prompt);
  EXPECT_EQ(body["prompt"], "Be brief.\nHi\nthere");
  EXPECT_FALSE(body.contains("messages"));
}

TEST(RequestBuilderTest, BodyJsonKeepsItsKeysAndFillsMissingOnes) {
  Prompt prompt;
  prompt.body_json =
      R"({"messages":[{"role":"user","content":"x"}],"max_tokens":64,"temperature":0.7})";
  const Json body = build(chat_config(), prompt);
  EXPECT_EQ(body["max_tokens"], 64);
  EXPECT_EQ(body["temperature"], 0.7);
  EXPECT_EQ(body["model"], "qwen");
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"]["include_usage"], true);
  EXPECT_EQ(body["messages"].size(), 1U);
}

TEST(RequestBuilderTest, BodyJsonThatTurnsStreamingOffGetsNoStreamOptions) {
  Prompt prompt;
  prompt.body_json = R"({"model":"other","prompt":"x","stream":false})";
  const Json body = build(chat_config(), prompt);
  EXPECT_EQ(body["model"], "other");
  EXPECT_EQ(body["stream"], false);
  EXPECT_FALSE(body.contains("stream_options"));
  EXPECT_FALSE(body.contains("messages"));
}

TEST(RequestBuilderTest, ExtraArgsOverrideAndNullRemoves) {
  Config config = chat_config();
  config.body.extra_args = R"({"temperature":1.5,"top_k":20,"max_tokens":null})";
  const Json body = build(config, text_prompt("hi"));
  EXPECT_EQ(body["temperature"], 1.5);
  EXPECT_EQ(body["top_k"], 20);
  EXPECT_FALSE(body.contains("max_tokens"));
  EXPECT_EQ(body["messages"][0]["content"], "hi");
}

TEST(RequestBuilderTest, ExtraArgsWinOverBodyJson) {
  Config config = chat_config();
  config.body.extra_args = R"({"max_tokens":7,"ignore_eos":true})";
  Prompt prompt;
  prompt.body_json = R"({"prompt":"x","max_tokens":64})";
  const Json body = build(config, prompt);
  EXPECT_EQ(body["max_tokens"], 7);
  EXPECT_EQ(body["ignore_eos"], true);
}

TEST(RequestBuilderTest, InvalidExtraArgsThrow) {
  for (const char* text : {"[1, 2]", "{bad", "42"}) {
    Config config = chat_config();
    config.body.extra_args = text;
    try {
      RequestBuilder builder(sections_of(config), config.target.model);
      FAIL() << "expected std::invalid_argument for " << text;
    } catch (const std::invalid_argument& error) {
      EXPECT_EQ(std::string(error.what()).rfind("--extra-args must be a JSON object: ", 0), 0U)
          << error.what();
    }
  }
}

TEST(RequestBuilderTest, InvalidUtf8IsReplacedNotThrown) {
  const std::string body =
      RequestBuilder(sections_of(chat_config()), "qwen").build_body(text_prompt("bad \xFF byte"));
  const Json parsed = Json::parse(body);
  EXPECT_EQ(parsed["messages"][0]["content"], "bad \xEF\xBF\xBD byte");
}

// Without --model the benchmark asks for the model the server lists (plan_benchmark): the body
// names the model given to the builder, not the empty flag.
TEST(RequestBuilderTest, TheBodyNamesTheModelTheBuilderIsGiven) {
  Config config = chat_config();
  config.target.model.clear();
  const Json body = Json::parse(
      RequestBuilder(sections_of(config), "served-model").build_body(text_prompt("hi")));
  EXPECT_EQ(body["model"], "served-model");
}

TEST(RequestBuilderTest, BuilderIsReusableAndMovable) {
  RequestBuilder first(sections_of(chat_config()), "qwen");
  RequestBuilder builder(std::move(first));
  const Json a = Json::parse(builder.build_body(text_prompt("a")));
  const Json b = Json::parse(builder.build_body(text_prompt("b")));
  EXPECT_EQ(a["messages"][0]["content"], "a");
  EXPECT_EQ(b["messages"][0]["content"], "b");
  EXPECT_EQ(b["messages"].size(), 1U);
}

TEST(RequestBuilderTest, HeadersWithoutKey) {
  const RequestBuilder builder(sections_of(chat_config()), "qwen");
  const auto& lines = builder.header_lines();
  EXPECT_EQ(lines, (std::vector<std::string>{"Content-Type: application/json",
                                             "Accept: text/event-stream", "Expect:"}));
}

TEST(RequestBuilderTest, NonStreamingAcceptsJson) {
  Config config = chat_config();
  config.body.stream = false;
  const RequestBuilder builder(sections_of(config), config.target.model);
  EXPECT_EQ(count_with_prefix(builder.header_lines(), "Accept: application/json"), 1U);
  EXPECT_EQ(count_with_prefix(builder.header_lines(), "Accept: text/event-stream"), 0U);
}

TEST(RequestBuilderTest, HeadersWithKeyAndUserHeaders) {
  Config config = chat_config();
  config.target.api_key = "sk-secret";
  config.target.headers = {{"X-Trace", "abc"}};
  const RequestBuilder builder(sections_of(config), config.target.model);
  const auto& lines = builder.header_lines();
  EXPECT_EQ(count_with_prefix(lines, "Authorization: Bearer sk-secret"), 1U);
  EXPECT_EQ(count_with_prefix(lines, "X-Trace: abc"), 1U);
  EXPECT_EQ(lines.back(), "Expect:");
}

TEST(RequestBuilderTest, UserAuthorizationReplacesGenerated) {
  Config config = chat_config();
  config.target.api_key = "sk-secret";
  config.target.headers = {{"authorization", "Basic dXNlcg=="}};
  const RequestBuilder builder(sections_of(config), config.target.model);
  const auto& lines = builder.header_lines();
  EXPECT_EQ(count_with_prefix(lines, "Authorization"), 0U);
  EXPECT_EQ(count_with_prefix(lines, "authorization: Basic dXNlcg=="), 1U);
  for (const auto& line : lines) EXPECT_EQ(line.find("sk-secret"), std::string::npos) << line;
}

TEST(MaskSecretTest, ShowsAtMostThreeLeadingChars) {
  EXPECT_EQ(mask_secret("sk-abcdefghijklmnop-xyz"), "sk-***");
  EXPECT_EQ(mask_secret(""), "");
  EXPECT_EQ(mask_secret("abc"), "***");
  EXPECT_EQ(mask_secret("short12"), "***");
  EXPECT_EQ(mask_secret("abcdefgh").find("defgh"), std::string::npos);
}

TEST(RequestBuilderTest, SamplingFlagsReachTheBodyUnderTheirApiNames) {
  Config config = chat_config();
  config.body.top_k = 20;
  config.body.frequency_penalty = 0.5;
  config.body.repetition_penalty = 1.1;
  config.body.logprobs = true;
  config.body.n_choices = 3;
  config.load.seed = 42;
  config.body.seed_in_body = true;
  for (const ApiKind kind : {ApiKind::kChat, ApiKind::kCompletions}) {
    config.target.api_kind = kind;
    const Json body = build(config, text_prompt("hi"));
    EXPECT_EQ(body["top_k"], 20);
    EXPECT_EQ(body["frequency_penalty"], 0.5);
    EXPECT_EQ(body["repetition_penalty"], 1.1);
    EXPECT_EQ(body["logprobs"], true);
    EXPECT_EQ(body["n"], 3);
    EXPECT_EQ(body["seed"], 42);
    EXPECT_FALSE(body.contains("n_choices"));
  }
}

TEST(RequestBuilderTest, SamplingFlagsAbsentByDefaultAndSeedOnlyWhenGiven) {
  Config config = chat_config();
  config.load.seed = 7;  // a seed for the schedule and sampling, not given as --seed: not sent
  const Json body = build(config, text_prompt("hi"));
  for (const char* key :
       {"top_k", "frequency_penalty", "repetition_penalty", "logprobs", "n", "seed"}) {
    EXPECT_FALSE(body.contains(key)) << key;
  }
  // --seed 0 is a seed like any other.
  config.load.seed = 0;
  config.body.seed_in_body = true;
  EXPECT_EQ(build(config, text_prompt("hi"))["seed"], 0);
}

TEST(RequestBuilderTest, BodyJsonKeepsItsOwnSamplingKeys) {
  Config config = chat_config();
  config.body.top_k = 20;
  config.body.n_choices = 2;
  Prompt prompt;
  prompt.body_json = R"({"prompt":"x","top_k":5})";
  const Json body = build(config, prompt);
  EXPECT_EQ(body["top_k"], 5);
  EXPECT_EQ(body["n"], 2);
}

}  // namespace
}  // namespace llmperf
