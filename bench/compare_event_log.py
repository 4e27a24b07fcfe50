#!/usr/bin/env python3
"""Puts llmperf's measured TTFT/ITL percentiles next to llmperf-mock's own record of when it
wrote each event (--event-log: `recv <seq> <ns>` and `evt <seq> <index> <ns>` lines), and measures
what the client adds, event by event: both processes read CLOCK_MONOTONIC on the same machine, so
each chunk's client stamp (summary.json's run.monotonic_anchor_ns + the record's sent_ns + its
chunk_ns) minus the server's write of that chunk (matched through the response id,
"chatcmpl-<seq>") is the time from the server handing the bytes to the kernel to llmperf stamping
them: loopback delivery plus any queueing in the client.

Usage: compare_event_log.py RUN_DIR EVENT_LOG"""
import json
import os
import sys


def percentile(sorted_values, p):
    """numpy's default (linear) percentile of sorted values."""
    if not sorted_values:
        return float("nan")
    rank = p / 100 * (len(sorted_values) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (rank - lo)


def main():
    run_dir, event_log = sys.argv[1], sys.argv[2]
    summary = json.load(open(os.path.join(run_dir, "summary.json")))
    recv, events = {}, {}
    for line in open(event_log):
        parts = line.split()
        if parts[0] == "recv":
            recv[int(parts[1])] = int(parts[2])
        elif parts[0] == "evt":
            events.setdefault(int(parts[1]), {})[int(parts[2])] = int(parts[3])
    server_ttft, server_itl = [], []
    for seq, evts in events.items():
        times = [evts[i] for i in sorted(evts)]
        if seq in recv:
            server_ttft.append((times[0] - recv[seq]) / 1e6)
        server_itl.extend((b - a) / 1e6 for a, b in zip(times, times[1:]))
    server_ttft.sort()
    server_itl.sort()

    anchor = summary["run"]["monotonic_anchor_ns"]
    delays = []
    # A request's TTFT as llmperf sees it is the server's plus two legs on this machine: from
    # llmperf's send stamp to the server having read the whole request, and from the server's
    # write of the first chunk to llmperf's stamp of it.
    send_legs, first_legs = [], []
    for line in open(os.path.join(run_dir, "requests.jsonl")):
        r = json.loads(line)
        rid = r.get("response_id", "")
        # Warm-up requests (--warmup-num) are outside llmperf's metrics: here too.
        if not r["ok"] or r.get("warmup") or not rid.startswith("chatcmpl-"):
            continue
        seq = int(rid.split("-", 1)[1])
        written = events.get(seq, {})
        sent = anchor + r["sent_ns"]
        if seq in recv:
            send_legs.append((recv[seq] - sent) / 1e6)
        if 0 in written and r["chunk_ns"]:
            first_legs.append((sent + r["chunk_ns"][0] - written[0]) / 1e6)
        for index, offset in enumerate(r["chunk_ns"]):
            if index in written:
                delays.append((sent + offset - written[index]) / 1e6)
    delays.sort()
    send_legs.sort()
    first_legs.sort()

    m = summary["metrics"]
    print(f"    requests ok {summary['requests']['succeeded']}/{summary['requests']['total']}")
    print("    metric       client p50   client p99   server p50   server p99   (ms)")
    for name, key, server in (("TTFT", "ttft_ms", server_ttft), ("ITL", "itl_ms", server_itl)):
        p = m[key]["percentiles"]
        print(f"    {name:<10} {p['p50']:>11.3f} {p['p99']:>12.3f} {percentile(server, 50):>12.3f}"
              f" {percentile(server, 99):>12.3f}")
    if delays:
        print(f"    stamp - server write, per event ({len(delays):,} events): "
              f"p50 {percentile(delays, 50):.3f} ms, p99 {percentile(delays, 99):.3f} ms, "
              f"max {delays[-1]:.3f} ms")
    if send_legs:
        print(f"    TTFT legs, per request: send stamp -> server read the request p50 "
              f"{percentile(send_legs, 50):.3f} ms, p99 {percentile(send_legs, 99):.3f} ms; "
              f"server's first write -> first stamp p50 {percentile(first_legs, 50):.3f} ms, "
              f"p99 {percentile(first_legs, 99):.3f} ms")


if __name__ == "__main__":
    main()
