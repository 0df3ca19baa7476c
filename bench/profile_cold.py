"""cold_bench's database-level calls under perf (bench/profile.py's part):
the view's MultiGet(32) against RocksDB's DB::MultiGet(32) cold (direct
I/O, no block cache: cold_io.json's goal), and the view's warm MultiGet(32)
against its own loop of Get (the goal of warm_io.json and of cold_io.json's
warm rows, at each one's size).

Each profile is one cold_bench process on run_all.sh's files of that size
(--use_existing, every engine of its runs prepared so that the files keep
their filter targets) timing one engine's one call on one key stream
(--measure, --calls, --streams) of --cold_reads keys, as its runs do (a
warm row's block cache then holds every block its keys need), repeated in
enough timed passes to last about --seconds: an unprofiled run of one pass
first gives the time per key. The shares are those of the whole process: a
cold MultiGet's reads of different tables run on the view's read threads,
and io_uring's on the kernel's."""

import os

from perf_tools import (FREQUENCY, load_json, parse_symbols, perf_record,
                        perf_report, run, thread_samples)

BATCH = 32
# (name, mode, engine timed, call, key stream, size: cold_io.json's keys
# (--cold_num) or warm_io.json's (--warm_num)).
COLD_PROFILES = [
    (f"cold {call}, {stream} keys, {engine}", "cold", engine, call, stream,
     "cold_num")
    for stream in ("present", "absent")
    for engine in ("bloomtable_db+sidecars", "rocksdb_readonly")
    for call in ("multiget",)
] + [
    (f"warm {call}, present keys, bloomtable_db+sidecars", "warm",
     "bloomtable_db+sidecars", call, "present", size)
    for size in ("warm_num", "cold_num")
    for call in ("multiget", "get")
]
# The most timed passes of one profile.
MAX_PASSES = 1000


def the_row(path, mode, engine, stream, call):
    """cold_bench's lookup row of the one measurement a profile timed."""
    benchmark = "readrandom" if stream == "present" else "readmissing"
    api = "MultiGet" if call == "multiget" else "Get"
    for row in load_json(path).get("lookups", []):
        if (row.get("mode"), row.get("engine"), row.get("benchmark"),
                row.get("api")) == (mode, engine, benchmark, api) and \
                (api == "Get" or row.get("batch") == BATCH):
            return row
    raise SystemExit(f"profile.py: no {mode} {benchmark} {api} row of "
                     f"{engine} in {path}")


def cold_command(args, mode, engine, call, stream, num, passes, out):
    return [args.cold_bench, f"--num={num}", f"--dir={args.cold_dir}",
            "--use_existing", f"--engines={args.cold_engines}",
            f"--measure={engine}", f"--calls={call}", f"--streams={stream}",
            f"--batches={BATCH}", f"--warm_batch={BATCH}", "--depths=",
            f"--cold={'true' if mode == 'cold' else 'false'}",
            f"--warm={'true' if mode == 'warm' else 'false'}", "--runs=1",
            f"--reads={args.cold_reads}", f"--passes={passes}",
            f"--json={out}"]


def cold_profiles(args, scratch):
    """Every COLD_PROFILES entry whose engine is among --cold_engines (none
    without --cold_bench)."""
    if not args.cold_bench:
        return []
    profiles = []
    out = os.path.join(scratch, "cold.json")
    data = os.path.join(scratch, "perf.data")
    built = args.cold_engines.split(",")
    for name, mode, engine, call, stream, size in COLD_PROFILES:
        num = getattr(args, size)
        # A warm profile at cold_io.json's size, where it is warm_io.json's
        # too (a smoke run), would repeat the other.
        if engine not in built or (size == "cold_num" and mode == "warm" and
                                   args.cold_num == args.warm_num):
            continue
        if mode == "warm" and size == "cold_num":
            name += f", {num:,} keys"
        run(cold_command(args, mode, engine, call, stream, num, 1, out))
        micros = the_row(out, mode, engine, stream, call)["micros_per_key"]
        per_key = micros["median"] if isinstance(micros, dict) else micros
        passes = int(min(MAX_PASSES, max(1, round(
            args.seconds * 1e6 / max(per_key * args.cold_reads, 1e-3)))))
        _, command = perf_record(cold_command(args, mode, engine, call,
                                              stream, num, passes, out),
                                 data, scratch)
        row = the_row(out, mode, engine, stream, call)
        _, threads = thread_samples(data)
        report = perf_report(data)
        samples = sum(t["samples"] for t in threads)
        # The keys the process looked up: a warm measurement makes an
        # untimed pass over its keys first.
        lookups = args.cold_reads * (passes + (mode == "warm"))
        profiles.append({
            "name": name, "level": "db", "tool": "cold_bench", "mode": mode,
            "engine": engine, "call": "MultiGet" if call == "multiget"
            else "Get", "batch": BATCH if call == "multiget" else 0,
            "workload": row["benchmark"],
            "num": num,
            "reads": args.cold_reads, "passes": passes, "samples": samples,
            "threads": threads,
            "cpu_micros_per_key": samples * 1e6 / FREQUENCY / lookups,
            "micros_per_key": row["micros_per_key"],
            "device_reads_per_key": row.get("device_reads_per_key"),
            "command": command.replace(args.cold_dir, "COLD_DIR"),
            "symbols": parse_symbols(report)})
    return profiles
