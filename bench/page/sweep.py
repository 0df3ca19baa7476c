"""False positives at equal memory (sweep.json): each filter's measured
points, interpolated at equal stored bits per key."""

import math

from page.common import (ABSENT, configs, pct, results_of, series, stored,
                         table)

# Stored filter bits per key at which the sweep is compared.
BUDGETS = [6, 8, 10, 12, 16]


def fp_counted(result, errors=0):
    """The FP rate moved `errors` standard errors of its count: k false
    positives among n absent-key queries, sqrt(k) / n each."""
    rate = result.get("false_positive_rate")
    queries = (result.get("filter_checks") or 0) - \
        (result.get("filter_true_positives") or result.get("found") or 0)
    if rate is None or not errors or queries <= 0:
        return rate
    return max(rate + errors * (rate * queries) ** 0.5 / queries, 0.0)


def sweep_points(sweep, workload, errors=0):
    """series -> sorted [(stored bits/key, FP rate)] over the budgets, the
    rates moved `errors` standard errors of their counts."""
    points = {}
    for config in configs(sweep, io="pread"):
        result = results_of(config, workload)
        if result is None or config.get("stored_bits_per_key") is None:
            continue
        points.setdefault(series(config), []).append(
            (config["stored_bits_per_key"], fp_counted(result, errors)))
    return {name: sorted(p) for name, p in points.items()}


def bits_for_one_percent(sweep, workload):
    """series -> (low, median, high) stored bits/key that give 1% FP: the
    median from the measured rates, low and high from rates two standard
    errors of their counts below and above them."""
    found = {}
    for errors in (-2, 0, 2):
        for name, points in sweep_points(sweep, workload, errors).items():
            found.setdefault(name, []).append(bits_for_rate(points, 0.01))
    return {name: tuple(b) for name, b in found.items()}


def rate_at(points, bits):
    """log(FP) interpolated linearly in stored bits/key; None outside."""
    usable = [(b, r) for b, r in points if r]
    for (b0, r0), (b1, r1) in zip(usable, usable[1:]):
        if b0 <= bits <= b1 and b1 > b0:
            t = (bits - b0) / (b1 - b0)
            return math.exp(math.log(r0) + t * (math.log(r1) - math.log(r0)))
    return None


def bits_for_rate(points, rate):
    """The stored bits/key at which the interpolated FP falls to `rate`."""
    usable = [(b, r) for b, r in points if r]
    for (b0, r0), (b1, r1) in zip(usable, usable[1:]):
        if r0 >= rate >= r1 and r0 > r1:
            t = (math.log(r0) - math.log(rate)) / (math.log(r0) - math.log(r1))
            return b0 + t * (b1 - b0)
    return None


def fmt_bits(bits):
    return "-" if bits is None else f"{bits:.2f}"


def equal_memory(sweep):
    if sweep is None:
        return "No committed run (bench/results/sweep.json)."
    out = []
    for workload, keys in ABSENT.items():
        points = sweep_points(sweep, workload)
        rows = []
        for name, p in points.items():
            rows.append([name] + [pct(rate_at(p, b)) for b in BUDGETS] +
                        [fmt_bits(bits_for_rate(p, 0.01))])
        out.append(f"FP % on {keys} absent keys (`{workload}`), interpolated "
                   "at equal stored bits/key, and the stored bits/key that "
                   "give 1% (log FP interpolated linearly between measured "
                   "budgets; '-' outside them):\n")
        out.append(table(["filter"] + [f"{b} b/key" for b in BUDGETS] +
                         ["b/key for 1%"], rows))
        at10 = [(rate_at(p, 10), name) for name, p in points.items()
                if rate_at(p, 10)]
        if at10:
            low = min(at10)
            ours = [x for x in at10 if x[1].startswith("bloomtable")]
            line = (f"\nAt 10 stored bits/key the lowest {keys} FP is "
                    f"{low[1]}'s ({pct(low[0])}%)")
            if ours and min(ours) != low:
                line += (f"; **a peer is ahead**: bloomtable's lowest is "
                         f"{min(ours)[1]}'s ({pct(min(ours)[0])}%)")
            out.append(line + ".\n")
    measured = []
    for config in configs(sweep, io="pread"):
        measured.append([series(config), f"{config['bloom_bits']:g}",
                         stored(config)] +
                        [pct((results_of(config, w) or {}).get(
                            "false_positive_rate")) for w in ABSENT])
    out.append("\nThe measured points:\n")
    out.append(table(["filter", "bits_per_key", "stored b/key"] +
                     [f"FP % {keys}" for keys in ABSENT.values()], measured))
    return "\n".join(out)
