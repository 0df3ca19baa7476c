"""The "Database level: the read-only view" section of BENCHMARKS.md, from
db.json (bench/run_all.sh's `run db`): bloomtable's read-only Database view
(bloomtable_db) beside a leveldb::DB on a byte-identical copy of the same
LevelDB-written directory (leveldb_dir) and RocksDB opened read-only
(rocksdb_readonly).

Every figure and verdict comes from db.json; without it the section says
"not measured". Ratios against a peer are printed, and goals against it
decided, only where db.json records every peer as a release build (NDEBUG
on), the rule of report.py's other sections.
"""

import report

VIEW = "bloomtable_db"
LEVELDB = "leveldb_dir"
ROCKSDB = "rocksdb_readonly"
ENGINES = (VIEW, LEVELDB, ROCKSDB)
WORKLOADS = ("readrandom", "readmissing", "readnearmiss", "readunrelated",
             "seekrandom", "readseq")
ABSENT = ("readmissing", "readnearmiss", "readunrelated")
# (goal, workloads, peer, limit): the view's median over the peer's, per
# I/O path.
RATIO_GOALS = [
    ("absent-key Get ≤ 0.5× leveldb_dir", ABSENT, LEVELDB, 0.5),
    ("present-key Get ≤ 0.8× leveldb_dir", ("readrandom",), LEVELDB, 0.8),
    ("full scan ≤ 0.8× leveldb_dir per entry", ("readseq",), LEVELDB, 0.8),
    ("absent-key Get ≤ 1.0× rocksdb_readonly", ABSENT, ROCKSDB, 1.0),
]
NOT_MEASURED = "Not measured: no committed run (bench/results/db.json)."


def row_of(db, engine, io):
    """The engine's configuration with a filter at this I/O path."""
    for config in report.configs(db, level="db", io=io):
        if config["engine"] == engine and config.get("filter") != "none":
            return config
    return None


def io_paths(db):
    paths = []
    for config in report.configs(db, level="db"):
        if config["io"] not in paths:
            paths.append(config["io"])
    return paths


def ratio(db, workload, io, peer):
    """The view's median micros/op over the peer's, or None."""
    mine, theirs = row_of(db, VIEW, io), row_of(db, peer, io)
    if mine is None or theirs is None:
        return None
    a = report.results_of(mine, workload)
    b = report.results_of(theirs, workload)
    if a is None or b is None or not b.get("micros_per_op"):
        return None
    return a["micros_per_op"] / b["micros_per_op"]


def medians(db, workload, io, peer):
    """'a / b µs': the view's and the peer's medians, without their ratio
    (peers that are not release builds)."""
    a = report.results_of(row_of(db, VIEW, io), workload)
    b = report.results_of(row_of(db, peer, io), workload)
    return f"{a['micros_per_op']:.3f} / {b['micros_per_op']:.3f} µs"


def files(result):
    if result is None:
        return "-"
    before, after = result.get("files_before"), result.get("files_after")
    if before is None and after is None:
        return "not recorded"
    if before == after:
        return f"{before or '?'} (unchanged)"
    return f"{before or '?'} → {after or '?'}"


def ratio_cell(value, provenance):
    if value is None:
        return "-"
    if provenance[0] is not True:
        return "not a result"
    return f"{value:.2f}×"


def engines_text(db):
    """What each row calls, from db.json."""
    lines = []
    for engine in ENGINES:
        config = next((c for c in report.configs(db) if c["engine"] == engine),
                      None)
        if config is None:
            lines.append(f"- `{engine}`: no rows in db.json.")
            continue
        call = config.get("call") or "call not recorded"
        lines.append(f"- `{engine}`: `{call}`; filter {config['filter']} at "
                     f"{report.stored(config)} stored bits/key.")
    return "\n".join(lines)


def opening_goal(db):
    """(ok, text): the view's table-file and data-block reads between
    OpenReadOnly and its first lookup, at every open recorded."""
    reads = []
    for config in report.configs(db, level="db"):
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


def goals(db):
    rows = []
    provenance = report.peer_provenance(db)
    for name, workloads, peer, limit in RATIO_GOALS:
        for io in (io_paths(db) if db is not None else ["pread"]):
            ratios = [(w, ratio(db, w, io, peer)) if db is not None
                      else (w, None) for w in workloads]
            known = [r for _, r in ratios if r is not None]
            ok = None if len(known) < len(ratios) else all(
                r <= limit for r in known)
            if provenance[0] is True:
                measured = "; ".join(f"{w} {r:.2f}×" for w, r in ratios
                                     if r is not None)
            else:
                measured = "; ".join(
                    f"{w} {medians(db, w, io, peer)}"
                    for w, r in ratios if r is not None)
            measured = measured or "no rows"
            rows.append([f"{name} ({io})", measured,
                         report.cross_verdict(ok, provenance)])
    ok, text = opening_goal(db) if db is not None else (None, "no run")
    rows.append(["opening the database reads no data block", text,
                 report.verdict(ok)])
    return report.table(["goal", "measured", "status"], rows)


def db_section(db):
    if db is None:
        return NOT_MEASURED + "\n\n" + goals(None)
    provenance = report.peer_provenance(db)
    settings = db.get("settings", {})
    budget = ", ".join(f"{b:g}" for b in settings.get("stored_bits") or [])
    out = [f"{settings.get('num', 0):,} keys, stored filter budget "
           f"{budget or '?'} bits/key; µs per op, median (range). Rows:", "",
           engines_text(db), "",
           f"Peers: {provenance[1]}.", ""]
    header = (["benchmark", "io"] + [f"{e} µs" for e in ENGINES] +
              [f"{VIEW} / {LEVELDB}", f"{VIEW} / {ROCKSDB}"] +
              [f"{e} files before → after" for e in ENGINES])
    rows = []
    for workload in WORKLOADS:
        for io in io_paths(db):
            results = [report.results_of(row_of(db, e, io) or {}, workload)
                       for e in ENGINES]
            if all(r is None for r in results):
                continue
            rows.append([workload, io] +
                        [report.with_range(r) if r else "-" for r in results] +
                        [ratio_cell(ratio(db, workload, io, peer), provenance)
                         for peer in (LEVELDB, ROCKSDB)] +
                        [files(r) for r in results])
    out += [report.table(header, rows), "", goals(db)]
    return "\n".join(out)
