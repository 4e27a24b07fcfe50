// One trial of a study: fill the templates, start the server, wait until it is ready, benchmark
// it (--num-runs times, resetting its prefix cache between), stop it, and say how it went as the
// ledger's TrialRecord. Everything that can go wrong with a server becomes the record's status and
// reason, never an exception.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/tune/study.h"
#include "core/config.h"
#include "study/slots.h"
#include "study/space.h"
#include "study/study_spec.h"
#include "study/template.h"
#include "study/trial.h"

namespace llmperf {

class PortLeases;

// What every trial of a study shares.
struct TrialContext {
  const StudySpec* spec = nullptr;
  const std::vector<ParamSpace>* spaces = nullptr;
  const Objective* objective = nullptr;
  std::string study_dir;
  BenchFlagsParser parse_bench_flags;
  // Every --objective; with several, each one's value is recorded in the trial's metrics
  // (objectives.h). Null: the one objective.
  const std::vector<Objective>* objectives = nullptr;
  // --slots: the ports of the trials running side by side (ports.h), so that no two get the same;
  // null: pick_free_port.
  PortLeases* ports = nullptr;
};

// The slot a trial runs in (--slots).
struct TrialSlot {
  int index = 0;  // {slot}
  Slot slot;      // {gpus}: its items; its GPU ids, when they are, for the GPU sampler
};

// Which trial to run.
struct TrialSpec {
  int64_t index = 0;      // {trial}
  Assignment params;      // the configuration
  std::string label;      // "0-enable-64"
  int rung = 0;           // successive halving's rung (0 otherwise)
  int64_t requests = -1;  // halving: -n of this rung's runs (the longest run's); -1 = as given
  std::string dir;        // the trial's directory, relative to the study's ({outdir} is absolute)
  std::optional<TrialSlot> slot = std::nullopt;  // --slots: the slot it runs in
};

// The values the templates of trial `trial` see: port, trial, outdir, with --slots slot and gpus,
// then the parameters.
TemplateValues template_values(const TrialSpec& trial, const std::string& port,
                               const std::string& outdir);

// The benchmark's arguments of a trial: each template filled in, --outputs-dir/--no-timestamp
// replaced by the trial's own directory. Throws std::invalid_argument for a bad template.
std::vector<std::string> trial_bench_args(const std::vector<std::string>& bench_args,
                                          const TemplateValues& values,
                                          const std::string& outputs_dir);

// Runs one trial to its end (or to Ctrl-C) and returns its ledger record.
TrialRecord run_trial(const TrialContext& context, const TrialSpec& trial);

// Shell-quotes `args` for display: `--url 'http://x/{a b}'`.
std::string shell_join(const std::vector<std::string>& args);

}  // namespace llmperf
