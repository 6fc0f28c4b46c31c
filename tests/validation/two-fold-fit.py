#!/usr/bin/env python3
"""Two-fold check of the timing model's fitted constants.

The H200 suites together (timing_suite.mu, timing_mechanisms.mu, timing_workloads.mu,
timing_holdout.mu, timing_fresh.mu, timing_blind.mu and timing_unseen.mu, 224 configurations) are
split in two halves (alternate configurations in file
order). The kernel constants marked [fit] in simdevice/profiles/h200.profile (kernel_launch_us,
term_overlap) are fitted on one half by a grid search (the lowest mean absolute percentage
error there) and the result is scored on the other half, then the halves swap. Each score is
out of sample for the constants it used; the copy constants marked [fit] are left as the
profile has them (they touch only copies), and so are the probe-measured ones.

usage: two-fold-fit.py BUILD_DIR   (runs the suites once per grid point: about 30 s each)
"""
import itertools
import os
import re
import subprocess
import sys
import tempfile

GRID = {
    "kernel_launch_us": [5.8, 6.2, 6.6],
    "term_overlap": [0.05, 0.1, 0.2],
}


def read(path):
    rows = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 4 and p[0] == "RESULT":
                rows[(p[1], p[2])] = float(p[3])
    return rows


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(measured, predicted, keys):
    a = ranks([measured[k] for k in keys])
    b = ranks([predicted[k] for k in keys])
    n = len(keys)
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    va = sum((x - ma) ** 2 for x in a) ** 0.5
    vb = sum((y - mb) ** 2 for y in b) ** 0.5
    return cov / (va * vb) if va and vb else 0.0


def mape(measured, predicted, keys):
    return 100 * sum(abs(predicted[k] - measured[k]) / measured[k] for k in keys) / len(keys)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    here = os.path.join(top, "tests", "validation")
    measured = read(os.path.join(here, "h200_reference.txt"))
    measured.update(read(os.path.join(here, "h200_mechanisms_reference.txt")))
    measured.update(read(os.path.join(here, "h200_workloads_reference.txt")))
    measured.update(read(os.path.join(here, "h200_holdout_reference.txt")))
    measured.update(read(os.path.join(here, "h200_fresh_reference.txt")))
    measured.update(read(os.path.join(here, "h200_blind_reference.txt")))
    measured.update(read(os.path.join(here, "h200_unseen_reference.txt")))
    keys = list(measured)
    halves = [keys[0::2], keys[1::2]]
    base = open(os.path.join(top, "simdevice", "profiles", "h200.profile")).read()
    programs = [os.path.join(build, "tests", "validation", p)
                for p in ("timing_suite", "timing_mechanisms", "timing_workloads",
                          "timing_holdout", "timing_fresh", "timing_blind", "timing_unseen")]
    env = dict(os.environ, MUSA_SIM_TIMING="model", MUSA_SIM_WORKERS="1")
    runs = []
    names = list(GRID)
    with tempfile.TemporaryDirectory() as tmp:
        for values in itertools.product(*GRID.values()):
            text = base
            for name, value in zip(names, values):
                text = re.sub(r"^%s\s*=.*$" % name, "%s = %s" % (name, value), text, flags=re.M)
            profile = os.path.join(tmp, "h200.profile")
            with open(profile, "w") as f:
                f.write(text)
            env["MUSA_SIM_PROFILE"] = profile
            predicted = {}
            for program in programs:
                out = os.path.join(tmp, "out.txt")
                with open(out, "w") as f:
                    subprocess.run([program, "1"], stdout=f, stderr=subprocess.DEVNULL,
                                   env=env, check=False)
                predicted.update(read(out))
            missing = [k for k in keys if k not in predicted]
            if missing:
                sys.exit("no prediction for %s" % (missing[:3],))
            runs.append((dict(zip(names, values)), predicted))
    print("grid: %d points over %s" % (len(runs), ", ".join(names)))
    for fit, score in ((0, 1), (1, 0)):
        best = min(runs, key=lambda r: mape(measured, r[1], halves[fit]))
        print("fit on half %d (%d configs): %s -> MAPE %.2f %% there; scored on half %d "
              "(%d configs): MAPE %.2f %%, Spearman %.4f" % (
                  fit + 1, len(halves[fit]), best[0], mape(measured, best[1], halves[fit]),
                  score + 1, len(halves[score]), mape(measured, best[1], halves[score]),
                  spearman(measured, best[1], halves[score])))


if __name__ == "__main__":
    main()
