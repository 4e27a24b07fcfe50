// `--search rate` against what a server really sustains (issue 37). Before, a rate probe ran with
// one slot and was judged on TTFT from its actual send, so it measured llmperf's own queue: against
// llama.cpp's server it answered 100 req/s for a server that sustained 9.6. Now each answer must
// be close to the highest rate an independent sweep of --rate values finds sustained (±15 % on
// llmperf-mock, ±30 % on llama.cpp's server, see Agreement): every
// request served, the server's ends keeping up with the planned sends (≥ 95 %), and the SLO met
// from the planned send, all judged here from requests.jsonl (capacity_check.h).
// The runs measure a server's capacity, so they run alone (RUN_SERIAL): other tests sharing the
// cores would change it between the search and the sweep.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "capacity_check.h"
#include "llama_server.h"
#include "llmperf_run.h"
#include "test_process.h"

namespace llmperf::testing {
namespace {

// How far a search's answer may be from what the sweep finds sustained, and the sweep's rates, as
// factors of the answer: the highest that passes must be within the tolerance of the answer, so
// the grid runs from 1/(1 + tolerance) to past 1/(1 - tolerance). (A lower rate could not change
// the verdict: were it the highest sustained, the answer would be too high either way.)
struct Agreement {
  double tolerance;
  std::vector<double> factors;
  bool agrees(double answer, double sustained) const {
    return sustained > 0 && std::abs(answer - sustained) <= tolerance * sustained;
  }
};

// llmperf-mock's scheduler keeps its capacity from minute to minute: ±15 %.
const Agreement kMockAgreement = {0.15, {0.87, 0.93, 1.0, 1.07, 1.15, 1.25}};

// llama.cpp's server computes on the machine's shared cores, and its capacity moves between the
// search and the sweep a minute later: in one CI run the search's probe at 8.5 req/s sustained
// 8.54, and the sweep's run at 7.4 sustained 6.3. ±30 %, and a second attempt when the first
// disagrees, still fail an answer ten times too high (issue 37) every time. Four rates: 0.77 is
// the lowest that agrees and 1.45 the first past the highest that does; the two between keep one
// noisy run from deciding alone. (Seven took 15 more seconds of a core: the server computes.)
const Agreement kRealServerAgreement = {0.30, {0.77, 0.93, 1.1, 1.45}};

std::vector<double> rates_around(double answer, const Agreement& agreement) {
  std::vector<double> rates;
  for (double factor : agreement.factors) rates.push_back(answer * factor);
  return rates;
}

// Runs the search (`load` plus `search`), then the independent sweep around its answer with the
// same load; empty when the answer is within the agreement of the highest rate the sweep finds
// sustained, else what disagreed.
std::string search_disagreement(const std::vector<std::string>& load,
                                const std::vector<std::string>& search, double ttft_limit_ms,
                                const Agreement& agreement) {
  const BenchRun run = run_llmperf(concat(load, search), "", 900);
  if (run.process.exit_code != 0) return "the search failed:\n" + diagnostics(run);
  const double answer = search_answer(run.process.out);
  if (!(answer > 0)) return "the search has no answer:\n" + run.process.out;
  // The table says what decided each probe: the rate sustained and the slot waits.
  if (run.process.out.find("| sustained (req/s) |") == std::string::npos ||
      run.process.out.find("judged from each request's planned send") == std::string::npos) {
    return "the search's table does not say what decided its probes:\n" + run.process.out;
  }
  std::string table;
  const double sustained =
      highest_sustained_rate(load, rates_around(answer, agreement), ttft_limit_ms, table);
  if (agreement.agrees(answer, sustained)) return "";
  return (sustained > 0 ? "the search answered " + std::to_string(answer) +
                              " req/s; the sweep found " + std::to_string(sustained) +
                              " sustained:\n"
                        : "no rate around the answer " + std::to_string(answer) +
                              " is sustained:\n") +
         table + run.process.out;
}

void expect_search_finds_the_sustained_rate(const std::vector<std::string>& load,
                                            const std::vector<std::string>& search,
                                            double ttft_limit_ms, const Agreement& agreement,
                                            int attempts = 1) {
  std::string disagreement;
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    disagreement = search_disagreement(load, search, ttft_limit_ms, agreement);
    if (disagreement.empty()) return;
    if (attempt < attempts) {
      std::cout << "attempt " << attempt << " of " << attempts << " disagreed; again:\n"
                << disagreement << std::endl;
    }
  }
  ADD_FAILURE() << disagreement;
}

// llmperf-mock's model of continuous batching: 8 sequences at once, 33 steps of 5 ms each, so
// about 48 req/s.
const std::vector<std::string> kSchedulerFlags = {"--max-num-seqs", "8", "--output-tokens", "32",
                                                  "--step-ms", "5"};

TEST(SearchCapacity, RateSearchAnswersWhatTheMockSchedulerSustains) {
  MockServer mock(kSchedulerFlags);
  const std::vector<std::string> load =
      concat(base_args(mock), {"--arrival", "constant", "-n", "60"});
  expect_search_finds_the_sustained_rate(
      load, {"--search", "rate", "--search-range", "20", "400", "--search-precision", "5", "--slo",
             "ttft.p99<=500ms"},
      500, kMockAgreement);
}

// EvalScope's --sla-auto-tune runs as --search: doubling from the lower bound, then bisecting.
// With --sla-fixed-parallel 4 the client's four slots, not the server's eight, bound the rate: a
// probe that waits for them must fail, and the answer is what the four slots sustain.
TEST(SearchCapacity, SlaAutoTuneByRateAnswersWhatFourSlotsSustain) {
  MockServer mock(kSchedulerFlags);
  const std::vector<std::string> load = concat(base_args(mock), {"--arrival", "constant"});
  const BenchRun run = run_llmperf(
      concat(load, {"--sla-auto-tune", "--sla-variable", "rate", "--sla-params",
                    R"([{"p99_ttft": "<=0.5"}])", "--sla-lower-bound", "4", "--sla-upper-bound",
                    "200", "--sla-fixed-parallel", "4", "--search-precision", "5"}),
      "", 900);
  ASSERT_EQ(run.process.exit_code, 0) << diagnostics(run);
  const double answer = search_answer(run.process.out);
  ASSERT_GT(answer, 0) << run.process.out;
  EXPECT_NE(run.process.out.find("(cap 4 reached)"), std::string::npos) << run.process.out;
  std::string table;
  // EvalScope's probes send 2 x the rate requests; the sweep sends as many as the answer's probe.
  const std::string requests = std::to_string(static_cast<int>(std::lround(2 * answer)));
  const double sustained =
      highest_sustained_rate(concat(load, {"--parallel", "4", "-n", requests}),
                             rates_around(answer, kMockAgreement), 500, table);
  ASSERT_GT(sustained, 0) << table << run.process.out;
  EXPECT_TRUE(kMockAgreement.agrees(answer, sustained))
      << "the search answered " << answer << " req/s; the sweep found " << sustained
      << " sustained:\n"
      << table << run.process.out;
}

// The reproduction of issue 37 against llama.cpp's server (-c 8192 --parallel 4 -t 1, 200-token
// prompts, 64-token answers): it answered 100 req/s; the server sustains about a tenth of that.
class LlamaServerCapacityTest : public LlamaServerFixture {
 protected:
  std::vector<std::string> server_flags() const override { return {"-c", "8192"}; }
};

TEST_F(LlamaServerCapacityTest, RateSearchAnswersWhatItSustains) {
  // --sleep-interval 0: every request of a probe has ended when it ends, so the server is idle
  // (the default 5 s between probes and between the sweep's runs was half of the test's time).
  const std::vector<std::string> load = {
      "--url", server_->base() + "/v1/chat/completions", "--model", "tiny-llama", "--dataset",
      "random", "--input-tokens", "200", "--output-tokens", "64", "--ignore-eos", "--arrival",
      "constant", "-n", "40", "--sleep-interval", "0"};
  expect_search_finds_the_sustained_rate(
      load,
      {"--search", "rate", "--search-range", "4", "40", "--search-precision", "5", "--slo",
       "ttft.p99<=1000ms"},
      1000, kRealServerAgreement, 2);
}

}  // namespace
}  // namespace llmperf::testing
