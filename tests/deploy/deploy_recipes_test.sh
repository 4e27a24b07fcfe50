#!/usr/bin/env bash
# Checks the recipes of deploy/ (Kubernetes Indexed Job, Slurm batch script, mpirun script): each
# is parsed, then run the way its launcher would run it, against one llmperf-mock: 3 llmperf shards
# at once with the launcher's environment, a shared --start-at, then llmperf merge; the merged
# summary.json must hold every request, from 3 shards, none started before --start-at.
#   Kubernetes: the manifests load as YAML and agree (Indexed, completions = parallelism =
#               --shards, the results volume, --start-at); the Job's args, $(VAR)-expanded as
#               Kubernetes does, run with JOB_COMPLETION_INDEX=0..2; then the merge Job's script.
#   Slurm:      bash -n; the sbatch script itself, with SLURM_JOB_ID/SLURM_NTASKS as sbatch sets
#               them and a stand-in srun that starts SLURM_NTASKS copies with SLURM_PROCID=0..N-1.
#   MPI:        bash -n; deploy/mpi/run.sh under the real mpirun (--oversubscribe), or, when
#               mpirun is not installed, a stand-in that sets OMPI_COMM_WORLD_RANK/SIZE (said so).
# Usage: tests/deploy/deploy_recipes_test.sh [BUILD_DIR]   (default: build). Needs python3 with
# yaml (python3-yaml) and, for the real MPI run, openmpi-bin: scripts/setup.sh --test.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$repo/build}" 2>/dev/null && pwd) || {
  echo "FAIL: build directory ${1:-$repo/build} not found"
  exit 1
}
llmperf=$build/llmperf
mock=$build/llmperf-mock
for binary in "$llmperf" "$mock"; do
  [ -x "$binary" ] || { echo "FAIL: $binary not built"; exit 1; }
done
python3 -c "import yaml" 2>/dev/null || {
  echo "FAIL: python3 cannot import yaml: install python3-yaml (scripts/setup.sh --test)"
  exit 1
}

# A launcher's variables inherited from where this test runs (a CI pod, a Slurm job) would pick
# the shard instead of the ones set below.
unset JOB_COMPLETION_INDEX SLURM_PROCID SLURM_NTASKS SLURM_JOB_ID OMPI_COMM_WORLD_RANK \
  OMPI_COMM_WORLD_SIZE PMI_RANK PMI_SIZE START_AT RESULTS MPIRUN_ARGS NP

requests=10  # not a multiple of 3: the shards send 4, 3 and 3
lead_s=3     # --start-at this far ahead: time to start 3 processes and prepare on 2 cores
tmp=$(mktemp -d)
mock_pid=""
cleanup() {
  if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null; wait "$mock_pid" 2>/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

"$mock" --port 0 --honour-max-tokens >"$tmp/mock.out" 2>"$tmp/mock.err" &
mock_pid=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/^llmperf-mock listening on http:.*:\([0-9][0-9]*\)$/\1/p' "$tmp/mock.out")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "FAIL: llmperf-mock did not start: $(cat "$tmp/mock.err")"; exit 1; }
server_url=http://127.0.0.1:$port/v1/chat/completions
model="mock-model"

failures=0
pass() { echo "PASS: $1 ($2 s)"; }
fail() {
  echo "FAIL: $1: $2"
  # The last lines of every log of this recipe say what went wrong.
  for log in "$3"/*.log; do
    [ -f "$log" ] && { echo "--- $log"; tail -n 12 "$log"; }
  done
  failures=$((failures + 1))
}
start_at() { echo $(($(date +%s) + lead_s)); }

# --- Kubernetes Indexed Job ----------------------------------------------------------------------
kubernetes() {
  local dir=$tmp/k8s manifests=$repo/deploy/kubernetes shards started=$SECONDS
  mkdir -p "$dir/results"
  shards=$(python3 "$here/recipes.py" k8s-check "$manifests" 2>"$dir/check.log") ||
    { fail kubernetes "the manifests: $(cat "$dir/check.log")" "$dir"; return; }
  # The start time goes in as the Job's header says: sed on the manifest.
  sed "s/@START_AT@/$(start_at)/" "$manifests/llmperf-job.yaml" >"$dir/job.yaml"
  python3 "$here/recipes.py" k8s-args "$dir/job.yaml" --root "$dir" --set "SERVER_URL=$server_url" \
    --set "MODEL=$model" --set "REQUESTS=$requests" >"$dir/args" 2>"$dir/args.log" ||
    { fail kubernetes "the Job's args: $(cat "$dir/args.log")" "$dir"; return; }
  local -a args
  mapfile -d '' args <"$dir/args"
  local -a pids=()
  for ((i = 0; i < shards; i++)); do
    JOB_COMPLETION_INDEX=$i "$llmperf" "${args[@]}" >"$dir/shard_$i.log" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < shards; i++)); do
    wait "${pids[$i]}" || { fail kubernetes "shard $i exited with $?" "$dir"; return; }
  done
  local script
  script=$(python3 "$here/recipes.py" k8s-merge-script "$manifests/llmperf-merge-job.yaml" \
    --root "$dir" --set KEEP_ALIVE_S=0) ||
    { fail kubernetes "the merge Job's script" "$dir"; return; }
  KEEP_ALIVE_S=0 PATH="$build:$PATH" sh -c "$script" >"$dir/merge.log" 2>&1 ||
    { fail kubernetes "the merge Job's script failed: $script" "$dir"; return; }
  python3 "$here/recipes.py" check-merged "$dir/results/llmperf" "$dir/results/llmperf/merged" \
    "$requests" "$shards" Kubernetes >"$dir/check.log" 2>&1 ||
    { fail kubernetes "the merged result" "$dir"; return; }
  cat "$dir/check.log"
  pass "kubernetes (deploy/kubernetes/*.yaml, JOB_COMPLETION_INDEX=0..$((shards - 1)))" \
    $((SECONDS - started))
}

# --- Slurm ---------------------------------------------------------------------------------------
slurm() {
  local dir=$tmp/slurm script=$repo/deploy/slurm/llmperf.sbatch ntasks started=$SECONDS
  mkdir -p "$dir/bin"
  bash -n "$script" 2>"$dir/syntax.log" ||
    { fail slurm "bash -n: $(cat "$dir/syntax.log")" "$dir"; return; }
  ntasks=$(sed -n 's/^#SBATCH --ntasks=\([0-9][0-9]*\).*/\1/p' "$script")
  [ -n "$ntasks" ] || { fail slurm "no '#SBATCH --ntasks=N' line" "$dir"; return; }
  # srun in a batch step: SLURM_NTASKS tasks of the command, each with its SLURM_PROCID; fails
  # when one fails. Its own options (single words, e.g. --kill-on-bad-exit=1) are skipped.
  cat >"$dir/bin/srun" <<'EOF'
#!/usr/bin/env bash
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done
pids=()
for ((i = 0; i < SLURM_NTASKS; i++)); do
  SLURM_PROCID=$i SLURM_LOCALID=$i "$@" >"$SRUN_LOGS/task_$i.log" 2>&1 &
  pids+=($!)
done
rc=0
for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
exit $rc
EOF
  chmod +x "$dir/bin/srun"
  # sbatch's batch step itself has SLURM_PROCID=0: the script's merge runs with it set.
  (cd "$dir" && SLURM_JOB_ID=test SLURM_NTASKS=$ntasks SLURM_PROCID=0 SRUN_LOGS=$dir \
    PATH="$dir/bin:$PATH" \
    SERVER_URL=$server_url MODEL=$model REQUESTS=$requests LLMPERF=$llmperf START_AT=$(start_at) \
    bash "$script") >"$dir/sbatch.log" 2>&1 ||
    { fail slurm "the batch script exited with $?" "$dir"; return; }
  python3 "$here/recipes.py" check-merged "$dir/results/test" "$dir/results/test/merged" \
    "$requests" "$ntasks" Slurm >"$dir/check.log" 2>&1 ||
    { fail slurm "the merged result" "$dir"; return; }
  cat "$dir/check.log"
  pass "slurm (deploy/slurm/llmperf.sbatch, stand-in srun, SLURM_PROCID=0..$((ntasks - 1)))" \
    $((SECONDS - started))
}

# --- MPI -----------------------------------------------------------------------------------------
mpi() {
  local dir=$tmp/mpi script=$repo/deploy/mpi/run.sh np=3 how mpirun_args started=$SECONDS
  mkdir -p "$dir/bin"
  bash -n "$script" 2>"$dir/syntax.log" ||
    { fail mpi "bash -n: $(cat "$dir/syntax.log")" "$dir"; return; }
  mpirun_args="--oversubscribe"
  if [ "$(id -u)" -eq 0 ]; then mpirun_args+=" --allow-run-as-root"; fi
  if command -v mpirun >/dev/null; then
    how="mpirun $(mpirun --version 2>/dev/null | head -n 1 | sed 's/.*) //')"
  else
    how="stand-in mpirun: mpirun is not installed (openmpi-bin)"
    echo "NOTE: mpi: mpirun is not installed; a stand-in sets OMPI_COMM_WORLD_RANK/SIZE"
    cat >"$dir/bin/mpirun" <<'EOF'
#!/usr/bin/env bash
np=1
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do
  if [ "$1" = -np ] || [ "$1" = -n ]; then np=$2; shift; fi
  shift
done
pids=()
for ((i = 0; i < np; i++)); do
  OMPI_COMM_WORLD_RANK=$i OMPI_COMM_WORLD_SIZE=$np "$@" &
  pids+=($!)
done
rc=0
for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
exit $rc
EOF
    chmod +x "$dir/bin/mpirun"
  fi
  (cd "$dir" && PATH="$dir/bin:$PATH" NP=$np MPIRUN_ARGS=$mpirun_args RESULTS=$dir/results \
    SERVER_URL=$server_url MODEL=$model REQUESTS=$requests LLMPERF=$llmperf START_AT=$(start_at) \
    bash "$script") >"$dir/run.log" 2>&1 ||
    { fail mpi "run.sh exited with $? ($how)" "$dir"; return; }
  python3 "$here/recipes.py" check-merged "$dir/results" "$dir/results/merged" "$requests" "$np" \
    "Open MPI" >"$dir/check.log" 2>&1 || { fail mpi "the merged result ($how)" "$dir"; return; }
  cat "$dir/check.log"
  pass "mpi (deploy/mpi/run.sh, $how -np $np $mpirun_args)" $((SECONDS - started))
}

kubernetes
slurm
mpi
if [ "$failures" -ne 0 ]; then
  echo "deploy recipes: $failures of 3 FAILED"
  exit 1
fi
echo "deploy recipes: all 3 passed"
