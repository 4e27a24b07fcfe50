// The shared study's bridge messages: init's fields, claim's two answers, a record stored and
// exported back with its worker's place, and the per-worker seed.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "study/shared_study.h"

namespace llmperf {
namespace {

std::vector<ParamSpace> shared_spaces() { return parse_params({"B=256,512,1024", "cp=true,false"}); }

TEST(SharedStudy, InitCarriesTheStorageTheNameTheWorkerAndTheStudy) {
  const std::string init = bridge_init_request(SamplerKind::kTpe, shared_spaces(), {true}, 7, 2);
  const nlohmann::json request = nlohmann::json::parse(shared_init_request(
      init, parse_storage_url("postgresql://u:pw@h/db"), "s1", {"host-a", "/runs/tune"},
      nlohmann::json{{"objective", "output_throughput"}}));
  EXPECT_EQ(request.at("op"), "init");
  EXPECT_EQ(request.at("storage"), "postgresql://u:pw@h/db") << "the bridge needs the password";
  EXPECT_EQ(request.at("study_name"), "s1");
  EXPECT_EQ(request.at("worker").at("host"), "host-a");
  EXPECT_EQ(request.at("worker").at("dir"), "/runs/tune");
  EXPECT_EQ(request.at("study").at("objective"), "output_throughput");
  EXPECT_EQ(request.at("params").size(), 2u);
}

TEST(SharedStudy, WorkersWithOneSeedDrawApart) {
  const uint64_t a = shared_worker_seed(1, {"host-a", "/runs/tune"});
  const uint64_t b = shared_worker_seed(1, {"host-b", "/runs/tune"});
  EXPECT_NE(a, b);
  EXPECT_EQ(a, shared_worker_seed(1, {"host-a", "/runs/tune"}));
  EXPECT_LT(a, 4294967296u);
}

TEST(SharedStudy, ClaimAnswersAConfigurationOrWhyItIsDone) {
  EXPECT_EQ(nlohmann::json::parse(shared_release_request(4)),
            (nlohmann::json{{"op", "release"}, {"number", 4}}));
  const nlohmann::json claim = nlohmann::json::parse(shared_claim_request(8, 6, 100));
  EXPECT_EQ(claim.at("benchmarks"), 8);
  EXPECT_EQ(claim.at("draws"), 24);
  EXPECT_EQ(claim.at("space"), 6);

  const SharedClaim ask = parse_shared_claim(
      R"({"number": 12, "params": {"B": 2, "cp": "false"}, "duplicates": 1})", shared_spaces());
  ASSERT_TRUE(ask.ask);
  EXPECT_EQ(ask.ask->number, 12);
  EXPECT_EQ(ask.ask->params, (Assignment{{"B", "1024"}, {"cp", "false"}}));
  EXPECT_EQ(ask.duplicates, 1);

  const SharedClaim done = parse_shared_claim(
      R"({"done": "budget", "benchmarked": 8, "drawn": 11, "duplicates": 0})", shared_spaces());
  EXPECT_FALSE(done.ask);
  EXPECT_EQ(done.done, "budget");
  EXPECT_EQ(done.benchmarked, 8);
  EXPECT_EQ(done.drawn, 11);

  EXPECT_THROW(parse_shared_claim(R"({"error": "OperationalError: gone"})", shared_spaces()),
               std::invalid_argument);
  EXPECT_THROW(parse_shared_claim(R"({"done": 3})", shared_spaces()), std::invalid_argument);
  EXPECT_THROW(parse_shared_claim("not json", shared_spaces()), std::invalid_argument);
}

TEST(SharedStudy, ARecordGoesIntoTheStorageAndComesBackWithItsWorkersPlace) {
  TrialRecord record;
  record.trial = 5;
  record.label = "5-1024-enable";
  record.params = {{"B", "1024"}, {"cp", "true"}};
  record.status = TrialStatus::kOk;
  record.objective = 1234.5;
  record.dir = "trial_5_1024-enable";
  record.server_log = "trial_5_1024-enable/server.log";
  const nlohmann::json request = nlohmann::json::parse(shared_record_request(5, record));
  EXPECT_EQ(request.at("op"), "record");
  EXPECT_EQ(request.at("number"), 5);
  EXPECT_TRUE(request.at("benchmarked"));

  TrialRecord failed = record;
  failed.trial = 2;
  failed.status = TrialStatus::kStartFailed;
  failed.objective.reset();
  EXPECT_FALSE(nlohmann::json::parse(shared_record_request(2, failed)).at("benchmarked"));

  // On --resume: the ledger's trial, told as the bridge's add tells it, with its record.
  const nlohmann::json sync = nlohmann::json::parse(shared_sync_request(shared_spaces(), failed, sampler_outcome(failed)));
  EXPECT_EQ(sync.at("op"), "sync");
  EXPECT_FALSE(sync.at("feasible"));
  EXPECT_EQ(sync.at("params").at("B"), 2) << "an index, as the sampler sees it";
  EXPECT_EQ(sync.at("record").at("trial"), 2);
  EXPECT_FALSE(sync.at("benchmarked"));

  const nlohmann::json exported = {
      {"study", {{"schema", "llmperf.study/1"}}},
      {"trials",
       {{{"number", 5}, {"host", "b"}, {"dir", "/w/b"}, {"record", request.at("record")}},
        {{"number", 2},
         {"host", "a"},
         {"dir", "/w/a"},
         {"record", nlohmann::json::parse(shared_record_request(2, failed)).at("record")}},
        {{"number", 9}, {"record", {{"schema", "nope"}}}}}}};
  const SharedExport back = parse_shared_export(exported.dump());
  ASSERT_EQ(back.trials.size(), 2u);
  EXPECT_EQ(back.trials[0].trial, 2) << "by Optuna's trial number";
  EXPECT_EQ(back.trials[0].dir, "a:/w/a/trial_5_1024-enable");
  EXPECT_EQ(back.trials[1].server_log, "b:/w/b/trial_5_1024-enable/server.log");
  EXPECT_EQ(back.trials[1].objective, 1234.5);
  ASSERT_EQ(back.problems.size(), 1u);
  EXPECT_NE(back.problems[0].find("trial 9"), std::string::npos) << back.problems[0];
  EXPECT_EQ(back.study.at("schema"), "llmperf.study/1");
  EXPECT_THROW(parse_shared_export(R"({"error": "KeyError: 'Record does not exist.'"})"),
               std::invalid_argument);
}

// A record's parameters keep their --param order into the storage and back (the combined study's
// table and best configuration list them so), not the alphabetical order of a JSON object.
TEST(SharedStudy, ARecordsParametersKeepTheirOrderThroughTheStorage) {
  TrialRecord record;
  record.trial = 3;
  record.label = "3-true-1024";
  record.status = TrialStatus::kOk;
  record.params = {{"cp", "true"}, {"B", "1024"}};
  const std::string request = shared_record_request(3, record);
  const size_t cp = request.find("\"cp\"");
  ASSERT_NE(cp, std::string::npos) << request;
  EXPECT_LT(cp, request.find("\"B\"")) << request;
  // The record as the bridge gives it back: its text as the request held it.
  const size_t start = request.find("\"record\":");
  ASSERT_NE(start, std::string::npos) << request;
  const std::string record_text =
      request.substr(start + 9, request.size() - 1 - (start + 9));  // up to the closing brace
  const SharedExport back = parse_shared_export(
      R"({"study": null, "trials": [{"number": 3, "state": "COMPLETE", "host": "h", )"
      R"("dir": "d", "record": )" +
      record_text + "}]}");
  ASSERT_EQ(back.trials.size(), 1u) << request;
  EXPECT_EQ(back.trials[0].params, (Assignment{{"cp", "true"}, {"B", "1024"}}));
}

}  // namespace
}  // namespace llmperf

