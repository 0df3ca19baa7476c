"""What every section of BENCHMARKS.md shares: reading the JSON's rows, the
peers' provenance, verdicts and the formatting of figures and tables."""

import json
import os

WORKLOADS = ["readmissing", "readnearmiss", "readunrelated", "readrandom"]
# The absent-key streams (db_bench's KeyGenerator): a present key plus 8
# random letters; a present key's number plus one; a key drawn independently
# of the present keys (in range, last bytes random).
ABSENT = {"readmissing": "key+suffix", "readnearmiss": "near-miss",
          "readunrelated": "unrelated"}
ABSENT_NAMES = " / ".join(ABSENT.values())
# Two filters store "equal" memory when within this fraction of each other:
# db_bench calibrates every fractional-bits filter to its target within 0.2%
# (filter_budget.cc).
EQUAL_MEMORY = 0.002
# Table-level rows of db_bench JSON taken before it recorded its peers: what
# those rows called then, under today's names.
OLD_ENGINE_NAMES = {"leveldb_table": "leveldb_table_iterator",
                    "rocksdb_table": "rocksdb_sst_iterator"}
PEER_FIELDS = ("version", "origin", "ndebug", "crc32c")
# The table-level rows of each peer, its own lookup first.
LEVELDB_TABLE = ("leveldb_table", "leveldb_table_iterator")
ROCKSDB_TABLE = ("rocksdb_table", "rocksdb_sst_iterator")
NOT_A_RESULT = "not a result (peers: see Peers)"


class ShapeError(Exception):
    pass


def load(results, name):
    path = os.path.join(results, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return relabel_old(json.load(f))


def relabel_old(report):
    """db_bench JSON without per-peer provenance came from a db_bench whose
    leveldb_table and rocksdb_table rows timed the public iterators: name
    them for what they called."""
    if isinstance(report, dict) and "configs" in report and \
            "peers" not in report:
        for config in report["configs"]:
            config["engine"] = OLD_ENGINE_NAMES.get(config.get("engine"),
                                                    config.get("engine"))
    return report


def peer_provenance(report):
    """(True, text) when every peer the JSON records has its version,
    origin, NDEBUG and CRC32C and NDEBUG on; (False, why) otherwise; (None,
    text) without a report."""
    if report is None:
        return None, "no run"
    peers = report.get("peers")
    if not isinstance(peers, dict):
        return False, ("peers' versions, origin and NDEBUG not recorded "
                       "(JSON older than per-peer provenance; the db_bench "
                       "of that commit could link only Debian's packaged "
                       "peers, which Debian 12 builds without NDEBUG)")
    if not peers:
        return False, "no peer linked"
    for name, peer in sorted(peers.items()):
        missing = [f for f in PEER_FIELDS
                   if not isinstance(peer, dict) or f not in peer]
        if missing:
            return False, f"{name}: no {', '.join(missing)} recorded"
        if peer["ndebug"] is not True:
            state = "off" if peer["ndebug"] is False else "unknown"
            return False, (f"{name} {peer['version']} ({peer['origin']}) has "
                           f"NDEBUG {state}: an assert-enabled build")
    return True, "; ".join(
        f"{name} {p['version']} ({p['origin']}, NDEBUG on, CRC32C "
        f"{p['crc32c']})" for name, p in sorted(peers.items()))


def has_peers(report):
    """db_bench's JSON, and cold_bench's where it ran RocksDB."""
    return "configs" in report or any(
        r.get("engine") == "rocksdb" for r in report.get("lookups", []))


# A goal's decision. A timing goal is met only when our slowest run beats
# the goal line drawn from the peer's fastest run (or the fixed line); it is
# missed when our fastest run misses the line drawn from the peer's slowest;
# a result in between straddles the line, and against the peer itself (a
# line at 1.0×) that is a tie: a lead inside run-to-run noise. Figures
# without recorded runs count their median as both ends.
MET, MISSED, STRADDLES, TIE = "met", "missed", "straddles", "tie"
STATUS = {MET: "met", MISSED: "**not met**",
          STRADDLES: "straddles the line (not met)",
          TIE: "tie (inside run-to-run noise)", None: "not measured"}
# Set by bench/report.py before it writes the page, when the page's inputs
# do not come from one clean commit: no goal then reads "met".
REFUSAL = {"reason": None}


def verdict(decision):
    """The status text of a decision (True and False are met and missed)."""
    if decision is True or decision is False:
        decision = MET if decision else MISSED
    if decision == MET and REFUSAL["reason"]:
        return f"not decided ({REFUSAL['reason']})"
    return STATUS[decision]


def cross_verdict(decision, provenance):
    """A cross-engine goal's status: its verdict only where the peers are
    release builds (provenance from peer_provenance)."""
    if decision is None:
        return verdict(None)
    if provenance[0] is not True:
        return NOT_A_RESULT
    return verdict(decision)


def runs_of(result, field="micros_per_op"):
    """(fastest, slowest) of a figure over its runs: a db_bench result's
    range, or a {median, min, max} summary; the median twice without."""
    value = (result or {}).get(field)
    if isinstance(value, dict):
        return value.get("min", value.get("median")), \
            value.get("max", value.get("median"))
    low_high = (result.get("range") or {}).get(field)
    if low_high and low_high[0] is not None:
        return tuple(low_high)
    return value, value


def decide(ours, line, higher_is_better=False):
    """ours and line as (low, high): met when all of ours is on the good side
    of all of the line, missed when all of it is on the bad side."""
    if higher_is_better:
        ours, line = (-ours[1], -ours[0]), (-line[1], -line[0])
    if ours[1] <= line[0]:
        return MET
    return MISSED if ours[0] > line[1] else STRADDLES


def decide_ratio(ours, theirs, limit, higher_is_better=False):
    """ours ≤ limit × theirs (≥ with higher_is_better), both (low, high).
    Against the peer itself (limit 1) only a clear lead is met: runs that
    overlap or touch are a tie."""
    line = (limit * theirs[0], limit * theirs[1])
    decision = decide(ours, line, higher_is_better)
    if limit != 1 or decision == MISSED:
        return decision
    if decision == MET and (ours[0] == line[1] if higher_is_better
                            else ours[1] == line[0]):
        return TIE
    return TIE if decision == STRADDLES else decision


def all_of(*decisions):
    """Met when every part is met; missed when any part is missed."""
    if None in decisions:
        return None
    if MISSED in decisions:
        return MISSED
    if all(d == MET for d in decisions):
        return MET
    return TIE if all(d in (MET, TIE) for d in decisions) else STRADDLES


def results_of(config, benchmark):
    for result in config.get("results", []):
        if result.get("benchmark") == benchmark:
            return result
    return None


def configs(report, level=None, io=None):
    for config in report.get("configs", []):
        if level and config.get("level") != level:
            continue
        if io and config.get("io") != io:
            continue
        yield config


def read_benchmarks(report):
    """Every read benchmark in the report, in the order first met (a
    workload added to db_bench shows up in the detail tables and the plot)."""
    names = []
    for config in report.get("configs", []):
        for result in config.get("results", []):
            if "found" in result and result["benchmark"] not in names:
                names.append(result["benchmark"])
    return names


def best(rows, workload):
    """The (config, result) with the smallest median micros/op."""
    found = [(c, results_of(c, workload)) for c in rows]
    found = [(c, r) for c, r in found if r is not None]
    return min(found, key=lambda cr: cr[1]["micros_per_op"], default=None)


def peer_table_rows(rows, names):
    """The rows of the first engine in `names` that has any: a peer's own
    table lookup where it ran, else its public iterator."""
    for name in names:
        found = [c for c in rows if c["engine"] == name]
        if found:
            return found
    return []


def ratio_goal(mine, theirs, workload, limit):
    """(decision, text) of mine ≤ limit × theirs in µs per lookup."""
    a = results_of(mine, workload)
    b = results_of(theirs, workload)
    if a is None or b is None:
        return None, "no rows"
    ratio = a["micros_per_op"] / b["micros_per_op"]
    line = limit * runs_of(b)[0]
    return decide_ratio(runs_of(a), runs_of(b), limit), (
        f"{with_range(a)} / {with_range(b)} µs = {ratio:.2f}×; line "
        f"{line:.3f} µs")


def no_slower_goal(mine, theirs, workload):
    """Met when mine is not slower beyond the run-to-run range: its runs
    beat theirs, or overlap them (a tie)."""
    a = results_of(mine, workload)
    b = results_of(theirs, workload)
    if a is None or b is None:
        return None, "no rows"
    ratio = a["micros_per_op"] / b["micros_per_op"]
    decision = decide_ratio(runs_of(a), runs_of(b), 1)
    return MET if decision == TIE else decision, (
        f"{with_range(a)} / {with_range(b)} µs = {ratio:.2f}×" +
        ("; the runs overlap: a tie" if decision == TIE else ""))


# ------------------------------------------------------------- formatting --

def series(config):
    """'bloomtable cache_local_bloom per_block (index restart 16)' and the
    like: the configuration that produced a row's figures (the index
    restart interval where db_bench records it: bloomtable's rows; LevelDB
    and RocksDB write theirs at 1)."""
    parts = [config["engine"], config["filter"]]
    if config.get("filter_layout"):
        parts.append(config["filter_layout"])
    if config.get("index_block_restart_interval"):
        parts.append(f"(index restart {config['index_block_restart_interval']})")
    return " ".join(parts)


def us(value):
    return "-" if value is None else f"{value:.3f}"


def with_range(result, field="micros_per_op", digits=3):
    value = None if result is None else result.get(field)
    if value is None:
        return "-"
    low_high = result.get("range", {}).get(field)
    if not low_high or low_high[0] is None:
        return f"{value:.{digits}f}"
    return (f"{value:.{digits}f} ({low_high[0]:.{digits}f}–"
            f"{low_high[1]:.{digits}f})")


def from_cache(result):
    """The share of a result's absent-key lookups whose data block (read on
    a filter's "maybe") came from the block cache: db_bench's
    absent_from_cache, or its cache hits over its lookups."""
    if not result:
        return None
    if result.get("absent_from_cache") is not None:
        return result["absent_from_cache"]
    if result.get("block_cache_hits") is None or not result.get("ops"):
        return None
    return result["block_cache_hits"] / result["ops"]


def pct(rate):
    return "-" if rate is None else f"{100 * rate:.2f}"


def stored(config):
    bits = config.get("stored_bits_per_key")
    return "-" if bits is None else f"{bits:.2f}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |"
              for row in rows]
    return "\n".join(lines)


def median(row, field):
    """The median of a cold_bench or python summary {median, min, max}."""
    value = (row or {}).get(field)
    return value.get("median") if isinstance(value, dict) else None


def summary_text(summary, digits):
    """'median (min–max)' of a cold_bench summary."""
    if not isinstance(summary, dict) or summary.get("median") is None:
        return "-"
    return (f"{summary['median']:.{digits}f} ({summary['min']:.{digits}f}–"
            f"{summary['max']:.{digits}f})")
