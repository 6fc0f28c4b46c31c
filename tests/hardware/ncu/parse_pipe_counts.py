#!/usr/bin/env python3
"""Summarise pipe_counts.sh output: one line per kernel and grid (its first launch) with warp
instructions, issue-active share, warps per scheduler, SM cycles, time, instructions by pipe
and the four largest stall reasons per issue.  Usage: parse_pipe_counts.py ncu_<suite>.csv..."""
import csv
import sys


def num(s):
    try:
        return float(s.replace(',', ''))
    except ValueError:
        return 0.0


def rows(path):
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    table = list(csv.reader(lines))
    head = table[0]
    for r in table[2:]:  # table[1] holds the units
        yield dict(zip(head, r))


def main():
    seen = set()
    for path in sys.argv[1:]:
        for r in rows(path):
            name = r['Kernel Name'].split('(')[0]
            key = (name, r['Grid Size'], r['Block Size'])
            if key in seen:
                continue
            seen.add(key)
            pipes = []
            for p in 'alu fma fmaheavy fmalite xu lsu fp64 fp16 adu cbu uniform tex'.split():
                v = num(r.get('smsp__inst_executed_pipe_%s.sum' % p, '0'))
                if v:
                    pipes.append('%s=%d' % (p, v))
            stalls = []
            for k, v in r.items():
                if k.startswith('smsp__average_warps_issue_stalled_'):
                    stalls.append((num(v), k[len('smsp__average_warps_issue_stalled_'):-len('_per_issue_active.ratio')]))
            stalls.sort(reverse=True)
            print('%-20s %-14s inst=%d issue%%=%d warps=%.1f cyc=%d t=%.1fus | %s | %s' % (
                name, r['Grid Size'], num(r['smsp__inst_executed.sum']),
                num(r['smsp__issue_active.avg.pct_of_peak_sustained_active']),
                num(r['smsp__warps_active.avg.per_cycle_active']),
                num(r['sm__cycles_elapsed.max']), num(r['gpu__time_duration.sum']) / 1000.0,
                ' '.join(pipes), ' '.join('%s=%.1f' % (n, v) for v, n in stalls[:4])))


if __name__ == '__main__':
    main()
