#!/usr/bin/env bash
# The like-for-like rows and the equal-memory comparison (and cold_bench's
# cold and warm rows), tested for shape:
# bench/run_all.sh --smoke takes every run behind BENCHMARKS.md at toy sizes
# (seconds), db_bench_check checks each JSON, and bench/report.py must find
# every like-for-like row (table level: bloomtable and each peer's table rows
# this build has, its public iterators always; db level: leveldb with its
# Bloom and with bloomtable's filter, rocksdb; pread and mmap; stored
# bits/key on every row), interpolate the sweep at equal stored bits/key and
# draw both plots, and say which peers ran. A main.json without one of the
# table-level peers must be refused, and so must an --only retake beside
# JSON of another commit.
#
#   like_for_like_test.sh BUILD_DIR DB_BENCH_CHECK
set -euo pipefail

build_dir=$1
check=$2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/like_for_like.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$root/bench/run_all.sh" --smoke --build-dir "$build_dir" \
  --results "$work/results" --report "$work/BENCHMARKS.md" --plots "$work" \
  >"$work/run.log" 2>&1 || { tail -40 "$work/run.log"; exit 1; }
"$check" "$work/results/main.json" "$work/results/build.json" \
  "$work/results/sweep.json" "$work/results/db.json"

md=$work/BENCHMARKS.md
expect() {
  if ! grep -qF -- "$1" "$md"; then
    echo "FAIL: BENCHMARKS.md lacks: $1" >&2
    exit 1
  fi
}
# One row per like-for-like engine in the summary, with its level.
expect "| table | bloomtable | cache_local_bloom per_block (index restart 1) |"
# The LevelDB-compatible configuration is a row of its own.
expect "| table | bloomtable | leveldb_bloom per_block (index restart 1) |"
expect "| table | leveldb_table_iterator | leveldb_bloom per_block |"
expect "| table | rocksdb_sst_iterator | rocksdb_ribbon whole_table |"
expect "| db | leveldb | leveldb_bloom per_block |"
expect "| db | leveldb+bloomtable | cache_local_bloom per_block |"
expect "| db | rocksdb | rocksdb_bloom whole_table |"
# Both I/O paths in the details, bulk builds with and without a filter.
expect "| readmissing | rocksdb_sst_iterator | rocksdb_bloom | whole_table | mmap |"
expect "| readmissing | leveldb | leveldb_bloom | per_block | pread |"
if grep -qx leveldb_table <("$build_dir/db_bench/db_bench" --list_engines); then
  expect "| table | leveldb_table | leveldb_bloom per_block |"
  expect "| leveldb_table | none | - | - |"
else
  expect "| leveldb_table_iterator | none | - | - |"
fi
# Every JSON records its peers; the report names them and decides no
# cross-engine goal from an assert-enabled (packaged) peer.
if grep -q '"ndebug": false' "$work/results/main.json"; then
  expect "assert-enabled build"
  expect "not a result (peers: see Peers)"
fi
# The equal-memory comparison: interpolated FP at each budget, and a value
# (not '-') at 10 stored bits/key for a filter measured on both sides of it.
expect "| filter | 6 b/key | 8 b/key | 10 b/key | 12 b/key | 16 b/key | b/key for 1% |"
grep -E '^\| rocksdb_(table|sst_iterator) rocksdb_bloom whole_table \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|' "$md" >/dev/null ||
  { echo "FAIL: no interpolated FP for rocksdb_bloom" >&2; exit 1; }
expect "| goal | measured (medians, range) | status | what the same runs show (counters, profiles) |"
expect "Smoke run, not a measurement."
expect "| readmissing | pread |"
expect "| opening the database reads no data block |"
# cold_bench: the device's raw rates, and bloomtable's and RocksDB's Get and
# MultiGet rows, cold and warm, each cold row beside its floor.
expect "#### \`cold_io.json\`: 20,000 keys, 100-byte values, snappy, 4096-byte blocks, device"
expect "| raw 4 KiB O_DIRECT reads, queue depth | reads/s (range) | µs per read |"
grep -E '^\| readrandom \| (table \| rocksdb_table|db \| rocksdb_readonly) \| MultiGet\(32\) \| [0-9.]+ .*\| QD 32: ' "$md" >/dev/null ||
  { echo "FAIL: no cold RocksDB MultiGet(32) row with its floor" >&2; exit 1; }
expect "| readmissing | table | bloomtable | MultiGet(32) |"
expect "#### \`warm_io.json\`: 20,000 keys"
# Where perf could record (profile.json) at a clean commit (the page shows
# a profile only beside runs of its commit): cold_bench's calls profiled
# under their run, and the table-level scans on both sides.
if [[ -f $work/results/profile.json ]] &&
    grep -q '"dirty": false' "$work/results/profile.json"; then
  expect "| *cold multiget, present keys, bloomtable_db+sidecars* |"
  expect "| *warm get, present keys, bloomtable_db+sidecars* |"
  expect "**full scan, bloomtable leveldb_bloom per_block, mmap**"
  if grep -qx leveldb_table <("$build_dir/db_bench/db_bench" --list_engines); then
    expect "**full scan, leveldb_table leveldb_bloom per_block, mmap**"
  fi
  expect "| *readpinned, 64 KiB values, bloomtable_db, mmap* |"
fi
grep -q '<svg' "$work/fp_vs_bits.svg"
grep -q '<svg' "$work/latency.svg"

# One page, one commit: --only refuses to retake a run beside JSON of
# another commit.
python3 - "$work/results/compression.json" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    report = json.load(f)
report["commit"] = "0" * 40
with open(sys.argv[1], "w") as f:
    json.dump(report, f)
PY
if "$root/bench/run_all.sh" --smoke --build-dir "$build_dir" --only build \
    --results "$work/results" --report "$work/mixed.md" --plots "$work" \
    >"$work/mixed.log" 2>&1; then
  echo "FAIL: run_all.sh --only mixed commits on one page" >&2
  exit 1
fi
grep -q "not of commit .*compression.json (0000000" "$work/mixed.log"

# A main.json without RocksDB's table rows is not a like-for-like report.
python3 - "$work/results/main.json" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    report = json.load(f)
report["configs"] = [c for c in report["configs"]
                     if not c["engine"].startswith("rocksdb_")]
with open(sys.argv[1], "w") as f:
    json.dump(report, f)
PY
if python3 "$root/bench/report.py" --results "$work/results" \
    --output "$work/refused.md" --plots "$work" 2>"$work/refused.err"; then
  echo "FAIL: report.py accepted a main.json without RocksDB's table rows" >&2
  exit 1
fi
grep -q "no table-level rocksdb_table or rocksdb_sst_iterator rows" \
  "$work/refused.err"
echo "like-for-like shape test passed"
