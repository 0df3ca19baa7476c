#!/usr/bin/env python3
"""Writes BENCHMARKS.md and its two plots from committed benchmark JSON.

    bench/report.py [--results DIR] [--output FILE] [--plots DIR]

Reads, from DIR (default: bench/results beside this script):
  main.json          db_bench: the like-for-like point lookups (table and db
                     level, pread and mmap) at one stored filter budget
  build.json         db_bench: bulk builds of one table, with and without filter
  sweep.json         db_bench: false positives at several stored budgets
  filter_bench.json  filter_bench: the filters alone
  filter_bench_cold.json  filter_bench: the filters alone over 10^7 keys
  profile.json       bench/profile.py: perf's shares of table-level lookups
                     and of the database level's (db_report.py)
  scale_N.json       db_bench: bloomtable and RocksDB's table level at N keys
  compression.json   compression_bench: decompression speed of every codec
  scan_SCHEME.json   db_bench: bounded scans over sparse keys, scan filters
  python.json        python/bench/bench_python.py: the Python package
                     against plyvel (report_python.py writes its section)
  db.json            db_bench: the read-only database rows (db_report.py)
  cold_io.json       cold_bench: cold lookups (direct I/O) of bloomtable and
                     RocksDB beside the device's raw read rates, and warm ones
  warm_io.json       cold_bench --cold=false: the warm lookups at 10^7 keys
and fills the {{...}} sections of BENCHMARKS.template.md (beside this script)
into FILE (default: BENCHMARKS.md at the repository root), drawing
fp_vs_bits.svg and latency.svg into the plots directory (default: bench/) with
gnuplot. Every figure comes from those files: a section whose file is missing
says so. The like-for-like rows must be there: a main.json without the three
table-level engines, or a sweep.json with fewer than two budgets per filter,
is an error (exit 1), which is what the CI test of the shape relies on.

Peers: every db_bench JSON records, per peer, its version, origin (Debian
package or release build from source), NDEBUG and CRC32C. A cross-engine
goal reads "not a result" unless every peer of its JSON is recorded with
NDEBUG on: JSON without these fields (taken before db_bench recorded them),
or from assert-enabled peers (Debian's packages), is shown but decides
nothing. Such older JSON named its table-level rows leveldb_table and
rocksdb_table; they timed the public iterators, and are shown under the
names of those rows today (leveldb_table_iterator, rocksdb_sst_iterator).
A goal whose data is missing reads "not measured", never "met".
"""

import argparse
import json
import math
import os
import subprocess
import sys

from report_python import python_section
import db_report

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS = ["readmissing", "readnearmiss", "readunrelated", "readrandom"]
# The absent-key streams (db_bench's KeyGenerator): a present key plus 8
# random letters; a present key's number plus one; a key drawn independently
# of the present keys (in range, last bytes random).
ABSENT = {"readmissing": "key+suffix", "readnearmiss": "near-miss",
          "readunrelated": "unrelated"}
ABSENT_NAMES = " / ".join(ABSENT.values())
# Stored filter bits per key at which the sweep is compared.
BUDGETS = [6, 8, 10, 12, 16]
# Two filters store "equal" memory when within this fraction of each other.
EQUAL_MEMORY = 0.02


class ShapeError(Exception):
    pass


# Table-level rows of db_bench JSON taken before it recorded its peers: what
# those rows called then, under today's names.
OLD_ENGINE_NAMES = {"leveldb_table": "leveldb_table_iterator",
                    "rocksdb_table": "rocksdb_sst_iterator"}
PEER_FIELDS = ("version", "origin", "ndebug", "crc32c")
# The table-level rows of each peer, its own lookup first.
LEVELDB_TABLE = ("leveldb_table", "leveldb_table_iterator")
ROCKSDB_TABLE = ("rocksdb_table", "rocksdb_sst_iterator")


def load(results, name):
    path = os.path.join(results, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return relabel_old(json.load(f))


def relabel_old(report):
    """db_bench JSON without per-peer provenance came from a db_bench whose
    leveldb_table and rocksdb_table rows timed the public iterators: name
    them for what they called."""
    if isinstance(report, dict) and "configs" in report and \
            "peers" not in report:
        for config in report["configs"]:
            config["engine"] = OLD_ENGINE_NAMES.get(config.get("engine"),
                                                    config.get("engine"))
    return report


def peer_provenance(report):
    """(True, text) when every peer the JSON records has its version,
    origin, NDEBUG and CRC32C and NDEBUG on; (False, why) otherwise; (None,
    text) without a report."""
    if report is None:
        return None, "no run"
    peers = report.get("peers")
    if not isinstance(peers, dict):
        return False, ("peers' versions, origin and NDEBUG not recorded "
                       "(JSON older than per-peer provenance; the db_bench "
                       "of that commit could link only Debian's packaged "
                       "peers, which Debian 12 builds without NDEBUG)")
    if not peers:
        return False, "no peer linked"
    for name, peer in sorted(peers.items()):
        missing = [f for f in PEER_FIELDS
                   if not isinstance(peer, dict) or f not in peer]
        if missing:
            return False, f"{name}: no {', '.join(missing)} recorded"
        if peer["ndebug"] is not True:
            state = "off" if peer["ndebug"] is False else "unknown"
            return False, (f"{name} {peer['version']} ({peer['origin']}) has "
                           f"NDEBUG {state}: an assert-enabled build")
    return True, "; ".join(
        f"{name} {p['version']} ({p['origin']}, NDEBUG on, CRC32C "
        f"{p['crc32c']})" for name, p in sorted(peers.items()))


def cross_verdict(ok, provenance):
    """A cross-engine goal's status: its verdict only where the peers are
    release builds (provenance from peer_provenance)."""
    if ok is None:
        return verdict(None)
    if provenance[0] is not True:
        return NOT_A_RESULT
    return verdict(ok)


NOT_A_RESULT = "not a result (peers: see Peers)"


def results_of(config, benchmark):
    for result in config.get("results", []):
        if result.get("benchmark") == benchmark:
            return result
    return None


def series(config):
    """'bloomtable cache_local_bloom per_block' and the like."""
    parts = [config["engine"], config["filter"]]
    if config.get("filter_layout"):
        parts.append(config["filter_layout"])
    return " ".join(parts)


def us(value):
    return "-" if value is None else f"{value:.3f}"


def with_range(result, field="micros_per_op", digits=3):
    value = None if result is None else result.get(field)
    if value is None:
        return "-"
    low_high = result.get("range", {}).get(field)
    if not low_high or low_high[0] is None:
        return f"{value:.{digits}f}"
    return (f"{value:.{digits}f} ({low_high[0]:.{digits}f}–"
            f"{low_high[1]:.{digits}f})")


def pct(rate):
    return "-" if rate is None else f"{100 * rate:.2f}"


def stored(config):
    bits = config.get("stored_bits_per_key")
    return "-" if bits is None else f"{bits:.2f}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |"
              for row in rows]
    return "\n".join(lines)


def read_benchmarks(report):
    """Every read benchmark in the report, in the order first met (a
    workload added to db_bench shows up in the detail tables and the plot)."""
    names = []
    for config in report.get("configs", []):
        for result in config.get("results", []):
            if "found" in result and result["benchmark"] not in names:
                names.append(result["benchmark"])
    return names


def configs(report, level=None, io=None):
    for config in report.get("configs", []):
        if level and config.get("level") != level:
            continue
        if io and config.get("io") != io:
            continue
        yield config


def require_shape(main, sweep):
    """The like-for-like rows and the equal-memory comparison must exist."""
    if main is not None:
        have = {(c.get("level"), c["engine"]) for c in configs(main)}
        for config in configs(main):
            for key in ("level", "io", "stored_bits_per_key"):
                if config.get(key) is None and config["filter"] != "none":
                    raise ShapeError(f"main.json: {series(config)} has no {key}")
        for needed in [("table", ("bloomtable",)), ("table", LEVELDB_TABLE),
                       ("table", ROCKSDB_TABLE), ("db", ("leveldb",)),
                       ("db", ("leveldb+bloomtable",)), ("db", ("rocksdb",))]:
            if not any((needed[0], e) in have for e in needed[1]):
                raise ShapeError(f"main.json: no {needed[0]}-level "
                                 f"{' or '.join(needed[1])} rows")
        # Every workload the run was asked for, in every row (a run from
        # before a workload existed shows it as not measured).
        asked = main.get("settings", {}).get("benchmarks", WORKLOADS)
        for config in configs(main):
            for workload in (w for w in WORKLOADS if w in asked):
                if results_of(config, workload) is None:
                    raise ShapeError(f"main.json: {series(config)} "
                                     f"{config['io']} has no {workload}")
    if sweep is not None:
        for name, points in sweep_points(sweep, "readmissing").items():
            if len(points) < 2:
                raise ShapeError(f"sweep.json: {name} has fewer than two "
                                 f"stored budgets")


# ---------------------------------------------------------------- summary --

def best(rows, workload):
    """The (config, result) with the smallest median micros/op."""
    found = [(c, results_of(c, workload)) for c in rows]
    found = [(c, r) for c, r in found if r is not None]
    return min(found, key=lambda cr: cr[1]["micros_per_op"], default=None)


def summary(main):
    if main is None:
        return "No committed run (bench/results/main.json)."
    header = ["level", "engine", "filter", "stored b/key"] + \
        [f"{w} µs" for w in WORKLOADS] + [f"FP % {ABSENT_NAMES}"]
    rows = []
    for config in configs(main, io="pread"):
        fps = [pct((results_of(config, w) or {}).get("false_positive_rate"))
               for w in ABSENT]
        rows.append([config["level"], config["engine"],
                     config["filter"] + (f" ({config['filter_layout']})"
                                         if config.get("filter_layout") else ""),
                     stored(config)] +
                    [with_range(results_of(config, w)) for w in WORKLOADS] +
                    [" / ".join(fps)])
    text = [table(header, rows), ""]
    if peer_provenance(main)[0] is not True:
        text += ["Against the peers these are not results (see Peers): "
                 f"{peer_provenance(main)[1]}.", ""]
    # Who is ahead, said plainly, per level and workload.
    for level in ("table", "db"):
        level_rows = list(configs(main, level=level, io="pread"))
        ours = [c for c in level_rows if "bloomtable" in c["engine"]]
        for workload in WORKLOADS:
            top = best(level_rows, workload)
            mine = best(ours, workload)
            if top is None or mine is None:
                continue
            if top[0] is mine[0]:
                text.append(f"- {level} level, `{workload}`: "
                            f"{series(mine[0])} is fastest, "
                            f"{us(mine[1]['micros_per_op'])} µs.")
            else:
                ratio = mine[1]["micros_per_op"] / top[1]["micros_per_op"]
                text.append(f"- {level} level, `{workload}`: **{series(top[0])}"
                            f" is ahead**, {us(top[1]['micros_per_op'])} µs; "
                            f"the fastest with a bloomtable filter "
                            f"({series(mine[0])}) takes {ratio:.2f}× as long.")
    return "\n".join(text)


# ------------------------------------------------------------------ goals --

def ratio_goal(mine, theirs, workload, limit):
    a = results_of(mine, workload)
    b = results_of(theirs, workload)
    if a is None or b is None:
        return None, "no rows"
    ratio = a["micros_per_op"] / b["micros_per_op"]
    return ratio <= limit, (f"{with_range(a)} / {with_range(b)} µs = "
                            f"{ratio:.2f}×")


def no_slower_goal(mine, theirs, workload):
    """Met when mine's median is at most theirs' slowest run (no slower
    beyond the run-to-run range); with a single run, at most theirs."""
    a = results_of(mine, workload)
    b = results_of(theirs, workload)
    if a is None or b is None:
        return None, "no rows"
    limit = ((b.get("range") or {}).get("micros_per_op") or
             [None, None])[1]
    if limit is None:
        limit = b["micros_per_op"]
    ratio = a["micros_per_op"] / b["micros_per_op"]
    return a["micros_per_op"] <= limit, (
        f"{with_range(a)} / {with_range(b)} µs = {ratio:.2f}×")


def verdict(ok):
    return {True: "met", False: "**not met**", None: "not measured"}[ok]


def peer_table_rows(rows, names):
    """The rows of the first engine in `names` that has any: a peer's own
    table lookup where it ran, else its public iterator."""
    for name in names:
        found = [c for c in rows if c["engine"] == name]
        if found:
            return found
    return []


def goals(main, sweep, filter_bench, scale=None, cold=None, profile=None,
          cold_io=None, warm_io=None):
    rows = []
    provenance = peer_provenance(main)
    if main is not None:
        table_rows = list(configs(main, level="table", io="pread"))
        ours = [c for c in table_rows if c["engine"] == "bloomtable"]
        rocks = peer_table_rows(table_rows, ROCKSDB_TABLE)
        for config in ours:
            for workload in ABSENT:
                peers = [c for c in rocks if c["stored_bits_per_key"] >=
                         config["stored_bits_per_key"] * (1 - EQUAL_MEMORY)]
                top = best(peers, workload)
                if top is None:
                    rows.append([f"`{workload}`, table level: {series(config)}"
                                 " ≤ 0.5× RocksDB's table lookup at ≤ memory",
                                 "no RocksDB table row at equal or more "
                                 "memory", verdict(None)])
                    continue
                ok, text = ratio_goal(config, top[0], workload, 0.5)
                mine = results_of(config, workload)["micros_per_op"]
                rows.append([f"`{workload}`, table level: {series(config)} "
                             f"≤ 0.5× {series(top[0])} (stored "
                             f"{stored(config)} vs {stored(top[0])}), mean ≤ "
                             "0.2 µs", text,
                             cross_verdict(None if ok is None else
                                           ok and mine <= 0.2, provenance)])
        # The per-block layout against LevelDB's filter-aware table lookup
        # (its iterator never asks the filter: no goal can use it).
        leveldb = [c for c in table_rows if c["engine"] == "leveldb_table"]
        for config in ours:
            if config.get("filter_layout") != "per_block":
                continue
            for workload in ABSENT:
                top = best(leveldb, workload)
                if top is None:
                    rows.append([f"`{workload}`, table level: {series(config)}"
                                 " ≤ 1.0× LevelDB's filter-aware table lookup",
                                 "no leveldb_table row (LevelDB's "
                                 "TableCache::Get)", verdict(None)])
                    continue
                ok, text = ratio_goal(config, top[0], workload, 1.0)
                rows.append([f"`{workload}`, table level: {series(config)} "
                             f"≤ 1.0× {series(top[0])}", text,
                             cross_verdict(ok, provenance)])
        for io in ("pread", "mmap"):
            io_rows = list(configs(main, level="table", io=io))
            default = [c for c in io_rows if c["engine"] == "bloomtable"]
            for names in (LEVELDB_TABLE, ROCKSDB_TABLE):
                peer = best(peer_table_rows(io_rows, names), "readrandom")
                for config in default:
                    if peer is None:
                        rows.append([f"`readrandom`, table level, {io}: "
                                     f"{series(config)} ≤ 0.8× "
                                     f"{' or '.join(names)}", "no row",
                                     verdict(None)])
                        continue
                    ok, text = ratio_goal(config, peer[0], "readrandom", 0.8)
                    rows.append([f"`readrandom`, table level, {io}: "
                                 f"{series(config)} ≤ 0.8× {series(peer[0])}",
                                 text, cross_verdict(ok, provenance)])
        leveldb = [c for c in configs(main, level="db", io="pread")
                   if c["engine"] == "leveldb"]
        adapted = [c for c in configs(main, level="db", io="pread")
                   if c["engine"] == "leveldb+bloomtable"]
        for config in adapted:
            for base in leveldb:
                for workload in ABSENT:
                    ok, text = no_slower_goal(config, base, workload)
                    rows.append([f"`{workload}`, db level: leveldb::DB with "
                                 f"our filter ({config['filter']}, stored "
                                 f"{stored(config)}) no slower than with its "
                                 f"own (stored {stored(base)}) beyond the "
                                 "run-to-run range", text,
                                 cross_verdict(ok, provenance)])
    if sweep is not None:
        # Stored bits/key for 1% FP on random and on near-miss keys. (Counts,
        # not timings: an assert-enabled peer counts the same.)
        needed = {}
        for workload in ABSENT:
            for name, points in sweep_points(sweep, workload).items():
                needed.setdefault(name, []).append(bits_for_rate(points, 0.01))
        ribbon = [b for name, b in needed.items()
                  if name.startswith("rocksdb") and "ribbon" in name]
        ribbon = ribbon[0] if ribbon else None
        for name, bits in needed.items():
            if not name.startswith("bloomtable") or ribbon is None:
                continue
            known = None not in bits and None not in ribbon
            row = [f"memory: {name} reaches 1.0% FP ({ABSENT_NAMES}) "
                   "at ≤ RocksDB Ribbon's stored bits/key",
                   " / ".join(fmt_bits(b) for b in bits) + " vs " +
                   " / ".join(fmt_bits(b) for b in ribbon),
                   verdict(max(bits) <= max(ribbon) + 1e-9
                           if known else None)]
            if known and "ribbon" in name and max(bits) > max(ribbon) + 1e-9:
                row.append(
                    "note: the same construction as RocksDB's (128-bit rows, "
                    "slots over keys about 1.03–1.04, fractional columns "
                    f"interleaved); behind by {max(bits) - max(ribbon):.3f} "
                    "bits/key at the worse of the two key kinds, where "
                    "counting 1% of the sweep's absent keys is itself "
                    "uncertain by about ±0.02 bits")
            rows.append(row)
    per_block = per_block_probe_ratio(filter_bench)
    rows.append(["per-block probe: cache-local Bloom ≤ 1.0× LevelDB's Bloom "
                 "at ≤ its stored bits/key, at every LevelDB point "
                 "(filter_bench, absent keys, many small filters)",
                 per_block[1],
                 cross_verdict(per_block[0], peer_provenance(filter_bench))])
    rows += floor_goals(main, filter_bench)
    rows += scale_goals(scale or [])
    rows += cold_probe_goals(cold)
    rows += profile_goals(profile)
    rows += cold_io_goals(cold_io, warm_io)
    for row in rows:
        if len(row) == 3:
            row.append(what_is_left(row, main, profile)
                       if row[2] == verdict(False) else "")
    return table(["goal", "measured (medians, range)", "status",
                  "what is left (notes, with the profiles' shares)"], rows)


def tested_not_benchmarked():
    """Properties that tests decide, listed as tests (no goal row)."""
    return ("- Many tables: closing one of 1,000 tables sharing a block "
            "cache visits only its own blocks: a test, not a benchmark "
            "(block_cache_test `ClosingATableVisitsOnlyItsOwnBlocks`).")


def has_peers(report):
    """db_bench's JSON, and cold_bench's where it ran RocksDB."""
    return "configs" in report or any(
        r.get("engine") == "rocksdb" for r in report.get("lookups", []))


def peers_section(named):
    """Per db_bench JSON: the peers it was linked with, or why its
    cross-engine figures are not results."""
    out = []
    for name, report in named:
        if report is None or not has_peers(report):
            continue
        ok, text = peer_provenance(report)
        out.append(f"- `{name}`: {text}" +
                   ("" if ok else ": its cross-engine ratios are not "
                    "results."))
    return "\n".join(out) or "No db_bench run committed."


def profile_summary(profile, name, top=4):
    """'name: category a%, ...' for the profile called `name`."""
    for p in (profile or {}).get("profiles", []):
        if p["name"] == name:
            shares = sorted([kv for kv in category_shares(p).items()
                             if not kv[0].startswith("other")],
                            key=lambda kv: -kv[1])
            return f"profile *{name}*: " + ", ".join(
                f"{c} {v:.0f}%" for c, v in shares[:top])
    return f"no profile *{name}*"


def present_profile(goal):
    """The present-key profile nearest a goal's configuration (profile.py
    profiles the per-block and the whole-table layouts)."""
    return ("present keys, cache_local_bloom per_block" if "per_block" in goal
            else "present keys, ribbon whole_table")


def what_is_left(row, main, profile):
    """A missed goal's explanation, from the profiles and the runs."""
    goal = row[0]
    absent_table = goal.startswith(tuple(f"`{w}`, table" for w in ABSENT))
    if absent_table and " per_block ≤" not in goal:
        return ("false positives: each absent key the filter lets through "
                "costs a data-block read (the floor rows below split it "
                "out); the Ribbon filter at the same memory lets fewer "
                "through: " + profile_summary(
                    profile, "absent keys, ribbon whole_table"))
    if absent_table:
        return ("the per-block layout searches the index before it can ask "
                "the filter (LevelDB's layout; the whole-table rows ask "
                "first): " + profile_summary(
                    profile, "absent keys, cache_local_bloom per_block"))
    if goal.startswith("`readrandom`"):
        return ("reading the block: " +
                profile_summary(profile, present_profile(goal), 5))
    if goal.startswith("`readmissing`, db level") and main is not None:
        rows = {c["engine"]: results_of(c, "readmissing")
                for c in configs(main, level="db", io="pread")
                if c["engine"] in ("leveldb", "leveldb+bloomtable")}
        if all(rows.get(e) for e in ("leveldb", "leveldb+bloomtable")):
            ours, theirs = rows["leveldb+bloomtable"], rows["leveldb"]
            return ("block reads per lookup "
                    f"{ours.get('reads_per_op', 0):.4f} vs "
                    f"{theirs.get('reads_per_op', 0):.4f} (FP "
                    f"{pct(ours.get('false_positive_rate'))} vs "
                    f"{pct(theirs.get('false_positive_rate'))}%); the rest is LevelDB's "
                    "own lookup path and each store's own compaction "
                    "(not profiled at DB level)")
    if goal.startswith("memory:") and "cache_local_bloom" in goal:
        return ("a Bloom filter needs about 1.44 log2(1/ε) bits per key, 9.6 "
                "at 1%: only Ribbon can reach RocksDB Ribbon's figure")
    if goal.startswith("the floor"):
        return ("the lookups the filter lets through, each a block read "
                "(measured beside); " + profile_summary(
                    profile, "absent keys, cache_local_bloom whole_table", 3))
    if goal.startswith("scale") and "partitioned" in goal:
        return ("finding the partition and loading its reader before the "
                "filter's line: " + profile_summary(
                    profile, "absent keys, ribbon partitioned", 3))
    if goal.startswith("scale"):
        return ("a larger filter's lines come from L3, not L2: " +
                profile_summary(profile, "absent keys, ribbon whole_table",
                                3))
    if goal.startswith("a filter probe on a cold") and "ribbon" in goal:
        return ("a Ribbon probe reads the result columns of every 64-slot "
                "block its 128-slot row spans, several lines from L3 where "
                "the cache-local Bloom reads one; the whole-table rows above "
                "still answer an absent key in `Table::Get` faster than "
                "RocksDB's")
    if goal.startswith("a filter probe on a cold"):
        return ("the probe waits for one line from L3 (this machine's L2 is "
                "4 MiB); no smaller layout of the same bits fits in L2")
    if goal.startswith("the filter ≤ 3%"):
        return profile_summary(profile, present_profile(goal), 5)
    return ""


def cold_probe_goals(cold):
    """filter_bench's dependent-latency absent probe of one filter over
    10^7 keys (its lines are not in L1 or L2) ≤ 50 ns."""
    if cold is None:
        return [["a filter probe on a cold cache line ≤ 50 ns (filter_bench)",
                 "no committed run (filter_bench_cold.json)", verdict(None)]]
    rows = []
    for r in cold.get("results", []):
        if r.get("num_filters") != 1 or not r.get("filter", "").startswith(
                "bloomtable/") or r.get("absent_dependent_probe_ns") is None:
            continue
        ns = r["absent_dependent_probe_ns"]
        rows.append([f"a filter probe on a cold cache line ≤ 50 ns: "
                     f"{r['filter']}, one filter over {r['num_keys']:,} keys "
                     f"({r['filter_bits_per_key']:.1f} bits/key), each probe "
                     "depending on the last",
                     f"{ns_with_range(r, 'absent_dependent_probe_ns')} ns",
                     verdict(ns <= 50)])
    return rows


def profile_goals(profile):
    """The filter's share of perf's samples in readrandom ≤ 3%."""
    if profile is None:
        return [["the filter ≤ 3% of `perf` samples in `readrandom`",
                 "no committed run (profile.json)", verdict(None)]]
    rows = []
    for p in table_profiles(profile):
        if p["workload"] != "readrandom":
            continue
        share = category_shares(p).get("filter probe (hash, lines)")
        rows.append([f"the filter ≤ 3% of `perf` samples in `readrandom`: "
                     f"bloomtable {p['filter']} {p['filter_layout']}",
                     "no filter symbol among the samples" if share is None
                     else f"{share:.1f}%",
                     verdict(None if share is None else share <= 3)])
    return rows


# --------------------------------------------------------------- profiles --

# Where a symbol's samples are counted, first match wins: (category, test).
# perf records self time only, so a comparator's samples count as block
# search wherever it was called from (a memtable's too), and a mutex's as
# locking whoever took it (at table level, the block cache's shards).
PEERS = ("leveldb::", "rocksdb::")
CATEGORIES = [
    ("filter probe (hash, lines)", lambda d, s, k: any(
        w in s for w in ("KeyMayMatch", "RibbonQuery", "CacheLocalBloom",
                         "Ribbon", "XXH", "TableMayMatch", "BlockMayMatch",
                         "PartitionedFilter", "FilterReader",
                         # LevelDB's and RocksDB's filters and their hash
                         "::BloomFilterPolicy::", "FilterBlockReader",
                         "FastLocalBloom", "LegacyBloom", "rocksdb::Hash64",
                         "LevelDBHash"))),
    ("kernel: the pread system call", lambda d, s, k: k),
    ("decompression", lambda d, s, k: any(
        w in d for w in ("snappy", "zstd", "lz4", "libz"))),
    ("checksum (CRC32C)", lambda d, s, k: "crc32" in s or "isal" in d),
    ("memtable / log records", lambda d, s, k: any(
        w in s for w in ("MemTable", "SkipList", "LogView"))),
    ("block search (index and data)", lambda d, s, k: any(
        w in s for w in ("BlockIter", "Compare", "memcmp", "DecodeEntry",
                         "KeyBuffer", "RestartKeyDigest", "leveldb::Block",
                         "rocksdb::IndexBlockIter", "BinarySeek"))),
    ("block cache", lambda d, s, k: any(
        w in s for w in ("LRUCache", "LRUShard", "Hashtable", "CacheKey",
                         "LRUHandle", "lru_cache::"))),
    ("allocation", lambda d, s, k: any(
        w in s for w in ("malloc", "free", "_int_", "unlink_chunk",
                         "operator new", "operator delete"))),
    ("copying (memmove: decompression's copies, values)",
     lambda d, s, k: "memmove" in s or "memcpy" in s),
    ("database: version, table cache, locking", lambda d, s, k: any(
        w in s for w in ("pthread_mutex", "Mutex::Lock", "DBImpl::Get",
                         "CompactedDBImpl", "Version::Get", "TableCache::",
                         "TableSet::", "Database::Get", "GetContext",
                         "ForEachOverlapping", "FindFile", "FileMetaData",
                         "LookupKey", "AppendInternalKey", "ColumnFamily"))),
    ("table lookup (FindDataBlock, block reads, counters)", lambda d, s, k:
     "bloomtable::" in s and "db_bench::" not in s),
    ("peer's other lookup code (LevelDB, RocksDB)", lambda d, s, k:
     s.startswith(PEERS)),
    ("benchmark harness (key choice, timing)", lambda d, s, k: any(
        w in s for w in ("db_bench::", "clock_gettime", "std::thread")) or
     "vdso" in d),
]


def table_profiles(profile):
    """profile.json's table-level profiles (the database-level ones, which
    bench/profile.py adds after them, are db_report.py's)."""
    return [p for p in (profile or {}).get("profiles", [])
            if p.get("level", "table") == "table"]


def category(dso, symbol, kernel=False):
    """The category of CATEGORIES that counts a symbol's samples."""
    return next((c for c, test in CATEGORIES if test(dso, symbol, kernel)),
                "other (each symbol < 0.2% or unattributed)")


def category_shares(profile):
    shares = {}
    for sym in profile.get("symbols", []):
        name = category(sym["dso"], sym["symbol"], sym["kernel"])
        shares[name] = shares.get(name, 0.0) + sym["percent"]
    listed = sum(shares.values())
    if listed < 100:
        other = "other (each symbol < 0.2% or unattributed)"
        shares[other] = shares.get(other, 0.0) + 100 - listed
    return shares


def profile_section(profile):
    if profile is None:
        return "No committed run (bench/results/profile.json)."
    out = []
    for p in table_profiles(profile):
        shares = sorted(category_shares(p).items(), key=lambda kv: -kv[1])
        micros = p.get("micros_per_op_under_perf")
        out.append(f"**{p['name']}** (`{p['workload']}`, {p['samples']} "
                   "samples" + (f", {micros:.3f} µs per lookup under perf"
                                if micros is not None else "") + ")\n")
        out.append(table(["where", "% of samples"],
                         [[name, f"{share:.1f}"] for name, share in shares
                          if share >= 0.5]))
        top = sorted(p.get("symbols", []), key=lambda s: -s["percent"])[:6]
        out.append("\nTop symbols: " + "; ".join(
            f"`{s['symbol'][:70]}` {s['percent']:.1f}%" for s in top) + ".\n")
    first = (table_profiles(profile) or [{}])[0].get("command", "")
    out.append(f"Command of the first profile (the others differ in "
               f"`--filter`, `--filter_layout` and `--benchmarks`): "
               f"`{first}`.")
    return "\n".join(out)


# filter_bench's row for each db_bench filter name.
FILTER_BENCH_ROW = {"ribbon": "bloomtable/ribbon",
                    "cache_local_bloom": "bloomtable/cache-local-bloom"}


def floor_goals(main, filter_bench):
    """readmissing at table level (whole-table filters, pread) within 2× of
    filter_bench's absent probe of one filter over 1M keys at 10 bits/key.
    Like with like: readmissing's time per lookup is a loop of independent
    lookups (a throughput), so the floor is filter_bench's throughput probe
    (absent_probe_ns, independent probes), not its dependent-chain latency."""
    if main is None or filter_bench is None:
        return [["the floor: within 2× of filter_bench's absent probe "
                 "(throughput)", "no committed run", verdict(None)]]
    rows = []
    for config in configs(main, level="table", io="pread"):
        if config["engine"] != "bloomtable" or \
                config.get("filter_layout") != "whole_table":
            continue
        name = FILTER_BENCH_ROW.get(config["filter"])
        probe = [r for r in filter_bench.get("results", [])
                 if r.get("filter") == name and r.get("num_filters") == 1 and
                 r.get("num_keys") == main.get("settings", {}).get("num") and
                 r.get("bits_per_key") == 10 and
                 r.get("absent_probe_ns")]
        result = results_of(config, "readmissing")
        if not probe or result is None:
            rows.append([f"the floor: `readmissing`, {series(config)} within "
                         "2× of filter_bench's absent probe (throughput)",
                         "no filter_bench row or readmissing result",
                         verdict(None)])
            continue
        floor = probe[0]["absent_probe_ns"] / 1000
        ratio = result["micros_per_op"] / floor
        present = results_of(config, "readrandom")
        fp = result.get("false_positive_rate")
        fp_cost = ("" if present is None or fp is None else
                   f"; of the {result['micros_per_op']:.3f} µs, false "
                   f"positives ({pct(fp)}% × one readrandom lookup, "
                   f"{present['micros_per_op']:.3f} µs) take about "
                   f"{fp * present['micros_per_op']:.3f} µs")
        rows.append([f"the floor: `readmissing`, {series(config)} within 2× "
                     "of filter_bench's absent probe (throughput: independent "
                     "probes)",
                     f"{with_range(result)} µs vs {floor:.3f} µs: "
                     f"{ratio:.1f}×{fp_cost}", verdict(ratio <= 2)])
    return rows


def scale_memory_goal(num, config):
    """≤ 1.5 bytes/key held (the engine's own figure, else filter plus
    index) at ≤ 1.0% FP: not measured where either figure is missing."""
    memory = config.get("memory") or {}
    per_key = memory.get("engine_bytes_per_key")
    if per_key is None and memory.get("filter_bytes_per_key") is not None \
            and memory.get("index_bytes_per_key") is not None:
        per_key = memory["filter_bytes_per_key"] + memory["index_bytes_per_key"]
    fps = [(results_of(config, w) or {}).get("false_positive_rate")
           for w in ABSENT]
    known = None not in fps and per_key is not None
    return [f"memory: {series(config)} at {num:,} keys holds ≤ 1.5 bytes/key "
            f"(table, index and filter) at ≤ 1.0% FP, {ABSENT_NAMES}",
            ("-" if per_key is None else f"{per_key:.2f}") +
            f" B/key at stored {stored(config)} bits/key, FP " +
            " / ".join(pct(f) for f in fps) + " %",
            verdict(per_key <= 1.5 and max(fps) <= 0.01) if known else
            verdict(None)]


def scale_goals(scale):
    """readmissing grows ≤ 2× from the smallest to the largest N."""
    series_points = {}
    for num, report in scale:
        for config in configs(report):
            if config["engine"] != "bloomtable":
                continue
            result = results_of(config, "readmissing")
            if result:
                series_points.setdefault(series(config), []).append(
                    (num, result["micros_per_op"], with_range(result)))
    rows = []
    # Memory at about 1% false positives: the largest scale run's rows.
    if scale:
        num, report = scale[-1]
        for config in configs(report):
            if config["engine"] != "bloomtable":
                continue
            rows.append(scale_memory_goal(num, config))
    # Table::Open's time and the memory held, per key, at each N.
    flat = {}
    for num, report in scale:
        for config in configs(report):
            if config["engine"] != "bloomtable":
                continue
            memory = config.get("memory") or {}
            flat.setdefault(series(config), []).append(
                (num, open_per_key(config, num),
                 memory.get("engine_bytes_per_key")))
    for name, points in sorted(flat.items()):
        opens = [(n, o) for n, o, _ in points if o is not None]
        if len(opens) >= 2:
            growth = opens[-1][1][0] / opens[0][1][0]
            rows.append([f"scale: `Table::Open` time per key, {name}, stays "
                         f"flat (≤ 2×) from {opens[0][0]:,} to "
                         f"{opens[-1][0]:,} keys",
                         " → ".join(f"{o[0]:.1f} ({o[1]:.1f}–{o[2]:.1f})"
                                    for _, o in opens) +
                         f" ns/key: {growth:.2f}×", verdict(growth <= 2)])
        held = [(n, b) for n, _, b in points if b]
        if len(held) >= 2:
            growth = held[-1][1] / held[0][1]
            rows.append([f"scale: memory held per key, {name}, stays flat "
                         f"(≤ 2×) from {held[0][0]:,} to {held[-1][0]:,} "
                         "keys", " → ".join(f"{b:.3f}" for _, b in held) +
                         f" B/key: {growth:.2f}×", verdict(growth <= 2)])
    for name, points in sorted(series_points.items()):
        if len(points) < 2:
            continue
        growth = points[-1][1] / points[0][1]
        rows.append([f"scale: `readmissing`, {name}, grows ≤ 2× from "
                     f"{points[0][0]:,} to {points[-1][0]:,} keys",
                     f"{points[0][2]} → {points[-1][2]} µs: "
                     f"{growth:.2f}×", verdict(growth <= 2)])
    if not rows:
        rows.append(["scale: 10^5 to 10^7 keys", "no committed run",
                     verdict(None)])
    return rows


def per_block_probe_ratio(filter_bench):
    """The cache-local Bloom's absent-key probe over LevelDB's, for many
    small filters, at every measured LevelDB point: against each LevelDB row
    the cache-local row of the same keys whose stored bits per key are the
    nearest at or below LevelDB's. Every point counts (no interpolation window): the worst ratio
    decides. A LevelDB point with no such cache-local row is compared with
    the cache-local row of the same nominal bits/key (which stores more):
    LevelDB ahead even then is a miss, otherwise that point leaves the goal
    not measured unless another point already misses it."""
    if filter_bench is None:
        return None, "no committed filter_bench run"
    rows = [r for r in filter_bench.get("results", [])
            if r.get("num_filters", 1) > 1 and
            r.get("absent_probe_ns") is not None]
    theirs = [r for r in rows if r["filter"] == "leveldb-1.23"]
    if not theirs:
        return None, "no LevelDB rows"
    ratios = []
    unmatched = []
    for peer in sorted(theirs, key=lambda r: (r["num_keys"],
                                              r["filter_bits_per_key"])):
        ours = [r for r in rows
                if r["filter"] == "bloomtable/cache-local-bloom" and
                r["num_keys"] == peer["num_keys"] and
                r["filter_bits_per_key"] <= peer["filter_bits_per_key"] + 1e-9]
        if not ours:
            # Ours at the same nominal bits/key stores more than LevelDB's:
            # LevelDB ahead even then is a miss; otherwise undecided.
            same = [r for r in rows
                    if r["filter"] == "bloomtable/cache-local-bloom" and
                    r["num_keys"] == peer["num_keys"] and
                    r.get("bits_per_key") == peer.get("bits_per_key")]
            if same and min(r["absent_probe_ns"] for r in same) > \
                    peer["absent_probe_ns"]:
                ratios.append((min(r["absent_probe_ns"] for r in same) /
                               peer["absent_probe_ns"], peer))
            else:
                unmatched.append(peer)
            continue
        # The nearest budget at or below LevelDB's.
        nearest = max(ours, key=lambda r: (r["filter_bits_per_key"],
                                           -r["absent_probe_ns"]))
        ratios.append((nearest["absent_probe_ns"] / peer["absent_probe_ns"],
                       peer))
    if not ratios:
        return None, "no cache-local Bloom row at ≤ LevelDB's stored bits/key"
    worst = max(r for r, _ in ratios)
    text = (f"{min(r for r, _ in ratios):.2f}–{worst:.2f}× LevelDB's over "
            f"{len(ratios)} points")
    behind = [p for r, p in ratios if r > 1.0]
    if behind:
        text += "; LevelDB ahead at " + ", ".join(
            f"{p['num_keys']:,} keys {p['filter_bits_per_key']:.1f} b/key"
            for p in behind)
    if unmatched:
        text += (f"; {len(unmatched)} LevelDB points without a cache-local "
                 "row at ≤ their bits/key")
    if worst > 1.0:
        return False, text
    return (None if unmatched else True), text


# ----------------------------------------------------------- detail tables --

def detail(report, level):
    if report is None:
        return "No committed run."
    header = ["benchmark", "engine", "filter", "layout", "io", "bits_per_key",
              "stored b/key", "micros/op (range)", "p50", "p99", "reads/op",
              "FP %", "cache hit %"]
    rows = []
    for workload in read_benchmarks(report):
        for config in configs(report, level=level):
            result = results_of(config, workload)
            if result is None:
                continue
            hit = result.get("block_cache_hit_rate")
            rows.append([workload, config["engine"], config["filter"],
                         config.get("filter_layout") or "-", config["io"],
                         f"{config['bloom_bits']:g}", stored(config),
                         with_range(result), us(result.get("p50_micros")),
                         us(result.get("p99_micros")),
                         f"{result.get('reads_per_op', 0):.4f}",
                         pct(result.get("false_positive_rate")),
                         "-" if hit is None else f"{100 * hit:.1f}"])
    return table(header, rows)


def build_table(build):
    if build is None:
        return "No committed run (bench/results/build.json)."
    rows = []
    for config in configs(build):
        for result in config.get("results", []):
            if not result["benchmark"].startswith("fill"):
                continue
            rows.append([config["engine"], config["filter"],
                         config.get("filter_layout") or "-", stored(config),
                         with_range(result),
                         with_range(result, "mb_per_second", digits=1)])
    return table(["engine", "filter", "layout", "stored b/key",
                  "µs/key (range)", "MB/s (range)"], rows)


def memory_table(main):
    if main is None:
        return "No committed run."
    rows = []
    for config in configs(main, io="pread"):
        memory = config.get("memory") or {}

        def cell(key):
            value = memory.get(key)
            return "-" if value is None else f"{value:.3f}"
        rows.append([config["level"], series(config), stored(config),
                     cell("filter_bytes_per_key"), cell("index_bytes_per_key"),
                     cell("engine_bytes_per_key") + (
                         f" ({memory['engine_bytes_name']})"
                         if memory.get("engine_bytes_name") else "")])
    return table(["level", "engine and filter", "stored b/key",
                  "filter B/key", "index B/key", "engine's own B/key"], rows)


# ----------------------------------------------------------- equal memory --

def sweep_points(sweep, workload):
    """series -> sorted [(stored bits/key, FP rate)] over the budgets."""
    points = {}
    for config in configs(sweep, io="pread"):
        result = results_of(config, workload)
        if result is None or config.get("stored_bits_per_key") is None:
            continue
        points.setdefault(series(config), []).append(
            (config["stored_bits_per_key"], result.get("false_positive_rate")))
    return {name: sorted(p) for name, p in points.items()}


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


def ns_with_range(row, field):
    """'12.3 (11.9–12.8)', or the median alone where the JSON has no
    range (filter_bench before it recorded them)."""
    low_high = row.get(field + "_range")
    if not low_high:
        return f"{row[field]:.1f}"
    return f"{row[field]:.1f} ({low_high[0]:.1f}–{low_high[1]:.1f})"


def filter_bench_table(filter_bench):
    if filter_bench is None:
        return "No committed run (bench/results/filter_bench.json)."
    rows = []
    for r in filter_bench.get("results", []):
        layout = f"{r['num_filters']} x {r['keys_per_filter']}"

        def ratio(key):
            value = r.get(key)
            return "-" if value is None else f"{value:.2f}"
        rows.append([r["filter"], layout, r["bits_per_key"],
                     f"{r['filter_bits_per_key']:.2f}",
                     f"{r['build_ns_per_key']:.1f}",
                     f"{r['present_probe_ns']:.1f}",
                     ns_with_range(r, "absent_probe_ns"),
                     "-" if r.get("absent_dependent_probe_ns") is None
                     else ns_with_range(r, "absent_dependent_probe_ns"),
                     pct(r["fp_rate_random"]), pct(r["fp_rate_near_miss"]),
                     ratio("absent_ratio_to_baseline")])
    return table(["filter", "layout", "bits_per_key", "stored b/key",
                  "build ns/key", "present ns", "absent ns", "absent dep ns",
                  "FP % random", "FP % near", "absent x LevelDB"], rows)


# ------------------------------------------------------------- provenance --

def provenance(named):
    out = []
    for name, report in named:
        if report is None:
            out.append(f"- `{name}`: not committed.")
            continue
        settings = report.get("settings", {})
        command = settings.get("command_line", report.get("command_line", "?"))
        machine = report.get("machine", {})
        commit = report.get("commit", "unknown")
        out.append(f"- `{name}`: commit `{commit}`"
                   f"{' (with uncommitted changes)' if report.get('dirty') else ''}"
                   f", {machine.get('cpu', '?')}, {machine.get('kernel', '?')}."
                   f"\n  `{command}`")
        runs = report.get("runs")
        for run in runs if isinstance(runs, list) else []:
            start = (run.get("start") or {}).get("load_average") or ["?"]
            end = (run.get("end") or {}).get("load_average") or ["?"]
            foreign = run.get("foreign_cpus")
            steal = run.get("steal_fraction")
            out.append(
                f"  - run {run['run']} attempt {run['attempt']}: "
                f"{'accepted' if run['accepted'] else 'rejected'}, "
                f"{run['seconds']:.0f} s, load average {start[0]} → {end[0]}, "
                f"other processes + steal "
                f"{'?' if foreign is None else f'{foreign:.2f}'} CPUs, steal "
                f"{'?' if steal is None else f'{100 * steal:.2f}'}%")
    return "\n".join(out)


def method(main):
    if main is None:
        return "No committed main run."
    settings = main["settings"]
    reject = settings.get("max_foreign_cpu", -1)
    return (f"A timing is the median of {settings.get('repeats', 1)} runs in "
            "one invocation, with the engines' order rotated between runs; "
            "the range in brackets is the fastest and slowest run. " +
            (f"A run during which other processes and CPU steal took more "
             f"than {reject:g} CPUs on average (`--max_foreign_cpu`) was "
             "rejected and retaken." if reject >= 0 else
             "No run was checked for load."))


def setup(main):
    if main is None:
        return "No committed main run."
    s = main["settings"]
    budget = ", ".join(f"{b:g}" for b in s.get("stored_bits", [])) or "-"
    return (f"{s['num']:,} keys of {s['key_size']} bytes, {s['value_size']}-"
            f"byte values ({s['compression_type']}, {s['block_size']}-byte "
            f"blocks), a block cache of {s['cache_size'] >> 20} MiB per "
            "engine, "
            f"every filter calibrated to store {budget} bits per key "
            f"(`--stored_bits`), files read with `pread`, at least "
            f"{s.get('min_seconds', 0):g} s per engine and workload")


def banner(named):
    return small_run_banner(named) + peers_banner(named)


def peers_banner(named):
    """Said plainly at the top: which runs' cross-engine ratios are not
    results."""
    pending = [name for name, report in named
               if report is not None and has_peers(report) and
               peer_provenance(report)[0] is not True]
    if not pending:
        return ""
    return ("\n> **The cross-engine ratios await release-peer runs.** "
            f"{', '.join(pending)} were not taken against release builds of "
            "LevelDB and RocksDB recorded as such (see Peers): their ratios "
            "against a peer are shown, but are not results and decide no "
            "goal. `bench/run_all.sh` builds the release peers "
            "(`bench/build_peers.sh`) and retakes them.\n")


def small_run_banner(named):
    small = []
    for name, report in named:
        if report is None or name in ("filter_bench.json",
                                      "filter_bench_cold.json",
                                      "profile.json"):
            continue
        if name == "compression.json":
            if report.get("runs", 0) < 3:
                small.append(name)
            continue
        if name in ("cold_io.json", "warm_io.json"):
            # run_all.sh takes 3 runs at 10^6 (cold) and 10^7 (warm) keys.
            least = 10 ** 6 if name == "cold_io.json" else 10 ** 7
            if report.get("runs", 0) < 3 or report.get("num", 0) < least:
                small.append(name)
            continue
        settings = report.get("settings", {})
        # The point-lookup and build runs are taken at 1M keys; the sweep,
        # scale and scan runs are sized on purpose (their sections say so).
        if (settings.get("repeats", 1) < 3 or settings.get(
                "max_foreign_cpu", -1) < 0 or
                (name in ("main.json", "build.json") and
                 settings.get("num", 0) < 1000000)):
            small.append(name)
    if not small:
        return ""
    return ("> **Smoke run, not a measurement.** "
            f"{', '.join(small)} came from a small run (fewer keys than "
            "run_all.sh takes, fewer than 3 runs or no load check): the tables "
            "below show "
            "the shape of the report, not figures to quote. "
            "`bench/run_all.sh` on an idle machine replaces them.\n")


# ------------------------------------------------------------------ plots --

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
           "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]


def terminal(path, width, height):
    """An SVG, or a PNG for a path ending in .png (for a quick look)."""
    kind = "pngcairo" if path.endswith(".png") else "svg dynamic"
    return [f"set terminal {kind} size {width},{height} font 'sans,11'",
            f"set output '{path}'", "set termoption noenhanced"]


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def plot_fp(source, path):
    """FP against stored bits/key, one line per filter (the sweep's)."""
    named = {}
    for workload in ABSENT:
        for name, points in sweep_points(source, workload).items():
            named.setdefault(name, {})[workload] = [(b, r) for b, r in points
                                                    if r]
    rates = [r for w in named.values() for p in w.values() for _, r in p]
    low = min(rates, default=1e-4) / 3
    script = terminal(path, 1400, 560) + [
        f"set multiplot layout 1,{len(ABSENT)}", "set logscale y", "set format y '%g'",
        "set grid", f"set yrange [{low}:1]",
        "set xlabel 'filter bits per key as stored'",
        "set ylabel 'false-positive rate'", "set key below font ',9'"]
    for workload, keys in ABSENT.items():
        script.append(f"set title '{keys} absent keys ({workload})'")
        plots, data = ["2**(-x) dashtype 2 lc rgb '#555555' title "
                       "'floor 2^-b (b = stored bits/key)'"], []
        for i, (name, by_workload) in enumerate(sorted(named.items())):
            points = sorted(set(by_workload.get(workload, [])))
            if not points:
                continue
            plots.append(f"'-' with linespoints pt 7 lc rgb "
                         f"'{COLOURS[i % len(COLOURS)]}' title '{name}'")
            data.append("\n".join(f"{b} {r}" for b, r in points) + "\ne")
        script.append("plot [5:17] " + ", ".join(plots))
        script.extend(data)
    script.append("unset multiplot")
    gnuplot("\n".join(script) + "\n")


def plot_latency(main, path):
    """p50 (filled) and p99 (open) per engine, one colour per workload."""
    rows = list(configs(main, io="pread"))
    script = terminal(path, 1000, 160 + 34 * len(rows)) + [
        "set logscale x", "set grid x", "set format x '%g'",
        "set lmargin at screen 0.40", "set xlabel 'microseconds per lookup "
        "(pread; p50 filled, p99 open)'",
        f"set yrange [-0.7:{len(rows) - 0.3}] reverse", "set key below",
        "set ytics (" + ", ".join(f"'{c['level']} {series(c)}' {i}"
                                  for i, c in enumerate(rows)) + ")"]
    plots, data = [], []
    workloads = read_benchmarks(main)
    for n, workload in enumerate(workloads):
        offset = (n - (len(workloads) - 1) / 2) * 0.6 / len(workloads)
        p50 = [f"{(results_of(c, workload) or {}).get('p50_micros')} "
               f"{i + offset}" for i, c in enumerate(rows)
               if (results_of(c, workload) or {}).get("p50_micros")]
        p99 = [f"{(results_of(c, workload) or {}).get('p99_micros')} "
               f"{i + offset}" for i, c in enumerate(rows)
               if (results_of(c, workload) or {}).get("p99_micros")]
        colour = COLOURS[n % len(COLOURS)]
        plots.append(f"'-' with points pt 7 lc rgb '{colour}' "
                     f"title '{workload} p50'")
        plots.append(f"'-' with points pt 6 lc rgb '{colour}' "
                     f"title '{workload} p99'")
        data += ["\n".join(p50) + "\ne", "\n".join(p99) + "\ne"]
    script.append("plot " + ", ".join(plots))
    script.extend(data)
    gnuplot("\n".join(script) + "\n")


# ------------------------------------------------------------------ scale --

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

            def cell(key):
                value = memory.get(key)
                return "-" if value is None else f"{value:.3f}"
            missing = results_of(config, "readmissing")
            present = results_of(config, "readrandom")
            rows.append([f"{num:,}", series(config), stored(config),
                         with_range(missing) if missing else "-",
                         with_range(present) if present else "-",
                         cell("filter_bytes_per_key"),
                         cell("index_bytes_per_key"),
                         cell("engine_bytes_per_key"),
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


def compression_table(report):
    if report is None:
        return "No committed run (bench/results/compression.json)."
    rows = []
    snappy = None
    for result in report.get("results", []):
        if result["codec"] == "snappy":
            snappy = result["decompress_mb_per_s"]["median"]
    for result in report.get("results", []):
        speed = result["decompress_mb_per_s"]
        rows.append([result["codec"], result["numbering"], str(result["type"]),
                     f"{result['ratio']:.2f}",
                     f"{speed['median']:.0f} ({speed['min']:.0f}–"
                     f"{speed['max']:.0f})",
                     "-" if not snappy else f"{speed['median'] / snappy:.2f}"])
    return table(["codec", "numbering", "type", "raw / stored",
                  "decompress MB/s (range)", "× snappy"], rows)


# --------------------------------------------------------------- cold I/O --

# cold_bench's headline MultiGet batch (the cold goals' MultiGet(32)).
COLD_BATCH = 32


def cold_rows(report, mode, engine):
    """cold_bench's rows of one mode ("cold", "warm") and engine. Rows of
    JSON taken before cold_bench had a peer and warm rows name neither: they
    are bloomtable's, cold."""
    return [r for r in (report or {}).get("lookups", [])
            if r.get("mode", "cold") == mode and
            r.get("engine", "bloomtable") == engine]


def cold_row(report, mode, engine, benchmark, batch):
    """The row of a Get (batch 0) or of MultiGet batches of `batch`."""
    for r in cold_rows(report, mode, engine):
        if r.get("benchmark") != benchmark:
            continue
        if (batch == 0 and r.get("api") == "Get") or \
                (batch > 0 and r.get("api") == "MultiGet" and
                 r.get("batch") == batch):
            return r
    return None


def median(row, field):
    value = (row or {}).get(field)
    return value.get("median") if isinstance(value, dict) else None


def summary_text(summary, digits):
    """'median (min–max)' of a cold_bench summary."""
    if not isinstance(summary, dict) or summary.get("median") is None:
        return "-"
    return (f"{summary['median']:.{digits}f} ({summary['min']:.{digits}f}–"
            f"{summary['max']:.{digits}f})")


def keys_per_second(row):
    rate = median(row, "keys_per_second")
    if rate is None and median(row, "micros_per_key"):
        rate = 1e6 / median(row, "micros_per_key")
    return rate


def raw_rate(report, depth):
    """The raw 4 KiB direct reads per second at queue depth `depth`."""
    for r in (report or {}).get("raw_4k_direct_reads", []):
        if r.get("queue_depth") == depth:
            return median(r, "reads_per_second")
    return None


def floor_depth(report, batch):
    """The queue depth whose raw rate is a row's physical floor: the
    deepest measured at or below the row's batch (1 for Get)."""
    depths = [r["queue_depth"] for r in
              (report or {}).get("raw_4k_direct_reads", [])
              if r.get("queue_depth", 0) <= max(batch, 1)]
    return max(depths) if depths else None


def call_name(row):
    return "Get" if row.get("api") == "Get" else f"MultiGet({row['batch']})"


def cold_io_section(cold_io, warm_io):
    out = []
    for name, report in (("cold_io.json", cold_io), ("warm_io.json", warm_io)):
        if report is None:
            out.append(f"No committed run (bench/results/{name}).\n")
            continue
        machine = report.get("machine", {})
        out.append(f"#### `{name}`: {report.get('num', 0):,} keys, "
                   f"{report.get('value_size', '?')}-byte values, "
                   f"{report.get('compression', '?')}, "
                   f"{report.get('block_size', '?')}-byte blocks, device "
                   f"`{report.get('device') or '?'}` (`--dir` "
                   f"`{report.get('dir', '?')}`), kernel "
                   f"{machine.get('kernel', '?')}, {machine.get('cpu', '?')}; "
                   f"medians of {report.get('runs', 1)} runs (range)\n")
        engines = report.get("engines", {})
        facts = []
        for engine in ("bloomtable", "rocksdb"):
            e = engines.get(engine)
            if not isinstance(e, dict):
                continue
            stored_bits = e.get("stored_filter_bits_per_key")
            facts.append(f"- {engine}: {e.get('filter', '?')}, storing "
                         f"{'-' if stored_bits is None else f'{stored_bits:.3f}'}"
                         f" filter bits per key (setting "
                         f"{e.get('bits_per_key_setting', '?')}); cold: "
                         f"{e.get('cold', '?')}; warm: {e.get('warm', '?')}.")
        options = (engines.get("rocksdb") or {}).get("multiget_read_options")
        if isinstance(options, dict):
            facts.append(f"- RocksDB's MultiGet: `async_io="
                         f"{str(options.get('async_io')).lower()}`, "
                         "`optimize_multiget_for_io="
                         f"{str(options.get('optimize_multiget_for_io')).lower()}`"
                         f" ({options.get('set', '?')}): {options.get('why', '')}.")
        uring = (engines.get("rocksdb") or {}).get("io_uring")
        if isinstance(uring, dict):
            facts.append("- RocksDB's io_uring: `RocksDbIOUringEnable()` "
                         "returns "
                         f"{str(uring.get('RocksDbIOUringEnable')).lower()}; "
                         f"{uring.get('note', '')}.")
        ok, text = peer_provenance(report)
        facts.append(f"- Peers: {text}" + ("." if ok else ": its "
                     "cross-engine ratios are not results."))
        out.append("\n".join(facts) + "\n")
        raw = report.get("raw_4k_direct_reads", [])
        if raw:
            out.append(table(
                ["raw 4 KiB O_DIRECT reads, queue depth", "reads/s (range)",
                 "µs per read"],
                [[r["queue_depth"], summary_text(r["reads_per_second"], 0),
                  f"{1e6 / median(r, 'reads_per_second'):.1f}"
                  if median(r, "reads_per_second") else "-"] for r in raw]))
            out.append("")
        for mode in ("cold", "warm"):
            rows = []
            for benchmark in ("readrandom", "readmissing"):
                for engine in ("bloomtable", "rocksdb"):
                    for r in cold_rows(report, mode, engine):
                        if r.get("benchmark") != benchmark:
                            continue
                        rate = keys_per_second(r)
                        row = [benchmark, engine, call_name(r),
                               summary_text(r.get("micros_per_key"), 2),
                               "-" if rate is None else f"{rate:,.0f}",
                               summary_text(r.get("device_reads_per_key"), 4)]
                        if mode == "cold":
                            depth = floor_depth(report, r.get("batch", 1) if
                                                r.get("api") != "Get" else 1)
                            floor = raw_rate(report, depth)
                            # A share only where each key needs a read.
                            row += ["-" if floor is None else
                                    f"QD {depth}: {floor:,.0f}",
                                    "-" if floor is None or rate is None or
                                    benchmark != "readrandom" else
                                    f"{100 * rate / floor:.0f}%"]
                        rows.append(row)
            if not rows:
                continue
            header = ["benchmark", "engine", "call", f"{mode} µs/key (range)",
                      "keys/s", "device reads/key (range)"]
            if mode == "cold":
                header += ["floor: raw reads/s", "keys/s of floor"]
            out.append(table(header, rows))
            out.append("")
    return "\n".join(out).rstrip("\n")


def ratio_text(a, b):
    return (f"{summary_text(a.get('micros_per_key'), 2)} / "
            f"{summary_text(b.get('micros_per_key'), 2)} µs = "
            f"{median(a, 'micros_per_key') / median(b, 'micros_per_key'):.2f}×")


def cold_io_goals(cold_io, warm_io):
    """The cold and warm MultiGet goals, from cold_bench's medians: each
    bloomtable row against the device's raw rate of the same run, against
    RocksDB's MultiGet, or against bloomtable's own Get."""
    rows = []
    none = "no committed run (cold_io.json)"
    # Cold, present keys: MultiGet(32) against 32 raw reads in flight.
    goal = (f"cold `readrandom`: bloomtable MultiGet({COLD_BATCH}) ≥ 70% of "
            f"the raw 4 KiB read rate at queue depth {COLD_BATCH}")
    row = cold_row(cold_io, "cold", "bloomtable", "readrandom", COLD_BATCH)
    floor = raw_rate(cold_io, COLD_BATCH)
    if row is None or floor is None or keys_per_second(row) is None:
        rows.append([goal, none if cold_io is None else "no row",
                     verdict(None), ""])
    else:
        share = keys_per_second(row) / floor
        rows.append([goal, f"{keys_per_second(row):,.0f} keys/s / "
                     f"{floor:,.0f} reads/s = {100 * share:.0f}%",
                     verdict(share >= 0.7), ""])
    # Cold, one Get against one raw read.
    goal = "cold `readrandom`: one bloomtable Get ≤ 1.2× one raw 4 KiB read " \
           "at queue depth 1"
    row = cold_row(cold_io, "cold", "bloomtable", "readrandom", 0)
    floor = raw_rate(cold_io, 1)
    if row is None or floor is None or median(row, "micros_per_key") is None:
        rows.append([goal, none if cold_io is None else "no row",
                     verdict(None), ""])
    else:
        ratio = median(row, "micros_per_key") * floor / 1e6
        rows.append([goal, f"{summary_text(row['micros_per_key'], 2)} / "
                     f"{1e6 / floor:.2f} µs = {ratio:.2f}×",
                     verdict(ratio <= 1.2), ""])
    # Cold, absent keys: the filter keeps them off the device.
    goal = "cold `readmissing`: bloomtable ≤ 0.02 device reads per key " \
           "(every call)"
    absent = [r for r in cold_rows(cold_io, "cold", "bloomtable")
              if r.get("benchmark") == "readmissing" and
              median(r, "device_reads_per_key") is not None]
    if not absent:
        rows.append([goal, none if cold_io is None else "no row",
                     verdict(None), ""])
    else:
        worst = max(absent, key=lambda r: median(r, "device_reads_per_key"))
        reads = median(worst, "device_reads_per_key")
        rows.append([goal, f"at most {reads:.4f} ({call_name(worst)})",
                     verdict(reads <= 0.02), ""])
    # bloomtable's MultiGet against RocksDB's, cold and warm.
    sources = [("cold", cold_io, COLD_BATCH, "cold_io.json")]
    for name, report in (("cold_io.json", cold_io),
                         ("warm_io.json", warm_io)):
        sources.append(("warm", report, (report or {}).get("warm_batch",
                                                           COLD_BATCH), name))
    for mode, report, batch, name in sources:
        for benchmark in ("readrandom", "readmissing"):
            keys = "" if report is None else \
                f", {report.get('num', 0):,} keys"
            goal = (f"{mode} `{benchmark}` ({name}{keys}): bloomtable "
                    f"MultiGet({batch}) ≤ 0.8× RocksDB's MultiGet({batch}) "
                    "per key")
            ours = cold_row(report, mode, "bloomtable", benchmark, batch)
            theirs = cold_row(report, mode, "rocksdb", benchmark, batch)
            if report is None:
                if mode == "warm" and name == "cold_io.json":
                    continue
                rows.append([goal, f"no committed run ({name})",
                             verdict(None), ""])
                continue
            if ours is None or theirs is None:
                if mode == "warm" and not cold_rows(report, "warm",
                                                    "bloomtable"):
                    continue  # this file has no warm rows
                rows.append([goal, "no row", verdict(None), ""])
                continue
            ratio = median(ours, "micros_per_key") / \
                median(theirs, "micros_per_key")
            note = ""
            floor = raw_rate(report, batch) if mode == "cold" else None
            target = 0.8 * median(theirs, "micros_per_key")
            if ratio > 0.8 and floor and target < 1e6 / floor:
                # Both engines read one block per present key: the device,
                # not the engine, sets the pace.
                note = (f"out of reach on this device: 0.8× RocksDB's is "
                        f"{target:.2f} µs per key, below the device's own "
                        f"{1e6 / floor:.2f} µs per 4 KiB read at queue depth "
                        f"{batch} in the same run, and each present key needs "
                        "one such read on both sides")
            rows.append([goal, ratio_text(ours, theirs),
                         cross_verdict(ratio <= 0.8,
                                       peer_provenance(report)), note])
    # Warm, 10^7 absent keys: MultiGet against a loop of Get.
    goal = "warm `readmissing`, 10^7 keys: bloomtable MultiGet ≤ 0.5× a " \
           "loop of Get per key"
    big = [r for r in (warm_io, cold_io)
           if r is not None and r.get("num", 0) >= 10 ** 7 and
           cold_rows(r, "warm", "bloomtable")]
    if not big:
        rows.append([goal, "no warm run at 10^7 keys (warm_io.json)",
                     verdict(None), ""])
    else:
        report = big[0]
        batch = report.get("warm_batch", COLD_BATCH)
        multi = cold_row(report, "warm", "bloomtable", "readmissing", batch)
        get = cold_row(report, "warm", "bloomtable", "readmissing", 0)
        if multi is None or get is None:
            rows.append([goal, "no row", verdict(None), ""])
        else:
            ratio = median(multi, "micros_per_key") / \
                median(get, "micros_per_key")
            rows.append([goal.replace("MultiGet", f"MultiGet({batch})"),
                         ratio_text(multi, get), verdict(ratio <= 0.5), ""])
    return rows


# ------------------------------------------------------------------- main --

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=os.path.join(HERE, "results"))
    parser.add_argument("--output",
                        default=os.path.join(HERE, "..", "BENCHMARKS.md"))
    parser.add_argument("--plots", default=HERE)
    parser.add_argument("--plot_format", default="svg", choices=["svg", "png"])
    args = parser.parse_args()

    named = [(name, load(args.results, name)) for name in
             ("main.json", "build.json", "sweep.json", "filter_bench.json",
              "filter_bench_cold.json", "profile.json")]
    main_run, build, sweep, filter_bench, cold, profile = (r for _, r in named)
    scale = load_scale(args.results)
    compression = load(args.results, "compression.json")
    named += [(f"scale_{num}.json", report) for num, report in scale]
    named.append(("compression.json", compression))
    python = load(args.results, "python.json")
    named.append(("python.json", python))
    scans, scan_reports = scan_section(args.results)
    named += scan_reports
    db_run = load(args.results, "db.json")
    if db_run is not None:
        named.append(("db.json", db_run))
    db_compacted = load(args.results, "db_compacted.json")
    if db_compacted is not None:
        named.append(("db_compacted.json", db_compacted))
    cold_io = load(args.results, "cold_io.json")
    warm_io = load(args.results, "warm_io.json")
    named += [("cold_io.json", cold_io), ("warm_io.json", warm_io)]
    try:
        require_shape(main_run, sweep)
    except ShapeError as error:
        print(f"report.py: {error}", file=sys.stderr)
        return 1
    plots_rel = os.path.relpath(os.path.abspath(args.plots),
                                os.path.dirname(os.path.abspath(args.output)))
    sections = {
        "banner": banner(named),
        "method": method(main_run),
        "setup": setup(main_run),
        "summary": summary(main_run),
        "goals": goals(main_run, sweep, filter_bench, scale, cold, profile,
                       cold_io, warm_io),
        "tested": tested_not_benchmarked(),
        "peers": peers_section(named),
        "table_level": detail(main_run, "table"),
        "db_level": detail(main_run, "db"),
        "build": build_table(build),
        "equal_memory": equal_memory(sweep),
        "memory": memory_table(main_run),
        "filter_bench": filter_bench_table(filter_bench),
        "filter_bench_cold": filter_bench_table(cold),
        "profiles": profile_section(profile),
        "scale": scale_table(scale),
        "compression": compression_table(compression),
        "python": python_section(python, table, verdict),
        "scans": scans,
        "db_readonly": db_report.db_section(db_run, profile, db_compacted),
        "cold_io": cold_io_section(cold_io, warm_io),
        "provenance": provenance(named),
        "plots": plots_rel,
    }
    with open(os.path.join(HERE, "BENCHMARKS.template.md")) as f:
        text = f.read()
    for key, value in sections.items():
        text = text.replace("{{" + key + "}}", value)
    with open(args.output, "w") as f:
        f.write(text)
    if sweep is not None or main_run is not None:
        plot_fp(sweep if sweep is not None else main_run,
                os.path.join(args.plots, "fp_vs_bits." + args.plot_format))
    if main_run is not None:
        plot_latency(main_run,
                     os.path.join(args.plots, "latency." + args.plot_format))
    return 0


if __name__ == "__main__":
    sys.exit(main())
