#!/usr/bin/env bash
# Where the client's CPU goes per SSE event when each token arrives in its own TCP segment (the
# usual case against a real server): llmperf-mock on core 0 sends STREAMS streams of 200 tokens,
# TTFT 100 ms, ITL 10 ms; llmperf runs on core 1. Prints
#   1. CPU per event of the whole client process (user and system, /usr/bin/time) and of its
#      worker threads alone (summary.json client.cpu_s), with ITL/TTFT p99 and client health;
#   2. system calls per event by kind (perf stat on the syscall tracepoints: needs perf and root
#      or kernel.perf_event_paranoid <= -1; skipped with a message otherwise);
#   3. with PROFILE=1, the share of CPU samples by binary (kernel, libcurl, llmperf, libc) and the
#      top functions (perf record -e cpu-clock).
# CURL_LIB_DIR=DIR runs llmperf against another libcurl.so.4 (LD_LIBRARY_PATH), e.g. bookworm-
# backports' 8.14 unpacked without installing it (see bench/README.md).
# TLS=1 puts nghttpx (package nghttp2-proxy) in front of the mock on core 0, terminating TLS with
# a certificate from a CA made here by openssl, and runs the client over https with --cacert: the
# client's CPU per event with TLS, to set beside a plain run's.
# Usage: bench/event_cost.sh [build-dir (default build)] [STREAMS (default 1000)] [REQUESTS]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
streams="${2:-1000}"
requests="${3:-$((streams * 2))}"
llmperf="$build/llmperf"
mock="$build/llmperf-mock"
[ -x "$llmperf" ] && [ -x "$mock" ] || { echo "build llmperf first (scripts/build.sh)" >&2; exit 2; }
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
client_core=$(( $(nproc) > 1 ? 1 : 0 ))
work=$(mktemp -d)
mock_pid=""
front_pid=""
trap '[ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null; [ -n "$front_pid" ] && kill "$front_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
tls="${TLS:-0}"
if [ "$tls" = "1" ]; then
  command -v nghttpx >/dev/null || { echo "TLS=1 needs nghttpx (package nghttp2-proxy)" >&2; exit 2; }
  ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -x509 "${ec[@]}" -days 1 -subj "/CN=bench CA" -keyout "$work/ca.key" \
    -out "$work/ca.pem" 2>/dev/null
  openssl req "${ec[@]}" -subj "/CN=localhost" -keyout "$work/server.key" -out "$work/server.csr" \
    2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$work/ext.cnf"
  openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" \
    -CAcreateserial -days 1 -extfile "$work/ext.cnf" -out "$work/server.pem" 2>/dev/null
fi
env_prefix=()
if [ -n "${CURL_LIB_DIR:-}" ]; then env_prefix=(env "LD_LIBRARY_PATH=$CURL_LIB_DIR"); fi

# Runs one measured client under the wrapper given as arguments (may be none); leaves the run's
# summary.json in $summary.
run_client() {
  taskset -c 0 "$mock" --port 0 --ttft-ms 100 --itl-ms 10 --output-tokens 200 >"$work/mock.out" 2>&1 &
  mock_pid=$!
  for _ in $(seq 100); do grep -q "listening on" "$work/mock.out" && break; sleep 0.1; done
  local base
  base=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/mock.out")
  local url="$base/v1/chat/completions"
  local tls_args=()
  if [ "$tls" = "1" ]; then
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    taskset -c 0 nghttpx --conf=/dev/null --single-process --workers=1 \
      --frontend="127.0.0.1,$port" --backend="127.0.0.1,${base##*:}" --no-ocsp \
      --accesslog-file=/dev/null --rlimit-nofile=65536 "$work/server.key" "$work/server.pem" \
      2>"$work/front.err" &
    front_pid=$!
    for _ in $(seq 100); do grep -q "Created worker thread" "$work/front.err" && break; sleep 0.1; done
    url="https://localhost:$port/v1/chat/completions"
    tls_args=(--cacert "$work/ca.pem")
  fi
  rm -rf "$work/out"
  taskset -c "$client_core" /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" "${env_prefix[@]}" \
    "$llmperf" --url "$url" "${tls_args[@]}" --model mock-model --prompt hello --no-probe \
    --parallel "$streams" -n "$requests" --connect-timeout 30 --outputs-dir "$work/out" \
    >"$work/client.out" 2>"$work/client.err" || true
  kill "$mock_pid"; wait "$mock_pid" 2>/dev/null || true; mock_pid=""
  if [ -n "$front_pid" ]; then kill "$front_pid"; wait "$front_pid" 2>/dev/null || true; front_pid=""; fi
  summary=$(find "$work/out" -name summary.json | head -n 1)
  [ -n "$summary" ] || { echo "llmperf wrote no summary:" >&2; tail -n 5 "$work/client.err" >&2; exit 1; }
}

echo "llmperf per-event cost: $streams streams x 200 tokens, ITL 10 ms; client on core $client_core" \
  "$([ "$tls" = "1" ] && echo "(TLS through nghttpx on core 0)")"
echo "libcurl: $("${env_prefix[@]}" "$llmperf" --version 2>/dev/null | head -n 1) with" \
  "$(LD_LIBRARY_PATH="${CURL_LIB_DIR:-}" ldd "$llmperf" | awk '/libcurl/ {print $3}')"
echo
echo "1. CPU per event"
run_client
python3 - "$summary" "$work/time" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
wall, user, system = (float(x) for x in open(sys.argv[2]).read().split())
m = s["metrics"]
events = m["chunks_per_request"]["mean"] * m["chunks_per_request"]["count"]
client = s.get("client") or {}
print(f"    {events:,.0f} events, {s['requests']['succeeded']} requests ok, wall {wall:.2f} s")
print(f"    process: {(user + system) / events * 1e6:.2f} us/event "
      f"(user {user / events * 1e6:.2f}, system {system / events * 1e6:.2f})")
if client.get("cpu_s"):
    print(f"    worker threads: {client['cpu_s'] / events * 1e6:.2f} us/event, "
          f"{client.get('cpu_utilization', 0) * 100:.0f} % of their wall time")
print(f"    ITL p99 {m['itl_ms']['percentiles']['p99']:.2f} ms, TTFT p99 "
      f"{m['ttft_ms']['percentiles']['p99']:.1f} ms; client_bound {s.get('client_bound')}")
PY
events=$(python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['metrics']['chunks_per_request']; print(m['mean']*m['count'])" "$summary")

echo
echo "2. System calls per event"
tracepoints="syscalls:sys_enter_recvfrom,syscalls:sys_enter_poll,syscalls:sys_enter_epoll_wait"
tracepoints+=",syscalls:sys_enter_sendto,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_futex"
if command -v perf >/dev/null && perf stat -e syscalls:sys_enter_poll -o /dev/null true 2>/dev/null; then
  run_client perf stat -x, -e "$tracepoints" -o "$work/stat"
  python3 - "$work/stat" "$events" <<'PY'
import sys
events = float(sys.argv[2])
for line in open(sys.argv[1]):
    parts = line.strip().split(",")
    if len(parts) > 2 and parts[2].startswith("syscalls:sys_enter_"):
        name = parts[2].removeprefix("syscalls:sys_enter_")
        print(f"    {name:<11} {int(parts[0]) / events:6.3f} per event")
PY
else
  echo "    skipped: perf with syscall tracepoints is not available (root, or perf_event_paranoid <= -1)"
fi

if [ "${PROFILE:-0}" = "1" ]; then
  echo
  echo "3. CPU samples by binary and function (perf record -e cpu-clock)"
  run_client perf record -q -e cpu-clock -F 4000 -o "$work/perf.data"
  perf report -i "$work/perf.data" --sort dso --stdio 2>/dev/null | grep -v '^#' | grep . | head -n 6
  perf report -i "$work/perf.data" --sort sym --stdio 2>/dev/null | grep -v '^#' | grep . | head -n 15
fi
