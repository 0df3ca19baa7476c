#!/usr/bin/env python3
"""Speed of the bloomtable Python package against plyvel, from Python.

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/bench_python.py \\
        --json bench/results/python.json

(bench/run_all.sh runs it so; bench/report.py shows the JSON in
BENCHMARKS.md.)

This is a benchmark, not a test: it prints a table and writes JSON, and
decides nothing by itself. Run it on an idle machine.

What it measures, on the same data set (--keys distinct 16-byte decimal keys,
--value_size byte values, written in key order):

- bloomtable: a table written by build_table, opened with Table.open and a
  BlockCache of --cache_mb MiB, in two configurations: "bloom_per_block"
  (LevelDB's Bloom filter in LevelDB's layout, 10 bits per key: what a
  LevelDB table holds) and "ribbon_whole_table" (Ribbon, whole-table layout,
  index_block_restart_interval 16: the README's fastest lookups), read with
  pread (Table.open's default; plyvel's LevelDB maps its table files).
- view: bloomtable.Database, the read-only view, opened on the very
  directory plyvel wrote (after plyvel closed it), with a block cache of the
  same size: get and a full scan through the database layer (no goal; shown
  beside plyvel on the same files).
- plyvel: a LevelDB database of the same entries (Bloom filter 10 bits per
  key, block cache of the same size, Snappy), written with write batches
  and compacted with compact_range() before it is read. plyvel is Debian's
  python3-plyvel, which always links Debian's packaged LevelDB 1.23.

Operations (each the median of --repeats runs; the engines alternate within
a run):

- get_absent / get_present: a loop of get over --lookups keys absent from
  (odd numbers) or present in the data set, random order; ns per call.
- multi_get_per_key: Table.multi_get of 1,000 present keys, per key; beside
  it the same keys through a loop of Table.get, and through plyvel's get.
- scan_per_entry: a full iteration of (key, value) pairs, per entry.
- build_seconds: build_table of every entry (sync and rename included)
  against plyvel's write batches, then compact_range().
- cpp_get_absent: the C++ Table::Get on the same absent keys, called in a
  loop from C++ (Table._cpp_get_seconds), so that get_absent minus it is the
  binding's per-call overhead.

Goals: absent get <= 0.5x plyvel's get; present get <=
0.8x; multi_get per key <= 0.5x a loop of get; full scan <= 1.0x plyvel's
iterator per entry. The JSON records each ratio against its goal.
"""

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time

import bloomtable

try:
    import plyvel
except ImportError:  # reported in the output, not an error
    plyvel = None

CONFIGS = {
    "bloom_per_block": {"filter": "bloom", "bits_per_key": 10},
    "ribbon_whole_table": {"filter": "ribbon", "bits_per_key": 10,
                           "filter_layout": "whole_table",
                           "index_block_restart_interval": 16},
}
GOALS = {  # operation: (what it is compared with, the ratio it must not pass)
    "get_absent": ("plyvel get_absent", 0.5),
    "get_present": ("plyvel get_present", 0.8),
    "multi_get_per_key": ("bloomtable get loop on the same keys", 0.5),
    "scan_per_entry": ("plyvel scan_per_entry", 1.0),
}


def key_of(i):
    return b"%016d" % i


def entries(n, value_size):
    rng = random.Random(301)
    base = bytes(rng.getrandbits(8) for _ in range(4096))
    for i in range(n):
        start = (i * 7919) % (len(base) - value_size)
        yield key_of(2 * i), base[start:start + value_size]


def per_call_ns(function, keys):
    start = time.perf_counter_ns()
    for k in keys:
        function(k)
    return (time.perf_counter_ns() - start) / len(keys)


def time_multi_get(table, batches):
    start = time.perf_counter_ns()
    for batch in batches:
        table.multi_get(batch)
    return (time.perf_counter_ns() - start) / sum(len(b) for b in batches)


def time_scan(iterable_factory):
    start = time.perf_counter_ns()
    count = 0
    for _ in iterable_factory():
        count += 1
    return (time.perf_counter_ns() - start) / max(count, 1), count


def build_bloomtable(path, args, options):
    start = time.perf_counter()
    bloomtable.build_table(path, entries(args.keys, args.value_size), **options)
    return time.perf_counter() - start


def build_plyvel(path, args):
    start = time.perf_counter()
    db = plyvel.DB(path, create_if_missing=True, error_if_exists=True,
                   bloom_filter_bits=10, lru_cache_size=args.cache_mb << 20,
                   compression="snappy")
    batch = db.write_batch()
    for count, (key, value) in enumerate(entries(args.keys, args.value_size), 1):
        batch.put(key, value)
        if count % 10000 == 0:
            batch.write()
            batch = db.write_batch()
    batch.write()
    db.compact_range()
    elapsed = time.perf_counter() - start
    db.close()
    return elapsed


def measure_view(path, args, absent, present, batch_keys):
    """bloomtable's read-only database view on the directory plyvel wrote."""
    row = {}
    start = time.perf_counter_ns()
    db = bloomtable.Database.open(path, block_cache_bytes=args.cache_mb << 20)
    row["open_ns"] = time.perf_counter_ns() - start
    try:
        row["get_absent"] = per_call_ns(db.get, absent)
        row["get_present"] = per_call_ns(db.get, present)
        row["get_loop_multi_get_keys"] = per_call_ns(db.get, batch_keys)
        row["scan_per_entry"], row["scan_entries"] = time_scan(db.items)
    finally:
        db.close()
    return row


def measure_run(args, workdir, run):
    rng = random.Random(run)
    present = [key_of(2 * rng.randrange(args.keys)) for _ in range(args.lookups)]
    absent = [key_of(2 * rng.randrange(args.keys) + 1) for _ in range(args.lookups)]
    batches = [present[i:i + 1000] for i in range(0, min(len(present), 100_000), 1000)]
    batch_keys = [k for b in batches for k in b]
    results = {}
    order = list(CONFIGS) + (["plyvel"] if plyvel else [])
    if run % 2:
        order.reverse()
    for engine in order:
        row = {}
        if engine == "plyvel":
            path = os.path.join(workdir, f"plyvel-{run}")
            row["build_seconds"] = build_plyvel(path, args)
            db = plyvel.DB(path, bloom_filter_bits=10, lru_cache_size=args.cache_mb << 20)
            row["get_absent"] = per_call_ns(db.get, absent)
            row["get_present"] = per_call_ns(db.get, present)
            row["get_loop_multi_get_keys"] = per_call_ns(db.get, batch_keys)
            row["scan_per_entry"], row["scan_entries"] = time_scan(lambda: db.iterator())
            db.close()
            results["view"] = measure_view(path, args, absent, present, batch_keys)
            shutil.rmtree(path)
        else:
            path = os.path.join(workdir, f"{engine}-{run}.ldb")
            row["build_seconds"] = build_bloomtable(path, args, CONFIGS[engine])
            row["file_bytes"] = os.path.getsize(path)
            with bloomtable.Table.open(
                    path, block_cache=bloomtable.BlockCache(args.cache_mb << 20)) as t:
                row["get_absent"] = per_call_ns(t.get, absent)
                row["get_present"] = per_call_ns(t.get, present)
                row["get_loop_multi_get_keys"] = per_call_ns(t.get, batch_keys)
                row["multi_get_per_key"] = time_multi_get(t, batches)
                row["scan_per_entry"], row["scan_entries"] = time_scan(t.items)
                row["cpp_get_absent"] = t._cpp_get_seconds(absent) * 1e9 / len(absent)
                row["binding_overhead_absent"] = row["get_absent"] - row["cpp_get_absent"]
                row["filter_negatives"] = t.stats()["filter_negatives"]
            os.remove(path)
        results[engine] = row
    return results


def medians(runs):
    out = {}
    for engine in runs[0]:
        out[engine] = {}
        for metric in runs[0][engine]:
            samples = [run[engine][metric] for run in runs]
            out[engine][metric] = {"median": statistics.median(samples),
                                   "min": min(samples), "max": max(samples)}
    return out


def goals(summary):
    verdicts = {}
    for engine in CONFIGS:
        row = summary[engine]
        for metric, (against, limit) in GOALS.items():
            if metric == "multi_get_per_key":
                base = row["get_loop_multi_get_keys"]["median"]
            elif "plyvel" in summary:
                base = summary["plyvel"][metric]["median"]
            else:
                continue
            ratio = row[metric]["median"] / base
            verdicts[f"{engine}.{metric}"] = {"against": against, "goal": limit,
                                              "ratio": ratio, "met": ratio <= limit}
    return verdicts


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=1_000_000)
    parser.add_argument("--value_size", type=int, default=100)
    parser.add_argument("--lookups", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cache_mb", type=int, default=8,
                        help="block cache of each engine, MiB (LevelDB's default 8)")
    parser.add_argument("--dir", help="where to write the tables (default: a temporary "
                        "directory beside the system's)")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    args.lookups = min(args.lookups, args.keys)
    workdir = tempfile.mkdtemp(prefix="bloomtable-pybench-", dir=args.dir)
    try:
        runs = [measure_run(args, workdir, run) for run in range(args.repeats)]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    summary = medians(runs)
    document = {
        "benchmark": "python/bench/bench_python.py",
        "parameters": vars(args),
        "python": sys.version.split()[0],
        "bloomtable": bloomtable.__version__,
        "plyvel": getattr(plyvel, "__version__", None) if plyvel else None,
        "plyvel_leveldb": "Debian's packaged LevelDB (python3-plyvel links libleveldb)",
        "command_line": " ".join(sys.argv),
        "machine": {"platform": platform.platform(), "cpu": cpu_model(),
                    "kernel": platform.release(), "cpus": os.cpu_count(),
                    "loadavg_at_end": os.getloadavg()},
        "table_configs": {name: {k: str(v) for k, v in c.items()}
                          for name, c in CONFIGS.items()},
        "units": "ns per call, per key or per entry; build in seconds",
        "medians": summary,
        "goals": goals(summary),
        "samples": runs,  # each run's figures, per engine
    }
    print(f"{'engine':<20}{'get absent':>12}{'get present':>13}{'multi_get/key':>15}"
          f"{'get loop/key':>14}{'scan/entry':>12}{'build s':>9}{'C++ get absent':>16}")
    for engine, row in summary.items():
        def cell(metric, width, digits=0):
            value = row.get(metric, {}).get("median")
            return f"{value:>{width}.{digits}f}" if value is not None else " " * (width - 1) + "-"
        print(f"{engine:<20}{cell('get_absent', 12)}{cell('get_present', 13)}"
              f"{cell('multi_get_per_key', 15)}{cell('get_loop_multi_get_keys', 14)}"
              f"{cell('scan_per_entry', 12)}{cell('build_seconds', 9, 2)}"
              f"{cell('cpp_get_absent', 16)}")
    for name, verdict in document["goals"].items():
        print(f"goal {name}: {verdict['ratio']:.2f} of {verdict['against']} "
              f"(goal <= {verdict['goal']}): {'met' if verdict['met'] else 'missed'}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(document, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
