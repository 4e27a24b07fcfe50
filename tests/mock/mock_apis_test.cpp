// llmperf-mock's newer API surfaces over loopback: reasoning tokens in chat (stream and not, both
// field names, chunk layout, timing and usage), image parts in chat and responses prompts,
// /v1/embeddings and /v1/rerank (shapes, usage formulas, 400s, the missing-vector fault) and the
// Responses API (event order, sequence numbers, deltas, usage, response.incomplete, error events).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "mock_http.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

using nlohmann::json;

// One server-sent event: its `event:` name (empty when absent) and its data parsed as JSON.
struct SseEvent {
  std::string name;
  json data;
};

// The JSON events of an SSE body; `data: [DONE]` is kept as a string datum.
std::vector<SseEvent> events_of(const std::string& body) {
  std::vector<SseEvent> events;
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t end = body.find("\n\n", start);
    if (end == std::string::npos) end = body.size();
    SseEvent event;
    std::istringstream block(body.substr(start, end - start));
    for (std::string line; std::getline(block, line);) {
      if (line.starts_with("event: ")) event.name = line.substr(7);
      if (line == "data: [DONE]") event.data = "[DONE]";
      if (line.starts_with("data: {")) event.data = json::parse(line.substr(6));
    }
    if (!event.data.is_null()) events.push_back(std::move(event));
    start = end + 2;
  }
  return events;
}

HttpReply post(const MockServer& mock, std::string_view path, const json& body) {
  return http_call(mock.port(), "POST", path, body.dump());
}

json user_message(const json& content) {
  return json::array({{{"role", "user"}, {"content", content}}});
}

// The chat deltas of a stream, in order: (key, text) of every delta that carries text.
std::vector<std::pair<std::string, std::string>> chat_deltas(const std::vector<SseEvent>& events) {
  std::vector<std::pair<std::string, std::string>> deltas;
  for (const SseEvent& event : events) {
    if (!event.data.is_object() || event.data.at("choices").empty()) continue;
    const json& delta = event.data.at("choices").at(0).at("delta");
    std::size_t text_keys = 0;
    for (const char* key : {"reasoning_content", "reasoning", "content"}) {
      if (!delta.contains(key) || delta.contains("role")) continue;
      deltas.emplace_back(key, delta.at(key).get<std::string>());
      ++text_keys;
    }
    EXPECT_LE(text_keys, 1u) << "a chunk mixes reasoning and answer: " << delta;
  }
  return deltas;
}

std::int64_t prompt_tokens_of(const HttpReply& reply) {
  return json::parse(reply.body).at("usage").at("prompt_tokens").get<std::int64_t>();
}

TEST(MockApis, ChatStreamSendsReasoningChunksBeforeTheAnswerAndCountsThem) {
  const std::string dir = make_temp_dir();
  const std::string event_log = dir + "/events.log";
  MockServer mock({"--reasoning-tokens", "3", "--output-tokens", "8", "--ttft-ms", "5", "--itl-ms",
                   "20", "--event-log", event_log});
  const json request = {{"messages", user_message("think first")},
                        {"stream", true},
                        {"stream_options", {{"include_usage", true}}}};
  const HttpReply reply = post(mock, "/v1/chat/completions", request);
  ASSERT_EQ(reply.status, 200) << reply.body;
  const std::vector<SseEvent> events = events_of(reply.body);
  const auto deltas = chat_deltas(events);
  ASSERT_EQ(deltas.size(), 8u) << reply.body;
  std::string reasoning;
  for (std::size_t i = 0; i < deltas.size(); ++i) {
    EXPECT_EQ(deltas[i].first, i < 3 ? "reasoning_content" : "content") << i;
    if (i < 3) reasoning += deltas[i].second;
  }
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().data, "[DONE]");
  const json usage = events[events.size() - 2].data.at("usage");
  EXPECT_EQ(usage.at("completion_tokens"), 8);
  EXPECT_EQ(usage.at("completion_tokens_details").at("reasoning_tokens"), 3);
  EXPECT_EQ(usage.at("total_tokens"), usage.at("prompt_tokens").get<std::int64_t>() + 8);

  // The non-stream message carries the same texts under the same keys.
  const HttpReply whole = post(mock, "/v1/chat/completions", {{"messages", user_message("x")}});
  const json message = json::parse(whole.body).at("choices").at(0).at("message");
  EXPECT_EQ(message.at("reasoning_content"), reasoning);
  EXPECT_FALSE(message.contains("reasoning"));
  EXPECT_EQ(json::parse(whole.body).at("usage").at("completion_tokens_details"),
            json({{"reasoning_tokens", 3}}));

  // Every token chunk keeps its own --itl-ms slot: the first answer chunk (index 3) cannot be
  // written before TTFT + 3 gaps after the request arrived (timers never fire early).
  mock.process().signal(SIGTERM);
  ASSERT_EQ(mock.process().wait(20), 0);
  std::int64_t received_ns = 0;
  std::int64_t first_answer_ns = 0;
  std::istringstream log(read_file(event_log));
  for (std::string kind; log >> kind;) {
    std::int64_t seq = 0;
    std::int64_t index = 0;
    std::int64_t ns = 0;
    if (kind == "recv") {
      log >> seq >> ns;
      if (seq == 1) received_ns = ns;
    } else if (kind == "evt") {
      log >> seq >> index >> ns;
      if (seq == 1 && index == 3) first_answer_ns = ns;
    }
  }
  ASSERT_GT(received_ns, 0);
  EXPECT_GE(first_answer_ns - received_ns, 65'000'000);
  std::filesystem::remove_all(dir);
}

TEST(MockApis, ReasoningFieldNameChunkLayoutAndMaxTokensCap) {
  MockServer mock({"--reasoning-tokens", "3", "--output-tokens", "8", "--reasoning-field",
                   "reasoning", "--tokens-per-chunk", "2"});
  const HttpReply reply =
      post(mock, "/v1/chat/completions", {{"messages", user_message("hi")}, {"stream", true}});
  // 3 reasoning tokens in chunks of 2 + 1, then 5 answer tokens in 2 + 2 + 1: none mixed.
  const auto deltas = chat_deltas(events_of(reply.body));
  ASSERT_EQ(deltas.size(), 5u) << reply.body;
  for (std::size_t i = 0; i < deltas.size(); ++i) {
    EXPECT_EQ(deltas[i].first, i < 2 ? "reasoning" : "content") << i;
  }

  // max_tokens below the reasoning budget: everything generated is reasoning.
  const HttpReply capped =
      post(mock, "/v1/chat/completions", {{"messages", user_message("hi")}, {"max_tokens", 2}});
  const json body = json::parse(capped.body);
  EXPECT_EQ(body.at("choices").at(0).at("message").at("content"), "");
  EXPECT_FALSE(body.at("choices").at(0).at("message").at("reasoning").get<std::string>().empty());
  EXPECT_EQ(body.at("usage").at("completion_tokens"), 2);
  EXPECT_EQ(body.at("usage").at("completion_tokens_details").at("reasoning_tokens"), 2);
}

TEST(MockApis, WithoutReasoningChatUsageHasNoCompletionDetails) {
  MockServer mock({"--output-tokens", "4"});
  const HttpReply reply = post(mock, "/v1/chat/completions", {{"messages", user_message("hi")}});
  const json body = json::parse(reply.body);
  EXPECT_FALSE(body.at("usage").contains("completion_tokens_details")) << reply.body;
  EXPECT_FALSE(body.at("choices").at(0).at("message").contains("reasoning_content"));
}

TEST(MockApis, ImagePartsAddImageTokensToPromptTokens) {
  MockServer mock({"--image-tokens", "50", "--output-tokens", "2"});
  const std::string text = "describe these pictures, please";
  const json text_part = {{"type", "text"}, {"text", text}};
  const json png = {{"type", "image_url"},
                    {"image_url", {{"url", "data:image/png;base64,iVBORw0KGgo="}}}};
  const json remote = {{"type", "image_url"},
                       {"image_url", {{"url", "http://203.0.113.1/cat.jpg"}}}};
  const std::int64_t plain =
      prompt_tokens_of(post(mock, "/v1/chat/completions", {{"messages", user_message(text)}}));
  EXPECT_GT(plain, 11);
  const std::int64_t parts = prompt_tokens_of(
      post(mock, "/v1/chat/completions", {{"messages", user_message(json::array({text_part}))}}));
  EXPECT_EQ(parts, plain);
  const std::int64_t two_images =
      prompt_tokens_of(post(mock, "/v1/chat/completions",
                            {{"messages", user_message(json::array({text_part, png, remote}))}}));
  EXPECT_EQ(two_images, plain + 2 * 50);

  // The Responses API counts the same prompt the same way.
  const json input = user_message(
      json::array({{{"type", "input_text"}, {"text", text}},
                   {{"type", "input_image"}, {"image_url", "data:image/png;base64,AAAA"}}}));
  const HttpReply response = post(mock, "/v1/responses", {{"input", input}});
  ASSERT_EQ(response.status, 200) << response.body;
  EXPECT_EQ(json::parse(response.body).at("usage").at("input_tokens"), plain + 50);
  const HttpReply string_input = post(mock, "/v1/responses", {{"input", text}});
  EXPECT_EQ(json::parse(string_input.body).at("usage").at("input_tokens"), plain);
}

double norm_of(const json& vector) {
  double sum = 0;
  for (const json& x : vector) sum += x.get<double>() * x.get<double>();
  return std::sqrt(sum);
}

TEST(MockApis, EmbeddingsReturnOneUnitVectorPerInputAndCountTokens) {
  MockServer mock({"--embedding-dim", "12"});
  // BOS "hell" "o" " wor" "ld" + BOS "abc": 7 tokens.
  const HttpReply reply =
      post(mock, "/v1/embeddings", {{"model", "m"}, {"input", {"hello world", "abc"}}});
  ASSERT_EQ(reply.status, 200) << reply.body;
  const json body = json::parse(reply.body);
  EXPECT_EQ(body.at("object"), "list");
  EXPECT_EQ(body.at("model"), "mock-model");
  EXPECT_EQ(body.at("usage"), json({{"prompt_tokens", 7}, {"total_tokens", 7}}));
  ASSERT_EQ(body.at("data").size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const json& item = body.at("data").at(i);
    EXPECT_EQ(item.at("object"), "embedding");
    EXPECT_EQ(item.at("index"), i);
    EXPECT_EQ(item.at("embedding").size(), 12u);
    EXPECT_NEAR(norm_of(item.at("embedding")), 1.0, 1e-5);
  }
  EXPECT_NE(body.at("data").at(0).at("embedding"), body.at("data").at(1).at("embedding"));

  // One string, with "dimensions", on the alias path: the same input gets the same numbers.
  const HttpReply single = post(mock, "/embeddings", {{"input", "abc"}, {"dimensions", 12}});
  EXPECT_EQ(json::parse(single.body).at("data").at(0).at("embedding"),
            body.at("data").at(1).at("embedding"));
  const HttpReply short_vectors =
      post(mock, "/v1/embeddings", {{"input", "abc"}, {"dimensions", 3}});
  EXPECT_EQ(json::parse(short_vectors.body).at("data").at(0).at("embedding").size(), 3u);

  // Token ids count one each: a flat array is one input, an array of arrays one per array.
  const json flat = json::parse(post(mock, "/v1/embeddings", {{"input", {1, 2, 3}}}).body);
  EXPECT_EQ(flat.at("data").size(), 1u);
  EXPECT_EQ(flat.at("usage").at("prompt_tokens"), 3);
  const json nested =
      json::parse(post(mock, "/v1/embeddings", {{"input", json::array({{1, 2, 3}, {4, 5}})}}).body);
  EXPECT_EQ(nested.at("data").size(), 2u);
  EXPECT_EQ(nested.at("usage").at("prompt_tokens"), 5);

  // /metrics counts the prompt tokens and a finished request per embeddings call.
  const std::string metrics = http_call(mock.port(), "GET", "/metrics").body;
  EXPECT_NE(metrics.find(R"(vllm:prompt_tokens_total{engine="0",model_name="mock-model"} 19.0)"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find(R"(vllm:request_success_total{engine="0",finished_reason="stop",)"
                         R"(model_name="mock-model"} 5.0)"),
            std::string::npos)
      << metrics;
}

TEST(MockApis, BadEmbeddingsRequestsAre400WithAnOpenAiError) {
  MockServer mock({});
  const std::vector<json> bad = {
      json::object(),
      {{"input", ""}},
      {{"input", json::array()}},
      {{"input", {1.5}}},
      {{"input", {"a", 3}}},
      {{"input", json::array({json::array()})}},
      {{"input", {{"nested", "object"}}}},
      {{"input", "a"}, {"encoding_format", "base64"}},
      {{"input", "a"}, {"dimensions", 0}},
  };
  for (const json& body : bad) {
    const HttpReply reply = post(mock, "/v1/embeddings", body);
    EXPECT_EQ(reply.status, 400) << body;
    EXPECT_EQ(json::parse(reply.body).at("error").at("type"), "invalid_request_error") << body;
  }
  EXPECT_EQ(http_call(mock.port(), "GET", "/v1/embeddings").status, 405);
}

TEST(MockApis, EmbeddingFaultsDropAVectorOrFailTheRequest) {
  MockServer missing({"--fault-embedding-missing-rate", "1"});
  const HttpReply short_reply = post(missing, "/v1/embeddings", {{"input", {"a", "b", "c"}}});
  ASSERT_EQ(short_reply.status, 200);
  EXPECT_EQ(json::parse(short_reply.body).at("data").size(), 2u);
  // A chat request is not affected by the embeddings-only fault.
  EXPECT_EQ(post(missing, "/v1/chat/completions", {{"messages", user_message("hi")}}).status, 200);

  MockServer failing({"--fault-http-rate", "1", "--fault-http-status", "503"});
  EXPECT_EQ(post(failing, "/v1/embeddings", {{"input", "a"}}).status, 503);
  EXPECT_EQ(post(failing, "/v1/rerank", {{"query", "q"}, {"documents", {"a"}}}).status, 503);
}

TEST(MockApis, RerankSortsScoresKeepsTopNAndCountsQueryPlusDocument) {
  MockServer mock({});
  const std::string query = "what is love";  // "what" " is" " lov" "e": 4 tokens
  const std::vector<std::string> documents = {"baby don't hurt me", "a feeling", "42", "no more",
                                              "love is patient"};
  json request = {{"model", "m"}, {"query", query}, {"documents", documents}};
  const HttpReply all = post(mock, "/v1/rerank", request);
  ASSERT_EQ(all.status, 200) << all.body;
  const json body = json::parse(all.body);
  EXPECT_TRUE(body.at("id").get<std::string>().starts_with("rerank-")) << body;
  EXPECT_EQ(body.at("model"), "mock-model");
  // tokens: "baby"," don","'","t"," hur","t"," me" = 7; "a"," fee","ling" = 3; "42" = 1;
  // "no"," mor","e" = 3; "love"," is"," pat","ient" = 4; each plus the query's 4 and a BOS.
  EXPECT_EQ(body.at("usage"), json({{"prompt_tokens", 18 + 5 * 4 + 5}, {"total_tokens", 43}}));
  const json& results = body.at("results");
  ASSERT_EQ(results.size(), documents.size());
  std::set<std::int64_t> indices;
  for (std::size_t i = 0; i < results.size(); ++i) {
    indices.insert(results[i].at("index").get<std::int64_t>());
    const double score = results[i].at("relevance_score").get<double>();
    EXPECT_GT(score, 0.0);
    EXPECT_LT(score, 1.0);
    if (i > 0) {
      EXPECT_GE(results[i - 1].at("relevance_score").get<double>(), score);
    }
    EXPECT_FALSE(results[i].contains("document"));
  }
  EXPECT_EQ(indices, (std::set<std::int64_t>{0, 1, 2, 3, 4}));

  // top_n keeps the best; documents as objects are the same documents; return_documents echoes.
  json objects = json::array();
  for (const std::string& text : documents) objects.push_back({{"text", text}});
  const json top = json::parse(
      post(mock, "/v2/rerank",
           {{"query", query}, {"documents", objects}, {"top_n", 2}, {"return_documents", true}})
          .body);
  ASSERT_EQ(top.at("results").size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(top.at("results")[i].at("index"), results[i].at("index"));
    EXPECT_EQ(top.at("results")[i].at("relevance_score"), results[i].at("relevance_score"));
    const auto index = top.at("results")[i].at("index").get<std::size_t>();
    EXPECT_EQ(top.at("results")[i].at("document").at("text"), documents[index]);
  }
  EXPECT_EQ(top.at("usage"), body.at("usage"));
  EXPECT_EQ(post(mock, "/rerank", request).status, 200);
}

TEST(MockApis, BadRerankRequestsAre400) {
  MockServer mock({});
  const std::vector<json> bad = {
      {{"documents", {"a"}}},
      {{"query", "q"}},
      {{"query", 5}, {"documents", {"a"}}},
      {{"query", "q"}, {"documents", "a"}},
      {{"query", "q"}, {"documents", json::array()}},
      {{"query", "q"}, {"documents", {5}}},
      {{"query", "q"}, {"documents", {{{"title", "no text"}}}}},
      {{"query", "q"}, {"documents", {"a"}}, {"top_n", -1}},
  };
  for (const json& body : bad) {
    const HttpReply reply = post(mock, "/v1/rerank", body);
    EXPECT_EQ(reply.status, 400) << body;
    EXPECT_EQ(json::parse(reply.body).at("error").at("type"), "invalid_request_error") << body;
  }
}

// The event types of a Responses stream with `reasoning` and `answer` delta events.
std::vector<std::string> expected_types(int reasoning, int answer, std::string_view terminal) {
  std::vector<std::string> types = {"response.created", "response.in_progress"};
  if (reasoning > 0) {
    types.push_back("response.output_item.added");
    for (int i = 0; i < reasoning; ++i) types.push_back("response.reasoning_text.delta");
    types.push_back("response.reasoning_text.done");
    types.push_back("response.output_item.done");
  }
  types.push_back("response.output_item.added");
  types.push_back("response.content_part.added");
  for (int i = 0; i < answer; ++i) types.push_back("response.output_text.delta");
  for (const char* type :
       {"response.output_text.done", "response.content_part.done", "response.output_item.done"}) {
    types.push_back(type);
  }
  types.emplace_back(terminal);
  return types;
}

// Checks the event names against their data and the sequence numbers; returns the types.
std::vector<std::string> checked_types(const std::vector<SseEvent>& events) {
  std::vector<std::string> types;
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_TRUE(events[i].data.is_object()) << i;  // no [DONE]
    if (!events[i].data.is_object()) continue;
    EXPECT_EQ(events[i].data.at("type"), events[i].name) << i;
    EXPECT_EQ(events[i].data.at("sequence_number"), i);
    types.push_back(events[i].name);
  }
  return types;
}

TEST(MockApis, ResponsesStreamIsOrderedEventsWithReasoningThenAnswer) {
  MockServer mock({"--reasoning-tokens", "2", "--output-tokens", "5"});
  const json messages = user_message("hello there");
  const HttpReply reply =
      post(mock, "/v1/responses", {{"model", "m"}, {"input", messages}, {"stream", true}});
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_TRUE(has_header(reply, "Content-Type: text/event-stream")) << reply.head;
  EXPECT_EQ(reply.body.find("[DONE]"), std::string::npos);
  const std::vector<SseEvent> events = events_of(reply.body);
  EXPECT_EQ(checked_types(events), expected_types(2, 3, "response.completed"));
  ASSERT_EQ(events.size(), expected_types(2, 3, "").size());

  EXPECT_EQ(events[0].data.at("response").at("status"), "in_progress");
  const std::string id = events[0].data.at("response").at("id");
  EXPECT_TRUE(id.starts_with("resp_")) << id;
  EXPECT_EQ(events[2].data.at("item").at("type"), "reasoning");
  std::string reasoning;
  std::string answer;
  for (const SseEvent& event : events) {
    if (event.name == "response.reasoning_text.delta") {
      EXPECT_EQ(event.data.at("output_index"), 0);
      reasoning += event.data.at("delta").get<std::string>();
    }
    if (event.name == "response.output_text.delta") {
      EXPECT_EQ(event.data.at("output_index"), 1);
      EXPECT_TRUE(event.data.at("item_id").get<std::string>().starts_with("msg_"));
      answer += event.data.at("delta").get<std::string>();
    }
    if (event.name == "response.output_text.done") {
      EXPECT_EQ(event.data.at("text"), answer);
    }
    if (event.name == "response.reasoning_text.done") {
      EXPECT_EQ(event.data.at("text"), reasoning);
    }
  }
  const json& response = events.back().data.at("response");
  EXPECT_EQ(response.at("id"), id);
  EXPECT_EQ(response.at("status"), "completed");
  EXPECT_EQ(response.at("output").at(0).at("content").at(0).at("text"), reasoning);
  EXPECT_EQ(response.at("output").at(1).at("content").at(0).at("text"), answer);
  const std::int64_t chat_prompt = prompt_tokens_of(
      post(mock, "/v1/chat/completions", {{"messages", messages}, {"max_tokens", 1}}));
  const json& usage = response.at("usage");
  EXPECT_EQ(usage.at("input_tokens"), chat_prompt);
  EXPECT_EQ(usage.at("input_tokens_details").at("cached_tokens"), 0);
  EXPECT_EQ(usage.at("output_tokens"), 5);
  EXPECT_EQ(usage.at("output_tokens_details").at("reasoning_tokens"), 2);
  EXPECT_EQ(usage.at("total_tokens"), chat_prompt + 5);

  // The non-stream reply is the same response object.
  const HttpReply whole = post(mock, "/v1/responses", {{"input", messages}});
  const json body = json::parse(whole.body);
  EXPECT_EQ(body.at("object"), "response");
  EXPECT_EQ(body.at("status"), "completed");
  ASSERT_EQ(body.at("output").size(), 2u);
  EXPECT_EQ(body.at("output").at(0).at("type"), "reasoning");
  EXPECT_EQ(body.at("output").at(0).at("summary"), json::array());
  EXPECT_EQ(body.at("output").at(0).at("content").at(0),
            json({{"type", "reasoning_text"}, {"text", reasoning}}));
  EXPECT_EQ(body.at("output").at(1).at("type"), "message");
  EXPECT_EQ(body.at("output").at(1).at("role"), "assistant");
  EXPECT_EQ(body.at("output").at(1).at("content").at(0),
            json({{"type", "output_text"}, {"text", answer}, {"annotations", json::array()}}));
  EXPECT_EQ(body.at("usage"), usage);
}

TEST(MockApis, ResponsesWithoutReasoningHaveOnlyTheMessage) {
  MockServer mock({"--output-tokens", "3"});
  const HttpReply reply = post(mock, "/v1/responses",
                               {{"input", "hi"}, {"instructions", "be brief"}, {"stream", true}});
  const std::vector<SseEvent> events = events_of(reply.body);
  EXPECT_EQ(checked_types(events), expected_types(0, 3, "response.completed"));
  for (const SseEvent& event : events) {
    if (event.name == "response.output_text.delta") {
      EXPECT_EQ(event.data.at("output_index"), 0);
    }
  }
  EXPECT_EQ(events.back().data.at("response").at("usage").at("output_tokens_details"),
            json({{"reasoning_tokens", 0}}));
}

TEST(MockApis, ResponsesCutByMaxOutputTokensAreIncomplete) {
  MockServer mock({"--reasoning-tokens", "1", "--output-tokens", "8"});
  const HttpReply stream =
      post(mock, "/v1/responses", {{"input", "hi"}, {"max_output_tokens", 3}, {"stream", true}});
  const std::vector<SseEvent> events = events_of(stream.body);
  EXPECT_EQ(checked_types(events), expected_types(1, 2, "response.incomplete"));
  ASSERT_FALSE(events.empty());
  const json& response = events.back().data.at("response");
  EXPECT_EQ(response.at("status"), "incomplete");
  EXPECT_EQ(response.at("incomplete_details"), json({{"reason", "max_output_tokens"}}));
  EXPECT_EQ(response.at("usage").at("output_tokens"), 3);

  const json whole =
      json::parse(post(mock, "/v1/responses", {{"input", "hi"}, {"max_output_tokens", 3}}).body);
  EXPECT_EQ(whole.at("status"), "incomplete");
  EXPECT_EQ(whole.at("usage").at("output_tokens"), 3);
  // A limit the model stays under completes.
  const json roomy =
      json::parse(post(mock, "/v1/responses", {{"input", "hi"}, {"max_output_tokens", 100}}).body);
  EXPECT_EQ(roomy.at("status"), "completed");
  EXPECT_TRUE(roomy.at("incomplete_details").is_null());
  EXPECT_EQ(roomy.at("usage").at("output_tokens"), 8);
  EXPECT_EQ(post(mock, "/v1/responses", {{"instructions", "no input"}}).status, 400);
}

TEST(MockApis, ResponsesStreamErrorFaultIsAnErrorEvent) {
  MockServer mock({"--fault-error-event-rate", "1", "--output-tokens", "6"});
  const HttpReply reply = post(mock, "/v1/responses", {{"input", "hi"}, {"stream", true}});
  ASSERT_EQ(reply.status, 200);
  const std::vector<SseEvent> events = events_of(reply.body);
  ASSERT_FALSE(events.empty()) << reply.body;
  checked_types(events);
  EXPECT_EQ(events.back().name, "error");
  EXPECT_EQ(events.back().data.at("code"), "server_error");
  for (const SseEvent& event : events) EXPECT_NE(event.name, "response.completed");
}

}  // namespace
}  // namespace llmperf::testing
