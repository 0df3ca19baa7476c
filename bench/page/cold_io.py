"""Cold lookups: MultiGet against the device (cold_io.json, warm_io.json,
cold_bench): the device's raw rates, every row beside its floor, and the
cold and warm goals."""

from page.common import (cross_verdict, decide, decide_ratio, median,
                         peer_provenance, runs_of, summary_text, table,
                         verdict)
from page.explain import profiles_block, same_commit
from page.profiles import matching, sides_text

# cold_bench's headline MultiGet batch (the cold goals' MultiGet(32)).
COLD_BATCH = 32


# cold_bench's engines in the order shown: bloomtable's table and RocksDB's
# (TableReader) at table level, bloomtable's read-only view of a LevelDB
# directory and RocksDB's database at db level ("rocksdb" in JSON taken
# before cold_bench named each engine's level).
VIEWS = ("bloomtable_db+sidecars", "bloomtable_db")
ENGINES = ("bloomtable", "rocksdb_table") + VIEWS + ("rocksdb_readonly",
                                                     "rocksdb")
# The view's MultiGet of a batch against its own loop of Get, per key.
VIEW_LOOP_LIMIT = 0.7


def level_of(row):
    return row.get("level") or (
        "db" if row.get("engine") in VIEWS + ("rocksdb_readonly", "rocksdb")
        else "table")


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


def raw_runs(report, depth):
    """(slowest, fastest) raw 4 KiB direct reads per second at `depth`."""
    for r in (report or {}).get("raw_4k_direct_reads", []):
        if r.get("queue_depth") == depth:
            return runs_of(r, "reads_per_second")
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

def profiles_text(profile, report, shown):
    """cold_bench's profiles at `report`'s size side by side, where
    profile.json was taken at its commit, less those `shown` under an
    earlier run of the same size (whose names it gains)."""
    found = [p for p in matching(profile, tool="cold_bench",
                                 num=(report or {}).get("num"))
             if p["name"] not in shown]
    shown.update(p["name"] for p in found)
    block = profiles_block(
        profile, report, found, "these calls",
        "Where the time goes (`bench/profile.py`: one cold_bench process "
        "per call on these files, `perf record -e cpu-clock` over the whole "
        "process, its read threads and the kernel's io_uring work "
        "included; the run's keys in timed passes enough to last the "
        "profile, a warm row's untimed pass first; CPU per key counts the "
        "process's samples over every key it looked up, its setup "
        "included):",
        ["profile", "keys × timed passes", "samples", "CPU µs per key",
         "µs per key (this run)", "device reads per key"],
        lambda p: [f"*{p['name']}*", f"{p['reads']:,} × {p.get('passes', 1)}",
                   f"{p['samples']:,}", f"{p['cpu_micros_per_key']:.3f}",
                   summary_text(p.get("micros_per_key"), 2),
                   summary_text(p.get("device_reads_per_key"), 4)],
        lambda p: p["name"])
    return block + [""] if block else []


def cold_io_section(cold_io, warm_io, profile=None):
    out = []
    shown = set()
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
        for engine in ENGINES:
            e = engines.get(engine)
            if not isinstance(e, dict):
                continue
            stored_bits = e.get("stored_filter_bits_per_key")
            facts.append(f"- {engine} ({e.get('level') or level_of({'engine': engine})}"
                         f" level{', `' + e['call'] + '`' if e.get('call') else ''}): "
                         f"{e.get('filter', '?')}, storing "
                         f"{'-' if stored_bits is None else f'{stored_bits:.3f}'}"
                         f" filter bits per key (setting "
                         f"{e.get('bits_per_key_setting', '?')}); cold: "
                         f"{e.get('cold', '?')}; warm: {e.get('warm', '?')}.")
        rocksdb = next((engines[e] for e in ENGINES
                        if e.startswith("rocksdb") and
                        isinstance(engines.get(e), dict)), {})
        options = rocksdb.get("multiget_read_options")
        if isinstance(options, dict):
            facts.append(f"- RocksDB's MultiGet: `async_io="
                         f"{str(options.get('async_io')).lower()}`, "
                         "`optimize_multiget_for_io="
                         f"{str(options.get('optimize_multiget_for_io')).lower()}`"
                         f" ({options.get('set', '?')}): {options.get('why', '')}.")
        uring = rocksdb.get("io_uring")
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
                for engine in ENGINES:
                    for r in cold_rows(report, mode, engine):
                        if r.get("benchmark") != benchmark:
                            continue
                        rate = keys_per_second(r)
                        row = [benchmark, level_of(r), engine, call_name(r),
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
            header = ["benchmark", "level", "engine", "call",
                      f"{mode} µs/key (range)",
                      "keys/s", "device reads/key (range)"]
            if mode == "cold":
                header += ["floor: raw reads/s", "keys/s of floor"]
            out.append(table(header, rows))
            out.append("")
        out += profiles_text(profile, report, shown)
    return "\n".join(out).rstrip("\n")


def ratio_text(a, b):
    return (f"{summary_text(a.get('micros_per_key'), 2)} / "
            f"{summary_text(b.get('micros_per_key'), 2)} µs = "
            f"{median(a, 'micros_per_key') / median(b, 'micros_per_key'):.2f}×")


def view_of(report):
    """The view engine of a cold_bench run (with sidecars if it has them),
    or None."""
    return next((v for v in VIEWS if cold_rows(report, "cold", v) or
                 cold_rows(report, "warm", v)), None)


def profiled(profile, report, mode, engine, benchmark, call):
    """profile.json's cold_bench profile of one call at `report`'s size,
    where it was taken at `report`'s commit, or None."""
    if report is None or not same_commit(profile, report):
        return None
    return next(iter(matching(profile, tool="cold_bench", mode=mode,
                              engine=engine, workload=benchmark, call=call,
                              num=report.get("num"))), None)


def profile_note(profile, report, mode, benchmark, mine, theirs):
    """A missed goal's note from cold_bench's profiles of its two sides
    ((engine, call) each): CPU time per key under perf and where it
    differs, and the device reads per key of the profiled runs."""
    found = [profiled(profile, report, mode, engine, benchmark, call)
             for engine, call in (mine, theirs)]
    if None in found:
        return ""
    reads = [median(p, "device_reads_per_key") for p in found]
    return sides_text(*found, "of CPU per key") + (
        "" if mode != "cold" or None in reads else
        f"; device reads per key {reads[0]:.4f} against {reads[1]:.4f}")


def view_goals(mode, report, batch, name, profile=None):
    """The database-level goals of one mode of one run: the view's
    MultiGet(batch) against RocksDB's DB::MultiGet(batch), and against the
    view's own loop of Get, on present and absent keys; a missed goal's
    notes from the profiles of its sides."""
    view = view_of(report)
    rows = []
    for benchmark in ("readrandom", "readmissing"):
        against_rocksdb = (f"{mode} `{benchmark}` ({name}), db level: the "
                           f"view's MultiGet({batch}) ≤ 0.8× RocksDB's "
                           f"DB::MultiGet({batch}) per key")
        against_loop = (f"{mode} `{benchmark}` ({name}), db level: the "
                        f"view's MultiGet({batch}) ≤ {VIEW_LOOP_LIMIT}× a "
                        "loop of its Get per key")
        if report is None or view is None:
            why = (f"no committed run ({name})" if report is None else
                   "no db-level bloomtable row (bloomtable_db: "
                   "Database::MultiGet)")
            rows.append([against_rocksdb, why, verdict(None), ""])
            if benchmark == "readrandom":
                rows.append([against_loop, why, verdict(None), ""])
            continue
        ours = cold_row(report, mode, view, benchmark, batch)
        loop = cold_row(report, mode, view, benchmark, 0)
        theirs = cold_row(report, mode, "rocksdb_readonly", benchmark, batch)
        if ours is None or theirs is None:
            rows.append([against_rocksdb, "no row", verdict(None), ""])
        else:
            rows.append([against_rocksdb.replace("the view's",
                                                 f"{view}'s"),
                         ratio_text(ours, theirs),
                         cross_verdict(decide_ratio(
                             runs_of(ours, "micros_per_key"),
                             runs_of(theirs, "micros_per_key"), 0.8),
                             peer_provenance(report)),
                         profile_note(profile, report, mode, benchmark,
                                      (view, "MultiGet"),
                                      ("rocksdb_readonly", "MultiGet"))])
        if benchmark != "readrandom":
            continue  # the loop goal is about present keys
        if ours is None or loop is None:
            rows.append([against_loop, "no row", verdict(None), ""])
        else:
            rows.append([against_loop.replace("the view's", f"{view}'s"),
                         ratio_text(ours, loop),
                         verdict(decide_ratio(
                             runs_of(ours, "micros_per_key"),
                             runs_of(loop, "micros_per_key"),
                             VIEW_LOOP_LIMIT)),
                         profile_note(profile, report, mode, benchmark,
                                      (view, "MultiGet"), (view, "Get"))])
    return rows


def cold_io_goals(cold_io, warm_io, profile=None):
    """The cold and warm MultiGet goals, from cold_bench's medians: each
    bloomtable row against the device's raw rate of the same run, against
    RocksDB's MultiGet, or against bloomtable's own Get; the database-level
    ones explained from profile.json's cold_bench profiles."""
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
                     verdict(decide_ratio(
                         runs_of(row, "keys_per_second"),
                         raw_runs(cold_io, COLD_BATCH), 0.7,
                         higher_is_better=True)), ""])
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
        raw = raw_runs(cold_io, 1)
        rows.append([goal, f"{summary_text(row['micros_per_key'], 2)} / "
                     f"{1e6 / floor:.2f} µs = {ratio:.2f}×",
                     verdict(decide_ratio(runs_of(row, "micros_per_key"),
                                          (1e6 / raw[1], 1e6 / raw[0]), 1.2)),
                     ""])
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
                     verdict(decide(runs_of(worst, "device_reads_per_key"),
                                    (0.02, 0.02))), ""])
    # bloomtable's MultiGet against RocksDB's at one level, cold and warm:
    # at table level TableReader::MultiGet; at db level the view's MultiGet
    # against DB::MultiGet, once the view has one.
    sources = [("cold", cold_io, COLD_BATCH, "cold_io.json")]
    for name, report in (("cold_io.json", cold_io),
                         ("warm_io.json", warm_io)):
        sources.append(("warm", report, (report or {}).get("warm_batch",
                                                           COLD_BATCH), name))
    for mode, report, batch, name in sources:
        if report is None and mode == "warm" and name == "cold_io.json":
            continue
        if report is not None and mode == "warm" and \
                not cold_rows(report, "warm", "bloomtable"):
            continue  # this file has no warm rows
        for benchmark in ("readrandom", "readmissing"):
            keys = "" if report is None else \
                f", {report.get('num', 0):,} keys"
            goal = (f"{mode} `{benchmark}` ({name}{keys}), table level: "
                    f"bloomtable MultiGet({batch}) ≤ 0.8× RocksDB's "
                    f"TableReader::MultiGet({batch}) per key")
            ours = cold_row(report, mode, "bloomtable", benchmark, batch)
            theirs = cold_row(report, mode, "rocksdb_table", benchmark, batch)
            if report is None or ours is None or theirs is None:
                rows.append([goal, f"no committed run ({name})"
                             if report is None else
                             "no table-level RocksDB row (rocksdb_table: "
                             "TableReader::MultiGet)", verdict(None), ""])
                continue
            ratio = median(ours, "micros_per_key") / \
                median(theirs, "micros_per_key")
            note = ""
            floor = raw_rate(report, batch) if mode == "cold" else None
            target = 0.8 * median(theirs, "micros_per_key")
            if ratio > 0.8 and floor and target < 1e6 / floor:
                note = (f"0.8× RocksDB's is {target:.2f} µs per key, below "
                        f"the device's own {1e6 / floor:.2f} µs per 4 KiB "
                        f"read at queue depth {batch} in the same run; "
                        "device reads per key: "
                        f"{median(ours, 'device_reads_per_key'):.2f} and "
                        f"{median(theirs, 'device_reads_per_key'):.2f}")
            rows.append([goal, ratio_text(ours, theirs),
                         cross_verdict(decide_ratio(
                             runs_of(ours, "micros_per_key"),
                             runs_of(theirs, "micros_per_key"), 0.8),
                             peer_provenance(report)), note])
        rows += view_goals(mode, report, batch, name, profile)
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
            rows.append([goal.replace("MultiGet", f"MultiGet({batch})"),
                         ratio_text(multi, get),
                         verdict(decide_ratio(runs_of(multi, "micros_per_key"),
                                              runs_of(get, "micros_per_key"),
                                              0.5)), ""])
    return rows
