#!/usr/bin/env python3
"""Puts llmperf's measured TTFT/ITL percentiles next to llmperf-mock's own record of when it
wrote each event (--event-log: `recv <seq> <ns>` and `evt <seq> <index> <ns>` lines)."""
import json
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
    summary = json.load(open(sys.argv[1]))
    recv, events = {}, {}
    for line in open(sys.argv[2]):
        parts = line.split()
        if parts[0] == "recv":
            recv[int(parts[1])] = int(parts[2])
        elif parts[0] == "evt":
            events.setdefault(int(parts[1]), []).append((int(parts[2]), int(parts[3])))
    server_ttft, server_itl = [], []
    for seq, evts in events.items():
        evts.sort()
        if seq in recv:
            server_ttft.append((evts[0][1] - recv[seq]) / 1e6)
        server_itl.extend((b[1] - a[1]) / 1e6 for a, b in zip(evts, evts[1:]))
    server_ttft.sort()
    server_itl.sort()
    m = summary["metrics"]
    print(f"    requests ok {summary['requests']['succeeded']}/{summary['requests']['total']}")
    print("    metric       client p50   client p99   server p50   server p99   (ms)")
    for name, key, server in (("TTFT", "ttft_ms", server_ttft), ("ITL", "itl_ms", server_itl)):
        p = m[key]["percentiles"]
        print(f"    {name:<10} {p['p50']:>11.3f} {p['p99']:>12.3f} {percentile(server, 50):>12.3f}"
              f" {percentile(server, 99):>12.3f}")


if __name__ == "__main__":
    main()
