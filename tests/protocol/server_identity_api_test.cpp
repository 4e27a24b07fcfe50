// Tests for reading servers' identity endpoints: each endpoint's answer as vLLM, llama.cpp
// (captured from the llama-server in /work/shared), TGI and SGLang give it, a whole probe of every
// endpoint per engine with the others answering 404, and answers that are not the JSON expected
// (garbage, other JSON types, fields of the wrong type), which add nothing and never throw.
// guess_engine from the Server header and what answered. text_of, which `llmperf report` shares.
#include "protocol/server_identity_api.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace llmperf {
namespace {

namespace id_api = identity_api;
using Details = std::vector<std::pair<std::string, std::string>>;
using Strings = std::vector<std::string>;

constexpr const char* kVllmModels =
    R"({"object":"list","data":[{"id":"Qwen/Qwen2.5-7B","object":"model","created":1700000000,)"
    R"("owned_by":"vllm","root":"Qwen/Qwen2.5-7B","parent":null,"max_model_len":32768,)"
    R"("permission":[{"id":"modelperm-1","object":"model_permission"}]}]})";

// llama-server (commit c392e50), GET /v1/models and GET /props (trimmed: params left out).
constexpr const char* kLlamaModels =
    R"({"object":"list","data":[{"id":"tiny-llama","object":"model","created":1795530941,)"
    R"("owned_by":"llamacpp","meta":{"vocab_type":1,"n_vocab":32000,"n_ctx_train":4096,)"
    R"("n_embd":256,"n_params":17958144,"size":35918848}}]})";
constexpr const char* kLlamaProps =
    R"({"default_generation_settings":{"id":0,"id_task":-1,"n_ctx":1024,"speculative":false,)"
    R"("is_processing":false,"params":{"n_predict":-1,"temperature":0.800000011920929}},)"
    R"("total_slots":4,"model_path":"/work/shared/llama-server/tiny-llama-spm.gguf",)"
    R"("chat_template":"{% for message in messages %}{% endfor %}","bos_token":"<s>",)"
    R"("eos_token":"</s>","build_info":"b0-unknown"})";
constexpr const char* kLlamaNotFound =
    R"({"error":{"code":404,"message":"File Not Found","type":"not_found_error"}})";

// TGI's GET /info.
constexpr const char* kTgiInfo =
    R"({"model_id":"bigscience/bloom-560m","model_sha":"e985a63cdc139290c5f700ff1929f0b5942cced2",)"
    R"("model_dtype":"torch.float16","model_device_type":"cuda",)"
    R"("model_pipeline_tag":"text-generation","max_concurrent_requests":128,"max_best_of":2,)"
    R"("max_stop_sequences":4,"max_input_tokens":1024,)"
    R"("max_total_tokens":2048,"validation_workers":2,"max_client_batch_size":4,)"
    R"("router":"text-generation-router","version":"2.4.1","sha":null,"docker_label":null})";

// SGLang's GET /get_server_info (a few of its many fields) and GET /v1/models.
constexpr const char* kSglangInfo =
    R"({"model_path":"meta-llama/Llama-3.1-8B-Instruct",)"
    R"("tokenizer_path":"meta-llama/Llama-3.1-8B-Instruct",)"
    R"("host":"0.0.0.0","port":30000,"tp_size":2,"dp_size":1,"max_running_requests":null,)"
    R"("chunked_prefill_size":8192,"context_length":null,"version":"0.4.6.post1",)"
    R"("internal_states":[{"last_gen_throughput":12.5}]})";
constexpr const char* kSglangModels =
    R"({"object":"list","data":[{"id":"meta-llama/Llama-3.1-8B-Instruct","object":"model",)"
    R"("created":1700000000,"owned_by":"sglang","root":"meta-llama/Llama-3.1-8B-Instruct",)"
    R"("max_model_len":131072}]})";

// What FastAPI (vLLM, SGLang) answers on a path it does not serve.
constexpr const char* kFastApiNotFound = R"({"detail":"Not Found"})";

ServerIdentity absorbed(std::string_view endpoint, std::string_view body) {
  ServerIdentity id;
  id_api::absorb(endpoint, body, id);
  return id;
}

// Asks every identity endpoint in order; `answer` gives each one's body.
template <typename Answer>
ServerIdentity probe(const std::string& server_header, Answer answer) {
  ServerIdentity id;
  id.server_header = server_header;
  for (const std::string_view endpoint : id_api::kEndpoints)
    id_api::absorb(endpoint, answer(endpoint), id);
  id_api::guess_engine(id);
  return id;
}

TEST(IdentityEndpoints, InTheOrderAsked) {
  const Strings endpoints(std::begin(id_api::kEndpoints), std::end(id_api::kEndpoints));
  EXPECT_EQ(endpoints, (Strings{"/v1/models", "/version", "/props", "/info", "/get_server_info"}));
}

TEST(AbsorbModels, VllmGivesIdsMaxModelLenAndOwner) {
  const ServerIdentity id = absorbed("/v1/models", kVllmModels);
  EXPECT_EQ(id.models, (Strings{"Qwen/Qwen2.5-7B"}));
  EXPECT_EQ(id.max_model_len, 32768);
  EXPECT_EQ(id.max_model_len_source, "/v1/models max_model_len");
  EXPECT_EQ(id.details, (Details{{"owned_by", "vllm"}}));
  EXPECT_EQ(id.answered, (Strings{"/v1/models"}));
  EXPECT_EQ(id.engine, "");
  EXPECT_EQ(id.version, "");
  EXPECT_TRUE(id.known());
}

TEST(AbsorbModels, LlamaCppGivesTheAliasButNoMaxModelLen) {
  const ServerIdentity id = absorbed("/v1/models", kLlamaModels);
  EXPECT_EQ(id.models, (Strings{"tiny-llama"}));
  EXPECT_EQ(id.max_model_len, 0);  // n_ctx_train is the model's, not the server's context
  EXPECT_EQ(id.details, (Details{{"owned_by", "llamacpp"}}));
  EXPECT_EQ(id.answered, (Strings{"/v1/models"}));
}

TEST(AbsorbModels, SeveralModelsKeptInOrderWithoutDuplicates) {
  const ServerIdentity id = absorbed(
      "/v1/models",
      R"({"data":[{"id":"a","max_model_len":4096,"owned_by":"x"},{"id":"b","max_model_len":8192,)"
      R"("owned_by":"y"},{"id":"a"},{"object":"model"},{"id":""},"c",null]})");
  EXPECT_EQ(id.models, (Strings{"a", "b"}));
  EXPECT_EQ(id.max_model_len, 4096);  // the first model's
  EXPECT_EQ(id.details, (Details{{"owned_by", "x"}}));
}

TEST(AbsorbModels, AtMost32Models) {
  std::string body = R"({"data":[)";
  for (int i = 0; i < 40; ++i)
    body += (i > 0 ? "," : "") + ("{\"id\":\"m" + std::to_string(i) + "\"}");
  body += "]}";
  const ServerIdentity id = absorbed("/v1/models", body);
  ASSERT_EQ(id.models.size(), 32U);
  EXPECT_EQ(id.models.front(), "m0");
  EXPECT_EQ(id.models.back(), "m31");
}

TEST(AbsorbModels, AnEmptyListStillAnswered) {
  const ServerIdentity id = absorbed("/v1/models", R"({"object":"list","data":[]})");
  EXPECT_TRUE(id.models.empty());
  EXPECT_EQ(id.answered, (Strings{"/v1/models"}));
}

TEST(AbsorbModels, MaxModelLenOfTheWrongTypeIsIgnored) {
  for (const char* len :
       {"\"32768\"", "32768.5", "-1", "0", "null", "[1]", "true", "18446744073709551615"}) {
    const ServerIdentity id =
        absorbed("/v1/models", std::string(R"({"data":[{"id":"m","max_model_len":)") + len + "}]}");
    EXPECT_EQ(id.max_model_len, 0) << len;
    EXPECT_EQ(id.models, (Strings{"m"})) << len;
  }
}

TEST(AbsorbModels, IdsThatAreNotTextAreSkippedOrWritten) {
  EXPECT_TRUE(
      absorbed("/v1/models", R"({"data":[{"id":null},{"id":{}},{"id":[]}]})").models.empty());
  EXPECT_EQ(absorbed("/v1/models", R"({"data":[{"id":7}]})").models, (Strings{"7"}));
}

TEST(AbsorbVersion, VllmAndSglang) {
  EXPECT_EQ(absorbed("/version", R"({"version":"0.11.0"})").version, "0.11.0");
  EXPECT_EQ(absorbed("/version", R"({"version":"0.4.6.post1"})").version, "0.4.6.post1");
  EXPECT_EQ(absorbed("/version", R"({"version":"0.11.0"})").answered, (Strings{"/version"}));
}

TEST(AbsorbVersion, TheFirstVersionStays) {
  ServerIdentity id;
  id.version = "b4567";
  id_api::absorb("/version", R"({"version":"9.9"})", id);
  EXPECT_EQ(id.version, "b4567");
  EXPECT_EQ(id.answered, (Strings{"/version"}));
}

TEST(AbsorbVersion, NoVersionIsNoAnswer) {
  for (const char* body : {R"({})", R"({"version":""})", R"({"version":null})",
                           R"({"version":{"major":1}})", kFastApiNotFound, kLlamaNotFound}) {
    const ServerIdentity id = absorbed("/version", body);
    EXPECT_EQ(id.version, "") << body;
    EXPECT_TRUE(id.answered.empty()) << body;
  }
}

TEST(AbsorbProps, LlamaCppGivesSlotContextSlotsPathAndBuild) {
  const ServerIdentity id = absorbed("/props", kLlamaProps);
  EXPECT_EQ(id.engine, "llama.cpp");
  EXPECT_EQ(id.version, "b0-unknown");
  EXPECT_EQ(id.max_model_len, 1024);  // llama.cpp's /props gives the slot's n_ctx (-c / --parallel)
  EXPECT_EQ(id.max_model_len_source, "/props n_ctx per slot");
  EXPECT_EQ(id.details, (Details{{"n_ctx_per_slot", "1024"},
                                 {"total_slots", "4"},
                                 {"model_path", "/work/shared/llama-server/tiny-llama-spm.gguf"},
                                 {"build_info", "b0-unknown"}}));
  EXPECT_EQ(id.answered, (Strings{"/props"}));
}

TEST(AbsorbProps, RecognisedByAnyOfItsMarks) {
  EXPECT_EQ(absorbed("/props", R"({"total_slots":2})").details, (Details{{"total_slots", "2"}}));
  EXPECT_EQ(absorbed("/props", R"({"build_info":"b5000-abc"})").version, "b5000-abc");
  const ServerIdentity settings_only =
      absorbed("/props", R"({"default_generation_settings":{"n_ctx":"big"}})");
  EXPECT_EQ(settings_only.engine, "llama.cpp");
  EXPECT_EQ(settings_only.max_model_len, 0);
  EXPECT_TRUE(settings_only.details.empty());
}

TEST(AbsorbProps, OtherJsonIsNoAnswer) {
  for (const char* body :
       {R"({})", R"({"default_generation_settings":"x"})", R"({"default_generation_settings":[1]})",
        kFastApiNotFound, kLlamaNotFound}) {
    const ServerIdentity id = absorbed("/props", body);
    EXPECT_TRUE(id.answered.empty()) << body;
    EXPECT_EQ(id.engine, "") << body;
  }
}

TEST(AbsorbProps, LongValuesAreCut) {
  const std::string path(500, 'p');
  const ServerIdentity id = absorbed("/props", R"({"total_slots":1,"model_path":")" + path + "\"}");
  ASSERT_EQ(id.details.size(), 2U);
  EXPECT_EQ(id.details[1],
            (std::pair<std::string, std::string>{"model_path", path.substr(0, 200)}));
}

TEST(AbsorbInfo, TgiGivesModelLimitsAndVersion) {
  const ServerIdentity id = absorbed("/info", kTgiInfo);
  EXPECT_EQ(id.engine, "TGI");
  EXPECT_EQ(id.version, "2.4.1");
  EXPECT_EQ(id.max_model_len, 2048);
  EXPECT_EQ(id.details, (Details{{"model_id", "bigscience/bloom-560m"},
                                 {"max_input_tokens", "1024"},
                                 {"max_total_tokens", "2048"},
                                 {"max_concurrent_requests", "128"},
                                 {"model_dtype", "torch.float16"}}));
  EXPECT_EQ(id.answered, (Strings{"/info"}));
}

TEST(AbsorbInfo, NeedsModelIdAndMaxTotalTokens) {
  EXPECT_TRUE(absorbed("/info", R"({"model_id":"m"})").answered.empty());
  EXPECT_TRUE(absorbed("/info", R"({"max_total_tokens":10})").answered.empty());
  const ServerIdentity odd = absorbed("/info", R"({"model_id":null,"max_total_tokens":[1]})");
  EXPECT_EQ(odd.answered, (Strings{"/info"}));
  EXPECT_EQ(odd.max_model_len, 0);
  EXPECT_TRUE(odd.details.empty());
}

TEST(AbsorbServerInfo, SglangGivesPathParallelismAndVersion) {
  const ServerIdentity id = absorbed("/get_server_info", kSglangInfo);
  EXPECT_EQ(id.engine, "SGLang");
  EXPECT_EQ(id.version, "0.4.6.post1");
  EXPECT_EQ(id.max_model_len, 0);  // context_length null
  EXPECT_EQ(id.details, (Details{{"model_path", "meta-llama/Llama-3.1-8B-Instruct"},
                                 {"tp_size", "2"},
                                 {"dp_size", "1"},
                                 {"chunked_prefill_size", "8192"}}));
  EXPECT_EQ(id.answered, (Strings{"/get_server_info"}));
  EXPECT_EQ(absorbed("/get_server_info", R"({"tp_size":1,"context_length":65536})").max_model_len,
            65536);
}

TEST(AbsorbServerInfo, SglangOverridesAGuessedEngine) {
  ServerIdentity id;
  id.engine = "vLLM";
  id_api::absorb("/get_server_info", kSglangInfo, id);
  EXPECT_EQ(id.engine, "SGLang");
}

TEST(Absorb, GarbageAndOtherJsonAddNothing) {
  const std::string bodies[] = {"",
                                "not json",
                                "<html><body>502 Bad Gateway</body></html>",
                                "{\"data\":[",
                                "[]",
                                "[{\"id\":\"m\"}]",
                                "\"a string\"",
                                "42",
                                "null",
                                "true",
                                "{\"data\":{\"id\":\"m\"}}",
                                "{\"data\":\"m\"}",
                                "{\"version\":\"\xff\xfe\"}"};
  for (const std::string_view endpoint : id_api::kEndpoints) {
    for (const std::string& body : bodies) {
      ServerIdentity id;
      ASSERT_NO_THROW(id_api::absorb(endpoint, body, id)) << endpoint << " " << body;
      EXPECT_FALSE(id.known()) << endpoint << " " << body;
      EXPECT_EQ(id.version, "") << endpoint << " " << body;
      EXPECT_TRUE(id.details.empty()) << endpoint << " " << body;
    }
  }
}

TEST(Absorb, UnknownEndpointAddsNothing) {
  const ServerIdentity id = absorbed("/health", R"({"version":"1","data":[{"id":"m"}]})");
  EXPECT_FALSE(id.known());
  EXPECT_TRUE(id.models.empty());
}

TEST(Probe, VllmAnswersModelsAndVersion) {
  const ServerIdentity id = probe("uvicorn", [](std::string_view endpoint) -> std::string {
    if (endpoint == "/v1/models") return kVllmModels;
    if (endpoint == "/version") return R"({"version":"0.11.0"})";
    return kFastApiNotFound;
  });
  EXPECT_EQ(id.engine, "vLLM");
  EXPECT_EQ(id.version, "0.11.0");
  EXPECT_EQ(id.models, (Strings{"Qwen/Qwen2.5-7B"}));
  EXPECT_EQ(id.max_model_len, 32768);
  EXPECT_EQ(id.answered, (Strings{"/v1/models", "/version"}));
}

TEST(Probe, SglangSaysSoThroughServerInfo) {
  const ServerIdentity id = probe("uvicorn", [](std::string_view endpoint) -> std::string {
    if (endpoint == "/v1/models") return kSglangModels;
    if (endpoint == "/version") return R"({"version":"0.4.6.post1"})";
    if (endpoint == "/get_server_info") return kSglangInfo;
    return kFastApiNotFound;
  });
  EXPECT_EQ(id.engine, "SGLang");
  EXPECT_EQ(id.version, "0.4.6.post1");
  EXPECT_EQ(id.max_model_len, 131072);
  EXPECT_EQ(id.answered, (Strings{"/v1/models", "/version", "/get_server_info"}));
}

TEST(Probe, LlamaCppAnswersModelsAndProps) {
  const ServerIdentity id = probe("llama.cpp", [](std::string_view endpoint) -> std::string {
    if (endpoint == "/v1/models") return kLlamaModels;
    if (endpoint == "/props") return kLlamaProps;
    return kLlamaNotFound;
  });
  EXPECT_EQ(id.engine, "llama.cpp");
  EXPECT_EQ(id.version, "b0-unknown");
  EXPECT_EQ(id.models, (Strings{"tiny-llama"}));
  EXPECT_EQ(id.max_model_len, 1024);
  EXPECT_EQ(id.answered, (Strings{"/v1/models", "/props"}));
  ASSERT_FALSE(id.details.empty());
  EXPECT_EQ(id.details.front(), (std::pair<std::string, std::string>{"owned_by", "llamacpp"}));
}

TEST(Probe, TgiAnswersInfo) {
  const ServerIdentity id = probe("", [](std::string_view endpoint) -> std::string {
    if (endpoint == "/v1/models") {
      return R"({"object":"list","data":[{"id":"bigscience/bloom-560m","object":"model",)"
             R"("created":0,"owned_by":"bigscience/bloom-560m"}]})";
    }
    if (endpoint == "/info") return kTgiInfo;
    return "";  // TGI answers 404 with an empty body
  });
  EXPECT_EQ(id.engine, "TGI");
  EXPECT_EQ(id.version, "2.4.1");
  EXPECT_EQ(id.max_model_len, 2048);
  EXPECT_EQ(id.answered, (Strings{"/v1/models", "/info"}));
}

TEST(GuessEngine, FromTheServerHeader) {
  const auto guess = [](const std::string& header, Strings answered = {}) {
    ServerIdentity id;
    id.server_header = header;
    id.answered = std::move(answered);
    id_api::guess_engine(id);
    return id.engine;
  };
  EXPECT_EQ(guess("llama.cpp"), "llama.cpp");
  EXPECT_EQ(guess("text-generation-inference/2.4.1"), "TGI");
  EXPECT_EQ(guess("llmperf-mock/0.1"), "llmperf-mock");
  EXPECT_EQ(guess("proxy llmperf-mock"), "");
  EXPECT_EQ(guess("uvicorn", {"/v1/models", "/version"}), "vLLM");
  EXPECT_EQ(guess("uvicorn", {"/v1/models"}), "");  // no /version: any FastAPI server
  EXPECT_EQ(guess("nginx/1.25", {"/version"}), "");
  EXPECT_EQ(guess(""), "");
}

TEST(GuessEngine, KeepsAnEngineAlreadyKnown) {
  ServerIdentity id;
  id.engine = "SGLang";
  id.server_header = "llama.cpp";
  id_api::guess_engine(id);
  EXPECT_EQ(id.engine, "SGLang");
}

TEST(ServerIdentity, KnownFromAnyOfHeaderModelsOrAnswers) {
  ServerIdentity id;
  EXPECT_FALSE(id.known());
  id.server_header = "uvicorn";
  EXPECT_TRUE(id.known());
  id = ServerIdentity{};
  id.models = {"m"};
  EXPECT_TRUE(id.known());
  id = ServerIdentity{};
  id.answered = {"/version"};
  EXPECT_TRUE(id.known());
}

TEST(TextOf, ScalarsAsTextAnythingElseEmpty) {
  const auto doc =
      nlohmann::json::parse(R"({"s":"abc","i":-7,"u":42,"t":true,"f":false,"d":1.5,"n":null,)"
                            R"("a":[1],"o":{"k":"v"}})");
  EXPECT_EQ(id_api::text_of(doc, "s"), "abc");
  EXPECT_EQ(id_api::text_of(doc, "i"), "-7");
  EXPECT_EQ(id_api::text_of(doc, "u"), "42");
  EXPECT_EQ(id_api::text_of(nlohmann::json::parse(R"({"big":18446744073709551615})"), "big"),
            "18446744073709551615");
  EXPECT_EQ(id_api::text_of(doc, "t"), "true");
  EXPECT_EQ(id_api::text_of(doc, "f"), "false");
  for (const char* key : {"d", "n", "a", "o", "absent"})
    EXPECT_EQ(id_api::text_of(doc, key), "") << key;
  EXPECT_EQ(id_api::text_of(nlohmann::json::array({"s"}), "s"), "");  // not an object
}

TEST(ServerIdentity, NameJoinsEngineAndVersion) {
  const auto name = [](const std::string& engine, const std::string& version) {
    ServerIdentity id;
    id.engine = engine;
    id.version = version;
    return id.name();
  };
  EXPECT_EQ(name("vLLM", "0.11.0"), "vLLM 0.11.0");
  EXPECT_EQ(name("llama.cpp", "b4719"), "llama.cpp b4719");
  EXPECT_EQ(name("TGI", ""), "TGI");
  EXPECT_EQ(name("", "2.4.1"), "2.4.1");
  EXPECT_EQ(name("llmperf-mock", "llmperf-mock 0.1.0"), "llmperf-mock 0.1.0");
  EXPECT_EQ(name("", ""), "");
}

}  // namespace
}  // namespace llmperf
