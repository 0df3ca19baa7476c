"""Scale, 10^5 to 10^7 keys (scale_N.json): the table, and the goals on how
lookups, Table::Open and memory grow with the number of keys."""

import os

from page.common import (ABSENT, ABSENT_NAMES, all_of, configs, decide,
                         decide_ratio, load, pct, results_of, runs_of, series,
                         stored, table, verdict, with_range)
from page.details import bytes_per_key
from page.explain import counters_text
from page.sweep import fp_counted


def load_scale(results):
    """[(num, report)] of every scale_N.json, by N."""
    runs = []
    if os.path.isdir(results):
        for name in os.listdir(results):
            if name.startswith("scale_") and name.endswith(".json"):
                report = load(results, name)
                runs.append((report.get("settings", {}).get("num", 0), report))
    return sorted(runs, key=lambda run: run[0])


def open_per_key(config, num):
    """Table::Open's nanoseconds per key: (median, fastest, slowest), or
    None where the engine does not report it."""
    memory = config.get("memory") or {}
    micros = memory.get("open_micros")
    if micros is None or num <= 0:
        return None
    low, high = memory.get("open_micros_range") or (micros, micros)
    return tuple(1000 * v / num for v in (micros, low, high))


def open_per_key_text(config, num):
    ns = open_per_key(config, num)
    return "-" if ns is None else f"{ns[0]:.1f} ({ns[1]:.1f}–{ns[2]:.1f})"


def scale_table(runs):
    if not runs:
        return "No committed run (bench/results/scale_N.json)."
    header = ["keys", "engine and filter", "stored b/key", "readmissing µs",
              "readrandom µs", "filter B/key", "index B/key",
              "engine's own B/key", "Table::Open ns/key"]
    rows = []
    growth = {}
    for num, report in runs:
        for config in configs(report):
            memory = config.get("memory") or {}
            missing = results_of(config, "readmissing")
            present = results_of(config, "readrandom")
            rows.append([f"{num:,}", series(config), stored(config),
                         with_range(missing) if missing else "-",
                         with_range(present) if present else "-",
                         bytes_per_key(memory, "filter_bytes_per_key"),
                         bytes_per_key(memory, "index_bytes_per_key"),
                         bytes_per_key(memory, "engine_bytes_per_key"),
                         open_per_key_text(config, num)])
            if missing:
                growth.setdefault(series(config), []).append(
                    (num, missing["micros_per_op"]))
    lines = [table(header, rows), ""]
    for name, points in sorted(growth.items()):
        if len(points) >= 2 and points[0][1] > 0:
            lines.append(f"- {name}: readmissing grows "
                         f"{points[-1][1] / points[0][1]:.2f}× from "
                         f"{points[0][0]:,} to {points[-1][0]:,} keys.")
    return "\n".join(lines)


def scale_memory_goal(num, config):
    """≤ 1.5 bytes/key held (the engine's own figure, else filter plus
    index) at ≤ 1.0% FP, each FP within two standard errors of its count:
    not measured where a figure is missing."""
    memory = config.get("memory") or {}
    per_key = memory.get("engine_bytes_per_key")
    if per_key is None and memory.get("filter_bytes_per_key") is not None \
            and memory.get("index_bytes_per_key") is not None:
        per_key = memory["filter_bytes_per_key"] + memory["index_bytes_per_key"]
    results = [results_of(config, w) or {} for w in ABSENT]
    fps = [r.get("false_positive_rate") for r in results]
    known = None not in fps and per_key is not None
    return [f"memory: {series(config)} at {num:,} keys holds ≤ 1.5 bytes/key "
            f"(table, index and filter) at ≤ 1.0% FP, {ABSENT_NAMES}",
            ("-" if per_key is None else f"{per_key:.2f}") +
            f" B/key at stored {stored(config)} bits/key, FP " +
            " / ".join(pct(f) for f in fps) + " %",
            verdict(all_of(decide((per_key, per_key), (1.5, 1.5)), *(
                decide((fp_counted(r, -2), fp_counted(r, 2)), (0.01, 0.01))
                for r in results)) if known else None), ""]


def scale_goals(scale):
    """readmissing, Table::Open's time and the memory held per key grow
    ≤ 2× from the smallest to the largest N; memory at the largest."""
    rows = []
    if scale:
        num, report = scale[-1]
        rows += [scale_memory_goal(num, c) for c in configs(report)
                 if c["engine"] == "bloomtable"]
    by_series = {}
    for num, report in scale:
        for config in configs(report):
            if config["engine"] == "bloomtable":
                by_series.setdefault(series(config), []).append((num, config))
    for name, points in sorted(by_series.items()):
        (first, small), (last, big) = points[0], points[-1]
        if len(points) < 2:
            continue
        opens = [open_per_key(c, n) for n, c in points]
        if None not in opens:
            growth = opens[-1][0] / opens[0][0]
            rows.append([f"scale: `Table::Open` time per key, {name}, stays "
                         f"flat (≤ 2×) from {first:,} to {last:,} keys",
                         " → ".join(f"{o[0]:.1f} ({o[1]:.1f}–{o[2]:.1f})"
                                    for o in opens) +
                         f" ns/key: {growth:.2f}×",
                         verdict(decide_ratio(opens[-1][1:], opens[0][1:],
                                              2)), ""])
        held = [(c.get("memory") or {}).get("engine_bytes_per_key")
                for _, c in points]
        if all(held):
            growth = held[-1] / held[0]
            rows.append([f"scale: memory held per key, {name}, stays flat "
                         f"(≤ 2×) from {first:,} to {last:,} keys",
                         " → ".join(f"{b:.3f}" for b in held) +
                         f" B/key: {growth:.2f}×", verdict(growth <= 2), ""])
        a = results_of(small, "readmissing")
        b = results_of(big, "readmissing")
        if a and b:
            rows.append([f"scale: `readmissing`, {name}, grows ≤ 2× from "
                         f"{first:,} to {last:,} keys",
                         f"{with_range(a)} → {with_range(b)} µs: "
                         f"{b['micros_per_op'] / a['micros_per_op']:.2f}×",
                         verdict(decide_ratio(runs_of(b), runs_of(a), 2)),
                         "; ".join((
                             counters_text(f"{first:,} keys", a),
                             counters_text(f"{last:,} keys", b)))])
    if not rows:
        rows.append(["scale: 10^5 to 10^7 keys", "no committed run",
                     verdict(None), ""])
    return rows
