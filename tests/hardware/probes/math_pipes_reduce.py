#!/usr/bin/env python3
"""Reduces math_pipes.sh's CSV to math_pipes.h200.txt's form: warp instructions per call by
pipe, each kernel less its baseline (copy, icopy, h2copy or dcopy).
Usage: math_pipes_reduce.py math_pipes.csv"""
import csv
import sys

PIPES = 'all alu fma fmaheavy fmalite xu fp64 fp16 cbu adu lsu uniform'.split()


def main():
    lines = [l for l in open(sys.argv[1]) if l.startswith('"')]
    table = list(csv.reader(lines))
    head, rows = table[0], table[2:]
    per = {}
    for r in rows:
        d = dict(zip(head, r))
        name = d['Kernel Name'].split('(')[0]
        warps = 32768.0
        v = {}
        for p in PIPES:
            key = 'smsp__inst_executed.sum' if p == 'all' else 'smsp__inst_executed_pipe_%s.sum' % p
            v[p] = float(d.get(key, '0').replace(',', '') or 0) / warps
        per[name] = v
    base = {'k_icopy': 'k_icopy', 'k_h2copy': 'k_h2copy', 'k_dcopy': 'k_dcopy'}
    current = 'k_copy'
    for name, v in per.items():
        if name in ('k_copy', 'k_icopy', 'k_h2copy', 'k_dcopy'):
            current = name
            print(name)
            continue
        b = per[current]
        cells = []
        for p in PIPES:
            x = v[p] - b[p]
            if abs(x) > 0.005:
                cells.append('%s=%.2f' % (p, x))
        print('%-14s %s' % (name, ' '.join(cells)))
    del base


if __name__ == '__main__':
    main()
