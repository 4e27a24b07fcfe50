// Tests of the API adapters (workload/api/), one suite per adapter: the body it builds for given
// settings and prompts (exact text, keys sorted as nlohmann dumps them), and the facts it decodes
// from a recorded stream (tests/fixtures/) or a whole body, with its verdict.
#include "workload/api/api_adapter.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "protocol/sse_parser.h"

namespace llmperf {
namespace {

using Json = nlohmann::json;

// The settings every body test uses: some of each kind of parameter.
BodySettings some_settings() {
  BodySettings settings;
  settings.model = "m";
  settings.max_tokens = 32;
  settings.temperature = 0.5;
  settings.top_k = 40;
  settings.seed = 7;
  settings.stop = {"END"};
  settings.image_width = 2;
  settings.image_height = 1;
  return settings;
}

// The body `kind`'s adapter builds for `prompt` (request 3), as the request builder would without
// body_json or --extra-args.
std::string adapter_body(ApiKind kind, const Prompt& prompt,
                         const BodySettings& settings = some_settings()) {
  const ApiAdapter& api = api_adapter(kind);
  Json body = {{"model", settings.model}};
  api.add_settings(settings, body);
  api.add_prompt(prompt, 3, settings, body);
  return body.dump();
}

Prompt text(const std::string& words, int64_t output_tokens = -1) {
  Prompt prompt;
  prompt.text = words;
  prompt.target_output_tokens = output_tokens;
  return prompt;
}

Prompt messages(const std::string& json) {
  Prompt prompt;
  prompt.messages_json = json;
  return prompt;
}

std::string read_fixture(const std::string& name) {
  std::ifstream in(std::string(LLMPERF_FIXTURES_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// What a stream's events decode to through `kind`'s adapter, summed.
struct Decoded {
  int events = 0;
  int output_events = 0;
  int reasoning_events = 0;
  std::string content;
  std::string finish_reason;
  int64_t prompt_tokens = -1;
  int64_t completion_tokens = -1;
  bool completed = false;
  bool error = false;
};

Decoded decode_stream(ApiKind kind, const std::string& bytes) {
  const ApiAdapter& api = api_adapter(kind);
  Decoded totals;
  DecodedChunk chunk;
  chunk.want_content = true;
  SseParser sse;
  const auto on_event = [&](const SseEvent& event) {
    if (!event.has_data || event.data == "[DONE]") return;
    ++totals.events;
    api.decode_event(event.event, event.data, chunk);
    EXPECT_TRUE(chunk.valid_json) << event.data;
    if (chunk.has_output) ++totals.output_events;
    if (chunk.has_reasoning && !chunk.has_answer) ++totals.reasoning_events;
    totals.content += chunk.content;
    if (!chunk.finish_reason.empty()) totals.finish_reason = chunk.finish_reason;
    if (chunk.has_usage) {
      totals.prompt_tokens = chunk.prompt_tokens;
      totals.completion_tokens = chunk.completion_tokens;
    }
    totals.completed = totals.completed || chunk.completed;
    totals.error = totals.error || chunk.has_error;
  };
  sse.feed(bytes.data(), bytes.size(), on_event);
  sse.flush(on_event);
  return totals;
}

TEST(ChatApi, BodyCarriesMessagesAndTheSamplingParameters) {
  EXPECT_EQ(adapter_body(ApiKind::kChat, text("hi", 5)),
            R"({"max_tokens":5,"messages":[{"content":"hi","role":"user"}],"model":"m",)"
            R"("seed":7,"stop":["END"],"stream":true,"stream_options":{"include_usage":true},)"
            R"("temperature":0.5,"top_k":40})");
  EXPECT_EQ(adapter_body(ApiKind::kChat, messages(R"([{"role":"user","content":"x"}])")),
            R"({"max_tokens":32,"messages":[{"content":"x","role":"user"}],"model":"m",)"
            R"("seed":7,"stop":["END"],"stream":true,"stream_options":{"include_usage":true},)"
            R"("temperature":0.5,"top_k":40})");
}

TEST(ChatApi, SyntheticImagesAreImageUrlPartsAfterTheText) {
  Prompt prompt = text("look");
  prompt.synthetic_images = 2;
  const Json body = Json::parse(adapter_body(ApiKind::kChat, prompt));
  const Json& content = body["messages"][0]["content"];
  ASSERT_EQ(content.size(), 3u);
  EXPECT_EQ(content[0], Json({{"type", "text"}, {"text", "look"}}));
  for (int i = 1; i <= 2; ++i) {
    EXPECT_EQ(content[i]["type"], "image_url");
    EXPECT_EQ(content[i]["image_url"]["url"].get<std::string>().rfind("data:image/png;base64,", 0),
              0u);
  }
  EXPECT_NE(content[1], content[2]);  // pixels of their own
}

TEST(ChatApi, DecodesARecordedVllmStream) {
  const Decoded decoded = decode_stream(ApiKind::kChat, read_fixture("sse/vllm_chat.sse"));
  EXPECT_EQ(decoded.content, "Hello! How can I help you today?");
  EXPECT_EQ(decoded.finish_reason, "stop");
  EXPECT_FALSE(decoded.completed);
  EXPECT_FALSE(decoded.error);
  EXPECT_EQ(api_adapter(ApiKind::kChat).stream_end(), "[DONE]");
}

TEST(ChatApi, ABodyWithoutOutputIsNoOutput) {
  DecodedChunk out;
  const BodyVerdict verdict =
      api_adapter(ApiKind::kChat)
          .decode_body(R"({"choices":[{"message":{"content":""},"finish_reason":"stop"}]})", 0,
                       out);
  EXPECT_TRUE(out.valid_json);
  EXPECT_EQ(verdict.error, ErrorKind::kNoOutput);
  EXPECT_EQ(api_adapter(ApiKind::kChat)
                .decode_body(R"({"choices":[{"message":{"content":"hi"}}]})", 0, out)
                .error,
            ErrorKind::kNone);
}

TEST(CompletionsApi, BodyCarriesThePromptTextJoinedMessagesOrTokenIds) {
  EXPECT_EQ(adapter_body(ApiKind::kCompletions, text("hi")),
            R"({"max_tokens":32,"model":"m","prompt":"hi","seed":7,"stop":["END"],)"
            R"("stream":true,"stream_options":{"include_usage":true},"temperature":0.5,)"
            R"("top_k":40})");
  const Json joined = Json::parse(adapter_body(
      ApiKind::kCompletions,
      messages(
          R"([{"role":"system","content":"a"},{"role":"user","content":[{"type":"text","text":"b"}]}])")));
  EXPECT_EQ(joined["prompt"], "a\nb");
  Prompt ids;
  ids.token_ids = {1, 2, 3};
  ids.target_output_tokens = 4;
  const Json with_ids = Json::parse(adapter_body(ApiKind::kCompletions, ids));
  EXPECT_EQ(with_ids["prompt"], Json({1, 2, 3}));
  EXPECT_EQ(with_ids["max_tokens"], 4);
}

TEST(CompletionsApi, DecodesAStreamOfTextChoices) {
  const std::string stream =
      "data: {\"id\":\"cmpl-1\",\"choices\":[{\"index\":0,\"text\":\"Hel\"}]}\n\n"
      "data: {\"id\":\"cmpl-1\",\"choices\":[{\"index\":0,\"text\":\"lo\","
      "\"finish_reason\":\"length\"}]}\n\n"
      "data: {\"id\":\"cmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,"
      "\"completion_tokens\":2}}\n\n"
      "data: [DONE]\n\n";
  const Decoded decoded = decode_stream(ApiKind::kCompletions, stream);
  EXPECT_EQ(decoded.events, 3);
  EXPECT_EQ(decoded.output_events, 2);
  EXPECT_EQ(decoded.content, "Hello");
  EXPECT_EQ(decoded.finish_reason, "length");
  EXPECT_EQ(decoded.prompt_tokens, 3);
  EXPECT_EQ(decoded.completion_tokens, 2);
}

TEST(ResponsesApi, BodyNamesItsOwnParametersAndTakesInput) {
  EXPECT_EQ(adapter_body(ApiKind::kResponses, text("hi", 5)),
            R"({"input":"hi","max_output_tokens":5,"model":"m","stream":true,)"
            R"("temperature":0.5})");
  BodySettings quiet = some_settings();
  quiet.stream = false;
  quiet.max_tokens.reset();
  EXPECT_EQ(
      adapter_body(ApiKind::kResponses, messages(R"([{"role":"user","content":"x"}])"), quiet),
      R"({"input":[{"content":"x","role":"user"}],"model":"m","stream":false,)"
      R"("temperature":0.5})");
}

TEST(ResponsesApi, SyntheticImagesAreInputImagePartsOfOneUserMessage) {
  Prompt prompt = text("look");
  prompt.synthetic_images = 1;
  const Json body = Json::parse(adapter_body(ApiKind::kResponses, prompt));
  ASSERT_EQ(body["input"].size(), 1u);
  EXPECT_EQ(body["input"][0]["role"], "user");
  const Json& content = body["input"][0]["content"];
  ASSERT_EQ(content.size(), 2u);
  EXPECT_EQ(content[0], Json({{"type", "input_text"}, {"text", "look"}}));
  EXPECT_EQ(content[1]["type"], "input_image");
  // The same pixels as chat's image_url part of the same request.
  const Json chat = Json::parse(adapter_body(ApiKind::kChat, prompt));
  EXPECT_EQ(content[1]["image_url"], chat["messages"][0]["content"][1]["image_url"]["url"]);
}

TEST(ResponsesApi, DecodesARecordedReasoningStreamToItsEnd) {
  const Decoded decoded =
      decode_stream(ApiKind::kResponses, read_fixture("responses/openai_reasoning.sse"));
  EXPECT_GT(decoded.reasoning_events, 0);
  EXPECT_GT(decoded.output_events, decoded.reasoning_events);
  EXPECT_FALSE(decoded.content.empty());
  EXPECT_TRUE(decoded.completed);
  EXPECT_EQ(decoded.finish_reason, "stop");
  EXPECT_GT(decoded.completion_tokens, 0);
  EXPECT_EQ(api_adapter(ApiKind::kResponses).stream_end(), "response.completed");
}

TEST(ResponsesApi, DecodesARecordedNonStreamBody) {
  DecodedChunk out;
  const BodyVerdict verdict =
      api_adapter(ApiKind::kResponses)
          .decode_body(read_fixture("responses/nonstream_reasoning.json"), 0, out);
  EXPECT_TRUE(out.valid_json);
  EXPECT_TRUE(out.has_output);
  EXPECT_EQ(verdict.error, ErrorKind::kNone);
  EXPECT_EQ(out.response_id, "resp_68a1f3c2b7e08190a5d4c3b2a1f0e9d80c7b6a5f4e3d2c1b");
}

TEST(EmbeddingsApi, BodyIsTheInputsOnly) {
  Prompt batch;
  batch.texts = {"a", "b"};
  EXPECT_EQ(adapter_body(ApiKind::kEmbeddings, batch), R"({"input":["a","b"],"model":"m"})");
  EXPECT_EQ(adapter_body(ApiKind::kEmbeddings, messages(R"([{"role":"user","content":"x"}])")),
            R"({"input":["x"],"model":"m"})");
}

TEST(EmbeddingsApi, OneWellFormedVectorPerInput) {
  const ApiAdapter& api = api_adapter(ApiKind::kEmbeddings);
  const std::string two = R"({"id":"e1","data":[{"embedding":[0.1,0.2]},{"embedding":[0.3,0.4]}],)"
                          R"("usage":{"prompt_tokens":9,"total_tokens":9}})";
  DecodedChunk out;
  EXPECT_EQ(api.decode_body(two, 2, out).error, ErrorKind::kNone);
  EXPECT_TRUE(out.valid_json);
  EXPECT_FALSE(out.has_output);
  EXPECT_EQ(out.response_id, "e1");
  EXPECT_EQ(out.prompt_tokens, 9);
  const BodyVerdict short_of_one = api.decode_body(two, 3, out);
  EXPECT_EQ(short_of_one.error, ErrorKind::kItemCount);
  EXPECT_EQ(short_of_one.message, "response holds 2 vectors for 3 inputs");
  const BodyVerdict ragged =
      api.decode_body(R"({"data":[{"embedding":[0.1,0.2]},{"embedding":[0.3]}]})", 2, out);
  EXPECT_EQ(ragged.message,
            "response holds 1 malformed vectors of 2 (empty, not numbers, or of another "
            "dimension)");
}

TEST(RerankApi, BodyIsTheQueryAndItsDocuments) {
  Prompt query = text("q");
  query.texts = {"d1", "d2"};
  EXPECT_EQ(adapter_body(ApiKind::kRerank, query),
            R"({"documents":["d1","d2"],"model":"m","query":"q"})");
  EXPECT_EQ(adapter_body(ApiKind::kRerank, text("q")),
            R"({"documents":["q"],"model":"m","query":"q"})");
}

TEST(RerankApi, AtLeastOneAndAtMostOneScorePerDocument) {
  const ApiAdapter& api = api_adapter(ApiKind::kRerank);
  const std::string one = R"({"results":[{"index":0,"relevance_score":0.9}],)"
                          R"("usage":{"total_tokens":12}})";
  DecodedChunk out;
  EXPECT_EQ(api.decode_body(one, 2, out).error, ErrorKind::kNone);  // top_n
  EXPECT_EQ(out.prompt_tokens, 12);
  EXPECT_EQ(api.decode_body(R"({"results":[]})", 2, out).message,
            "response holds 0 scores for 2 documents");
  EXPECT_EQ(api.decode_body(R"({"results":[{"index":0}]})", 2, out).message,
            "response holds 1 malformed scores of 1 (no numeric relevance_score)");
}

TEST(ApiAdapters, EveryKindHasItsAdapter) {
  for (const ApiKind kind : {ApiKind::kChat, ApiKind::kCompletions, ApiKind::kEmbeddings,
                             ApiKind::kRerank, ApiKind::kResponses}) {
    EXPECT_EQ(api_adapter(kind).kind(), kind);
  }
}

}  // namespace
}  // namespace llmperf
