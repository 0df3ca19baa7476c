"""The "Database level: the read-only view" section of BENCHMARKS.md, from
db.json and db_compacted.json: bloomtable's read-only Database view
without and with sidecar filters (bloomtable_db, bloomtable_db+sidecars)
beside a leveldb::DB on a copy of the same LevelDB-written directory
(leveldb_dir) and RocksDB opened read-only (rocksdb_readonly, Bloom and
Ribbon),
and the database-level profiles of profile.json side by side, with the
biggest differences behind each goal missed."""

from page.common import (MET, all_of, configs, cross_verdict, decide,
                         decide_ratio, peer_provenance, results_of, runs_of,
                         stored, table, verdict, with_range)
from page.explain import same_commit, short
from page.profiles import category_gaps, category_shares, side_by_side

VIEW = "bloomtable_db"
SIDECARS = "bloomtable_db+sidecars"
LEVELDB = "leveldb_dir"
ROCKSDB = "rocksdb_readonly"
ENGINES = (VIEW, SIDECARS, LEVELDB, ROCKSDB)
# The rows of the results table: (label, engine, filter or None for the
# engine's first row with a filter).
ROWS = [(VIEW, VIEW, None), (SIDECARS, SIDECARS, None),
        (LEVELDB, LEVELDB, None),
        (f"{ROCKSDB} bloom", ROCKSDB, "rocksdb_bloom"),
        (f"{ROCKSDB} ribbon", ROCKSDB, "rocksdb_ribbon")]
WORKLOADS = ("readrandom", "readmissing", "readnearmiss", "readunrelated",
             "seekrandom", "readseq")
ABSENT = ("readmissing", "readnearmiss", "readunrelated")
# (goal, workloads, peer, limit): the view's median over the peer's, per
# I/O path.
RATIO_GOALS = [
    ("absent-key Get ≤ 0.5× leveldb_dir", ABSENT, LEVELDB, 0.5),
    ("present-key Get ≤ 0.8× leveldb_dir", ("readrandom",), LEVELDB, 0.8),
    ("full scan ≤ 0.7× leveldb_dir per entry", ("readseq",), LEVELDB, 0.7),
    ("Seek + 16 Next ≤ 0.8× leveldb_dir", ("seekrandom",), LEVELDB, 0.8),
    ("absent-key Get ≤ 1.0× rocksdb_readonly", ABSENT, ROCKSDB, 1.0),
]
# The sidecars' goals: (goal, workloads, peer engine, peer filter, limit on
# the as-written layout, limit on the compacted one).
SIDECAR_GOALS = [
    ("absent-key Get with sidecars ≤ 0.25× leveldb_dir", ABSENT, LEVELDB,
     None, 0.25, 0.25),
    ("absent-key Get with sidecars ≤ 1.0× (compacted: 0.5×) rocksdb_readonly "
     "bloom", ABSENT, ROCKSDB, "rocksdb_bloom", 1.0, 0.5),
    ("absent-key Get with sidecars ≤ 1.0× (compacted: 0.5×) rocksdb_readonly "
     "ribbon", ABSENT, ROCKSDB, "rocksdb_ribbon", 1.0, 0.5),
]
# Building sidecars: keys per second on one thread, and the 2-thread
# speed-up.
BUILD_KEYS_PER_SECOND = 2_000_000
BUILD_SPEEDUP = 1.6
NOT_MEASURED = "Not measured: no committed run (bench/results/db.json)."


def row_of(db, engine, io, filter_name=None):
    """The engine's configuration with a filter (this one, if named) at
    this I/O path."""
    for config in configs(db, level="db", io=io):
        if config["engine"] != engine or config.get("filter") == "none":
            continue
        if filter_name is None or config.get("filter") == filter_name:
            return config
    return None


def io_paths(db):
    paths = []
    for config in configs(db, level="db"):
        if config["io"] not in paths:
            paths.append(config["io"])
    return paths


def ratio(db, workload, io, peer, mine_engine=VIEW, peer_filter=None):
    """The view's (or `mine_engine`'s) median micros/op over the peer's, or
    None."""
    mine = row_of(db, mine_engine, io)
    theirs = row_of(db, peer, io, peer_filter)
    if mine is None or theirs is None:
        return None
    a = results_of(mine, workload)
    b = results_of(theirs, workload)
    if a is None or b is None or not b.get("micros_per_op"):
        return None
    return a["micros_per_op"] / b["micros_per_op"]


def decision(db, workloads, io, peer, limit, mine_engine=VIEW,
             peer_filter=None):
    """The noise rule's decision on the view (or `mine_engine`) ≤ limit ×
    the peer on every workload (None where a row is missing)."""
    parts = []
    for workload in workloads:
        a = results_of(row_of(db, mine_engine, io) or {}, workload)
        b = results_of(row_of(db, peer, io, peer_filter) or {}, workload)
        parts.append(None if a is None or b is None else
                     decide_ratio(runs_of(a), runs_of(b), limit))
    return all_of(*parts) if parts else None


def medians(db, workload, io, peer, mine_engine=VIEW, peer_filter=None):
    """'a / b µs': the view's and the peer's medians, without their ratio
    (peers that are not release builds)."""
    a = results_of(row_of(db, mine_engine, io), workload)
    b = results_of(row_of(db, peer, io, peer_filter), workload)
    return f"{a['micros_per_op']:.3f} / {b['micros_per_op']:.3f} µs"


def files(result, unchanged="{} (unchanged)",
          changed="{} → {}"):
    """The files per level a run met, and what it left."""
    if result is None:
        return "-"
    before, after = result.get("files_before"), result.get("files_after")
    if before is None and after is None:
        return "not recorded"
    if before == after:
        return unchanged.format(before or "?")
    return changed.format(before or "?", after or "?")


def ratio_cell(value, provenance):
    if value is None:
        return "-"
    if provenance[0] is not True:
        return "not a result"
    return f"{value:.2f}×"


def engines_text(db, engines=ENGINES):
    """What each row calls, from db.json."""
    lines = []
    for engine in engines:
        found = [c for c in configs(db) if c["engine"] == engine]
        if not found:
            lines.append(f"- `{engine}`: no rows in db.json.")
            continue
        call = found[0].get("call") or "call not recorded"
        filters = []
        for config in found:
            text = (f"{config['filter']} at {stored(config)} stored "
                    "bits/key")
            if text not in filters:
                filters.append(text)
        lines.append(f"- `{engine}`: `{call}`; filter "
                     f"{', '.join(filters)}.")
    return "\n".join(lines)


def build_goal(db):
    """[(goal, measured, ok)]: the sidecars' build after each fill (the
    memory recorded with the first read after it, medians of the runs),
    decided on the slowest runs."""
    config = row_of(db, SIDECARS, "pread") if db is not None else None
    read = results_of(config, "readrandom") if config else None
    memory = (read or {}).get("memory") or {}
    keys = memory.get("sidecar_keys")
    one = memory.get("sidecar_build_micros_1_thread")
    two = memory.get("sidecar_build_micros_2_threads")
    name = (f"building sidecars ≥ {BUILD_KEYS_PER_SECOND:,} keys/s on 1 "
            f"thread, ≥ {BUILD_SPEEDUP}× that on 2")
    if not keys or not one or not two:
        return [(name, "no sidecar build recorded", None)]
    one_range = memory.get("sidecar_build_micros_1_thread_range") or [one,
                                                                      one]
    two_range = memory.get("sidecar_build_micros_2_threads_range") or [two,
                                                                      two]
    rate = keys / one * 1e6
    slowest_rate = keys / one_range[1] * 1e6
    speedup = one / two
    # The speed-up at its least and most likely: the fastest single thread
    # against the slowest pair, and the other way round.
    least_speedup = one_range[0] / two_range[1]
    most_speedup = one_range[1] / two_range[0]
    ok = all_of(
        decide((keys / one_range[1] * 1e6, keys / one_range[0] * 1e6),
               (BUILD_KEYS_PER_SECOND, BUILD_KEYS_PER_SECOND),
               higher_is_better=True),
        decide((least_speedup, most_speedup), (BUILD_SPEEDUP, BUILD_SPEEDUP),
               higher_is_better=True))
    return [(name, f"{keys:,} keys: {rate / 1e6:.2f}M keys/s on 1 thread "
                   f"(slowest run {slowest_rate / 1e6:.2f}M), {speedup:.2f}× "
                   f"on 2 (at least {least_speedup:.2f}×)", ok)]


def opening_goal(db):
    """(ok, text): the view's table-file and data-block reads between
    OpenReadOnly and its first lookup, at every open recorded."""
    reads = []
    for config in configs(db, level="db"):
        if config["engine"] != VIEW:
            continue
        for result in config.get("results", []):
            memory = result.get("memory") or {}
            blocks = memory.get("open_data_block_reads")
            file_reads = memory.get("open_file_reads")
            if blocks is not None and file_reads is not None:
                reads.append((blocks, file_reads))
    if not reads:
        return None, "no open recorded"
    blocks = max(b for b, _ in reads)
    file_reads = max(f for _, f in reads)
    return blocks == 0, (f"at most {blocks} data-block reads and {file_reads} "
                         f"table-file reads between Database::OpenReadOnly "
                         f"and the first lookup, over {len(reads)} results")


def goals(db, peers=(LEVELDB, ROCKSDB), compacted=False,
          ratio_goals_only=False):
    """The goals decided on one run. `ratio_goals_only`: only the view's
    ratio goals whose workloads the run measured (the runs with checksums
    verified on neither side)."""
    rows = []
    provenance = peer_provenance(db)
    for name, workloads, peer, limit in RATIO_GOALS:
        if peer not in peers:
            continue
        for io in (io_paths(db) if db is not None else ["pread"]):
            ratios = [(w, ratio(db, w, io, peer)) if db is not None
                      else (w, None) for w in workloads]
            if ratio_goals_only and all(r is None for _, r in ratios):
                continue
            ok = None if db is None else decision(db, workloads, io, peer,
                                                  limit)
            if provenance[0] is True:
                measured = "; ".join(f"{w} {r:.2f}×" for w, r in ratios
                                     if r is not None)
            else:
                measured = "; ".join(
                    f"{w} {medians(db, w, io, peer)}"
                    for w, r in ratios if r is not None)
            measured = measured or "no rows"
            rows.append([f"{name} ({io})", measured,
                         cross_verdict(ok, provenance)])
    if ratio_goals_only:
        return table(["goal", "measured", "status"], rows)
    for name, workloads, peer, peer_filter, limit, compacted_limit in \
            SIDECAR_GOALS:
        if peer not in peers:
            continue
        limit = compacted_limit if compacted else limit
        for io in (io_paths(db) if db is not None else ["pread"]):
            ratios = [(w, ratio(db, w, io, peer, SIDECARS, peer_filter)
                       if db is not None else None) for w in workloads]
            ok = None if db is None else decision(
                db, workloads, io, peer, limit, SIDECARS, peer_filter)
            measured = "; ".join(f"{w} {r:.2f}×" for w, r in ratios
                                 if r is not None) or "no rows"
            rows.append([f"{name} ({io})", measured,
                         cross_verdict(ok, provenance)])
    for name, measured, ok in build_goal(db):
        rows.append([name, measured, verdict(ok)])
    ok, text = opening_goal(db) if db is not None else (None, "no run")
    rows.append(["opening the database reads no data block", text,
                 verdict(ok)])
    return table(["goal", "measured", "status"], rows)


def results_table(db, engines):
    """One row per workload and I/O path: each engine's median (range), the
    view's and the sidecars' ratios to the peers among `engines`, the
    files each met."""
    provenance = peer_provenance(db)
    rows_shown = [r for r in ROWS if r[1] in engines and
                  any(row_of(db, r[1], io, r[2]) for io in io_paths(db))]
    mine = [e for e in (VIEW, SIDECARS) if e in engines]
    peers = [r for r in rows_shown if r[1] not in mine]
    header = (["benchmark", "io"] + [f"{r[0]} µs" for r in rows_shown] +
              [f"{m} / {p[0]}" for m in mine for p in peers] +
              [f"{r[0]} files before → after" for r in rows_shown
               if r[2] != "rocksdb_ribbon"])
    rows = []
    for workload in WORKLOADS:
        for io in io_paths(db):
            results = [results_of(row_of(db, r[1], io, r[2]) or {}, workload)
                       for r in rows_shown]
            if all(r is None for r in results):
                continue
            rows.append(
                [workload, io] +
                [with_range(r) if r else "-" for r in results] +
                [ratio_cell(ratio(db, workload, io, p[1], m, p[2]),
                            provenance) for m in mine for p in peers] +
                [files(r) for r, spec in zip(results, rows_shown)
                 if spec[2] != "rocksdb_ribbon"])
    return table(header, rows)


COMPACTED_HEADING = ("#### The same layout on both sides "
                     "(`--leveldb_source=compacted`)")
COMPACTED_TEXT = (
    "The directory above is not one layout for long: `leveldb_dir` compacts "
    "its copy on open (it is measured once those compactions are done) and "
    "on lookups that probe files in vain, the view reads what LevelDB "
    "wrote. `db_compacted.json` (`run db_compacted`) gives every reader the "
    "same files throughout: LevelDB Put every key, then compacted them "
    "into one level with `CompactRange`, which leaves its live log empty; "
    "no reader changes that layout (the files per level below say so). "
    "The goals are decided again on it.")


def checksums(run):
    """The checksum setting of every row of a run (db_bench
    --verify_checksum, the same on every engine)."""
    verify = (run or {}).get("settings", {}).get("verify_checksum")
    if verify is None:
        return "checksum setting not recorded"
    return ("data-block checksums verified on every side "
            "(`--verify_checksum=true`)" if verify else
            "data-block checksums verified on no side "
            "(`--verify_checksum=false`)")


def compacted_part(compacted):
    out = ["", COMPACTED_HEADING, "", COMPACTED_TEXT, ""]
    if compacted is None:
        return out + ["Not measured: no committed run "
                      "(bench/results/db_compacted.json)."]
    engines = [e for e in ENGINES
               if any(c["engine"] == e for c in configs(compacted))]
    out += [f"Every row: {checksums(compacted)}.", "",
            engines_text(compacted, engines), "",
            results_table(compacted, engines), "",
            goals(compacted, peers=tuple(engines), compacted=True)]
    return out


UNVERIFIED_HEADING = "#### Checksums verified on no side"
UNVERIFIED_TEXT = (
    "The view's present-key, scan and seek goals again with no side "
    "verifying data-block checksums (`run db_unverified` and `run "
    "db_compacted_unverified`: the view and `leveldb_dir` on the same two "
    "layouts as above).")


def unverified_part(runs):
    """The runs with checksums verified on no side, one per layout:
    [(layout, file name, run or None)]."""
    out = ["", UNVERIFIED_HEADING, "", UNVERIFIED_TEXT]
    for layout, name, run in runs:
        out += ["", f"**{layout}** (`{name}`)", ""]
        if run is None:
            out.append(f"Not measured: no committed run "
                       f"(bench/results/{name}).")
            continue
        engines = [e for e in ENGINES
                   if any(c["engine"] == e for c in configs(run))]
        out += [f"Every row: {checksums(run)}.", "",
                engines_text(run, engines), "", results_table(run, engines),
                "", goals(run, peers=tuple(engines),
                          compacted=layout != "as written",
                          ratio_goals_only=True)]
    return out


def db_section(db, profile=None, compacted=None, unverified=None,
               compacted_unverified=None):
    if db is None:
        return NOT_MEASURED + "\n\n" + goals(None)
    provenance = peer_provenance(db)
    settings = db.get("settings", {})
    budget = ", ".join(f"{b:g}" for b in settings.get("stored_bits") or [])
    out = [f"{settings.get('num', 0):,} keys, stored filter budget "
           f"{budget or '?'} bits/key; µs per op, median (range); every "
           f"row: {checksums(db)}. Rows:", "",
           engines_text(db), "",
           f"Peers: {provenance[1]}.", ""]
    out += [results_table(db, ENGINES), "", goals(db)]
    out += compacted_part(compacted)
    out += unverified_part(
        [("as written", "db_unverified.json", unverified),
         ("compacted", "db_compacted_unverified.json",
          compacted_unverified)])
    return "\n".join(out) + profile_subsection(
        db, profile, compacted, unverified, compacted_unverified)


# ---------------------------------------------------- where the time goes --

# (heading, workload) of the database-level profiles.
PROFILED = [("Absent keys", "readmissing"), ("Present keys", "readrandom"),
            ("Full scans", "readseq"), ("Seek and 16 Nexts", "seekrandom")]
NOT_TAKEN = ("The database-level profiles were not taken: {why}; "
             "`bench/run_all.sh --only profile` takes them.")


def db_profiles(profile):
    """profile.json's database-level profiles of db_bench on `run db`'s
    directories ("level": "db", with the LevelDB source layout they read;
    cold_bench's and the zero-copy Get's are their sections'), on every I/O
    path and checksum setting."""
    return [p for p in (profile or {}).get("profiles", [])
            if p.get("level") == "db" and "tool" not in p and
            "value_size" not in p]


def profile_of(profiles, engine, workload, source="as_written", io="pread",
               verify=True):
    """The profile of `engine` on `workload` over the LevelDB source layout
    `source` (profiles without one were taken on the as-written layout),
    on `io` with data-block checksums verified or not (`verify`; profiles
    without these fields were taken on pread, verified)."""
    return next((p for p in profiles if p.get("engine") == engine and
                 p.get("workload") == workload and
                 p.get("leveldb_source", "as_written") == source and
                 p.get("io", "pread") == io and
                 p.get("verify_checksum", True) == verify), None)


shares = category_shares


def met_files(p):
    return files(p, "{}", "{} → {} (compacted during the run)")


def cell(text):
    return str(text).replace("|", "\\|")


def runs_table(profiles, label=lambda p: f"`{p['engine']}`",
               label_heading="engine"):
    rows = []
    for p in profiles:
        micros = p.get("micros_per_op_under_perf")
        checks = p.get("filter_checks_per_op")
        reads = p.get("reads_per_op")
        top = sorted(p.get("symbols", []), key=lambda s: -s["percent"])[:4]
        rows.append([
            label(p),
            "-" if micros is None else f"{micros:.3f}",
            f"{p.get('samples', '?')} of {p.get('process_samples', '?')}",
            "-" if checks is None else f"{checks:.2f}",
            "-" if reads is None else f"{reads:.4f}",
            cell(met_files(p)),
            "; ".join(f"`{cell(s['symbol'][:60])}` {s['percent']:.1f}%"
                      for s in top)])
    return table([label_heading, "µs/op under perf",
                         "samples (lookup thread of process)",
                         "filter checks per lookup", "block reads per lookup",
                         "files per level met", "top symbols"], rows)


def commands(profiles):
    lines = []
    for p in profiles:
        lines.append(f"- `{p['engine']}`: `{p.get('command', '?')}`" +
                     (f" (filled by `{p['fill_command']}`)"
                      if p.get("fill_command") else ""))
    return "\n".join(lines)


def missed_goals(db, compacted=False, io="pread"):
    """[(goal, workloads, peer, [(workload, ratio)], mine, io)]: the ratio
    goals on `io` that db.json (or another run of `run db`'s kind) does not
    decide as met (release peers only); `mine` is the engine the goal is
    about (the view, or the view with sidecars)."""
    if db is None or peer_provenance(db)[0] is not True:
        return []
    missed = []
    for name, workloads, peer, limit in RATIO_GOALS:
        ratios = [(w, ratio(db, w, io, peer)) for w in workloads]
        decided = decision(db, workloads, io, peer, limit)
        if decided is not None and decided != MET:
            missed.append((name, workloads, peer, ratios, VIEW, io))
    for name, workloads, peer, peer_filter, limit, compacted_limit in \
            SIDECAR_GOALS:
        limit = compacted_limit if compacted else limit
        ratios = [(w, ratio(db, w, io, peer, SIDECARS, peer_filter))
                  for w in workloads]
        decided = decision(db, workloads, io, peer, limit, SIDECARS,
                           peer_filter)
        if decided is not None and decided != MET:
            missed.append((name, workloads, peer, ratios, SIDECARS, io))
    return missed


def differences(mine, theirs, top=3):
    """The categories whose time per lookup differs most (category_gaps:
    share of the samples × µs per lookup under perf), as text."""
    return "; ".join(
        f"{name} {a:.3f} µs against {b:.3f} µs "
        f"({shares(mine).get(name, 0.0):.0f}% against "
        f"{shares(theirs).get(name, 0.0):.0f}%)"
        for _, name, a, b in category_gaps(mine, theirs)[:top])


def goal_paragraph(goal, profiles, source="as_written", verify=True):
    """What the profiles (on the LevelDB source layout `source`, the goal's
    I/O path, checksums verified or not) say about one missed goal."""
    name, workloads, peer, ratios, mine_engine, io = goal
    measured = ", ".join(f"{w} {r:.2f}×" for w, r in ratios
                         if r is not None)
    head = f"- **{name}** ({io}: {measured})"
    workload = ("readmissing" if set(workloads) & set(ABSENT) else
                next((w for _, w in PROFILED if w in workloads), None))
    if workload is None:
        return (f"{head}: `{'`, `'.join(workloads)}` was not profiled; the "
                "point-lookup profiles above show what each store asks per "
                "table.")
    mine = profile_of(profiles, mine_engine, workload, source, io, verify)
    theirs = profile_of(profiles, peer, workload, source, io, verify)
    if mine is None or theirs is None:
        missing = mine_engine if mine is None else peer
        return (f"{head}: no `{workload}` profile of `{missing}`" +
                ("" if (io, verify) == ("pread", True) else
                 f" {setting(io, verify)}") + ".")
    ours = mine.get("micros_per_op_under_perf") or 0
    others = theirs.get("micros_per_op_under_perf") or 0
    text = [f"{head}: under perf `{workload}` took {ours:.3f} µs per lookup "
            f"in `{mine_engine}` against {others:.3f} µs in `{peer}`" +
            (f" (its `{theirs['filter']}` row)" if theirs.get("filter") and
             peer == ROCKSDB else "")]
    a, b = mine.get("filter_checks_per_op"), theirs.get("filter_checks_per_op")
    if a is not None and b is not None:
        text.append(f"`{mine_engine}` asked {a:.2f} table filters per "
                    f"lookup (filter checks over lookups), `{peer}` {b:.2f}")
    a, b = mine.get("reads_per_op"), theirs.get("reads_per_op")
    if workload not in ABSENT and a is not None and b is not None:
        text.append(f"`{mine_engine}` read {a:.4f} blocks per lookup, "
                    f"`{peer}` {b:.4f}")
    text.append(f"`{mine_engine}` met {met_files(mine)}; `{peer}` met "
                f"{met_files(theirs)}")
    gaps = differences(mine, theirs)
    if gaps:
        text.append("the largest differences in time per lookup (share of "
                    "the samples × µs per lookup under perf): " + gaps)
    return "; ".join(text) + "."


def explained_goals(heading, missed, run, source, verify, profile,
                    profiles):
    """`heading`, then a paragraph per goal of `missed` (on the LevelDB
    source layout `source`, checksums verified or not), or one line saying
    why none where profile.json is not of `run`'s commit."""
    out = [heading, ""]
    if not same_commit(profile, run):
        return out + [f"- none: profile.json ({short(profile.get('commit'))})"
                      " is not of the commit of the runs it would explain "
                      f"({short(run.get('commit'))})."]
    return out + [goal_paragraph(goal, profiles, source, verify)
                  for goal in missed]


def setting(io, verify):
    return (f"on {io}, checksums " +
            ("verified on both sides" if verify else "verified on no side"))


# The goals profiled on every I/O path and checksum setting; the others
# (absent keys) on pread with checksums verified only.
OTHER_SETTINGS_WORKLOADS = ("readrandom", "readseq", "seekrandom")


def other_settings(runs, profile, profiles):
    """The goals missed on the settings besides pread with checksums
    verified, each explained from the profiles taken on its own setting:
    `runs` is [(run, LevelDB source layout, layout's name, verify)]."""
    out = []
    for run, source, layout, verify in runs:
        if run is None:
            continue
        for io in io_paths(run):
            if (io, verify) == ("pread", True):
                continue
            missed = [g for g in missed_goals(run, source == "compacted", io)
                      if set(g[1]) <= set(OTHER_SETTINGS_WORKLOADS)]
            if not missed:
                continue
            out += [""] + explained_goals(
                f"Goals not met on the {layout} layout {setting(io, verify)}"
                ", from the profiles of that setting:", missed, run, source,
                verify, profile, profiles)
            if not same_commit(profile, run):
                continue
            found = [p for workload in OTHER_SETTINGS_WORKLOADS
                     for p in (profile_of(profiles, e, workload, source, io,
                                          verify) for e in (VIEW, LEVELDB))
                     if p is not None]
            if found:
                out += ["", runs_table(found, lambda p: f"*{p['name']}*",
                                       "profile")]
    if out:
        out = ["", "#### Where the time goes on the other settings", "",
               "The present-key, scan and seek goals decided on mapped "
               "files and with checksums verified on no side, explained "
               "from profiles taken on those settings: the same "
               "`bench/profile.py` runs as above with `--io=mmap` and/or "
               "`--verify_checksum=false` (profile.json records each "
               "command). The absent-key goals are profiled on pread with "
               "checksums verified only (above)."] + out
    return out


def profile_subsection(db, profile, compacted=None, unverified=None,
                       compacted_unverified=None):
    """The database-level profiles side by side, and a paragraph per goal
    missed (on every I/O path and checksum setting the runs decide goals
    on); a line saying they were not taken where profile.json has none."""
    out = ["", "", "#### Where the time goes (perf, pread)", ""]
    profiles = db_profiles(profile)
    if not profiles:
        why = ("no committed run (bench/results/profile.json)"
               if profile is None else
               "bench/results/profile.json holds no database-level profile "
               "(it was taken before bench/profile.py took them)")
        out.append(NOT_TAKEN.format(why=why))
        return "\n".join(out) + "\n"
    settings = profile.get("settings", {})
    out += [f"`bench/profile.py`: each engine in its own db_bench process "
            f"on the directory `run db` uses "
            f"({settings.get('num', 0):,} keys, filters at 10 stored "
            f"bits/key, 8 MiB block cache, `pread`), filled first, then one "
            f"workload for {settings.get('seconds', '?')} s under "
            "`perf record -e cpu-clock`. Shares of the samples of the thread "
            "that ran the lookups (opening the store, copying its "
            "directory, LevelDB's compaction on open and drawing the keys "
            "ran in other threads), grouped as in the table-level profiles. "
            "perf counts self time: a comparison counts as block search "
            "wherever it was called from (a memtable's too), a mutex as "
            "locking whoever took it. Each profile opens a fresh copy of "
            "the directory: on the as-written layout `leveldb_dir` "
            "compacts it while the profiled workload runs (the files met "
            "say so), where in `run db` its seeks and scans come after its "
            "present-key run, by which time its copy is one level. Its "
            "as-written seek and scan profiles are therefore of a busier "
            "store than its timed rows; the compacted layout's are of the "
            "same store.", ""]
    for heading, workload in PROFILED:
        found = [p for p in (profile_of(profiles, e, workload)
                             for e in ENGINES) if p is not None]
        out.append(f"**{heading} (`{workload}`)**")
        out.append("")
        if not found:
            out += [f"No `{workload}` profile.", ""]
            continue
        out += [side_by_side(found), "", runs_table(found), "",
                "Commands:", "", commands(found), ""]
    for heading, workload in PROFILED:
        found = [p for p in (profile_of(profiles, e, workload, "compacted")
                             for e in ENGINES) if p is not None]
        if found:
            out += [f"**{heading} (`{workload}`), the compacted layout**", "",
                    side_by_side(found), "", runs_table(found), "",
                    "Commands:", "", commands(found), ""]
    for run, source, layout in ((db, "as_written", "as-written"),
                                (compacted, "compacted", "compacted")):
        missed = missed_goals(run, compacted=source == "compacted")
        if not missed:
            continue
        out += ["" if source == "compacted" else None] + explained_goals(
            f"Goals not met on the {layout} layout, from the profiles:",
            missed, run, source, True, profile, profiles)
    out += other_settings(
        [(db, "as_written", "as-written", True),
         (compacted, "compacted", "compacted", True),
         (unverified, "as_written", "as-written", False),
         (compacted_unverified, "compacted", "compacted", False)],
        profile, profiles)
    return "\n".join(o for o in out if o is not None) + "\n"
