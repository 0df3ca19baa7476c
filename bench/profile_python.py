"""The Python package's view against plyvel under perf (bench/profile.py's
part): python.json's goals on a present-key `get` and a full scan, each side
in its own interpreter process (Debian's python3, whose plyvel runs on
Debian's libleveldb, as python.json's plyvel row does).

One process writes the directory with plyvel (python/bench/bench_python.py
--write_plyvel, as its core rows write it: --num keys, compacted); each
profile then repeats one call for --seconds on it (--profile_target: the
view with python.json's VIEW_SETTINGS, plyvel with its reading defaults,
8 MiB of block cache each; and both verifying block checksums, the view
mapped, as python.json's _mmap_verified and _verified figures read). The
shares are the whole process's (one thread)."""

import json
import os

from perf_tools import (parse_symbols, perf_record, perf_report, run,
                        thread_samples)

BENCH_PYTHON = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "python", "bench", "bench_python.py")
# (name, --profile_target, the row's workload).
PYTHON_PROFILES = [
    ("python get, present keys, view", "view_get", "get_present"),
    ("python get, present keys, plyvel", "plyvel_get", "get_present"),
    ("python full scan, view", "view_scan", "scan_per_entry"),
    ("python full scan, plyvel", "plyvel_scan", "scan_per_entry"),
    # Checksums verified on both sides: the view mapped.
    ("python get, present keys, view, mapped and verified",
     "view_get_verified", "get_present_mmap_verified"),
    ("python get, present keys, plyvel, verified", "plyvel_get_verified",
     "get_present_verified"),
    ("python full scan, view, mapped and verified", "view_scan_verified",
     "scan_per_entry_mmap_verified"),
    ("python full scan, plyvel, verified", "plyvel_scan_verified",
     "scan_per_entry_verified"),
]
# The interpreter whose plyvel is Debian's (python.json's "plyvel" row).
PYTHON = "/usr/bin/python3"


def python_profiles(args, scratch):
    """Every PYTHON_PROFILES entry (none without --python_path: the
    directory holding the built bloomtable package)."""
    if not args.python_path:
        return []
    env = dict(os.environ, PYTHONPATH=os.path.abspath(args.python_path))
    path = os.path.join(scratch, "plyvel_db")
    sizes = [f"--keys={args.num}", f"--lookups={min(args.num, 200000)}"]
    run([PYTHON, BENCH_PYTHON, "--write_plyvel", f"--path={path}"] + sizes,
        env=env)
    profiles = []
    data = os.path.join(scratch, "perf.data")
    for name, target, workload in PYTHON_PROFILES:
        output, command = perf_record(
            [PYTHON, BENCH_PYTHON, f"--profile_target={target}",
             f"--path={path}", f"--seconds={args.seconds}"] + sizes,
            data, scratch, env=env)
        result = json.loads(output.splitlines()[-1])
        report = perf_report(data)
        _, threads = thread_samples(data)
        samples = sum(t["samples"] for t in threads)
        profiles.append({
            "name": name, "level": "python", "engine": target.split("_")[0],
            "workload": workload, "samples": samples,
            "calls": result["calls"],
            "ns_per_call_under_perf": result["ns_per_call"],
            "command": command.replace(BENCH_PYTHON,
                                       "python/bench/bench_python.py"),
            "symbols": parse_symbols(report)})
    return profiles
