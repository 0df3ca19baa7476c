"""The Goals section: every goal decided from the committed runs by the
noise rule of common.decide, with what the same runs' counters and profiles
say where one is not met, and the properties that tests decide instead."""

from page.cold_io import cold_io_goals
from page.common import (ABSENT, ABSENT_NAMES, EQUAL_MEMORY, LEVELDB_TABLE,
                         MET, ROCKSDB_TABLE, all_of, best, configs,
                         cross_verdict, decide, decide_ratio, no_slower_goal,
                         peer_provenance, peer_table_rows, ratio_goal,
                         results_of, runs_of, series, stored, table, verdict)
from page.explain import counters_text, gaps_text, profile_text
from page.filters import cold_probe_goals, floor_goals, per_block_probe_ratio
from page.pinned import pinned_goals
from page.profiles import profile_goals
from page.scale import scale_goals
from page.sweep import bits_for_one_percent, fmt_bits

# The fixed line of the table-level absent-key goal, µs per lookup.
ABSENT_MEAN = 0.2
# A full scan through the table iterator against LevelDB's, per entry.
SCAN_LIMIT = 0.7


def table_goals(main, profile):
    """The table-level goals of main.json (pread unless a row says mmap)."""
    rows = []
    provenance = peer_provenance(main)
    table_rows = list(configs(main, level="table", io="pread"))
    ours = [c for c in table_rows if c["engine"] == "bloomtable"]
    rocks = peer_table_rows(table_rows, ROCKSDB_TABLE)

    def why(config, workload, peer=None):
        return explain(main, profile, config, workload, peer)
    for config in ours:
        for workload in ABSENT:
            peers = [c for c in rocks if c["stored_bits_per_key"] >=
                     config["stored_bits_per_key"] * (1 - EQUAL_MEMORY)]
            top = best(peers, workload)
            if top is None:
                rows.append([f"`{workload}`, table level: {series(config)} ≤ "
                             "0.5× RocksDB's table lookup at ≤ memory",
                             "no RocksDB table row at equal or more memory",
                             verdict(None), ""])
                continue
            decision, text = ratio_goal(config, top[0], workload, 0.5)
            mean = decide(runs_of(results_of(config, workload)),
                          (ABSENT_MEAN, ABSENT_MEAN))
            rows.append([f"`{workload}`, table level: {series(config)} ≤ 0.5× "
                         f"{series(top[0])} (stored {stored(config)} vs "
                         f"{stored(top[0])}), mean ≤ {ABSENT_MEAN} µs", text,
                         cross_verdict(all_of(decision, mean), provenance),
                         why(config, workload, top[0])])
    # The per-block layout against LevelDB's filter-aware table lookup (its
    # iterator never asks the filter: no goal can use it).
    leveldb = [c for c in table_rows if c["engine"] == "leveldb_table"]
    for config in (c for c in ours if c.get("filter_layout") == "per_block"):
        for workload in ABSENT:
            top = best(leveldb, workload)
            if top is None:
                rows.append([f"`{workload}`, table level: {series(config)} ≤ "
                             "1.0× LevelDB's filter-aware table lookup",
                             "no leveldb_table row (LevelDB's "
                             "TableCache::Get)", verdict(None), ""])
                continue
            decision, text = ratio_goal(config, top[0], workload, 1.0)
            rows.append([f"`{workload}`, table level: {series(config)} ≤ "
                         f"1.0× {series(top[0])}", text,
                         cross_verdict(decision, provenance),
                         why(config, workload, top[0])])
    for io in ("pread", "mmap"):
        io_rows = list(configs(main, level="table", io=io))
        for names in (LEVELDB_TABLE, ROCKSDB_TABLE):
            peer = best(peer_table_rows(io_rows, names), "readrandom")
            for config in (c for c in io_rows if c["engine"] == "bloomtable"):
                if peer is None:
                    rows.append([f"`readrandom`, table level, {io}: "
                                 f"{series(config)} ≤ 0.8× "
                                 f"{' or '.join(names)}", "no row",
                                 verdict(None), ""])
                    continue
                decision, text = ratio_goal(config, peer[0], "readrandom",
                                            0.8)
                rows.append([f"`readrandom`, table level, {io}: "
                             f"{series(config)} ≤ 0.8× {series(peer[0])}",
                             text, cross_verdict(decision, provenance),
                             why(config, "readrandom", peer[0])])
    # Full scans: the table iterator against LevelDB's (its table iterator
    # through TableCache). A scan asks no filter: one row per layout, the
    # tables written with LevelDB's Bloom (per-block at index restart 1 is
    # LevelDB's own table format).
    for io in ("pread", "mmap"):
        io_rows = list(configs(main, level="table", io=io))
        peer = best([c for c in io_rows if c["engine"] == "leveldb_table"],
                    "readseq")
        for config in (c for c in io_rows if c["engine"] == "bloomtable" and
                       c.get("filter") == "leveldb_bloom"):
            name = (f"`readseq` (full scan, per entry), table level, {io}: "
                    f"{series(config)} ≤ {SCAN_LIMIT}× LevelDB's table "
                    "iterator")
            if peer is None or results_of(config, "readseq") is None:
                rows.append([name, "no readseq row", verdict(None), ""])
                continue
            decision, text = ratio_goal(config, peer[0], "readseq",
                                        SCAN_LIMIT)
            rows.append([name, text, cross_verdict(decision, provenance),
                         why(config, "readseq", peer[0])])
    db_rows = list(configs(main, level="db", io="pread"))
    for config in (c for c in db_rows if c["engine"] == "leveldb+bloomtable"):
        for base in (c for c in db_rows if c["engine"] == "leveldb"):
            for workload in ABSENT:
                decision, text = no_slower_goal(config, base, workload)
                rows.append([f"`{workload}`, db level: leveldb::DB with our "
                             f"filter ({config['filter']}, stored "
                             f"{stored(config)}) no slower than with its own "
                             f"(stored {stored(base)}) beyond the run-to-run "
                             "range", text,
                             cross_verdict(decision, provenance),
                             why(config, workload, base)])
    return rows


def explain(main, profile, config, workload, peer):
    """A goal row's notes: the counters of both rows of the same run and
    the profiles of both sides, where they were taken at the run's
    commit."""
    present = results_of(config, "readrandom")
    if workload == "readseq":  # a scan asks no filter and reads every block
        parts = []
    else:
        parts = [counters_text(series(config), results_of(config, workload),
                               present)]
        if peer is not None:
            parts.append(counters_text(series(peer),
                                       results_of(peer, workload),
                                       results_of(peer, "readrandom")))
    parts.append(profile_text(profile, main, config, workload))
    if peer is not None:
        parts.append(profile_text(profile, main, peer, workload))
        parts.append(gaps_text(profile, main, config, peer, workload))
    return "; ".join(dict.fromkeys(p for p in parts if p))


def memory_goals(sweep):
    """Stored bits/key for 1% FP on each absent-key stream, each side's
    counting error included (counts, not timings: an assert-enabled peer
    counts the same)."""
    needed = {}
    for workload in ABSENT:
        for name, bits in bits_for_one_percent(sweep, workload).items():
            needed.setdefault(name, []).append(bits)
    ribbon = next((b for name, b in needed.items()
                   if name.startswith("rocksdb") and "ribbon" in name), None)
    rows = []
    for name, bits in needed.items():
        if not name.startswith("bloomtable") or ribbon is None:
            continue
        known = all(None not in b for b in bits + ribbon)
        worst = [max(b[i] for b in kinds) if known else None
                 for kinds in (bits, ribbon) for i in (0, 2)]
        rows.append([f"memory: {name} reaches 1.0% FP ({ABSENT_NAMES}) at ≤ "
                     "RocksDB Ribbon's stored bits/key",
                     " / ".join(fmt_bits(b[1]) for b in bits) + " vs " +
                     " / ".join(fmt_bits(b[1]) for b in ribbon) +
                     ("" if not known else
                      f"; the worse stream within its counting error: "
                      f"{worst[0]:.2f}–{worst[1]:.2f} vs "
                      f"{worst[2]:.2f}–{worst[3]:.2f}"),
                     verdict(decide_ratio(worst[0:2], worst[2:4], 1)
                             if known else None), ""])
    return rows


def goals(main, sweep, filter_bench, scale=None, cold=None, profile=None,
          cold_io=None, warm_io=None, pinned=None):
    rows = table_goals(main, profile) if main is not None else []
    if sweep is not None:
        rows += memory_goals(sweep)
    per_block = per_block_probe_ratio(filter_bench)
    rows.append(["per-block probe: cache-local Bloom ≤ 1.0× LevelDB's Bloom "
                 "at ≤ its stored bits/key, at every LevelDB point "
                 "(filter_bench, absent keys, many small filters)",
                 per_block[1],
                 cross_verdict(per_block[0], peer_provenance(filter_bench)),
                 ""])
    rows += floor_goals(main, filter_bench, profile)
    rows += scale_goals(scale or [])
    rows += cold_probe_goals(cold)
    rows += profile_goals(profile)
    rows += cold_io_goals(cold_io, warm_io, profile)
    rows += pinned_goals(pinned, profile)
    for row in rows:
        if row[2] == verdict(MET):
            row[3] = ""
    return table(["goal", "measured (medians, range)", "status",
                  "what the same runs show (counters, profiles)"], rows)


def tested_not_benchmarked():
    """Properties that tests decide, listed as tests (no goal row)."""
    return ("- Many tables: closing one of 1,000 tables sharing a block "
            "cache visits only its own blocks: a test, not a benchmark "
            "(block_cache_test `ClosingATableVisitsOnlyItsOwnBlocks`).")
