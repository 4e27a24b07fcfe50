// The study: its configurations from the strategy, each run as a trial (trial_runner.cpp), the
// ledger appended and flushed as each trial ends, resumption from the ledger, successive halving's
// rungs, and the study's files at the end (report/study/).
#include "app/tune/study.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "app/log_tag.h"
#include "app/signals.h"
#include "app/tune/learned_search.h"
#include "app/tune/objectives.h"
#include "app/tune/ports.h"
#include "app/tune/server_process.h"
#include "app/tune/shared_search.h"
#include "app/tune/slot_runner.h"
#include "app/tune/trial_runner.h"
#include "core/clock.h"
#include "core/version.h"
#include "http/curl_transport.h"
#include "plan/run_plan.h"
#include "report/study/study_files.h"
#include "report/study/study_text.h"
#include "study/best.h"
#include "study/exclude.h"
#include "study/gpu_cost.h"
#include "study/label.h"
#include "study/prefer.h"
#include "study/slots.h"
#include "study/study_file.h"
#include "study/template.h"

namespace llmperf {
namespace {

namespace fs = std::filesystem;

// The ledger, study.jsonl: one line per trial, appended and flushed (fsync) as each trial ends,
// so that a crash loses at most the trial in progress.
class LedgerWriter {
 public:
  LedgerWriter(const std::string& path, const Ledger& existing) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error(fmt::format("cannot write {}", path));
    // A line cut short by a crash is dropped before anything is appended.
    if (::ftruncate(fd_, static_cast<off_t>(existing.keep_bytes)) != 0 ||
        ::lseek(fd_, 0, SEEK_END) < 0) {
      throw std::runtime_error(fmt::format("cannot write {}", path));
    }
    if (existing.needs_newline) write("\n");
    path_ = path;
  }
  ~LedgerWriter() {
    if (fd_ >= 0) ::close(fd_);
  }
  LedgerWriter(const LedgerWriter&) = delete;
  LedgerWriter& operator=(const LedgerWriter&) = delete;

  void append(const TrialRecord& record) {
    write(trial_to_json(record) + "\n");
    ::fsync(fd_);
  }

 private:
  void write(const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
      if (n <= 0) throw std::runtime_error(fmt::format("cannot write {}", path_));
      done += static_cast<size_t>(n);
    }
  }
  int fd_ = -1;
  std::string path_;
};

// Everything the flags imply, worked out before any server starts.
struct StudyPlan {
  std::vector<ParamSpace> spaces;
  Strategy strategy;
  std::vector<ExcludeRule> excludes;
  Objective objective;                // the first --objective
  std::vector<Objective> objectives;  // every --objective (several: a Pareto front, objectives.h)
  std::vector<Assignment> configs;    // in the strategy's order
  Config base;  // trial 0's benchmark flags (outputs dir, seed, -n, --parallel)
  std::vector<std::string> warnings;
  std::vector<Slot> slots;  // --slots; empty: one trial at a time, as without slots
};

// Checks every template against the names it may use, so a typo fails before anything starts.
void check_templates(const StudySpec& spec, const std::vector<ParamSpace>& spaces) {
  std::vector<std::string> known(std::begin(kBuiltinNames), std::end(kBuiltinNames));
  if (!spec.slots.empty()) known.insert(known.end(), std::begin(kSlotNames), std::end(kSlotNames));
  for (const ParamSpace& space : spaces) known.push_back(space.name);
  // {slot} and {gpus} without --slots: say what they need rather than that they are unknown.
  std::vector<std::string> texts = {spec.serve, spec.gpus_per_trial, spec.stop_cmd,
                                    spec.between_cmd};
  texts.insert(texts.end(), spec.bench_args.begin(), spec.bench_args.end());
  for (const std::string& text : texts) {
    for (const std::string& name : template_names(text)) {
      if (spec.slots.empty() &&
          std::find(std::begin(kSlotNames), std::end(kSlotNames), name) != std::end(kSlotNames)) {
        throw std::invalid_argument(
            fmt::format("'{}': {{{}}} needs --slots (what each trial run side by side gets, e.g. "
                        "--slots '0;1;2;3')",
                        text, name));
      }
    }
  }
  check_template(spec.serve, known, "--serve");
  if (!spec.gpus_per_trial.empty()) check_template(spec.gpus_per_trial, known, "--gpus-per-trial");
  if (!spec.stop_cmd.empty()) check_template(spec.stop_cmd, known, "--stop-cmd");
  if (!spec.between_cmd.empty()) check_template(spec.between_cmd, known, "--between-cmd");
  for (const std::string& arg : spec.bench_args) {
    check_template(arg, known, fmt::format("benchmark argument '{}'", arg));
  }
}

// --prefer's keys, --gpus-per-trial and --gpu-hour-cost against what the objective needs, so
// that a study which could never name its figures fails before anything starts.
void check_gpu_flags(const StudySpec& spec, const Objective& objective,
                     const std::vector<ParamSpace>& spaces, const std::vector<Slot>& slots) {
  // A trial's GPU count: --gpus-per-trial, else its slot's, when the slots list GPU ids.
  const bool slot_gpus =
      !slots.empty() && std::all_of(slots.begin(), slots.end(),
                                    [](const Slot& slot) { return slot.gpu_ids().has_value(); });
  const bool gpus = !spec.gpus_per_trial.empty() || slot_gpus;
  if (!spec.gpus_per_trial.empty() && template_names(spec.gpus_per_trial).empty()) {
    gpu_count(spec.gpus_per_trial);  // a number: checked now
  }
  if (objective.figure == kPerGpuMetric && !gpus) {
    throw std::invalid_argument(
        "--objective output_throughput_per_gpu needs --gpus-per-trial N (each trial's GPUs)");
  }
  if (objective.figure == kCostPerMtokMetric &&
      (!gpus || !(spec.gpu_hour_cost > 0))) {
    throw std::invalid_argument(
        "--objective cost_per_mtok needs --gpus-per-trial N and --gpu-hour-cost USD");
  }
  if (spec.gpu_hour_cost > 0 && !gpus) {
    throw std::invalid_argument("--gpu-hour-cost needs --gpus-per-trial N (each trial's GPUs)");
  }
  for (const PreferKey& key : parse_prefer(spec.prefer).keys) {
    if (key.name == kPreferGpus || key.name == kPreferGpuMemory || key.name == kPerGpuMetric ||
        key.name == kCostPerMtokMetric || key.name == "output_throughput_per_user") {
      continue;
    }
    const bool param = std::any_of(spaces.begin(), spaces.end(),
                                   [&](const ParamSpace& space) { return space.name == key.name; });
    if (param) continue;
    try {
      parse_metric(key.name, "--prefer");
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument(fmt::format(
          "--prefer: '{}' is neither gpus, gpu_memory, a --param nor a metric", key.name));
    }
  }
}

StudyPlan plan_study(const StudySpec& spec, const BenchFlagsParser& parse_bench_flags) {
  StudyPlan plan;
  plan.spaces = parse_params(spec.params);
  plan.strategy = parse_strategy(spec.strategy);
  check_shared_study(spec, plan.strategy);
  for (const std::string& text : spec.excludes) plan.excludes.push_back(parse_exclude(text, plan.spaces));
  plan.objectives = parse_objectives(spec);  // the first is --objective's
  plan.objective = plan.objectives.front();
  if (!spec.slots.empty()) plan.slots = parse_slots(spec.slots);
  for (const Objective& objective : plan.objectives) {
    check_gpu_flags(spec, objective, plan.spaces, plan.slots);
  }
  check_templates(spec, plan.spaces);
  // The benchmark's flags must parse before anything runs: for the first configuration of the
  // grid, or (when a linked parameter makes some configurations' flags invalid, such as
  // --parallel {n} with n=0) for the first one whose flags parse; those that do not are
  // bench_failed trials.
  // Candidates: the grid's configurations in order, or (a space too large to list, which only
  // random:N may search) a few drawn from it.
  std::vector<Assignment> candidates;
  if (plan.spaces.empty()) {
    candidates = {Assignment{}};
  } else if (grid_size(plan.spaces) <= kMaxTrials) {
    candidates = grid_assignments(plan.spaces);
  } else {
    candidates = random_assignments(plan.spaces, 64, 0);
  }
  std::string first_error;
  const bool linked = !template_names(fmt::format("{}", fmt::join(spec.bench_args, " "))).empty();
  for (size_t tried = 0; tried < candidates.size() && tried < (linked ? 64u : 1u); ++tried) {
    const Assignment& candidate = candidates[tried];
    TrialSpec probe{0, candidate, "", 0, -1, ""};
    if (!plan.slots.empty()) probe.slot = TrialSlot{0, plan.slots[0]};
    const TemplateValues values = template_values(probe, "8000", "/tmp/outdir");
    std::vector<std::string> user_args;  // the flags as given, for the outputs dir and -n
    for (const std::string& arg : spec.bench_args) {
      user_args.push_back(substitute(arg, values, fmt::format("benchmark argument '{}'", arg)));
    }
    try {
      plan.base = parse_bench_flags(user_args, &plan.warnings);
      first_error.clear();
      break;
    } catch (const std::invalid_argument& error) {
      if (first_error.empty()) first_error = error.what();
    }
  }
  if (!first_error.empty()) throw std::invalid_argument(first_error);
  check_several_objectives(spec, plan.strategy, plan.base);
  switch (plan.strategy.kind) {
    case StrategyKind::kGrid:
    case StrategyKind::kHalving:
      plan.configs = grid_assignments(plan.spaces);
      break;
    case StrategyKind::kRandom:
      plan.configs = random_assignments(plan.spaces, plan.strategy.samples, plan.base.load.seed);
      break;
    case StrategyKind::kTpe:
    case StrategyKind::kCmaes:
    case StrategyKind::kNsga2:
      break;  // asked of the sampler as the study goes (learned_search.h)
  }
  return plan;
}

std::string trial_dir_name(size_t index, const std::string& label, int rung, bool halving) {
  std::string dir = fmt::format("trial_{}_{}", index, label.substr(label.find('-') + 1));
  if (halving) dir += fmt::format("/rung_{}", rung);
  return dir;
}

// <--outputs-dir>/<timestamp>/tune.
std::string study_dir_of(const Config& base) {
  fs::path dir = base.output.outputs_dir;
  if (!base.output.no_timestamp) dir /= wall_clock_text("%Y%m%d_%H%M%S", TimeZone::kLocal);
  return (dir / "tune").string();
}

struct Key {
  int64_t trial;
  int rung;
  bool operator<(const Key& other) const {
    return std::tie(trial, rung) < std::tie(other.trial, other.rung);
  }
};

}  // namespace

int gpu_count(const std::string& text) {
  int count = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (error != std::errc() || end != text.data() + text.size() || count <= 0) {
    throw std::invalid_argument(
        fmt::format("--gpus-per-trial: '{}' is not a GPU count (a positive integer)", text));
  }
  return count;
}

std::string Objective::name() const { return figure.empty() ? metric.name() : figure; }

std::string Objective::unit() const {
  if (figure == kPerGpuMetric) return "tok/s/GPU";
  if (figure == kCostPerMtokMetric) return "USD/Mtok";
  return metric.unit;
}

std::string Objective::text() const { return name() + (maximize ? ":max" : ":min"); }

std::optional<double> objective_value(const Objective& objective, std::optional<double> metric,
                                      std::optional<int> gpus, const StudySpec& spec) {
  if (!metric || objective.figure.empty()) return metric;
  if (!gpus) return std::nullopt;
  if (objective.figure == kPerGpuMetric) return throughput_per_gpu(*metric, *gpus);
  return cost_per_mtok(*metric, *gpus, spec.gpu_hour_cost);
}

Objective parse_objective(const std::string& text) {
  std::string name = text;
  std::optional<bool> direction;
  if (const size_t colon = text.rfind(':'); colon != std::string::npos) {
    const std::string suffix = text.substr(colon + 1);
    if (suffix != "max" && suffix != "min") {
      throw std::invalid_argument(fmt::format(
          "--objective '{}': '{}' is no direction (write :max or :min)", text, suffix));
    }
    direction = suffix == "max";
    name = text.substr(0, colon);
  }
  Objective objective;
  if (name == kPerGpuMetric || name == kCostPerMtokMetric) {
    objective.figure = name;
    objective.metric = parse_metric("output_throughput", "--objective");
    objective.maximize = direction.value_or(name == kPerGpuMetric);
    return objective;
  }
  objective.metric = parse_metric(name, "--objective");
  objective.maximize = direction.value_or(higher_is_better(objective.metric));
  return objective;
}

std::string default_study_dir(const StudySpec& spec, const BenchFlagsParser& parse_bench_flags) {
  return study_dir_of(plan_study(spec, parse_bench_flags).base);
}

StudyResult run_study(const StudySpec& spec, const StudyOptions& options) {
  StudyPlan plan = plan_study(spec, options.parse_bench_flags);
  for (const std::string& warning : plan.warnings) spdlog::warn("{}", warning);
  const auto print = [&](const std::string& text) {
    if (options.print) options.print(text);
  };
  const bool halving = plan.strategy.kind == StrategyKind::kHalving;
  const int64_t full_requests =
      plan.base.load.number.empty()
          ? 1
          : *std::max_element(plan.base.load.number.begin(), plan.base.load.number.end());
  const int64_t concurrency =
      plan.base.load.parallel.empty()
          ? 1
          : *std::max_element(plan.base.load.parallel.begin(), plan.base.load.parallel.end());

  StudyResult result;
  result.dir = options.study_dir.empty() ? study_dir_of(plan.base) : options.study_dir;

  StudyInfo info;
  info.spec = spec;
  info.version = std::string("llmperf ") + kLlmperfVersion;
  info.started = wall_clock_text("%Y-%m-%dT%H:%M:%SZ", TimeZone::kUtc);
  info.objective = plan.objective.name();
  info.unit = plan.objective.unit();
  info.maximize = plan.objective.maximize;
  info.objectives = study_objectives(plan.objectives);
  info.strategy = plan.strategy.text();
  info.seed = plan.base.load.seed;
  if (!plan.base.verdicts.search.empty()) {
    // Each trial's objective is its search's answer (trial_runner.cpp), and more is better.
    const SearchObjective search = search_objective(plan.base.verdicts.search);
    if (spec.objective != StudySpec{}.objective) {
      spdlog::warn(
          "--objective {} is not used: with --search {}, each trial's objective is its "
          "search's answer ({}, {})",
          spec.objective, plan.base.verdicts.search, search.name, search.unit);
    }
    info.objective = search.name;
    info.unit = search.unit;
    info.maximize = true;
    plan.objective.maximize = true;  // successive halving ranks the trials by it too
  }

  // Which configurations are excluded, and the trials' labels.
  std::vector<std::string> labels;
  std::vector<std::optional<size_t>> excluded;
  std::vector<size_t> active;
  for (size_t i = 0; i < plan.configs.size(); ++i) {
    labels.push_back(trial_label(i, plan.spaces, plan.configs[i]));
    excluded.push_back(first_matching_exclude(plan.excludes, plan.configs[i]));
    if (!excluded.back()) active.push_back(i);
  }
  std::vector<HalvingRung> rungs;
  if (halving) {
    rungs = halving_plan(active.size(), full_requests, plan.strategy.eta, concurrency);
    info.rungs = rungs;
  }

  // A learned search's sampler, started now so that a missing Optuna fails before anything runs.
  std::unique_ptr<LearnedSearch> learned;
  if (plan.strategy.learned()) {
    // A shared study's storage is not touched by a dry run.
    learned = std::make_unique<LearnedSearch>(LearnedSearchOptions{
        &plan.spaces, plan.strategy, info.maximize, plan.base.load.seed, spec.python,
        info.objectives,
        options.dry_run ? std::nullopt
                        : shared_study_options(spec, result.dir,
                                               nlohmann::json::parse(study_info_to_json(info).dump()))});
    if (!options.dry_run) spdlog::info("{}", learned->describe());
  }
  // Trials side by side: as many at once as there are slots (one without --slots).
  const size_t slot_count = std::max<size_t>(1, plan.slots.size());
  const auto slot_of = [&](size_t slot) -> std::optional<TrialSlot> {
    if (plan.slots.empty()) return std::nullopt;
    return TrialSlot{static_cast<int>(slot), plan.slots[slot]};
  };
  if (learned && slot_count > 1) {
    spdlog::warn(
        "--slots: --strategy {} runs one trial at a time, in slot 0 ({}): its sampler "
        "chooses each configuration from the results of those before it",
        plan.strategy.text(), plan.slots[0].gpus());
  }

  if (options.dry_run) {
    std::string out = fmt::format("llmperf tune --dry-run: {} configuration(s), {} excluded, strategy {}\n",
                                  plan.configs.size(), plan.configs.size() - active.size(),
                                  plan.strategy.text());
    if (learned) {
      out = fmt::format("llmperf tune --dry-run: strategy {}: the sampler chooses each "
                        "configuration from the results before it, so none is listed\n{}\n",
                        plan.strategy.text(), learned->describe());
    }
    for (size_t r = 0; r < rungs.size(); ++r) {
      out += fmt::format("  rung {}: {} configuration(s) x -n {}{}\n", r, rungs[r].configs,
                         rungs[r].requests,
                         rungs[r].promoted > 0 ? fmt::format(", the best {} go on", rungs[r].promoted) : "");
    }
    if (slot_count > 1) {
      out += fmt::format(
          "  {} slots ({}): up to {} trials at once, each taking the first slot free; shown as if "
          "every trial took as long{}\n",
          slot_count, spec.slots, slot_count, halving ? ", within each rung" : "");
    }
    size_t position = 0;  // among the trials that start a server, for their slot
    for (size_t i = 0; i < plan.configs.size(); ++i) {
      TrialSpec trial{static_cast<int64_t>(i), plan.configs[i], labels[i], 0, -1,
                      trial_dir_name(i, labels[i], 0, false)};
      if (!excluded[i]) trial.slot = slot_of(position++ % slot_count);
      out += fmt::format(
          "trial {}  {}{}\n", i, labels[i],
          trial.slot ? fmt::format("  slot {} ({})", trial.slot->index, trial.slot->slot.gpus())
                     : "");
      if (excluded[i]) {
        out += fmt::format("  excluded by --exclude '{}'\n", spec.excludes[*excluded[i]]);
        continue;
      }
      const TemplateValues values =
          template_values(trial, "{port}", (fs::path(result.dir) / trial.dir).string());
      out += "  server:    " + substitute(spec.serve, values, "--serve") + "\n";
      out += "  benchmark: llmperf " +
             shell_join(trial_bench_args(spec.bench_args, values,
                                         (fs::path(result.dir) / trial.dir / "bench").string())) +
             "\n";
    }
    print(out);
    result.text = out;
    return result;
  }

  // The study's directory, study.json and the ledger so far.
  std::error_code ec;
  fs::create_directories(result.dir, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create {}: {}", result.dir, ec.message()));
  Ledger ledger;
  const std::string ledger_path = (fs::path(result.dir) / "study.jsonl").string();
  if (options.resume && fs::exists(ledger_path)) {
    ledger = read_ledger(ledger_path);
    for (const std::string& problem : ledger.problems) spdlog::warn("{}", problem);
  }
  if (!options.resume || !fs::exists(fs::path(result.dir) / "study.json")) {
    write_study_file(result.dir, info);
  } else {
    // Resumed: the study started when study.json says, as `llmperf report DIR` reads it too.
    info.started = read_study_info(result.dir).started;
  }
  std::map<Key, TrialRecord> done;
  std::vector<TrialRecord> reruns;  // --confirm's reruns already in the ledger
  for (const TrialRecord& record : ledger.trials) {
    if (record.confirm) {
      if (trial_status_final(record.status)) reruns.push_back(record);
    } else if (trial_status_final(record.status)) {
      done[{record.trial, record.rung}] = record;
    }
  }
  LedgerWriter writer(ledger_path, ledger);
  init_transport();  // before any thread: the readiness probes and the benchmark use libcurl
  install_interrupt_handlers();

  PortLeases ports;  // --slots: no two trials side by side on one port
  TrialContext context{&spec,       &plan.spaces, &plan.objective, result.dir,
                       options.parse_bench_flags, &plan.objectives};
  if (!plan.slots.empty()) context.ports = &ports;
  // The ledger, the printed lines and result.trials, written from the slots' threads: each
  // trial's record is appended, printed and kept under one lock, so that result.trials is in
  // the ledger's order.
  std::mutex record_mutex;
  // Runs (or keeps from the ledger) trial i at `rung` in `slot`; with `keep`, adds its record to
  // result.trials.
  const auto run_one = [&](size_t i, int rung, int64_t requests, size_t slot,
                           bool keep) -> TrialRecord {
    if (const auto it = done.find({static_cast<int64_t>(i), rung}); it != done.end()) {
      std::lock_guard lock(record_mutex);
      print(trial_line(it->second, info) + "  (kept from the ledger)\n");
      if (keep) result.trials.push_back(it->second);
      return it->second;
    }
    TrialRecord record;
    if (excluded[i]) {
      record.trial = static_cast<int64_t>(i);
      record.label = labels[i];
      record.params = plan.configs[i];
      record.status = TrialStatus::kExcluded;
      record.reason = fmt::format("--exclude '{}'", spec.excludes[*excluded[i]]);
    } else {
      // Trials side by side (a learned search runs one at a time): every log line of this one
      // (its benchmark's too) names it.
      std::optional<ScopedLogTag> tag;
      if (slot_count > 1 && !learned) tag.emplace(fmt::format("[{} slot {}] ", labels[i], slot));
      spdlog::info("trial {} ({}/{}{}): starting the server", labels[i], i + 1, plan.configs.size(),
                   halving ? fmt::format(", rung {}", rung) : std::string());
      TrialSpec trial{static_cast<int64_t>(i), plan.configs[i], labels[i], rung, requests,
                      trial_dir_name(i, labels[i], rung, halving)};
      trial.slot = slot_of(slot);
      record = run_trial(context, trial);
    }
    record.stage = options.stage;
    std::lock_guard lock(record_mutex);
    writer.append(record);
    print(trial_line(record, info) + "\n");
    if (keep) result.trials.push_back(record);
    return record;
  };
  const auto stop = [] { return interrupt_requested(); };

  if (learned) {
    // The configurations as the sampler draws them: trial i is the i-th drawn.
    const auto run_drawn = [&](size_t i, const Assignment& params) {
      if (plan.configs.size() <= i) {
        plan.configs.resize(i + 1);
        labels.resize(i + 1);
        excluded.resize(i + 1);
      }
      plan.configs[i] = params;
      labels[i] = trial_label(i, plan.spaces, params);
      excluded[i] = first_matching_exclude(plan.excludes, params);
      return run_one(i, 0, -1, 0, false);  // one at a time, in the first slot
    };
    std::vector<TrialRecord> previous;
    for (size_t line : study_row_lines(ledger.trials)) previous.push_back(ledger.trials[line]);
    result.trials = learned->run(previous, run_drawn);
    result.storage_lost = learned->storage_lost();
  } else if (!halving) {
    run_in_slots(
        slot_count, plan.configs.size(),
        [&](size_t i, size_t slot) { run_one(i, 0, -1, slot, true); }, stop);
  } else {
    for (size_t i = 0; i < plan.configs.size(); ++i) {
      if (excluded[i]) run_one(i, 0, -1, 0, true);
    }
    std::vector<size_t> survivors = active;
    for (size_t r = 0; r < rungs.size() && !interrupt_requested(); ++r) {
      // The rung's trials fill the slots; the rung ends when all of them have.
      const int64_t requests = r + 1 == rungs.size() ? -1 : rungs[r].requests;
      std::vector<std::optional<TrialRecord>> records(survivors.size());
      run_in_slots(
          slot_count, survivors.size(),
          [&](size_t job, size_t slot) {
            records[job] = run_one(survivors[job], static_cast<int>(r), requests, slot, true);
          },
          stop);
      std::vector<std::pair<double, size_t>> ranked;
      for (size_t job = 0; job < survivors.size(); ++job) {
        const std::optional<TrialRecord>& record = records[job];
        if (record && record->status == TrialStatus::kOk && record->objective) {
          ranked.emplace_back(plan.objective.maximize ? -*record->objective : *record->objective,
                              survivors[job]);
        }
      }
      std::stable_sort(ranked.begin(), ranked.end());
      survivors.clear();
      for (size_t k = 0; k < ranked.size() && k < rungs[r].promoted; ++k) survivors.push_back(ranked[k].second);
      std::sort(survivors.begin(), survivors.end());
    }
  }
  const Preference prefer = parse_prefer(spec.prefer);
  result.trials.insert(result.trials.end(), reruns.begin(), reruns.end());
  if (spec.confirm && spec.num_runs > 1) {
    spdlog::warn("--confirm is not used: with --num-runs {}, each configuration's repeats give "
                 "its 95 % interval", spec.num_runs);
  } else if (spec.confirm && !interrupt_requested()) {
    // Without repeats: the leader and the runner-up once more, at the leader's rung, each on a
    // fresh server (best.h reads whether their order held).
    const StudyBest best = study_best(result.trials, rungs.size(), info.maximize, prefer);
    std::optional<size_t> second;
    if (best.leader) second = runner_up(result.trials, *best.leader, info.maximize);
    if (!second) {
      spdlog::warn("--confirm: {}", best.leader ? "no runner-up to compare the leader with"
                                                : "no leader to confirm");
    }
    for (const size_t line : {best.leader.value_or(0), second.value_or(0)}) {
      if (!second || interrupt_requested()) break;
      const TrialRecord row = result.trials[line];
      const bool rerun = std::any_of(reruns.begin(), reruns.end(), [&](const TrialRecord& r) {
        return r.trial == row.trial && r.rung == row.rung;
      });
      if (rerun) continue;
      const size_t i = static_cast<size_t>(row.trial);
      spdlog::info("--confirm: running {} once more", row.label);
      // The rung's own requests, so that a leader measured short is compared like for like.
      const size_t rung = static_cast<size_t>(row.rung);
      const int64_t requests = rung + 1 < rungs.size() ? rungs[rung].requests : -1;
      TrialSpec trial{row.trial, row.params, row.label, row.rung, requests,
                      trial_dir_name(i, row.label, row.rung, halving) + "/confirm"};
      trial.slot = slot_of(0);
      TrialRecord record = run_trial(context, trial);
      record.confirm = true;
      writer.append(record);
      print(trial_line(record, info) + "  (--confirm rerun)\n");
      result.trials.push_back(std::move(record));
    }
  }
  result.interrupted = interrupt_requested();
  stop_all_servers();

  // The best configuration, by the rule the study's outputs follow (study/best.h).
  if (info.objectives.empty()) {
    result.best = study_best(result.trials, rungs.size(), info.maximize, prefer).trial;
  } else {
    result.front = study_front(result.trials, info.objectives);  // several: no single best
  }
  result.text = write_study_outputs(result.dir, info, result.trials);
  print(result.text);
  return result;
}

}  // namespace llmperf
