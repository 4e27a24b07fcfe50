#!/usr/bin/env bash
# One llmperf benchmark run as NP shards by Open MPI's mpirun: each rank reads its shard from
# OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE (other MPIs: PMI_RANK/PMI_SIZE), they all send their
# first request at $START_AT, then the ranks' run directories are merged into one result. llmperf
# uses no MPI itself: mpirun only starts the processes and tells each its rank.
#   deploy/mpi/run.sh
#   SERVER_URL=http://gpu-node-7:8000/v1/chat/completions MPIRUN_ARGS="--hostfile hosts" deploy/mpi/run.sh
# On one machine with fewer cores than NP, add --oversubscribe (mpirun refuses otherwise); as root,
# --allow-run-as-root:
#   MPIRUN_ARGS="--oversubscribe --allow-run-as-root" deploy/mpi/run.sh
# Across machines, RESULTS must be on a file system every host sees (the merge reads all shards),
# and the hosts' clocks must agree (NTP/chrony): --start-at is a wall-clock instant.
# tests/deploy/deploy_recipes_test.sh runs this script under a real mpirun against llmperf-mock.
set -euo pipefail

NP=${NP:-3}
SERVER_URL=${SERVER_URL:-http://127.0.0.1:8000/v1/chat/completions}
MODEL=${MODEL:-Qwen/Qwen2.5-7B-Instruct}
REQUESTS=${REQUESTS:-3000}  # of the whole benchmark, shared out among the ranks
LLMPERF=${LLMPERF:-llmperf}
RESULTS=${RESULTS:-results/mpi_$(date +%Y%m%d_%H%M%S)}
# Extra mpirun flags, split on spaces: --hostfile, --oversubscribe, --allow-run-as-root, ...
read -r -a mpirun_args <<<"${MPIRUN_ARGS:-}"

# Computed once, here, so every rank gets the same instant: 30 s to start the ranks and prepare
# (prompts, tokenization, probe). A rank not ready by then starts at once with a warning; the merge
# reports the spread of the actual starts.
START_AT=${START_AT:-$(($(date +%s) + 30))}

# llmperf's flags, the same for every rank: one benchmark, the same seed (the same prompts), each
# rank sending the requests of its shard.
LLMPERF_ARGS=(
  --url "$SERVER_URL"
  --model "$MODEL"
  --dataset random --input-tokens 1024 --output-tokens 256
  -n "$REQUESTS"
  --parallel 96  # in flight across all ranks; each keeps its share (remainders spread)
  --seed 42
  --start-at "$START_AT"
  --outputs-dir "$RESULTS"
  --no-timestamp  # known, side-by-side shard directories (ranks do not start in the same second)
)

mpirun -np "$NP" "${mpirun_args[@]}" "$LLMPERF" "${LLMPERF_ARGS[@]}"

"$LLMPERF" merge "$RESULTS"/*_shard_* --outputs-dir "$RESULTS/merged"
