// Sharded runs: which part of one benchmark this process sends (--shard I/N, or the launcher's
// environment: Kubernetes Indexed Jobs, Slurm, Open MPI, PMI), and --start-at, the wall-clock
// instant every shard sends its first request at.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace llmperf {

struct ShardChoice {
  int index = 0;
  int count = 1;       // 1: not sharded
  std::string source;  // "--shard", "Kubernetes (JOB_COMPLETION_INDEX)", "Slurm", ... or ""
};

// Reads a variable of the environment (nullptr when unset); tests pass their own.
using EnvReader = std::function<const char*(const char*)>;

// The shard of this process: `flag` ("I/N", 0-based I; "" when --shard was not given) wins;
// otherwise, in order, JOB_COMPLETION_INDEX with `shards_flag` (--shards N: a Kubernetes Job does
// not export its completions), OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE, PMI_RANK/PMI_SIZE,
// SLURM_PROCID/SLURM_NTASKS (last: mpirun inside a Slurm job passes SLURM_PROCID=0 to every
// rank). Appends readable errors for malformed values.
ShardChoice resolve_shard(const std::string& flag, int shards_flag, const EnvReader& env,
                          std::vector<std::string>& errors);

// --start-at: RFC 3339 ("2026-11-24T21:30:00Z", offsets and fractions allowed) or Unix seconds
// ("1795555800", "1795555800.5") -> Unix nanoseconds; -1 with an error appended when malformed.
int64_t parse_start_at(const std::string& text, std::vector<std::string>& errors);

}  // namespace llmperf
