#!/usr/bin/env python3
"""Profiles bloomtable's table-level lookups with perf; writes the shares.

    bench/profile.py --db_bench PATH --json FILE [--num N] [--seconds S]

For each profile in PROFILES: db_bench fills one table (not profiled), then
db_bench --use_existing_db runs one read workload for S seconds under
`perf record -e cpu-clock` (a software clock, so no hardware counters are
needed), and `perf report` gives the share of the samples that fell in each
symbol (self time; symbols under 0.2% are dropped). The JSON keeps the raw
shares; bench/report.py groups them (filter probe, kernel read,
decompression, ...) for BENCHMARKS.md. Shares are not timings: they say
where a lookup's time goes, and need no idle machine to be meaningful,
though an idle one keeps other processes out of the samples (perf records
db_bench's threads only).

The filters are sized with --bloom_bits (not calibrated with --stored_bits,
whose calibration builds would land in the profile).
"""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

# (name, filter, filter layout, read workload). The table is written with
# index_block_restart_interval 16, what README recommends.
PROFILES = [
    ("present keys, ribbon whole_table", "ribbon", "whole_table",
     "readrandom"),
    ("present keys, cache_local_bloom per_block", "cache_local_bloom",
     "per_block", "readrandom"),
    ("absent keys, ribbon whole_table", "ribbon", "whole_table",
     "readmissing"),
    ("absent keys, cache_local_bloom per_block", "cache_local_bloom",
     "per_block", "readmissing"),
    ("absent keys, cache_local_bloom whole_table", "cache_local_bloom",
     "whole_table", "readmissing"),
    ("absent keys, ribbon partitioned", "ribbon", "partitioned",
     "readmissing"),
]

# "  12.34%  db_bench  [.] symbol" with --sort dso,symbol (perf may pad the
# line with "-" columns for cycle counts it does not have).
LINE = re.compile(r"^\s*([0-9.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)(\s+-)*\s*$")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-2000:] + result.stderr[-2000:])
        raise SystemExit(f"profile.py: failed: {' '.join(command)}")
    return result.stdout


def profile(args, name, filter_name, layout, workload, scratch):
    db = os.path.join(scratch, "db")
    common = [args.db_bench, "--engines=bloomtable", f"--filter={filter_name}",
              f"--filter_layout={layout}", "--bloom_bits=10",
              "--index_block_restart_interval=16", f"--num={args.num}",
              "--compare_no_filter=false", "--cache_size=8M", f"--db={db}"]
    run(common + ["--benchmarks=fillrandom"])
    data = os.path.join(scratch, "perf.data")
    read = common + ["--use_existing_db", f"--benchmarks={workload}",
                     f"--min_seconds={args.seconds}"]
    record = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "999", "-o",
              data, "--"] + read
    output = run(record)
    report = run(["perf", "report", "-i", data, "--no-children", "--stdio",
                  "--sort", "dso,symbol", "--percent-limit", "0.2", "-g",
                  "none"])
    samples = re.search(r"# Samples: (\S+)", report)
    symbols = []
    for line in report.splitlines():
        match = LINE.match(line)
        if match:
            symbols.append({"percent": float(match.group(1)),
                            "dso": match.group(2),
                            "kernel": match.group(3) == "k",
                            "symbol": match.group(4)})
    micros = re.search(rf"^{workload}\s*:\s*([0-9.]+) micros/op", output,
                       re.MULTILINE)
    return {"name": name, "filter": filter_name, "filter_layout": layout,
            "workload": workload, "samples": samples.group(1) if samples
            else "?", "micros_per_op_under_perf":
            float(micros.group(1)) if micros else None,
            "command": " ".join(record[:-len(read)] + [os.path.basename(
                args.db_bench)] + read[1:]).replace(db, "DIR"),
            "symbols": symbols}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db_bench", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--num", type=int, default=1000000)
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    version = run(["perf", "--version"]).strip()
    profiles = []
    for name, filter_name, layout, workload in PROFILES:
        with tempfile.TemporaryDirectory() as scratch:
            profiles.append(profile(args, name, filter_name, layout, workload,
                                    scratch))
    report = {"tool": "profile", "perf": version,
              "command_line": " ".join(["bench/profile.py"] + sys.argv[1:]),
              "machine": {"cpu": cpu_model(), "kernel": platform.release()},
              "settings": {"num": args.num, "seconds": args.seconds},
              "profiles": profiles}
    with open(args.json, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
