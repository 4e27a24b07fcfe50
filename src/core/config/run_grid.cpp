// The runs a sweep's sections describe and the texts one request carries (run_grid.h), and the
// warm-up count of each run (load.h). Pure functions of the validated fields.
#include "core/config/run_grid.h"

#include <algorithm>
#include <cmath>

namespace llmperf {

std::vector<RunSpec> run_specs(const LoadConfig& load, const WorkloadConfig& workload,
                               const ResolvedFlags& resolved) {
  const std::vector<int64_t>& numbers = resolved.number;
  const std::vector<double>& rates = resolved.rate;
  std::vector<RunSpec> result;
  if (numbers.empty() || load.parallel.empty()) return result;
  const size_t count = rates.empty() ? load.parallel.size() : rates.size();
  // A list of one value applies to every run; otherwise item i belongs to run i.
  const auto pick = [](const auto& list, size_t i) {
    return list.size() == 1 ? list.front() : list[std::min(i, list.size() - 1)];
  };
  for (size_t i = 0; i < count; ++i) {
    if (numbers.size() > 1 && i >= numbers.size()) break;
    RunSpec run;
    run.parallel = pick(load.parallel, i);
    run.number = pick(numbers, i);
    run.rate = rates.empty() ? -1.0 : rates[i];
    // The --input-tokens x --output-tokens grid, inputs outer; no lists: the run itself.
    const std::vector<int64_t> none = {-1};
    for (const int64_t in : workload.input_tokens.empty() ? none : workload.input_tokens) {
      for (const int64_t out : workload.output_tokens.empty() ? none : workload.output_tokens) {
        run.input_tokens = in;
        run.output_tokens = out;
        result.push_back(run);
      }
    }
  }
  return result;
}

int64_t texts_per_request(ApiKind api, const WorkloadConfig& workload) {
  if (api == ApiKind::kEmbeddings) return std::max<int64_t>(1, workload.batch_size);
  if (api == ApiKind::kRerank) return 1 + std::max<int64_t>(1, workload.documents);
  return 1;
}

// Of a load section: a pure function of --warmup-num.
int64_t LoadConfig::warmup_count(int64_t run_number) const {
  if (warmup_num <= 0) return 0;
  if (warmup_num < 1) return std::llround(warmup_num * static_cast<double>(run_number));
  return static_cast<int64_t>(warmup_num);
}

}  // namespace llmperf
