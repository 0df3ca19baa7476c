"""The Python section of BENCHMARKS.md, from bench/results/python.json
(python/bench/bench_python.py): the bloomtable package against plyvel and
the read-only database view, from Python.
"""

from page.common import (MET, MISSED, decide_ratio, runs_of, table,
                         verdict)
from page.explain import profiles_block, same_commit
from page.profiles import matching, sides_text

# operation: (the label of what it is compared with, the ratio it must not
# pass); the same goals as bench_python.py's, recomputed here from the
# medians rather than read from its verdicts.
GOALS = {
    "get_absent": ("plyvel", 0.5),
    "get_present": ("plyvel", 0.8),
    "multi_get_per_key": ("get_loop_multi_get_keys", 0.5),
    "scan_per_entry": ("plyvel", 1.0),
}
# The peers' rows: no goal is decided on them.
PEERS = ("plyvel", "plyvel_pypi")
COLUMNS = [
    ("get_absent", "get absent ns"),
    ("get_present", "get present ns"),
    ("multi_get_per_key", "multi_get ns/key"),
    ("get_loop_multi_get_keys", "get loop ns/key"),
    ("scan_per_entry", "scan ns/entry"),
    ("build_seconds", "build s"),
    ("cpp_get_absent", "C++ Table::Get absent ns"),
]


# The read-only view and the Arrow export, from Python: (goal, the view's
# metric, the engine and metric it is compared with, the ratio it must not
# pass).
VIEW_GOALS = [
    ("`view` get_present ≤ 0.8× plyvel's", "get_present", "plyvel",
     "get_present", 0.8),
    ("`view` scan_per_entry ≤ 0.7× plyvel's", "scan_per_entry", "plyvel",
     "scan_per_entry", 0.7),
    ("`view` get_present, both mapped and verifying checksums, ≤ 0.8× "
     "plyvel's", "get_present_mmap_verified", "plyvel",
     "get_present_verified", 0.8),
    ("`view` scan_per_entry, both mapped and verifying checksums, ≤ 0.7× "
     "plyvel's", "scan_per_entry_mmap_verified", "plyvel",
     "scan_per_entry_verified", 0.7),
    ("`view` Arrow export per entry ≤ 1.2× the C++ view's full scan",
     "arrow_per_entry", "view", "cpp_scan_per_entry", 1.2),
    ("`view` Arrow export per entry ≤ 0.6× plyvel building a list of pairs",
     "arrow_per_entry", "plyvel", "list_per_entry", 0.6),
]


def view_settings_text(report):
    """How the `view` row opened the database (bench_python.py's
    view_settings), and its other settings' figures."""
    settings = report.get("view_settings")
    if not settings:
        return "Database.open's defaults (pread, checksums verified)"
    mapped = "mapped" if settings.get("mmap") else "pread"
    verified = ("checksums verified" if settings.get("verify_checksums")
                else "checksums not verified")
    return (f"`{', '.join(f'{k}={v}' for k, v in settings.items())}` "
            f"({mapped}, {verified}: plyvel's reading settings, as LevelDB "
            "maps its tables and does not verify by default); its "
            "`_mmap_verified` figures open it mapped and verifying, against "
            "plyvel's `_verified` ones (`verify_checksums=True`), and its "
            "`_defaults` figures with Database.open's defaults (pread, "
            "verified)")


def python_profiles(profile, report, workload, plyvel_workload=None):
    """profile.json's Python profiles of the view on `workload` and plyvel
    on `plyvel_workload` (by default the same; bench/profile_python.py's),
    where it was taken at python.json's commit: (the view's, plyvel's), or
    None."""
    if not same_commit(profile, report):
        return None
    view = matching(profile, level="python", engine="view",
                    workload=workload)
    plyvel = matching(profile, level="python", engine="plyvel",
                      workload=plyvel_workload or workload)
    if not view or not plyvel:
        return None
    return view[0], plyvel[0]


def view_goals(report, profile=None):
    """Rows of the view's and the package's goals: timings decided by the
    noise rule on their runs; the memory and the Dask speed-up from
    bench_python.py's figures. A missed goal against plyvel is explained
    from the profiles of both sides on its settings, where taken."""
    summary = report.get("medians", {})
    rows = []
    for goal, metric, base_engine, base_metric, limit in VIEW_GOALS:
        mine = median(summary, "view", metric)
        base = median(summary, base_engine, base_metric)
        decision = None if mine is None or not base else decide_ratio(
            runs_of(summary["view"], metric),
            runs_of(summary[base_engine], base_metric), limit)
        sides = (python_profiles(profile, report, metric, base_metric)
                 if base_engine == "plyvel" and decision != MET else None)
        rows.append([goal, "-" if decision is None else f"{mine / base:.2f}×",
                     verdict(decision),
                     sides_text(*sides, "per call" if "get" in metric else
                                "per entry") if sides else ""])
    memory = (report.get("arrow_memory") or {}).get("ratio_to_table") or {}
    if memory.get("max") is not None:
        rows.append(["peak memory of the Arrow export ≤ 1.5× the table's "
                     "own size", f"{memory['median']:.2f}× (at most "
                     f"{memory['max']:.2f}×)",
                     verdict(MET if memory["max"] <= 1.5 else MISSED)])
    seconds = ((report.get("dask") or {}).get("seconds") or {})
    if "1" in seconds and "2" in seconds:
        one, two = seconds["1"], seconds["2"]
        # 2 workers at least 1.5× faster: their time ≤ 1/1.5 of 1 worker's.
        decision = decide_ratio(runs_of(seconds, "2"), runs_of(seconds, "1"),
                                1 / 1.5)
        rows.append([f"Dask reduction over {report['dask'].get('keys', 0):,} "
                     "keys: 2 worker processes ≥ 1.5× faster than 1",
                     f"{one['median'] / two['median']:.2f}× (least "
                     f"{one['min'] / two['max']:.2f}×)", verdict(decision)])
    for key, name in (("versions_memory_mib", "`versions()`"),
                      ("jsonl_memory_mib", "the tool's `--jsonl`")):
        goal = (report.get("goals") or {}).get(key)
        if goal:
            rows.append([f"{name} holds ≤ {goal['goal']:g} MiB",
                         f"{goal['ratio']:.1f} MiB ({goal['against']})",
                         verdict(MET if goal["ratio"] <= goal["goal"]
                                 else MISSED)])
    for row in rows:
        row += [""] * (4 - len(row))
    return table(["goal (the view and the package, from Python)", "measured",
                  "status", "what the profiles show (missed goals)"], rows)


def profiles_text(profile, report):
    """The Python profiles side by side, where profile.json was taken at
    python.json's commit."""
    block = profiles_block(
        profile, report, matching(profile, level="python"),
        "the Python calls",
        "Where the time goes (`bench/profile.py`: one Debian `python3` "
        "process per call, repeating it on a directory plyvel wrote with "
        "these settings, under `perf record -e cpu-clock`):",
        ["profile", "ns per call or entry under perf", "samples"],
        lambda p: [f"*{p['name']}*", f"{p['ns_per_call_under_perf']:.0f}",
                   f"{p['samples']:,}"],
        lambda p: p["name"])
    return [""] + block if block else []


def leveldb_text(leveldb):
    """Which LevelDB a plyvel ran on (bench_python.py's plyvel_leveldb
    record), and whether it was built with NDEBUG."""
    if not leveldb:
        return " (which LevelDB it ran on was not recorded)"
    asserts = leveldb.get("assert_fail_call_sites")
    build = ("" if asserts is None else
             ", built with NDEBUG (no assert call sites)" if asserts == 0 else
             f", built without NDEBUG ({asserts} assert call sites)")
    return (f", on LevelDB {leveldb.get('version', '?')} "
            f"(`{leveldb.get('library', '?')}`, "
            f"{leveldb.get('origin', 'origin not recorded')}{build})")


def peers_text(summary):
    """Which plyvel the goals are decided against, and how the other one
    compares, from the medians."""
    if "plyvel" not in summary or "plyvel_pypi" not in summary:
        return ("The goals are decided against `plyvel`: no other plyvel "
                "was measured.")
    pairs = [(metric, median(summary, "plyvel_pypi", metric),
              median(summary, "plyvel", metric)) for metric, _ in COLUMNS]
    pairs = [p for p in pairs if p[1] is not None and p[2] is not None]
    slower = [metric for metric, pypi, debian in pairs if pypi > debian]
    faster = [metric for metric, pypi, debian in pairs if pypi <= debian]
    return ("The goals are decided against `plyvel`, Debian's, on the very "
            "directory the view reads; none against `plyvel_pypi`" +
            (f"; its medians are slower than `plyvel`'s on "
             f"{', '.join(slower)}" if slower else "") +
            (f" and faster on {', '.join(faster)}" if slower and faster else
             f"; its medians are faster on {', '.join(faster)}" if faster
             else "") +
            " (why the two builds differ was not measured).")


def cell(row, metric):
    value = (row or {}).get(metric)
    if not value:
        return "-"
    digits = 2 if metric == "build_seconds" else 0
    return (f"{value['median']:.{digits}f} ({value['min']:.{digits}f}–"
            f"{value['max']:.{digits}f})")


def median(summary, engine, metric):
    return ((summary.get(engine) or {}).get(metric) or {}).get("median")


def python_section(report, profile=None):
    if report is None:
        return "No committed run (bench/results/python.json)."
    summary = report.get("medians", {})
    params = report.get("parameters", {})
    out = [
        f"{params.get('keys', 0):,} keys of 16 bytes, "
        f"{params.get('value_size', '?')}-byte values, "
        f"{params.get('lookups', 0):,} lookups per operation, a block cache "
        f"of {params.get('cache_mb', '?')} MiB per engine; medians of "
        f"{params.get('repeats', '?')} runs (range), the engines' order "
        f"reversed every other run; Python {report.get('python', '?')}, "
        f"plyvel {report.get('plyvel') or 'absent'}. Each figure is one call "
        "from Python: its time includes the interpreter's call and the "
        "binding. Rows: `bloom_per_block` and `ribbon_whole_table` are "
        "bloomtable.Table on a table written by build_table (LevelDB's Bloom "
        "per block; Ribbon whole-table with index restart interval 16), read "
        "with pread, Table.open's default, while plyvel's LevelDB maps its "
        "table files (its default Env): a present key's block read is a "
        "pread system call on our side and a memory copy on plyvel's (at "
        "table level in C++ the mmap rows above show what mapping buys); "
        "`view` is bloomtable.Database, the read-only view, on the very "
        "directory plyvel wrote and compacted, opened with "
        f"{view_settings_text(report)}; `plyvel` is Python's LevelDB "
        "binding on that directory" +
        leveldb_text(report.get("plyvel_leveldb")) +
        (f"; `plyvel_pypi` is plyvel {report['plyvel_pypi']} as pip installs "
         "it, in a process of its own, on a directory of the same entries "
         "that it wrote and compacted itself" +
         leveldb_text(report.get("plyvel_pypi_leveldb"))
         if report.get("plyvel_pypi") else "") + ".",
        "",
        peers_text(summary),
        "",
    ]
    rows = []
    for engine in summary:
        rows.append([f"`{engine}`"] +
                    [cell(summary[engine], metric) for metric, _ in COLUMNS])
    out.append(table(["engine"] + [name for _, name in COLUMNS], rows))
    out.append("")
    overhead = [
        f"`{engine}` {median(summary, engine, 'get_absent') - c:.0f} ns"
        for engine in summary
        for c in [median(summary, engine, "cpp_get_absent")]
        if c is not None and median(summary, engine, "get_absent") is not None
    ]
    if overhead:
        out.append("The binding's cost per call (an absent-key `get` from "
                   "Python minus the same lookups by C++ `Table::Get` in a "
                   "loop): " + ", ".join(overhead) + ".")
        out.append("")
    goal_rows = []
    for engine in summary:
        if engine in PEERS or engine == "view":
            continue
        for metric, (against, limit) in GOALS.items():
            base_engine, base_metric = (("plyvel", metric)
                                        if against == "plyvel" else
                                        (engine, against))
            mine = median(summary, engine, metric)
            base = median(summary, base_engine, base_metric)
            goal = (f"`{engine}` {metric} ≤ {limit}× plyvel's"
                    if against == "plyvel" else
                    f"`{engine}` {metric} ≤ {limit}× a loop of get on the "
                    "same keys")
            decision = None if mine is None or not base else decide_ratio(
                runs_of(summary[engine], metric),
                runs_of(summary[base_engine], base_metric), limit)
            measured = "-" if decision is None else f"{mine / base:.2f}×"
            goal_rows.append([goal, measured, verdict(decision)])
    out.append(table(["goal (from Python)", "ratio of medians", "status"],
                     goal_rows))
    behind = [row[0] for row in goal_rows
              if row[2] not in (verdict(MET), verdict(None))]
    if behind:
        out.append("")
        out.append("Where the goal is not met the peer or the loop is ahead "
                   "or within the runs' noise: " + "; ".join(behind) + ".")
    out += ["", view_goals(report, profile)]
    out += profiles_text(profile, report)
    return "\n".join(out)
