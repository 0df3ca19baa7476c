"""What bench/profile.py and its parts share: running a program under
`perf record`, reading `perf report`'s shares and `perf script`'s threads."""

import json
import os
import platform
import re
import subprocess
import sys

# "  12.34%  db_bench  [.] symbol" with --sort dso,symbol (perf may pad the
# line with "-" columns for cycle counts it does not have).
LINE = re.compile(r"^\s*([0-9.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)(\s+-)*\s*$")
# perf record's sampling rate: a sample is about 1 ms of one CPU's time.
FREQUENCY = 999


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
    """`command`'s standard output; stops the profile if it fails."""
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-2000:] + result.stderr[-2000:])
        raise SystemExit(f"profile.py: failed: {' '.join(command)}")
    return result.stdout


def load_json(path):
    with open(path) as f:
        return json.load(f)


def parse_symbols(report):
    """perf report's lines as [{percent, dso, kernel, symbol}]."""
    symbols = []
    for line in report.splitlines():
        match = LINE.match(line)
        if match:
            symbols.append({"percent": float(match.group(1)),
                            "dso": match.group(2),
                            "kernel": match.group(3) == "k",
                            "symbol": match.group(4)})
    return symbols


def perf_record(command, data, scratch, **kwargs):
    """Runs `command` under perf: (its output, the command as the JSON shows
    it: the program's base name, `scratch` written DIR)."""
    record = ["perf", "record", "-q", "-e", "cpu-clock", "-F",
              str(FREQUENCY), "-o", data, "--"]
    shown = " ".join(record + [os.path.basename(command[0])] + command[1:])
    return run(record + command, **kwargs), shown.replace(scratch, "DIR")


def perf_report(data, *options):
    return run(["perf", "report", "-i", data, "--no-children", "--stdio"] +
               list(options) + ["--sort", "dso,symbol", "--percent-limit",
                                "0.2", "-g", "none"])


def thread_samples(data, comm=None):
    """(tid, [{tid, samples}]): the thread that did the measured work (the
    one named `comm`, else the one with the most samples) and every
    thread's sample count, most first."""
    script = run(["perf", "script", "-i", data, "-F", "comm,tid"])
    counts, named = {}, set()
    for line in script.splitlines():
        fields = re.match(r"\s*(.*?)\s+(\d+)\s*$", line)
        if not fields:
            continue
        tid = int(fields.group(2))
        counts[tid] = counts.get(tid, 0) + 1
        if comm and fields.group(1) == comm:
            named.add(tid)
    if not counts:
        raise SystemExit(f"profile.py: no samples in {data}")
    if comm and not named:
        raise SystemExit(f"profile.py: no thread named {comm} in {data}")
    pool = named or counts.keys()
    tid = max(pool, key=lambda t: counts[t])
    threads = [{"tid": t, "samples": n} for t, n in
               sorted(counts.items(), key=lambda kv: -kv[1])]
    return tid, threads
