"""The "Zero-copy Get" section of BENCHMARKS.md, from pinned.json: each
engine's lookup that hands a value back without copying it (`readpinned`)
beside its copying Get (`readrandom`) on the same keys, 64 KiB values, a
block cache holding every block; and the goal on bloomtable's two."""

from page.common import (configs, decide_ratio, results_of, runs_of, table,
                         verdict, with_range)
from page.explain import profiles_block, same_commit
from page.profiles import matching, sides_text

# bloomtable's zero-copy Get of a large value against its copying Get.
LIMIT = 0.3
OURS = ("bloomtable", "bloomtable_db")
NOT_MEASURED = "Not measured: no committed run (bench/results/pinned.json)."


def rows(run):
    """[(config, copying result, pinned result)] of every engine and I/O
    path with both benchmarks."""
    found = []
    for config in configs(run or {}):
        copying = results_of(config, "readrandom")
        pinned = results_of(config, "readpinned")
        if copying is not None and pinned is not None:
            found.append((config, copying, pinned))
    return found


def ratio_text(copying, pinned):
    return f"{pinned['micros_per_op'] / copying['micros_per_op']:.2f}×"


def pinned_profiles(profile, run, engine, io):
    """profile.json's zero-copy and copying Get of `engine` on `io` (64 KiB
    values), where it was taken at `run`'s commit: (readpinned's,
    readrandom's), or None."""
    found = {p["workload"]: p for p in matching(
        profile, engine=engine, io=io, value_size=65536)}
    if "readpinned" not in found or "readrandom" not in found or \
            not same_commit(profile, run):
        return None
    return found["readpinned"], found["readrandom"]


def pinned_goals(run, profile=None):
    """Goal rows (goal, measured, status, notes): bloomtable's zero-copy Get
    ≤ LIMIT × its copying Get, per level and I/O path; the notes from the
    profiles of both calls where taken."""
    name = (f"zero-copy Get of a 64 KiB value (readpinned) ≤ {LIMIT}× the "
            "copying Get (readrandom), block cache holding every block")
    found = [r for r in rows(run) if r[0]["engine"] in OURS]
    if not found:
        return [[name, "no pinned.json row", verdict(None), ""]]
    out = []
    for config, copying, pinned in found:
        decision = decide_ratio(runs_of(pinned), runs_of(copying), LIMIT)
        sides = pinned_profiles(profile, run, config["engine"], config["io"])
        out.append([f"{name}: {config['engine']} ({config['level']} level, "
                    f"{config['io']})",
                    f"{with_range(pinned)} / {with_range(copying)} µs = "
                    f"{ratio_text(copying, pinned)}", verdict(decision),
                    sides_text(*sides, "per lookup") if sides else ""])
    return out


def pinned_section(run, profile=None):
    if run is None:
        return NOT_MEASURED
    settings = run.get("settings", {})
    calls = {"bloomtable": "Table::Get into a PinnedValue",
             "bloomtable_db": "Database::Get into a PinnedValue",
             "rocksdb_readonly": "DB::Get into a PinnableSlice",
             "rocksdb": "DB::Get into a PinnableSlice"}
    body = []
    for config, copying, pinned in rows(run):
        body.append([f"`{config['engine']}`", config["level"], config["io"],
                     calls.get(config["engine"], "?"), with_range(copying),
                     with_range(pinned), ratio_text(copying, pinned),
                     f"{pinned.get('wrong_values', 0)}"])
    head = (f"{settings.get('num', 0):,} keys of {settings.get('value_size')}"
            f"-byte values, block cache {settings.get('cache_size', 0) >> 20} "
            "MiB, an untimed pass over the keys before each benchmark "
            f"(`--warm_up`: {settings.get('warm_up')}), checksums "
            f"{'verified' if settings.get('verify_checksum') else 'not verified'};"
            " µs per lookup, median (range) of "
            f"{settings.get('repeats', '?')} runs. `readrandom` copies each "
            "value into a string, as `Get(key, std::string*)` does; "
            "`readpinned` holds it where it lies, released at the reader's "
            "next lookup. Both check every value found (whole up to 4 KiB, "
            "else its size and eight 64-byte windows), inside the loop's "
            "time.")
    out = [head, "", table(
        ["engine", "level", "io", "zero-copy call", "readrandom µs",
         "readpinned µs", "readpinned / readrandom", "wrong values"], body)]
    return "\n".join(out + profiles_text(profile, run))


def profiles_text(profile, run):
    """The profiled calls (bench/profile.py's PINNED_WORKLOADS) side by
    side, where profile.json was taken at this run's commit."""
    block = profiles_block(
        profile, run, matching(profile, value_size=65536), "these calls",
        "Where the time goes (`perf record -e cpu-clock`, the lookup "
        "thread's samples; the same settings, one run of `--min_seconds` "
        "each, filled first):",
        ["profile", "µs per lookup under perf",
         "samples (lookup thread of process)"],
        lambda p: [f"*{p['name']}*", f"{p['micros_per_op_under_perf']:.3f}",
                   f"{p['samples']} of {p['process_samples']}"],
        lambda p: p["workload"])
    return [""] + block if block else []
