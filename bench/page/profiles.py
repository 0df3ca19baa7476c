"""Where the time goes (profile.json, bench/profile.py): perf's samples
grouped by category, the table-level profiles' section and the goal on the
filter's share. The database section sets the database-level profiles side
by side with the same categories."""

from page.common import table, verdict

# Where a symbol's samples are counted, first match wins: (category, test).
# perf records self time only, so a comparator's samples count as block
# search wherever it was called from (a memtable's too), and a mutex's as
# locking whoever took it (at table level, the block cache's shards).
PEERS = ("leveldb::", "rocksdb::")
OTHER = "other (each symbol < 0.2% or unattributed)"
CATEGORIES = [
    # From Python: the interpreter (calls, objects, its allocator) and the
    # bindings between it and the library (pybind11; plyvel's Cython).
    ("Python interpreter (calls, objects, its allocator)", lambda d, s, k:
     d.startswith(("python3", "libpython"))),
    ("bindings (pybind11, plyvel's Cython)", lambda d, s, k:
     "pybind11" in s or "__pyx" in s or d.startswith("_plyvel")),
    ("filter probe (hash, lines)", lambda d, s, k: any(
        w in s for w in ("KeyMayMatch", "RibbonQuery", "CacheLocalBloom",
                         "Ribbon", "XXH", "TableMayMatch", "BlockMayMatch",
                         "PartitionedFilter", "FilterReader",
                         # LevelDB's and RocksDB's filters and their hash
                         "::BloomFilterPolicy::", "FilterBlockReader",
                         "FastLocalBloom", "LegacyBloom", "rocksdb::Hash64",
                         "LevelDBHash"))),
    ("kernel (system calls, page faults, scheduling)", lambda d, s, k: k),
    ("decompression", lambda d, s, k: any(
        w in d for w in ("snappy", "zstd", "lz4", "libz"))),
    ("checksum (CRC32C)", lambda d, s, k: "crc32" in s or "isal" in d),
    ("memtable / log records", lambda d, s, k: any(
        w in s for w in ("MemTable", "SkipList", "LogView"))),
    ("block search (index and data)", lambda d, s, k: any(
        w in s for w in ("BlockIter", "Compare", "memcmp", "DecodeEntry",
                         "KeyBuffer", "RestartKeyDigest", "leveldb::Block",
                         "rocksdb::IndexBlockIter", "BinarySeek"))),
    ("block cache", lambda d, s, k: any(
        w in s for w in ("LRUCache", "LRUShard", "Hashtable", "CacheKey",
                         "LRUHandle", "lru_cache::"))),
    ("allocation", lambda d, s, k: any(
        w in s for w in ("malloc", "free", "_int_", "unlink_chunk",
                         "operator new", "operator delete"))),
    ("copying (memmove: decompression's copies, values)",
     lambda d, s, k: "memmove" in s or "memcpy" in s),
    ("database: version, table cache, locking", lambda d, s, k: any(
        w in s for w in ("pthread_mutex", "Mutex::Lock", "DBImpl::Get",
                         "CompactedDBImpl", "Version::Get", "TableCache::",
                         "TableSet::", "Database::Get", "GetContext",
                         "ForEachOverlapping", "FindFile", "FileMetaData",
                         "LookupKey", "AppendInternalKey", "ColumnFamily"))),
    ("table lookup (FindDataBlock, block reads, counters)", lambda d, s, k:
     "bloomtable::" in s and "db_bench::" not in s),
    ("peer's other lookup code (LevelDB, RocksDB)", lambda d, s, k:
     s.startswith(PEERS)),
    # Debian's libleveldb (under plyvel) names only its exported symbols.
    ("LevelDB's shared library, unnamed symbols", lambda d, s, k:
     "libleveldb" in d),
    ("benchmark harness (key choice, timing)", lambda d, s, k: any(
        w in s for w in ("db_bench::", "clock_gettime", "std::thread")) or
     "vdso" in d),
]


def category(dso, symbol, kernel=False):
    """The category of CATEGORIES that counts a symbol's samples."""
    return next((c for c, test in CATEGORIES if test(dso, symbol, kernel)),
                OTHER)


def category_shares(profile):
    shares = {}
    for sym in profile.get("symbols", []):
        name = category(sym["dso"], sym["symbol"], sym["kernel"])
        shares[name] = shares.get(name, 0.0) + sym["percent"]
    listed = sum(shares.values())
    if listed < 100:
        shares[OTHER] = shares.get(OTHER, 0.0) + 100 - listed
    return shares


def table_profiles(profile):
    """profile.json's table-level profiles (the database-level ones, which
    bench/profile.py adds after them, are the database section's)."""
    return [p for p in (profile or {}).get("profiles", [])
            if p.get("level", "table") == "table"]


def profile_section(profile, main=None):
    if profile is None:
        return "No committed run (bench/results/profile.json)."
    out = []
    commits = [str((r or {}).get("commit") or "unknown")[:7]
               for r in (profile, main)]
    if main is not None and (commits[0] != commits[1] or profile.get("dirty")
                             or main.get("dirty")):
        out.append(f"**Not the timings' commit:** these profiles were taken "
                   f"at {commits[0]}, main.json's timings at {commits[1]}; "
                   "they do not explain them, and the goals do not use "
                   "them.\n")
    for p in table_profiles(profile):
        shares = sorted(category_shares(p).items(), key=lambda kv: -kv[1])
        micros = p.get("micros_per_op_under_perf")
        out.append(f"**{p['name']}** (`{p['workload']}`, {p['samples']} "
                   "samples" + (f", {micros:.3f} µs per lookup under perf"
                                if micros is not None else "") + ")\n")
        out.append(table(["where", "% of samples"],
                         [[name, f"{share:.1f}"] for name, share in shares
                          if share >= 0.5]))
        top = sorted(p.get("symbols", []), key=lambda s: -s["percent"])[:6]
        out.append("\nTop symbols: " + "; ".join(
            f"`{s['symbol'][:70]}` {s['percent']:.1f}%" for s in top) + ".\n")
    first = (table_profiles(profile) or [{}])[0].get("command", "")
    out.append(f"Command of the first profile (the others differ in "
               f"`--engines`, `--filter`, `--filter_layout`, `--io` and "
               f"`--benchmarks`): `{first}`.")
    return "\n".join(out)


def profile_goals(profile):
    """The filter's share of perf's samples in readrandom ≤ 3%."""
    if profile is None:
        return [["the filter ≤ 3% of `perf` samples in `readrandom`",
                 "no committed run (profile.json)", verdict(None), ""]]
    rows = []
    for p in table_profiles(profile):
        if p["workload"] != "readrandom" or \
                p.get("engine", "bloomtable") != "bloomtable":
            continue
        shares = category_shares(p)
        share = shares.get("filter probe (hash, lines)")
        largest = sorted(((c, v) for c, v in shares.items()
                          if not c.startswith("other")), key=lambda cv: -cv[1])
        rows.append([f"the filter ≤ 3% of `perf` samples in `readrandom`: "
                     f"bloomtable {p['filter']} {p['filter_layout']}" +
                     ("" if p.get("io", "pread") == "pread" else
                      f", {p['io']}"),
                     "no filter symbol among the samples" if share is None
                     else f"{share:.1f}%",
                     verdict(None if share is None else share <= 3),
                     "largest shares: " + ", ".join(
                         f"{c} {v:.0f}%" for c, v in largest[:4])])
    return rows


# ------------------------------------------- profiles of one goal's sides --

def micros_per_op(p):
    """The µs one operation took under perf: a db_bench workload's, a
    Python call's; for cold_bench's, the process's CPU time per key (its
    lookups wait on the device off the CPU)."""
    if p.get("micros_per_op_under_perf") is not None:
        return p["micros_per_op_under_perf"]
    if p.get("ns_per_call_under_perf") is not None:
        return p["ns_per_call_under_perf"] / 1000
    return p.get("cpu_micros_per_key")


def matching(profile, **fields):
    """profile.json's profiles whose fields hold the given values."""
    return [p for p in (profile or {}).get("profiles", [])
            if all(p.get(k) == v for k, v in fields.items())]


def side_by_side(profiles, label=lambda p: p["engine"]):
    """Categories as rows, one column of shares per profile."""
    columns = [category_shares(p) for p in profiles]
    # Largest share first; equal shares by name, so that the order does not
    # depend on the set's (hash-seeded) iteration order.
    names = sorted({c for t in columns for c in t},
                   key=lambda c: (c.startswith("other"),
                                  -max(t.get(c, 0.0) for t in columns), c))
    rows = [[name] + [f"{t[name]:.1f}" if name in t else "-" for t in columns]
            for name in names if max(t.get(name, 0.0) for t in columns) >= 0.5]
    return table(["category"] + [f"{label(p)} %" for p in profiles], rows)


def category_gaps(mine, theirs):
    """[(difference, category, mine's µs, theirs' µs)] of every category
    but "other": its share of each profile's samples times that profile's
    micros_per_op, the largest difference first (equal ones by name); []
    where either time is unknown."""
    a_total, b_total = micros_per_op(mine), micros_per_op(theirs)
    if a_total is None or b_total is None:
        return []
    a_shares, b_shares = category_shares(mine), category_shares(theirs)
    gaps = []
    for name in set(a_shares) | set(b_shares):
        if name.startswith("other"):
            continue
        a = a_shares.get(name, 0.0) / 100 * a_total
        b = b_shares.get(name, 0.0) / 100 * b_total
        gaps.append((a - b, name, a, b))
    gaps.sort(key=lambda g: (-abs(g[0]), g[1]))
    return gaps


def largest_gaps(mine, theirs, top=3):
    """The categories whose time per operation differs most between two
    profiles (category_gaps), as text."""
    return "; ".join(f"{name} {a:.3f} against {b:.3f} µs"
                     for _, name, a, b in category_gaps(mine, theirs)[:top])


def sides_text(mine, theirs, what="per operation"):
    """A missed goal's note from the profiles of its two sides: each side's
    time under perf and the categories that differ most."""
    if mine is None or theirs is None:
        return ""
    a, b = micros_per_op(mine), micros_per_op(theirs)
    if a is None or b is None:
        return ""
    gaps = largest_gaps(mine, theirs)
    return (f"under perf, *{mine['name']}* {a:.3f} µs {what} against "
            f"*{theirs['name']}* {b:.3f} µs" +
            (f"; the largest differences: {gaps}" if gaps else ""))
