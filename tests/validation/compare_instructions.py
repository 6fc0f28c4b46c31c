#!/usr/bin/env python3
"""compare_instructions.py NCU_CSV SUITE REPORT_JSON

The timing model's warp instructions per launch against the GPU's, kernel by kernel: NCU_CSV is
tests/hardware/session18/ncu_instructions.csv (Nsight Compute, every launch of a validation
suite built as CUDA), REPORT_JSON the profile report of the same suite run on the simulator
(MUSA_SIM_REPORT=x.json MUSA_SIM_PROFILE=h200 build/... timing_SUITE 1). Launches are matched by
kernel name, grid and block in launch order. Prints, per kernel and configuration, the GPU's
and the model's warp instructions, their ratio and the split: the GPU's by pipe (alu, fma,
xu, lsu, fp64, cbu, adu, uniform) against the model's classes (int + int_mul, fp32, special,
global + shared loads and stores, fp64, branch)."""
import collections
import csv
import json
import re
import sys


def base(name):
    return re.sub(r'\(.*', '', name).split('<')[0].strip().split(' ')[-1]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    csv_path, suite, report = sys.argv[1:]
    hw = [r for r in csv.DictReader(open(csv_path)) if r['suite'] == suite]
    model = [o for o in json.load(open(report))['operations'] if o['kind'] == 'kernel']
    used = [False] * len(model)
    dims = lambda s: tuple(int(x) for x in re.findall(r'\d+', s))
    agg = collections.OrderedDict()
    for r in hw:
        key = (r['kernel'], dims(r['grid']), dims(r['block']))
        j = next((j for j, o in enumerate(model) if not used[j] and base(o['name']) == key[0] and
                  tuple(o['grid']) == key[1] and tuple(o['block']) == key[2]), None)
        if j is None:
            continue
        used[j] = True
        a = agg.setdefault(key, collections.Counter())
        a['launches'] += 1
        for k, v in r.items():
            if k.startswith('inst_executed') or k.startswith('sass_'):
                a['hw ' + k] += float(v or 0)
        for k, v in model[j]['instructions'].items():
            a['model ' + k] += v
    print('%-24s %12s %12s %6s | %-36s | %s' % ('kernel', 'GPU', 'model', 'ratio',
          'GPU alu/fma/xu/lsu/fp64/cbu/adu/uniform', 'model int/fp32/special/ldst/fp64/branch'))
    for (name, grid, block), a in agg.items():
        n = a['launches']
        k = lambda key: a[key] / n / 1e3
        gpu = a['hw inst_executed'] / n
        mod = sum(v for key, v in a.items() if key.startswith('model ')) / n
        pipes = '/'.join('%.0f' % k('hw inst_executed_pipe_' + p)
                         for p in ['alu', 'fma', 'xu', 'lsu', 'fp64', 'cbu', 'adu', 'uniform'])
        classes = '/'.join('%.0f' % v for v in [
            k('model int') + k('model int_mul'), k('model fp32'), k('model special'),
            k('model global_ldst') + k('model shared_ldst'), k('model fp64'), k('model branch')])
        print('%-24s %12.0f %12.0f %6.2f | %-36s | %s' % (name[:24], gpu, mod, mod / max(gpu, 1),
                                                         pipes, classes))


if __name__ == '__main__':
    main()
