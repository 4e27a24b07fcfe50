// Open-loop arrival schedules: a seeded, precomputed list of planned send offsets, so a run's
// arrivals are reproducible and sends happen at absolute times (never by chaining relative sleeps).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/run_types.h"

namespace llmperf {

enum class Arrival : uint8_t {
  kConstant,  // evenly spaced, 1/rate apart
  kPoisson,   // exponential inter-arrival times (gamma with shape 1)
  kGamma,     // gamma inter-arrival times with shape = burstiness (vLLM's meaning)
};

struct ScheduleSpec {
  double rate = 1;  // requests per second (> 0)
  Arrival arrival = Arrival::kPoisson;
  double burstiness = 1;  // gamma shape: 1 = Poisson, < 1 burstier, > 1 more regular
  uint64_t seed = 0;
  RampUp ramp;  // when on: request i's gap is drawn at ramp.rate_at(i, count) instead of `rate`
  // Scale the drawn gaps so that the schedule asks exactly `rate` on average: its last send at
  // (count - 1) / rate (not with a ramp-up). --search rate's probes: with one seed every probe
  // draws the same gaps, scaled by its rate, so an unscaled draw that happens to be 20 % slow
  // makes every probe ask 20 % less than its rate, and the answer 25 % too high.
  bool exact_mean = false;
};

// "constant" | "poisson" | "gamma"; throws std::invalid_argument for anything else.
Arrival parse_arrival(const std::string& name);
const char* arrival_name(Arrival arrival);

// Planned send offsets (ns from the run start) of `count` requests: the first at 0, then
// cumulative inter-arrival gaps with mean 1/rate drawn from the chosen distribution. With a
// ramp-up, the gap before request i has mean 1 / ramp.rate_at(i, count) (as vLLM draws it).
// With spec.exact_mean, the offsets are then scaled so that the last is (count - 1) / rate.
std::vector<int64_t> make_schedule(const ScheduleSpec& spec, int64_t count);

}  // namespace llmperf
