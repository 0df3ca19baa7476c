#!/usr/bin/env python3
"""Speed of the bloomtable Python package against plyvel, from Python.

    PYTHONPATH=build/release/python .cache/python-venv/bin/python \\
        python/bench/bench_python.py --json bench/results/python.json

(bench/run_all.sh runs it so; bench/report.py shows the JSON in
BENCHMARKS.md.) It runs in the test environment that
third_party/install_deps.sh makes (.cache/python-venv: pyarrow, Dask and the
plyvel wheel); started by another interpreter that lacks pyarrow, it runs
itself again in that environment.

This is a benchmark, not a test: it prints a table and writes JSON, and
decides nothing by itself. Run it on an idle machine (/work/bin/benchlock).

What it measures, on the same data set (--keys distinct 16-byte decimal keys,
--value_size byte values, written in key order):

- bloomtable: a table written by build_table, opened with Table.open and a
  BlockCache of --cache_mb MiB, in two configurations: "bloom_per_block"
  (LevelDB's Bloom filter in LevelDB's layout, 10 bits per key: what a
  LevelDB table holds) and "ribbon_whole_table" (Ribbon, whole-table layout,
  index_block_restart_interval 16: the README's fastest lookups), read with
  pread (Table.open's default; plyvel's LevelDB maps its table files).
- view: bloomtable.Database, the read-only view, opened on the very
  directory Debian's plyvel wrote (after plyvel closed it), with a block
  cache of the same size and plyvel's reading settings (VIEW_SETTINGS):
  its table files mapped (mmap=True; LevelDB's default Env maps them) and
  block checksums not verified (verify_checksums=False; plyvel's get and
  iterator default, LevelDB's ReadOptions): get and a full scan through the
  database layer. Both read one layout: plyvel's compact_range() leaves a
  single sorted level, which its reads (gets on one level, no seek
  compaction) do not change, and the view opens it after plyvel closed it
  (the view row records how many levels it read: levels).
  In the same row, the view with block checksums verified (VERIFIED_VIEWS):
  get_absent, get_present, scan_per_entry and cpp_scan_per_entry suffixed
  _defaults (Database.open's defaults: pread, checksums verified) and
  _mmap_verified (mapped and verified); beside them plyvel's
  get_present_verified and scan_per_entry_verified, plyvel with
  verify_checksums=True on its get and iterator (both sides cache the
  blocks they read either way; the view keeps unverified blocks apart from
  verified ones).
- plyvel: a LevelDB database of the same entries (Bloom filter 10 bits per
  key, block cache of the same size, Snappy), written with write batches
  and compacted with compact_range() before it is read, by two plyvels, each
  in a process of its own (one interpreter cannot import both): "plyvel",
  Debian's python3-plyvel under /usr/bin/python3, which links Debian's
  packaged LevelDB 1.23; and "plyvel_pypi", the plyvel wheel from PyPI
  (pinned in pyproject.toml) in the test environment, which bundles its own
  LevelDB (the JSON records which: plyvel_leveldb, with the count of
  __assert_fail call sites in it, 0 for a build with NDEBUG).

Operations (each the median of --repeats runs; the engines' order is
reversed every other run):

- get_absent / get_present: a loop of get over --lookups keys absent from
  (odd numbers) or present in the data set, random order; ns per call.
- multi_get_per_key: Table.multi_get of 1,000 present keys, per key; beside
  it the same keys through a loop of Table.get, and through plyvel's get.
- scan_per_entry: a full iteration of (key, value) pairs, per entry.
- list_per_entry: list(db.iterator()) (plyvel) or list(db.iterator()) (the
  view): building a list of every pair, per entry.
- arrow_per_entry (view): pyarrow.table(db), the whole database exported
  through the Arrow PyCapsule stream into a pyarrow.Table, per entry; and
  cpp_scan_per_entry, the C++ view's own full scan of the same directory
  (Database._cpp_scan_seconds: its iterator from C++, key and value bytes
  touched), per entry.
- build_seconds: build_table of every entry (sync and rename included)
  against plyvel's write batches, then compact_range().
- cpp_get_absent: the C++ Table::Get on the same absent keys, called in a
  loop from C++ (Table._cpp_get_seconds), so that get_absent minus it is the
  binding's per-call overhead.

And, once per run, in processes of their own:

- arrow_memory: the peak resident memory an export adds (VmHWM after
  pyarrow.table(db), minus VmRSS before it, the peak reset), against the
  Arrow table's own size (Table.nbytes). pyarrow's one-time setup (its
  first import of a stream, done with a tiny export before the baseline) is
  left out and recorded (pyarrow_setup).
- dask (--dask_keys, default 5,000,000 keys, written once by the plyvel
  wheel into --data_dir and reused): a reduction, the total value bytes of
  each partition (bloomtable.dask.read_database, 8 partitions), computed on
  a dask.distributed LocalCluster of 1 and of 2 worker processes
  (threads_per_worker=1), the cluster started and warmed up outside the
  timed run; seconds.
- versions_memory: on the same database (every key one version), the peak
  resident memory that iterating db.versions() to its end adds to the
  process after open, and that `bloomtable scan DIR --all_versions --jsonl`
  adds over the same command stopped after one record (--limit 1).

Goals: absent get <= 0.5x plyvel's get; present get <= 0.8x; multi_get per
key <= 0.5x a loop of get; full scan <= 1.0x plyvel's iterator per entry;
the view's present get <= 0.8x plyvel's and its full scan <= 0.7x per entry
(both read at the same settings);
Arrow export <= 1.2x the C++ view's full scan and <= 0.6x plyvel building a
list of pairs, per entry, its peak memory <= 1.5x the Arrow table; the Dask
reduction on 2 workers >= 1.5x faster than on 1; versions() and --jsonl
within 64 MiB of the process after open. The JSON records each ratio
against its goal.

Two modes serve bench/profile.py instead: --write_plyvel writes --keys
entries with the running interpreter's plyvel at --path, as the core rows
write them; --profile_target KIND repeats one call (the view's or plyvel's
get of present keys, or full scan) for --seconds on that directory at the
core rows' settings, and prints its time per call as a JSON line.
"""

import argparse
import collections
import functools
import glob
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

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
# The view's goals, against plyvel at the same settings (VIEW_SETTINGS).
VIEW_GOALS = {
    "get_present": ("plyvel get_present", 0.8),
    "scan_per_entry": ("plyvel scan_per_entry", 0.7),
}
# Database.open's settings of the `view` row: plyvel's (see the top).
VIEW_SETTINGS = {"mmap": True, "verify_checksums": False}
PLYVELS = {  # engine: the interpreter whose plyvel it is
    "plyvel": "/usr/bin/python3",
    "plyvel_pypi": sys.executable,
}
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MIB = 1 << 20


def key_of(i):
    return b"%016d" % i


def entries(n, value_size):
    rng = random.Random(301)
    base = bytes(rng.getrandbits(8) for _ in range(4096))
    for i in range(n):
        start = (i * 7919) % (len(base) - value_size)
        yield key_of(2 * i), base[start:start + value_size]


def lookup_keys(args, run):
    rng = random.Random(run)
    present = [key_of(2 * rng.randrange(args.keys)) for _ in range(args.lookups)]
    absent = [key_of(2 * rng.randrange(args.keys) + 1) for _ in range(args.lookups)]
    batches = [present[i:i + 1000] for i in range(0, min(len(present), 100_000), 1000)]
    return present, absent, batches


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


def time_list(iterable_factory):
    start = time.perf_counter_ns()
    pairs = list(iterable_factory())
    elapsed = time.perf_counter_ns() - start
    return elapsed / max(len(pairs), 1)


def write_plyvel(plyvel, path, keys, value_size, cache_mb):
    db = plyvel.DB(path, create_if_missing=True, error_if_exists=True,
                   bloom_filter_bits=10, lru_cache_size=cache_mb << 20,
                   compression="snappy")
    batch = db.write_batch()
    for count, (key, value) in enumerate(entries(keys, value_size), 1):
        batch.put(key, value)
        if count % 10000 == 0:
            batch.write()
            batch = db.write_batch()
    batch.write()
    db.compact_range()
    db.close()


def assert_sites(library):
    """Call sites of __assert_fail in `library` (0: built with NDEBUG)."""
    try:
        out = subprocess.run(["objdump", "-d", library], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return sum(1 for line in out.splitlines() if "call" in line and "<__assert_fail" in line)


def plyvel_leveldb(plyvel):
    """The LevelDB library the imported plyvel runs on: the one its wheel
    bundles (plyvel.libs/), or the one its extension links."""
    package = os.path.dirname(plyvel.__file__)
    bundled = sorted(glob.glob(os.path.join(package + ".libs", "libleveldb*.so*")))
    if bundled:
        library, origin = bundled[0], "bundled in the plyvel wheel"
    else:
        extension = glob.glob(os.path.join(package, "_plyvel*.so"))[0]
        ldd = subprocess.run(["ldd", extension], capture_output=True, text=True).stdout
        library = next((line.split("=>")[1].split("(")[0].strip()
                        for line in ldd.splitlines() if "libleveldb" in line), "?")
        library = os.path.realpath(library)
        origin = "linked from the system (Debian's libleveldb)"
    return {"library": os.path.basename(library), "origin": origin,
            "version": os.path.basename(library).split(".so.")[-1],
            "assert_fail_call_sites": assert_sites(library)}


def plyvel_worker(args):
    """--plyvel_worker: one plyvel's figures, as a JSON line on stdout."""
    import plyvel
    present, absent, batches = lookup_keys(args, args.run)
    batch_keys = [k for b in batches for k in b]
    row = {}
    start = time.perf_counter()
    write_plyvel(plyvel, args.path, args.keys, args.value_size, args.cache_mb)
    row["build_seconds"] = time.perf_counter() - start
    db = plyvel.DB(args.path, bloom_filter_bits=10, lru_cache_size=args.cache_mb << 20)
    try:
        row["get_absent"] = per_call_ns(db.get, absent)
        row["get_present"] = per_call_ns(db.get, present)
        row["get_loop_multi_get_keys"] = per_call_ns(db.get, batch_keys)
        row["scan_per_entry"], row["scan_entries"] = time_scan(lambda: db.iterator())
        row["list_per_entry"] = time_list(lambda: db.iterator())
        # With block checksums verified, as view_defaults reads.
        verified_get = functools.partial(db.get, verify_checksums=True)
        row["get_present_verified"] = per_call_ns(verified_get, present)
        row["scan_per_entry_verified"], _ = time_scan(
            lambda: db.iterator(verify_checksums=True))
    finally:
        db.close()
    print(json.dumps({"row": row, "plyvel": plyvel.__version__,
                      "leveldb": plyvel_leveldb(plyvel)}))


# --profile_target's calls: (engine, what, checksums verified), each
# repeated for --seconds; the _verified ones read as the view's
# _mmap_verified and plyvel's _verified figures do.
PROFILE_TARGETS = {
    "view_get": ("view", "get", False), "view_scan": ("view", "scan", False),
    "plyvel_get": ("plyvel", "get", False),
    "plyvel_scan": ("plyvel", "scan", False),
    "view_get_verified": ("view", "get", True),
    "view_scan_verified": ("view", "scan", True),
    "plyvel_get_verified": ("plyvel", "get", True),
    "plyvel_scan_verified": ("plyvel", "scan", True)}


def profile_target(args):
    """--profile_target KIND: one call of PROFILE_TARGETS, repeated for
    --seconds on the directory --write_plyvel wrote at --path, at the core
    rows' settings (the view with VIEW_SETTINGS, Debian's plyvel with its
    reading defaults, --cache_mb each; a _verified target verifies block
    checksums on both: the view mapped, as its _mmap_verified figures, and
    plyvel with verify_checksums=True, as its _verified ones);
    bench/profile.py runs it under perf. Prints a JSON line: ns per call
    (get) or per entry (scan)."""
    engine, what, verified = PROFILE_TARGETS[args.profile_target]
    if engine == "view":
        import bloomtable
        db = bloomtable.Database(args.path, block_cache_bytes=args.cache_mb << 20,
                                 **dict(VIEW_SETTINGS, verify_checksums=verified))
        get, scan = db.get, db.items
    else:
        import plyvel
        db = plyvel.DB(args.path, bloom_filter_bits=10,
                       lru_cache_size=args.cache_mb << 20)
        get, scan = db.get, db.iterator  # the core row's calls
        if verified:  # as the _verified figures call them
            get = functools.partial(db.get, verify_checksums=True)
            scan = lambda: db.iterator(verify_checksums=True)
    present, _, _ = lookup_keys(args, 0)
    calls, elapsed = 0, 0
    while elapsed < args.seconds * 1e9:
        if what == "get":
            elapsed += per_call_ns(get, present) * len(present)
            calls += len(present)
        else:
            per_entry, count = time_scan(scan)
            elapsed += per_entry * count
            calls += count
    db.close()
    print(json.dumps({"target": args.profile_target, "calls": calls,
                      "ns_per_call": elapsed / max(calls, 1)}))


def run_plyvel(engine, path, args, run):
    command = [PLYVELS[engine], os.path.abspath(__file__), "--plyvel_worker",
               "--path", path, "--run", str(run), "--keys", str(args.keys),
               "--value_size", str(args.value_size), "--lookups", str(args.lookups),
               "--cache_mb", str(args.cache_mb)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


# The view with checksums verified (Database.open's default), its figures
# suffixed with the name: pread (the defaults), and mapped.
VERIFIED_VIEWS = {"defaults": {}, "mmap_verified": {"mmap": True}}


def measure_verified_view(path, args, absent, present, settings):
    """The view with block checksums verified (VERIFIED_VIEWS)."""
    import bloomtable
    row = {}
    with bloomtable.Database(path, block_cache_bytes=args.cache_mb << 20,
                             **settings) as db:
        row["get_absent"] = per_call_ns(db.get, absent)
        row["get_present"] = per_call_ns(db.get, present)
        row["scan_per_entry"], row["scan_entries"] = time_scan(db.items)
        seconds, count = db._cpp_scan_seconds()
        row["cpp_scan_per_entry"] = seconds * 1e9 / max(count, 1)
    return row


def measure_view(path, args, absent, present, batch_keys):
    """bloomtable's read-only database view on the directory plyvel wrote,
    with plyvel's reading settings (VIEW_SETTINGS)."""
    import bloomtable
    import pyarrow as pa
    row = {}
    start = time.perf_counter_ns()
    db = bloomtable.Database(path, block_cache_bytes=args.cache_mb << 20, **VIEW_SETTINGS)
    row["open_ns"] = time.perf_counter_ns() - start
    row["levels"] = len(collections.Counter(t["level"] for t in db.tables()))
    try:
        row["get_absent"] = per_call_ns(db.get, absent)
        row["get_present"] = per_call_ns(db.get, present)
        row["get_loop_multi_get_keys"] = per_call_ns(db.get, batch_keys)
        row["scan_per_entry"], row["scan_entries"] = time_scan(db.items)
        row["list_per_entry"] = time_list(db.iterator)
        before = resource.getrusage(resource.RUSAGE_SELF)
        seconds, count = db._cpp_scan_seconds()
        after = resource.getrusage(resource.RUSAGE_SELF)
        row["cpp_scan_per_entry"] = seconds * 1e9 / max(count, 1)
        row["cpp_scan_user_per_entry"] = (after.ru_utime - before.ru_utime) * 1e9 / count
        row["cpp_scan_system_per_entry"] = (after.ru_stime - before.ru_stime) * 1e9 / count
        # pyarrow sets itself up on its first import of a stream (about a
        # tenth of a second): once, before the timed export.
        pa.table(db.iterator(stop=key_of(2)))
        before = resource.getrusage(resource.RUSAGE_SELF)
        start = time.perf_counter_ns()
        table = pa.table(db)
        row["arrow_per_entry"] = (time.perf_counter_ns() - start) / max(table.num_rows, 1)
        after = resource.getrusage(resource.RUSAGE_SELF)
        # The export's CPU time split: in user space (the scan and the
        # copies), and in the kernel, which maps and zeroes the pages the
        # table fills (a few hundred thousand faults per GiB).
        row["arrow_user_per_entry"] = (after.ru_utime - before.ru_utime) * 1e9 / table.num_rows
        row["arrow_system_per_entry"] = (after.ru_stime - before.ru_stime) * 1e9 / table.num_rows
        row["arrow_page_faults"] = after.ru_minflt - before.ru_minflt
        row["arrow_rows"] = table.num_rows
        row["arrow_table_bytes"] = table.nbytes
        del table
    finally:
        db.close()
    return row


def measure_run(args, workdir, run):
    import bloomtable
    present, absent, batches = lookup_keys(args, run)
    batch_keys = [k for b in batches for k in b]
    results = {}
    details = {}
    order = list(CONFIGS) + list(PLYVELS)
    if run % 2:
        order.reverse()
    for engine in order:
        if engine in PLYVELS:
            path = os.path.join(workdir, f"{engine}-{run}")
            worker = run_plyvel(engine, path, args, run)
            results[engine] = worker["row"]
            details[engine] = {"plyvel": worker["plyvel"], "leveldb": worker["leveldb"]}
            if engine == "plyvel":
                views = [("view", lambda: measure_view(path, args, absent, present,
                                                       batch_keys))]
                views += [(name, functools.partial(measure_verified_view, path, args,
                                                   absent, present, settings))
                          for name, settings in VERIFIED_VIEWS.items()]
                rows = {name: measure() for name, measure in
                        (views if run % 2 == 0 else views[::-1])}
                results["view"] = rows.pop("view")
                for name, row in rows.items():
                    results["view"].update(
                        {f"{metric}_{name}": value for metric, value in row.items()})
                results["arrow_memory"] = arrow_memory(path, args)
            shutil.rmtree(path)
            continue
        row = {}
        path = os.path.join(workdir, f"{engine}-{run}.ldb")
        start = time.perf_counter()
        bloomtable.build_table(path, entries(args.keys, args.value_size), **CONFIGS[engine])
        row["build_seconds"] = time.perf_counter() - start
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
    return results, details


# ---------------------------------------------------------------------------
# Memory, in processes of their own.

PEAK_PROBE = r"""
import json, os, sys, time

def status(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024

def reset_peak():
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # VmHWM := VmRSS

import bloomtable, pyarrow as pa
db = bloomtable.Database(sys.argv[2], block_cache_bytes=8 << 20)
# pyarrow sets itself up on its first import of a stream: once per process,
# before the baseline (what it took is recorded).
opened = status("VmRSS")
pa.table(db.iterator(stop=b"0"))
setup = status("VmRSS") - opened
if sys.argv[1] == "arrow":
    before = status("VmRSS"); reset_peak()
    table = pa.table(db)
    out = {"rows": table.num_rows, "table_bytes": table.nbytes,
           "pyarrow_setup": setup}
else:
    count = 0
    before = status("VmRSS"); reset_peak()
    for _ in db.versions():
        count += 1
    out = {"versions": count}
out["rss_after_open"] = before
out["peak"] = status("VmHWM")
out["added"] = out["peak"] - before
print(json.dumps(out))
"""


def probe(kind, path):
    out = subprocess.run([sys.executable, "-c", PEAK_PROBE, kind, path], check=True,
                         capture_output=True, text=True, env=dict(os.environ)).stdout
    return json.loads(out.splitlines()[-1])


def arrow_memory(path, args):
    result = probe("arrow", path)
    result["ratio_to_table"] = result["peak"] and (
        (result["added"]) / result["table_bytes"])
    return result


def child_peak_rss(command):
    """The peak resident memory of `command`, in bytes (its output discarded)."""
    launcher = ("import resource, subprocess, sys; "
                "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", launcher, *command], check=True,
                         capture_output=True, text=True).stdout
    return int(out.split()[-1]) * 1024


def versions_memory(path, tool):
    result = {"versions": probe("versions", path)}
    scan = [tool, "scan", path, "--all_versions", "--jsonl"]
    one = child_peak_rss(scan + ["--limit", "1"])
    start = time.perf_counter()
    whole = child_peak_rss(scan)
    result["jsonl"] = {"peak_one_record": one, "peak_all": whole, "added": whole - one,
                       "seconds": time.perf_counter() - start}
    return result


# ---------------------------------------------------------------------------
# Dask, on a database written once.

def big_database(args):
    """The --dask_keys database in --data_dir, written by the plyvel wheel
    the first time (outside every timed run) and reused."""
    path = os.path.join(args.data_dir, f"dask-{args.dask_keys}-{args.value_size}")
    stamp = os.path.join(path, ".complete")
    if not os.path.exists(stamp):
        import plyvel
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(args.data_dir, exist_ok=True)
        start = time.perf_counter()
        write_plyvel(plyvel, path, args.dask_keys, args.value_size, args.cache_mb)
        print(f"wrote {path} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
        open(stamp, "w").close()
    return path


def value_bytes(values):
    import pyarrow as pa
    import pyarrow.compute as pc
    return pc.sum(pc.binary_length(pa.array(values))).as_py() or 0


def dask_runs(path, args):
    import bloomtable.dask
    from dask.distributed import Client, LocalCluster
    samples = {1: [], 2: []}
    expected = None
    for repeat in range(args.repeats):
        order = [1, 2] if repeat % 2 == 0 else [2, 1]
        for workers in order:
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                # Warm-up: the workers import pandas, pyarrow and bloomtable
                # and open the database, in a computation of its own (the
                # scheduler would hand back the result of the same one).
                keys = bloomtable.dask.read_database(path, npartitions=args.dask_partitions,
                                                     columns=["key"])
                client.compute(keys["key"].count()).result()
                frame = bloomtable.dask.read_database(path, npartitions=args.dask_partitions,
                                                      columns=["value"])
                reduction = frame["value"].map_partitions(value_bytes, meta=(None, "int64"))
                start = time.perf_counter()
                total = int(client.compute(reduction.sum()).result())
                samples[workers].append(time.perf_counter() - start)
                expected = expected if expected is not None else total
                if total != expected:
                    raise SystemExit(f"dask: {workers} workers summed {total}, not {expected}")
    medians = {w: statistics.median(s) for w, s in samples.items()}
    return {"keys": args.dask_keys, "partitions": args.dask_partitions,
            "value_bytes": expected,
            "seconds": {str(w): {"median": medians[w], "min": min(s), "max": max(s)}
                        for w, s in samples.items()},
            "speedup_2_over_1": medians[1] / medians[2]}


# ---------------------------------------------------------------------------

def medians(runs):
    out = {}
    for engine in runs[0]:
        out[engine] = {}
        for metric in runs[0][engine]:
            samples = [run[engine][metric] for run in runs]
            out[engine][metric] = {"median": statistics.median(samples),
                                   "min": min(samples), "max": max(samples)}
    return out


def goal(ratio, limit, against, at_least=False):
    return {"against": against, "goal": limit, "ratio": ratio,
            "met": ratio >= limit if at_least else ratio <= limit}


def goals(summary, arrow_memory, dask, memory):
    verdicts = {}
    for engine in CONFIGS if summary else ():
        row = summary[engine]
        for metric, (against, limit) in GOALS.items():
            if metric == "multi_get_per_key":
                base = row["get_loop_multi_get_keys"]["median"]
            else:
                base = summary["plyvel"][metric]["median"]
            verdicts[f"{engine}.{metric}"] = goal(row[metric]["median"] / base, limit, against)
    if summary:
        view = summary["view"]
        for metric, (against, limit) in VIEW_GOALS.items():
            verdicts[f"view.{metric}"] = goal(
                view[metric]["median"] / summary["plyvel"][metric]["median"], limit,
                against + " (both: " + ", ".join(
                    f"{k}={v}" for k, v in VIEW_SETTINGS.items()) + ")")
        for name, settings in VERIFIED_VIEWS.items():
            for metric in VIEW_GOALS:
                verdicts[f"view.{metric}_{name}"] = goal(
                    view[f"{metric}_{name}"]["median"]
                    / summary["plyvel"][metric + "_verified"]["median"],
                    VIEW_GOALS[metric][1],
                    f"plyvel {metric} with verify_checksums=True (the view: "
                    f"{'mapped' if settings.get('mmap') else 'pread'}, verified)")
        arrow = view["arrow_per_entry"]["median"]
        verdicts["view.arrow_per_entry.cpp_scan"] = goal(
            arrow / view["cpp_scan_per_entry"]["median"], 1.2,
            "the C++ view's full scan per entry")
        for engine in PLYVELS:
            verdicts[f"view.arrow_per_entry.{engine}_list"] = goal(
                arrow / summary[engine]["list_per_entry"]["median"], 0.6,
                f"{engine} building a list of pairs, per entry")
        verdicts["view.arrow_memory"] = goal(
            arrow_memory["ratio_to_table"]["median"], 1.5,
            "the Arrow table's own size (peak memory the export adds)")
    if dask:
        verdicts["dask.speedup_2_over_1"] = goal(dask["speedup_2_over_1"], 1.5,
                                                 "1 worker process", at_least=True)
    if memory:
        verdicts["versions_memory_mib"] = goal(memory["versions"]["added"] / MIB, 64,
                                               "MiB over the process after open")
        verdicts["jsonl_memory_mib"] = goal(memory["jsonl"]["added"] / MIB, 64,
                                            "MiB over the tool after one record")
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


def rerun_in_the_test_environment():
    """Runs this script again under .cache/python-venv's interpreter when
    the current one lacks pyarrow (e.g. /usr/bin/python3)."""
    try:
        import pyarrow  # noqa: F401
        return
    except ImportError:
        pass
    venv = os.path.join(ROOT, ".cache", "python-venv", "bin", "python")
    if not os.access(venv, os.X_OK) or os.path.realpath(sys.executable) == venv:
        raise SystemExit("bench_python.py needs pyarrow, dask and plyvel: run it with "
                         ".cache/python-venv/bin/python (third_party/install_deps.sh makes it)")
    print(f"bench_python.py: running again under {venv}", file=sys.stderr)
    os.execv(venv, [venv, os.path.abspath(__file__), *sys.argv[1:]])


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
    parser.add_argument("--data_dir", default=os.path.join(ROOT, ".cache", "bench-python"),
                        help="where the Dask database is written once and kept")
    parser.add_argument("--dask_keys", type=int, default=5_000_000)
    parser.add_argument("--dask_partitions", type=int, default=8)
    parser.add_argument("--tool", default=os.path.join(ROOT, "build", "release", "tools",
                                                       "bloomtable"),
                        help="the bloomtable tool whose --jsonl memory is measured")
    parser.add_argument("--sections", default="core,dask,memory",
                        help="which parts to run: core (the engines, Arrow), dask, memory")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--plyvel_worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    parser.add_argument("--run", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--write_plyvel", action="store_true",
                        help="only write --keys entries with Debian's plyvel at --path "
                        "(the directory --profile_target reads)")
    parser.add_argument("--profile_target", choices=sorted(PROFILE_TARGETS),
                        help="only repeat one call for --seconds (bench/profile.py)")
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    args.lookups = min(args.lookups, args.keys)
    if args.plyvel_worker:
        plyvel_worker(args)
        return
    if args.write_plyvel:
        import plyvel
        write_plyvel(plyvel, args.path, args.keys, args.value_size, args.cache_mb)
        return
    if args.profile_target:
        profile_target(args)
        return
    rerun_in_the_test_environment()
    # NumPy's OpenBLAS (pyarrow and pandas import NumPy) keeps threads that
    # spin beside the measured ones; none is needed here.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    import bloomtable
    sections = set(args.sections.split(","))
    document = {
        "benchmark": "python/bench/bench_python.py",
        "parameters": {k: v for k, v in vars(args).items()
                       if k not in ("plyvel_worker", "path", "run", "write_plyvel",
                                     "profile_target", "seconds")},
        "python": sys.version.split()[0],
        "bloomtable": bloomtable.__version__,
        "command_line": " ".join(sys.argv),
        "table_configs": {name: {k: str(v) for k, v in c.items()}
                          for name, c in CONFIGS.items()},
        "units": "ns per call, per key or per entry; build in seconds; memory in bytes",
        "view_settings": VIEW_SETTINGS,
    }
    summary, dask, memory = None, None, None
    if "core" in sections:
        workdir = tempfile.mkdtemp(prefix="bloomtable-pybench-", dir=args.dir)
        try:
            measured = [measure_run(args, workdir, run) for run in range(args.repeats)]
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        runs = [results for results, _ in measured]
        details = measured[0][1]
        summary = medians(runs)
        # Not an engine: kept beside the engines' medians.
        arrow_memory = summary.pop("arrow_memory")
        document.update({
            "arrow_memory": arrow_memory,
            "plyvel": details["plyvel"]["plyvel"],
            "plyvel_leveldb": details["plyvel"]["leveldb"],
            "plyvel_pypi": details["plyvel_pypi"]["plyvel"],
            "plyvel_pypi_leveldb": details["plyvel_pypi"]["leveldb"],
            "medians": summary,
            "samples": runs,  # each run's figures, per engine
        })
    if "dask" in sections or "memory" in sections:
        big = big_database(args)
        if "dask" in sections:
            dask = dask_runs(big, args)
            document["dask"] = dask
        if "memory" in sections:
            memory = versions_memory(big, args.tool)
            document["versions_memory"] = memory
    document["machine"] = {"platform": platform.platform(), "cpu": cpu_model(),
                           "kernel": platform.release(), "cpus": os.cpu_count(),
                           "loadavg_at_end": os.getloadavg()}
    document["goals"] = goals(summary, document.get("arrow_memory"), dask, memory)
    if summary is not None:
        print(f"{'engine':<20}{'get absent':>12}{'get present':>13}{'multi_get/key':>15}"
              f"{'get loop/key':>14}{'scan/entry':>12}{'list/entry':>12}"
              f"{'arrow/entry':>13}{'C++ scan':>10}{'build s':>9}")
        for engine, row in summary.items():
            def cell(metric, width, digits=0):
                value = row.get(metric, {}).get("median")
                return (f"{value:>{width}.{digits}f}" if value is not None
                        else " " * (width - 1) + "-")
            print(f"{engine:<20}{cell('get_absent', 12)}{cell('get_present', 13)}"
                  f"{cell('multi_get_per_key', 15)}{cell('get_loop_multi_get_keys', 14)}"
                  f"{cell('scan_per_entry', 12)}{cell('list_per_entry', 12)}"
                  f"{cell('arrow_per_entry', 13)}{cell('cpp_scan_per_entry', 10)}"
                  f"{cell('build_seconds', 9, 2)}")
    for name, verdict in document["goals"].items():
        print(f"goal {name}: {verdict['ratio']:.2f} against {verdict['against']} "
              f"(goal {'>=' if name.startswith('dask') else '<='} {verdict['goal']}): "
              f"{'met' if verdict['met'] else 'missed'}")
    if dask:
        print(f"dask: {dask['keys']:,} keys, {dask['partitions']} partitions: "
              f"1 worker {dask['seconds']['1']['median']:.2f} s, 2 workers "
              f"{dask['seconds']['2']['median']:.2f} s: {dask['speedup_2_over_1']:.2f}x")
    if memory:
        print(f"versions(): {memory['versions']['versions']:,} versions, "
              f"{memory['versions']['added'] / MIB:.1f} MiB over the process after open; "
              f"--jsonl: {memory['jsonl']['added'] / MIB:.1f} MiB over one record")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(document, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
