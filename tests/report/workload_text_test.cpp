// Tests for how a run's workload and its requested versus realized lengths are reported: the text
// summary's "Lengths" block (exact lengths, ranges, differences, unverified requests, an
// approximate tokenizer), summary.json's "exactness" and "workload" objects, and reading
// "workload" back (workload_from_json), from hand-made summaries.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report/internal.h"

namespace llmperf::report_detail {
namespace {

RunInfo synthetic_run() {
  RunInfo info;
  info.workload.synthetic = true;
  info.workload.tokenizer = {"server /tokenize (vLLM/SGLang)", "chat template included", true};
  info.workload.prompts = 1000;
  info.workload.fit_counts = 1200;
  info.workload.prepare_s = 2.5;
  return info;
}

void add_many(LengthExactness& e, int64_t times, int64_t target, int64_t realized,
              bool verified = true) {
  for (int64_t i = 0; i < times; ++i) e.add(target, realized, verified);
}

TEST(WorkloadText, ExactLengthsOfASyntheticRun) {
  RunSummary s;
  add_many(s.input_exactness, 1000, 1000, 1000);
  add_many(s.output_exactness, 1000, 256, 256);
  EXPECT_EQ(workload_text(synthetic_run(), s),
            "\nLengths (tokenizer: server /tokenize (vLLM/SGLang), chat template included)\n"
            "  Input tokens   1000 requested, realized exactly in 1000 of 1000 requests\n"
            "  Output tokens  256 requested, realized exactly in 1000 of 1000 requests\n"
            "  Prompts        1000 made in 2.500 s, 0 missed their length while fitting\n");
}

TEST(WorkloadText, RangesAndDifferences) {
  RunSummary s;
  LengthExactness& in = s.input_exactness;
  in.add(63, 63, true);
  in.add(3042, 3042, true);
  in.add(100, 101, true);
  in.add(200, 201, true);
  in.add(300, 301, true);
  in.add(400, 399, true);
  in.add(500, 499, true);
  RunInfo info = synthetic_run();
  info.workload.fit_misses = 3;
  info.workload.prefix_tokens = 64;
  const std::string text = workload_text(info, s);
  // Mean of the 7 targets: 4605 / 7 = 657.857...
  EXPECT_NE(text.find("  Input tokens  63-3042 (mean 657.9) requested, realized exactly in 2 of 7 "
                      "requests; realized - requested: -1 x2, +1 x3\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Output tokens"), std::string::npos);  // no output targets
  EXPECT_NE(text.find("  Prompts       1000 made in 2.500 s, 3 missed their length while fitting, "
                      "a 64-token prefix shared by all\n"),
            std::string::npos)
      << text;
}

TEST(WorkloadText, ManyDifferencesShowTheSixMostFrequentAndTheRange) {
  RunSummary s;
  LengthExactness& out = s.output_exactness;
  add_many(out, 1, 100, 95);   // -5 x1
  add_many(out, 4, 100, 97);   // -3 x4
  add_many(out, 2, 100, 98);   // -2 x2
  add_many(out, 5, 100, 99);   // -1 x5
  add_many(out, 6, 100, 101);  // +1 x6
  add_many(out, 3, 100, 102);  // +2 x3
  add_many(out, 1, 100, 109);  // +9 x1: a tie with -5, which comes first
  add_many(out, 10, 100, 100);
  const std::string text = workload_text(RunInfo{}, s);
  EXPECT_EQ(text,
            "\nLengths\n"
            "  Output tokens  100 requested, realized exactly in 10 of 32 requests; realized - "
            "requested: -5 x1, -3 x4, -2 x2, -1 x5, +1 x6, +2 x3 (range -5 to +9)\n");
}

TEST(WorkloadText, RequestsWithoutUsageAreCountedApart) {
  RunSummary s;
  add_many(s.input_exactness, 2, 500, 0, /*verified=*/false);
  add_many(s.input_exactness, 1, 500, 500);
  const std::string text = workload_text(synthetic_run(), s);
  EXPECT_NE(text.find("  Input tokens  500 requested, realized exactly in 1 of 3 requests; 2 "
                      "without usage to verify\n"),
            std::string::npos)
      << text;
}

TEST(WorkloadText, NothingVerifiedStillShowsWhatWasRequested) {
  RunSummary s;
  s.input_exactness.add(10, 0, false);
  s.input_exactness.add(20, 0, false);
  const std::string text = workload_text(RunInfo{}, s);
  EXPECT_NE(text.find("10-20 (mean 15) requested, realized exactly in 0 of 2 requests; 2 without "
                      "usage"),
            std::string::npos)
      << text;
}

TEST(WorkloadText, ApproximateTokenizerIsLabelled) {
  RunInfo info;
  info.workload.synthetic = true;
  info.workload.tokenizer = {"estimate: ceil(code points / 4)", "the server has no tokenize API",
                             false};
  info.workload.prompts = 50;
  info.workload.prepare_s = 0.01;
  RunSummary s;
  add_many(s.input_exactness, 50, 300, 290);
  const std::string text = workload_text(info, s);
  EXPECT_EQ(text.rfind("\nLengths (tokenizer: estimate: ceil(code points / 4), the server has no "
                       "tokenize API; APPROXIMATE)\n",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("realized exactly in 0 of 50 requests; realized - requested: -10 x50"),
            std::string::npos);
  // No fitting was done: no count of misses.
  EXPECT_NE(text.find("  Prompts       50 made in 0.0100 s\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("missed"), std::string::npos);
}

TEST(WorkloadText, EmptyForADatasetRunWithoutTargets) {
  EXPECT_EQ(workload_text(RunInfo{}, RunSummary{}), "");
}

TEST(WorkloadText, DatasetRunWithOutputTargetsHasNoTokenizerOrPrompts) {
  RunSummary s;
  add_many(s.output_exactness, 3, 128, 128);
  EXPECT_EQ(workload_text(RunInfo{}, s),
            "\nLengths\n  Output tokens  128 requested, realized exactly in 3 of 3 requests\n");
}

TEST(TokenizerLabel, SourceDetailAndApproximation) {
  EXPECT_EQ(tokenizer_label({"server /tokenize (llama.cpp)", "chat template included", true}),
            "server /tokenize (llama.cpp), chat template included");
  EXPECT_EQ(tokenizer_label({"usage calibration", "", false}), "usage calibration; APPROXIMATE");
}

TEST(ExactnessJson, BothSidesWithTheirDifferences) {
  RunSummary s;
  s.input_exactness.add(100, 100, true);
  s.input_exactness.add(100, 99, true);
  s.input_exactness.add(200, 201, true);
  s.input_exactness.add(200, 201, true);
  s.input_exactness.add(50, 7, false);
  const Json doc = exactness_json(RunInfo{}, s);
  EXPECT_EQ(nlohmann::json::parse(doc.dump()), nlohmann::json::parse(R"({
    "input": {"requests": 5, "verified": 4, "matched": 1, "min_target": 50, "max_target": 200,
              "requested_total": 650, "target_total": 600, "realized_total": 601,
              "differences": {"-1": 1, "+1": 2}},
    "output": {"requests": 0, "verified": 0, "matched": 0, "min_target": null, "max_target": null,
               "requested_total": 0, "target_total": 0, "realized_total": 0, "differences": {}},
    "length_miss": {"checked": 0, "missed": 0, "share": null, "warning": false}
  })"));
  // Key order as written to summary.json.
  std::string keys;
  for (const auto& [key, _] : doc["input"].items()) keys += key + " ";
  EXPECT_EQ(keys,
            "requests verified matched min_target max_target requested_total target_total "
            "realized_total differences ");
}

// Issue 23: llama.cpp cut 6 prompts of 600 tokens to 344 in a 512-token slot.
RunSummary truncated_run() {
  RunSummary s;
  add_many(s.input_exactness, 6, 600, 344);
  add_many(s.output_exactness, 6, 32, 32);
  for (int i = 0; i < 6; ++i) s.length_misses.add(true, true, false);
  return s;
}

TEST(LengthMissWarning, EndsTheTextWithBothNumbers) {
  const RunSummary s = truncated_run();
  EXPECT_EQ(render_length_warning(synthetic_run(), s),
            "\nWARNING: 6 of 6 requests (100%) did not get the length they were built to have "
            "(realized - requested, input in 6: -256 x6). A server cuts a prompt longer than its "
            "context (llama.cpp) and stops an output where the context ends: this run did not "
            "measure what was asked. --slo 'length_miss<=0' fails such a run.\n");
  const Json doc = exactness_json(synthetic_run(), s)["length_miss"];
  EXPECT_EQ(nlohmann::json::parse(doc.dump()),
            nlohmann::json::parse(R"({"checked": 6, "missed": 6, "share": 1.0, "warning": true})"));
}

TEST(LengthMissWarning, OnlyPastASmallShareAndOnlyForExactLengths) {
  RunSummary s;
  for (int i = 0; i < 100; ++i) s.length_misses.add(true, i == 0, false);  // 1%: not more
  EXPECT_FALSE(length_miss_warned(synthetic_run(), s));
  EXPECT_EQ(render_length_warning(synthetic_run(), s), "");
  s.length_misses.add(true, true, false);  // 2 of 101
  EXPECT_TRUE(length_miss_warned(synthetic_run(), s));
  // Approximate lengths (no tokenize API) miss by design: no warning, the figure stays.
  RunInfo approximate = synthetic_run();
  approximate.workload.tokenizer.exact = false;
  EXPECT_FALSE(length_miss_warned(approximate, s));
  // A dataset of text (no counted prompts) can only miss forced outputs: those warn.
  RunSummary forced;
  forced.length_misses.add(true, false, true);
  EXPECT_TRUE(length_miss_warned(RunInfo{}, forced));
  EXPECT_FALSE(length_miss_warned(RunInfo{}, RunSummary{}));
}

TEST(WorkloadJson, NonSyntheticIsOneFlag) {
  EXPECT_EQ(workload_json(RunInfo{}).dump(), R"({"synthetic":false})");
}

TEST(WorkloadJson, SyntheticShapeAndRoundTrip) {
  RunInfo info = synthetic_run();
  info.workload.fit_misses = 2;
  info.workload.prefix_tokens = 32;
  const Json doc = workload_json(info);
  EXPECT_EQ(nlohmann::json::parse(doc.dump()), nlohmann::json::parse(R"json({
    "synthetic": true,
    "tokenizer": {"source": "server /tokenize (vLLM/SGLang)", "detail": "chat template included",
                  "exact": true
}
, "prompts" : 1000, "fit_misses" : 2, "fit_counts" : 1200, "prefix_tokens" : 32, "prepare_s" : 2.5
})json"));

  const WorkloadInfo back = workload_from_json(nlohmann::json::parse(doc.dump()));
  EXPECT_TRUE(back.synthetic);
  EXPECT_EQ(back.tokenizer.source, info.workload.tokenizer.source);
  EXPECT_EQ(back.tokenizer.detail, info.workload.tokenizer.detail);
  EXPECT_TRUE(back.tokenizer.exact);
  EXPECT_EQ(back.prompts, 1000);
  EXPECT_EQ(back.fit_misses, 2);
  EXPECT_EQ(back.fit_counts, 1200);
  EXPECT_EQ(back.prefix_tokens, 32);
  EXPECT_DOUBLE_EQ(back.prepare_s, 2.5);
}

TEST(WorkloadFromJson, ToleratesEditedFiles) {
  EXPECT_FALSE(workload_from_json(nlohmann::json::array()).synthetic);
  EXPECT_FALSE(
      workload_from_json(nlohmann::json::parse(R"({"synthetic":false,"prompts":5})")).synthetic);
  const WorkloadInfo w = workload_from_json(nlohmann::json::parse(
      R"({"synthetic":true,"tokenizer":"x","prompts":1e30,"fit_misses":-3,"fit_counts":"7",)"
      R"("prefix_tokens":16.0,"prepare_s":"slow"})"));
  EXPECT_TRUE(w.synthetic);
  EXPECT_EQ(w.tokenizer.source, "");
  EXPECT_EQ(w.prompts, 0);  // out of range: left out, no undefined conversion
  EXPECT_EQ(w.fit_misses, -3);
  EXPECT_EQ(w.fit_counts, 0);
  EXPECT_EQ(w.prefix_tokens, 16);
  EXPECT_EQ(w.prepare_s, 0);
}

}  // namespace
}  // namespace llmperf::report_detail
