#!/usr/bin/env python3
"""Profiles lookups and scans with perf, at table and database level, and
from Python; writes the shares.

    bench/profile.py --db_bench PATH --json FILE [--num N] [--seconds S]
        [--pinned_num N] [--cold_bench PATH --cold_dir DIR
        --cold_engines LIST [--cold_num N] [--warm_num N] [--cold_reads N]]
        [--python_path DIR]

Each profile fills its store in one db_bench process (not profiled), then
runs one read workload for S seconds in another (--use_existing_db) under
`perf record -e cpu-clock`; `perf report` gives each symbol's share of the
samples (self time; under 0.2% dropped). Table level (PROFILES): bloomtable
at --bloom_bits=10, and LevelDB's table (leveldb_table), pread and mmap.
Database level (DB_PROFILES): the engines of bench/run_all.sh's `run db`
and `run db_compacted` with their flags; one unprofiled
`--benchmarks=stats --stored_bits=10` run calibrates every filter first
(db_bench calibrates in every process given --stored_bits), and the fill
and the profiled run take the bits it found; the shares are those of the
thread that ran the lookups (the others open the store and draw the keys),
and the profiled run's db_bench JSON gives the files per level, filter
checks and block reads per lookup; each on pread with checksums verified,
and again mapped and with checksums unverified (as the rows are decided).
The zero-copy Get beside the copying one at `run pinned`'s settings
(PINNED_WORKLOADS), mapped and on pread; cold_bench's database-level
MultiGet (bench/profile_cold.py); the Python package's view against plyvel
(bench/profile_python.py). bench/report.py groups the shares for
BENCHMARKS.md. Shares are not timings: they need no idle machine.
"""

import argparse
import json
import os
import platform
import re
import sys
import tempfile

from perf_tools import (cpu_model, load_json, parse_symbols, perf_record,
                        perf_report, run, thread_samples)
import profile_cold
import profile_python

# (name, engine, filter, filter layout, I/O path, read workload). A
# bloomtable table is written at db_bench's automatic index restart
# interval, as main.json's rows are: 1 for the per-block layout, 16
# otherwise; LevelDB's (leveldb_table) by LevelDB's TableBuilder.
PROFILES = [
    ("present keys, ribbon whole_table", "bloomtable", "ribbon",
     "whole_table", "pread", "readrandom"),
    ("present keys, cache_local_bloom per_block", "bloomtable",
     "cache_local_bloom", "per_block", "pread", "readrandom"),
    ("absent keys, ribbon whole_table", "bloomtable", "ribbon", "whole_table",
     "pread", "readmissing"),
    ("absent keys, cache_local_bloom per_block", "bloomtable",
     "cache_local_bloom", "per_block", "pread", "readmissing"),
    ("absent keys, cache_local_bloom whole_table", "bloomtable",
     "cache_local_bloom", "whole_table", "pread", "readmissing"),
    ("absent keys, ribbon partitioned", "bloomtable", "ribbon", "partitioned",
     "pread", "readmissing"),
    ("present keys, ribbon whole_table, mmap", "bloomtable", "ribbon",
     "whole_table", "mmap", "readrandom"),
]
# LevelDB's own table lookup on present keys (its filter-aware
# TableCache::Get), and full scans through bloomtable's table iterator (the
# tables written with LevelDB's Bloom, both layouts) and LevelDB's: the
# peer sides of main.json's table-level present-key and scan goals.
PROFILES += [
    ("present keys, leveldb_table" + ("" if io == "pread" else ", mmap"),
     "leveldb_table", "leveldb_bloom", "per_block", io, "readrandom")
    for io in ("pread", "mmap")]
PROFILES += [
    (f"full scan, {engine} leveldb_bloom {layout}" +
     ("" if io == "pread" else ", mmap"), engine, "leveldb_bloom", layout, io,
     "readseq")
    for io in ("pread", "mmap")
    for engine, layout in (("bloomtable", "per_block"),
                           ("bloomtable", "whole_table"),
                           ("leveldb_table", "per_block"))]

# Database level: (name, engine, read workload, LevelDB source layout of
# db_bench --leveldb_source: run_all.sh's `run db` and `run db_compacted`),
# grouped by layout and engine (one fill serves the engine's workloads).
DB_ENGINES = ("bloomtable_db", "bloomtable_db+sidecars", "leveldb_dir",
              "rocksdb_readonly")
# The engines that read the LevelDB-written directory's own Bloom filter, as
# its writer chose it (db_bench --leveldb_source_bloom_bits): never
# calibrated.
SOURCE_FILTER_ENGINES = ("bloomtable_db", "leveldb_dir")
DB_SOURCES = ("as_written", "compacted")
DB_PROFILES = [
    ("absent keys, bloomtable_db", "bloomtable_db", "readmissing",
     "as_written"),
    ("present keys, bloomtable_db", "bloomtable_db", "readrandom",
     "as_written"),
    ("absent keys, bloomtable_db+sidecars", "bloomtable_db+sidecars",
     "readmissing", "as_written"),
    ("absent keys, leveldb_dir", "leveldb_dir", "readmissing", "as_written"),
    ("present keys, leveldb_dir", "leveldb_dir", "readrandom", "as_written"),
    ("absent keys, rocksdb_readonly", "rocksdb_readonly", "readmissing",
     "as_written"),
    ("absent keys, bloomtable_db, compacted", "bloomtable_db", "readmissing",
     "compacted"),
    ("absent keys, bloomtable_db+sidecars, compacted",
     "bloomtable_db+sidecars", "readmissing", "compacted"),
    ("absent keys, leveldb_dir, compacted", "leveldb_dir", "readmissing",
     "compacted"),
]
# Every entry above reads through pread with data-block checksums verified
# (run_all.sh's `run db` and `run db_compacted` rows on pread).
DB_PROFILES = [entry + ("pread", True) for entry in DB_PROFILES]
# Present keys, full scans and seeks (a Seek and 16 Nexts) of the view and
# of leveldb::DB, on both layouts, on every setting their rows are decided
# on: pread with checksums verified (as above), mapped files (`--io=mmap`),
# and checksums verified on no side (`run db_unverified`, `run
# db_compacted_unverified`) on either I/O path.
DB_PROFILES += [
    (f"{what}, {engine}" + ("" if source == "as_written" else ", compacted") +
     ("" if io == "pread" else ", mmap") +
     ("" if verify else ", checksums unverified"),
     engine, workload, source, io, verify)
    for verify in (True, False)
    for io in ("pread", "mmap")
    for source in DB_SOURCES
    for workload, what in (("readrandom", "present keys"),
                           ("readseq", "full scan"),
                           ("seekrandom", "seek and 16 nexts"))
    for engine in ("bloomtable_db", "leveldb_dir")
    # Listed above, beside the absent keys.
    if (workload, source, io, verify) !=
    ("readrandom", "as_written", "pread", True)
]
DB_STORED_BITS = 10

def profile(args, name, engine, filter_name, layout, io, workload, scratch):
    db = os.path.join(scratch, "db")
    common = [args.db_bench, f"--engines={engine}", f"--filter={filter_name}",
              f"--filter_layout={layout}", "--bloom_bits=10",
              f"--num={args.num}", f"--io={io}",
              "--compare_no_filter=false", "--cache_size=8M", f"--db={db}"]
    run(common + ["--benchmarks=fillrandom"])
    data = os.path.join(scratch, "perf.data")
    output, command = perf_record(common + [
        "--use_existing_db", f"--benchmarks={workload}",
        f"--min_seconds={args.seconds}"], data, db)
    report = perf_report(data)
    samples = re.search(r"# Samples: (\S+)", report)
    micros = re.search(rf"^{workload}\s*:\s*([0-9.]+) micros/op", output,
                       re.MULTILINE)
    return {"name": name, "level": "table", "engine": engine, "io": io,
            "filter": filter_name, "filter_layout": layout,
            "index_block_restart_interval": 1 if layout == "per_block" else 16,
            "workload": workload, "samples": samples.group(1) if samples
            else "?", "micros_per_op_under_perf":
            float(micros.group(1)) if micros else None,
            "command": command, "symbols": parse_symbols(report)}


# ------------------------------------------------------- database level --

def db_common(args, db, source="as_written", io="pread", verify=True):
    """run_all.sh's `run db` flags, less --stored_bits (see the docstring),
    on I/O path `io`, data-block checksums verified or not (`verify`)."""
    return [args.db_bench, f"--num={args.num}", "--cache_size=8M",
            f"--io={io}", f"--verify_checksum={str(verify).lower()}",
            "--compare_no_filter=false", f"--db={db}",
            f"--leveldb_source={source}", "--filter=ribbon",
            "--filter_layout=whole_table", "--rocksdb_filters=bloom",
            "--seek_nexts=16"]


def calibrate(args, scratch):
    """{engine: (bloom_bits, filter, layout)}: the bits per key at which
    each engine's filter stores DB_STORED_BITS, found by db_bench's own
    calibration in a run that fills nothing (--benchmarks=stats); the
    directory's own Bloom at its writer's bits per key."""
    out = os.path.join(scratch, "calibration.json")
    run(db_common(args, os.path.join(scratch, "calibration")) +
        [f"--engines={','.join(DB_ENGINES)}",
         f"--stored_bits={DB_STORED_BITS}", "--benchmarks=stats",
         f"--json={out}"])
    found = {}
    for config in load_json(out).get("configs", []):
        target = (None if config.get("engine") in SOURCE_FILTER_ENGINES
                  else DB_STORED_BITS)
        if (config.get("target_stored_bits") or None) != target or \
                not config.get("bloom_bits"):
            raise SystemExit(f"profile.py: {config.get('engine')}: no "
                             f"calibrated filter in {out}")
        found[config["engine"]] = (config["bloom_bits"], config["filter"],
                                   config.get("filter_layout"))
    missing = [e for e in DB_ENGINES if e not in found]
    if missing:
        raise SystemExit(f"profile.py: not calibrated: {', '.join(missing)}")
    return found


def the_result(path, engine, workload, bits):
    """db_bench's JSON result of `workload`, checked to be `engine`'s at
    `bits` bits per key, uncalibrated."""
    for config in load_json(path).get("configs", []):
        if config.get("engine") != engine:
            continue
        if config.get("error"):
            raise SystemExit(f"profile.py: {engine}: {config['error']}")
        if config.get("bloom_bits") != bits or \
                config.get("target_stored_bits"):
            raise SystemExit(f"profile.py: {engine} ran at "
                             f"{config.get('bloom_bits')} bits per key "
                             f"(target {config.get('target_stored_bits')}), "
                             f"not {bits:g}")
        for result in config.get("results", []):
            if result.get("benchmark") == workload:
                return result
    raise SystemExit(f"profile.py: no {workload} result of {engine} in "
                     f"{path}")


def db_profile(args, name, engine, workload, source, bits, scratch,
               common=None, io="pread", verify=True):
    """One database-level profile on the store `common` (db_common's flags
    on `io`, checksums verified or not by default) names, filled before."""
    if common is None:
        common = db_common(args, os.path.join(scratch, f"db_{source}"),
                           source, io, verify)
    data = os.path.join(scratch, "perf.data")
    out = os.path.join(scratch, "read.json")
    output, command = perf_record(common + [
        f"--engines={engine}", f"--bloom_bits={bits:g}", "--use_existing_db",
        f"--benchmarks={workload}", f"--min_seconds={args.seconds}",
        f"--json={out}"], data, scratch)
    if "calibration:" in output:
        raise SystemExit(f"profile.py: {engine}: the profiled run "
                         "calibrated its filter")
    result = the_result(out, engine, workload, bits)
    tid, threads = thread_samples(data, comm="bench-reader")
    report = perf_report(data, "--tid", str(tid), "--percentage", "relative")
    ops = result.get("ops") or 0
    checks = result.get("filter_checks")
    return {"name": name, "level": "db", "engine": engine,
            "workload": workload, "leveldb_source": source, "io": io,
            "verify_checksum": verify,
            "bloom_bits": bits,
            "samples": next(t["samples"] for t in threads if t["tid"] == tid),
            "process_samples": sum(t["samples"] for t in threads),
            "threads": threads,
            "micros_per_op_under_perf": result.get("micros_per_op"),
            "ops": ops,
            "files_before": result.get("files_before"),
            "files_after": result.get("files_after"),
            "filter_checks_per_op": checks / ops if checks and ops else None,
            "reads_per_op": result.get("reads_per_op"),
            "false_positive_rate": result.get("false_positive_rate"),
            "block_cache_hit_rate": result.get("block_cache_hit_rate"),
            "command": command, "symbols": parse_symbols(report)}


def db_profiles(args):
    """Every DB_PROFILES entry, in one scratch directory (the stores and the
    LevelDB source directory db_bench writes beside them)."""
    profiles = []
    with tempfile.TemporaryDirectory() as scratch:
        calibrated = calibrate(args, scratch)
        for source, engine in ((s, e) for s in DB_SOURCES
                               for e in DB_ENGINES):
            wanted = [p for p in DB_PROFILES
                      if p[1] == engine and p[3] == source]
            if not wanted:
                continue
            db = os.path.join(scratch, f"db_{source}")
            bits, filter_name, layout = calibrated[engine]
            fill_json = os.path.join(scratch, "fill.json")
            fill = db_common(args, db, source) + [
                f"--engines={engine}", f"--bloom_bits={bits:g}",
                "--benchmarks=fillrandom", f"--json={fill_json}"]
            run(fill)
            the_result(fill_json, engine, "fillrandom", bits)
            for name, _, workload, _, io, verify in wanted:
                entry = db_profile(args, name, engine, workload, source, bits,
                                   scratch, io=io, verify=verify)
                entry.update({"filter": filter_name, "filter_layout": layout,
                              "stored_bits_target": DB_STORED_BITS,
                              "fill_command": " ".join(
                                  [os.path.basename(args.db_bench)] +
                                  fill[1:]).replace(scratch, "DIR")})
                profiles.append(entry)
    return profiles


# The zero-copy Get (readpinned) beside the copying one (readrandom)
# through the view, mapped and on pread, at run_all.sh's `run pinned`
# settings: 64 KiB values, a block cache holding every block, an untimed
# pass over the keys first; the directory's own Bloom at 10 bits per key.
PINNED_WORKLOADS = ("readpinned", "readrandom")
PINNED_IO = ("mmap", "pread")


def pinned_profiles(args):
    profiles = []
    with tempfile.TemporaryDirectory() as scratch:
        common = [args.db_bench, f"--num={args.pinned_num}",
                  f"--reads={10 * args.pinned_num}", "--value_size=65536",
                  "--cache_size=256M", "--warm_up", "--filter=ribbon",
                  "--filter_layout=whole_table", "--compare_no_filter=false",
                  f"--db={os.path.join(scratch, 'db')}"]
        fill_json = os.path.join(scratch, "fill.json")
        fill = common + ["--io=mmap", "--engines=bloomtable_db",
                         "--bloom_bits=10", "--benchmarks=fillrandom",
                         f"--json={fill_json}"]
        run(fill)
        the_result(fill_json, "bloomtable_db", "fillrandom", 10)
        for io in PINNED_IO:
            for workload in PINNED_WORKLOADS:
                entry = db_profile(args, f"{workload}, 64 KiB values, "
                                   f"bloomtable_db, {io}", "bloomtable_db",
                                   workload, None, 10, scratch,
                                   common + [f"--io={io}"], io=io)
                entry.update({"value_size": 65536,
                              "fill_command": " ".join(
                                  [os.path.basename(args.db_bench)] +
                                  fill[1:]).replace(scratch, "DIR")})
                entry.pop("leveldb_source")
                entry.pop("verify_checksum")
                profiles.append(entry)
    return profiles


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db_bench", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--num", type=int, default=1000000)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--pinned_num", type=int, default=2000,
                        help="keys of the zero-copy Get's profiles (64 KiB "
                        "values)")
    parser.add_argument("--cold_bench", help="cold_bench, for the cold and "
                        "warm MultiGet profiles (none without it)")
    parser.add_argument("--cold_dir", help="cold_bench's --dir")
    parser.add_argument("--cold_engines", help="cold_bench's --engines, as "
                        "its runs name them")
    parser.add_argument("--cold_num", type=int, default=1000000,
                        help="keys of the cold profiles")
    parser.add_argument("--warm_num", type=int, default=10000000,
                        help="keys of the warm profiles")
    parser.add_argument("--cold_reads", type=int, default=20000,
                        help="keys of each cold_bench measurement (its "
                        "--reads, as its runs take)")
    parser.add_argument("--python_path", help="the directory holding the "
                        "built bloomtable package, for the Python profiles "
                        "(none without it)")
    args = parser.parse_args()
    if args.cold_bench and not (args.cold_dir and args.cold_engines):
        parser.error("--cold_bench needs --cold_dir and --cold_engines")
    version = run(["perf", "--version"]).strip()
    profiles = []
    # A smoke build may lack a peer's table (leveldb_table needs LevelDB's
    # source package); run_all.sh's real run requires every one.
    built = run([args.db_bench, "--list_engines"]).splitlines()
    for entry in PROFILES:
        if entry[1] not in built:
            print(f"profile.py: {entry[1]} not built: no profile "
                  f"*{entry[0]}*", file=sys.stderr)
            continue
        with tempfile.TemporaryDirectory() as scratch:
            profiles.append(profile(args, *entry, scratch))
    profiles += db_profiles(args)
    profiles += pinned_profiles(args)
    with tempfile.TemporaryDirectory() as scratch:
        profiles += profile_cold.cold_profiles(args, scratch)
        profiles += profile_python.python_profiles(args, scratch)
    report = {"tool": "profile", "perf": version,
              "command_line": " ".join(["bench/profile.py"] + sys.argv[1:]),
              "machine": {"cpu": cpu_model(), "kernel": platform.release()},
              "settings": {"num": args.num, "seconds": args.seconds,
                           "pinned_num": args.pinned_num,
                           "cold_num": args.cold_num if args.cold_bench
                           else None,
                           "warm_num": args.warm_num if args.cold_bench
                           else None},
              "profiles": profiles}
    with open(args.json, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
