"""Scans over sparse keys (scan_SCHEME.json): one table per key scheme and
the empty-range goals."""

import os

from page.common import (configs, load, pct, results_of, stored, table,
                         verdict, with_range)

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
    """The empty-range goals, from scanmissing at table level."""
    def micros(engine, scan_filter):
        best = None
        for config in configs(report, level="table"):
            if config["engine"] != engine or \
                    config.get("scan_filter", "none") != scan_filter:
                continue
            result = results_of(config, "scanmissing")
            if result and (best is None or
                           result["micros_per_op"] < best["micros_per_op"]):
                best = result
        return best
    lines = []
    ours = micros("bloomtable", "range")
    if ours is None:
        return "No bloomtable range-filter row."
    fp = ours.get("false_positive_rate")
    lines.append(f"- range filter, empty ranges: FP {pct(fp)}% at "
                 f"{ours.get('reads_per_op', 0):.4f} reads/op, the range filter "
                 f"at 16 bits/key (goal ≤ 1% at ≤ 16 bits/key): "
                 f"{verdict(fp is not None and fp <= 0.01)}")
    for engine, scan_filter, limit in [("leveldb_table", "none", 0.2),
                                       ("rocksdb_table", "prefix", 0.5)]:
        theirs = micros(engine, scan_filter)
        if theirs is None:
            continue
        ratio = ours["micros_per_op"] / theirs["micros_per_op"]
        lines.append(f"- scanmissing, table level: bloomtable's range filter "
                     f"{ratio:.2f}× {engine} ({scan_filter}) "
                     f"(goal ≤ {limit}×): {verdict(ratio <= limit)}")
    return "\n".join(lines)
