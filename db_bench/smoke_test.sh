#!/usr/bin/env bash
# Smoke test of db_bench: every benchmark on every engine built, at a small
# size, in the shapes that matter (2 threads, no block cache; a store reused
# with --use_existing_db; LevelDB with bloomtable's filters through the
# adapter), then db_bench_check on the JSON; and the usage errors.
#
#   smoke_test.sh path/to/db_bench path/to/db_bench_check
set -euo pipefail

db_bench=$1
check=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/db_bench_smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT

all="fillseq,readrandom,fillrandom,readrandom,readmissing,readnearmiss,readunrelated,readseq,seekrandom,stats"

echo "== every benchmark, one table, both I/O paths"
"$db_bench" --num=2000 --benchmarks="$all" --io=pread,mmap \
  --json="$work/one.json" >"$work/one.out"
# The LevelDB-style line that scripts for LevelDB's db_bench parse.
grep -E '^readmissing +: +[0-9.]+ micros/op [0-9]+ ops/sec;' "$work/one.out" >/dev/null

echo "== every bloomtable filter policy, both layouts"
"$db_bench" --num=2000 --engines=bloomtable --bloom_bits=9.5 \
  --filter=cache_local_bloom,ribbon \
  --benchmarks=fillrandom,readrandom,readmissing,readnearmiss \
  --json="$work/filters.json" >"$work/filters.out"
"$db_bench" --num=2000 --engines=bloomtable --filter_layout=whole_table \
  --benchmarks=fillrandom,readrandom,readmissing,readnearmiss \
  --json="$work/whole.json" >"$work/whole.out"

echo "== 2 threads, 2 bloom_bits values"
"$db_bench" --num=2000 --reads=500 --threads=2 --bloom_bits=6,10 \
  --benchmarks=fillrandom,readrandom,readmissing,readnearmiss,seekrandom,readseq \
  --json="$work/threads.json" >"$work/threads.out"

echo "== no block cache"
"$db_bench" --num=2000 --reads=500 --cache_size=0 \
  --benchmarks=fillrandom,readrandom,readmissing,readnearmiss \
  --json="$work/caches.json" >"$work/caches.out"

if grep -q leveldb+bloomtable "$work/one.out"; then
  echo "== leveldb+bloomtable: the adapter takes per-block policies, skips Ribbon"
  "$db_bench" --num=2000 --engines=leveldb,leveldb+bloomtable \
    --filter=ribbon,cache_local_bloom,leveldb_bloom --bloom_bits=10 \
    --benchmarks=fillrandom,readrandom,readmissing,readnearmiss \
    --json="$work/adapter.json" >"$work/adapter.out"
  grep -q 'leveldb+bloomtable skips --filter=ribbon' "$work/adapter.out"
  adapter_json=("$work/adapter.json")
else
  adapter_json=()
fi

echo "== scans: sparse keys, every scan filter, every engine"
"$db_bench" --num=2000 --reads=500 --key_scheme=strided \
  --scan_filters=none,prefix,range --prefix_length=14 --seek_nexts=2 \
  --benchmarks=fillrandom,scanmissing,scanshort,seekrandom \
  --json="$work/scans.json" >"$work/scans.out"
"$db_bench" --num=2000 --reads=500 --key_scheme=random64 --engines=bloomtable \
  --scan_filters=none,range --benchmarks=fillrandom,scanmissing,scanshort \
  --json="$work/scans64.json" >"$work/scans64.out"

echo "== a store filled once, then read with --use_existing_db"
"$db_bench" --num=2000 --db="$work/db" --benchmarks=fillrandom >/dev/null
"$db_bench" --num=2000 --db="$work/db" --use_existing_db \
  --benchmarks=readrandom,readmissing,readnearmiss --json="$work/existing.json" \
  >"$work/existing.out"

"$check" "$work/one.json" "$work/filters.json" "$work/whole.json" \
  "$work/threads.json" "$work/caches.json" "$work/existing.json" \
  "$work/scans.json" "$work/scans64.json" \
  "${adapter_json[@]}"

echo "== usage errors exit 2"
expect_usage_error() {
  local status=0
  "$db_bench" "$@" >/dev/null 2>"$work/usage.err" || status=$?
  if [[ $status -ne 2 ]]; then
    echo "FAIL: db_bench $* exited $status, expected 2" >&2
    cat "$work/usage.err" >&2
    exit 1
  fi
}
expect_usage_error --num=100 --benchmarks=nosuchbenchmark
expect_usage_error --num=100 --benchmarks=readrandom
expect_usage_error --num=100 --bloom_bits=9.5 --filter=leveldb_bloom --engines=bloomtable
expect_usage_error --num=100 --filter=nosuchfilter
expect_usage_error --num=100 --filter=ribbon --filter_layout=per_block
expect_usage_error --num=100 --key_size=2
expect_usage_error --num=100 --use_existing_db
expect_usage_error --num=100 --cache_size=lots
expect_usage_error --num=100 --cache_size=8X
expect_usage_error --num=100 --threads=0
expect_usage_error --num=100 --cache_size=8M,64M
expect_usage_error --num=100 --io=direct
expect_usage_error --num=100 --stored_bits=0
expect_usage_error --num=100 --repeats=0
echo "db_bench smoke test passed"
