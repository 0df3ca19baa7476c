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
# Two filters store "equal" memory when within this fraction of each other.
EQUAL_MEMORY = 0.02
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


def verdict(ok):
    return {True: "met", False: "**not met**", None: "not measured"}[ok]


def cross_verdict(ok, provenance):
    """A cross-engine goal's status: its verdict only where the peers are
    release builds (provenance from peer_provenance)."""
    if ok is None:
        return verdict(None)
    if provenance[0] is not True:
        return NOT_A_RESULT
    return verdict(ok)


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
    a = results_of(mine, workload)
    b = results_of(theirs, workload)
    if a is None or b is None:
        return None, "no rows"
    ratio = a["micros_per_op"] / b["micros_per_op"]
    return ratio <= limit, (f"{with_range(a)} / {with_range(b)} µs = "
                            f"{ratio:.2f}×")


def no_slower_goal(mine, theirs, workload):
    """Met when mine's median is at most theirs' slowest run (no slower
    beyond the run-to-run range); with a single run, at most theirs."""
    a = results_of(mine, workload)
    b = results_of(theirs, workload)
    if a is None or b is None:
        return None, "no rows"
    limit = ((b.get("range") or {}).get("micros_per_op") or
             [None, None])[1]
    if limit is None:
        limit = b["micros_per_op"]
    ratio = a["micros_per_op"] / b["micros_per_op"]
    return a["micros_per_op"] <= limit, (
        f"{with_range(a)} / {with_range(b)} µs = {ratio:.2f}×")


# ------------------------------------------------------------- formatting --

def series(config):
    """'bloomtable cache_local_bloom per_block' and the like."""
    parts = [config["engine"], config["filter"]]
    if config.get("filter_layout"):
        parts.append(config["filter_layout"])
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
