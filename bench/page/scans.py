"""Scans over sparse keys (scan_SCHEME.json): one table per key scheme and
the empty-range goals."""

import os

from page.common import (all_of, configs, decide, load, pct, ratio_goal,
                         results_of, stored, table, verdict, with_range)
from page.sweep import fp_counted

SCANS = ["scanmissing", "scanshort", "seekrandom"]


def scan_section(results):
    names = sorted(n for n in (os.listdir(results) if os.path.isdir(results)
                               else []) if n.startswith("scan_") and
                   n.endswith(".json"))
    if not names:
        return "No committed run (bench/results/scan_*.json).", []
    out, loaded = [], []
    for name in names:
        report = load(results, name)
        loaded.append((name, report))
        settings = report.get("settings", {})
        out.append(f"#### `{name}`: {settings.get('num', 0):,} keys, "
                   f"`--key_scheme={settings.get('key_scheme', '?')}`\n")
        rows = []
        for workload in SCANS:
            for config in configs(report):
                result = results_of(config, workload)
                if result is None:
                    continue
                rows.append([workload, config["level"], config["engine"],
                             config.get("filter_label", config["filter"]),
                             config["io"], stored(config), with_range(result),
                             f"{result.get('reads_per_op', 0):.4f}",
                             pct(result.get("false_positive_rate"))])
        out.append(table(["benchmark", "level", "engine", "filter", "io",
                          "stored b/key", "micros/op (range)", "reads/op",
                          "FP %"], rows))
        out.append("")
        out.append(scan_goals(report))
        out.append("")
    return "\n".join(out), loaded


def scan_goals(report):
    """The empty-range goals, from scanmissing at table level: the range
    filter's FP (within two standard errors of its count) at its stored
    bits per key, and its scans against the peers' fastest."""
    def fastest(engine, scan_filter):
        rows = [c for c in configs(report, level="table")
                if c["engine"] == engine and
                c.get("scan_filter", "none") == scan_filter and
                results_of(c, "scanmissing")]
        return min(rows, key=lambda c: results_of(c, "scanmissing")
                   ["micros_per_op"], default=None)
    ours = fastest("bloomtable", "range")
    if ours is None:
        return "No bloomtable range-filter row."
    result = results_of(ours, "scanmissing")
    fp = result.get("false_positive_rate")
    bits = ours.get("stored_bits_per_key")
    decision = None if fp is None or bits is None else all_of(
        decide((fp_counted(result, -2), fp_counted(result, 2)), (0.01, 0.01)),
        decide((bits, bits), (16, 16)))
    lines = [f"- range filter, empty ranges: FP {pct(fp)}% at "
             f"{result.get('reads_per_op', 0):.4f} reads/op, the range filter "
             f"storing {stored(ours)} bits/key (goal ≤ 1% at ≤ 16 bits/key): "
             f"{verdict(decision)}"]
    for engine, scan_filter, limit in [("leveldb_table", "none", 0.2),
                                       ("rocksdb_table", "prefix", 0.5)]:
        theirs = fastest(engine, scan_filter)
        if theirs is None:
            continue
        decision, text = ratio_goal(ours, theirs, "scanmissing", limit)
        lines.append(f"- scanmissing, table level: bloomtable's range filter "
                     f"against {engine} ({scan_filter}): {text} "
                     f"(goal ≤ {limit}×): {verdict(decision)}")
    return "\n".join(lines)
