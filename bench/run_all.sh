#!/usr/bin/env bash
# Takes every run behind BENCHMARKS.md, one JSON each in bench/results (the
# run commands below say what each holds), stamps each with the commit it
# was built from and how long it took, then bench/report.py writes
# BENCHMARKS.md and its plots from them. One page, one commit: a real run
# refuses uncommitted changes, and --only refuses to retake some JSON where
# the others are of another commit (BENCHMARKS.md decides no goal then).
#
# The peers are release builds (bench/build_peers.sh, cached in .cache/peers),
# and the benchmarks are built against them in build/release-peers
# (-DBLOOMTABLE_RELEASE_PEERS), so that the table-level rows call each
# peer's own lookup beside its public iterator.
#
#   bench/run_all.sh            # the first time 20-40 minutes more on an
#                               # idle 2-core machine to build the peers;
#                               # then about an hour and a half: the runs
#                               # behind the committed JSON recorded 80
#                               # minutes, the db_bench main and database
#                               # runs 40 of them (BENCHMARKS.md's Runs
#                               # section adds up what each run took)
#   bench/run_all.sh --only db,python   # retake only these JSON files
#   bench/run_all.sh --smoke --build-dir build/release --results DIR \
#       --report FILE --plots DIR   # the same at toy sizes, in seconds (CI)
#
# Run it on an idle machine: it refuses to start while the 1-minute load
# average is above 0.5 (after its own build it waits up to 5 minutes), and
# db_bench retakes any run during which other processes and CPU steal took
# more than 0.25 CPUs (MAX_FOREIGN_CPU=x; three attempts, then it stops). A
# JSON is moved into place only when its run succeeded.
set -euo pipefail
cd "$(dirname "$0")/.."

smoke=0
build_dir=build/release-peers
results=bench/results
report=BENCHMARKS.md
plots=bench
only=
while [[ $# -gt 0 ]]; do
  case $1 in
    --smoke) smoke=1 ;;
    --build-dir) build_dir=$2; shift ;;
    --results) results=$2; shift ;;
    --report) report=$2; shift ;;
    --plots) plots=$2; shift ;;
    --only) only=$2; shift ;;
    *) echo "run_all.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

# idle_or_exit SECONDS: waits up to SECONDS for the 1-minute load average to
# fall to 0.5 or below (a build just finished raises it), else stops.
idle_or_exit() {
  local waited=0 load
  while load=$(cut -d' ' -f1 /proc/loadavg) &&
      awk "BEGIN { exit !($load > 0.5) }"; do
    if [[ $waited -ge $1 ]]; then
      echo "run_all.sh: load average $load > 0.5: the machine is not idle" >&2
      exit 1
    fi
    sleep 10
    waited=$((waited + 10))
  done
}

if [[ $smoke -eq 0 ]]; then
  idle_or_exit 0
  peers=$(bench/build_peers.sh)
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBLOOMTABLE_RELEASE_PEERS="$peers" >/dev/null
  cmake --build "$build_dir" --target db_bench filter_bench compression_bench \
    _bloomtable cold_bench
  idle_or_exit 300
  # Sizes of the measurement: 1M keys for the lookups and builds (a run lasts
  # at least 1 s per engine and workload), 200k for the sweep (counts only).
  # Each lookup benchmark draws 1M keys before the clock starts; each further
  # pass draws new absent keys with the clock stopped (BENCHMARKS.md shows
  # how many absent lookups the block cache still served).
  num=1000000 reads=1000000 min_seconds=1 repeats=3
  pinned_num=2000 pinned_reads=20000
  reject=${MAX_FOREIGN_CPU:-0.25}
  sweep_num=200000 sweep_reads=500000 budgets=6,8,10,12,16
  filter_bench_flags=(--keys=100000,1000000 --repeats=5)
  cold_flags=(--keys=10000000 --bits_per_key=10 --repeats=3
    --filters=bloomtable/cache-local-bloom,bloomtable/ribbon,leveldb-1.23)
  profile_flags=(--num=1000000 --seconds=5)
  scale_nums="100000 1000000 10000000"
  compression_flags=(--runs=5)
  scan_num=200000
  cold_num=1000000 warm_num=10000000 cold_reads=20000
  cold_io_flags=(--num=$cold_num --reads=$cold_reads --runs=3)
  warm_io_flags=(--num=$warm_num --reads=$cold_reads --runs=3)
else
  num=20000 reads=5000 min_seconds=0 repeats=2 reject=-1
  pinned_num=200 pinned_reads=400
  sweep_num=20000 sweep_reads=5000 budgets=6,10,16
  filter_bench_flags=(--keys=20000 --bits_per_key=6,10 --repeats=1)
  cold_flags=(--keys=20000 --bits_per_key=10 --repeats=1
    --filters=bloomtable/cache-local-bloom,bloomtable/ribbon)
  profile_flags=(--num=20000 --seconds=0.2)
  scale_nums="2000 20000"
  compression_flags=(--blocks=64 --runs=1 --min_run_seconds=0)
  scan_num=5000
  cold_num=20000 warm_num=20000 cold_reads=1000
  cold_io_flags=(--num=$cold_num --reads=$cold_reads --runs=1)
  warm_io_flags=(--num=$warm_num --reads=$cold_reads --runs=1)
fi

db_bench=$build_dir/db_bench/db_bench
filter_bench=$build_dir/db_bench/filter_bench
compression_bench=$build_dir/db_bench/compression_bench
cold_bench=$build_dir/db_bench/cold_bench
# cold_bench's files: on the disk that holds the build tree (never a tmpfs:
# direct I/O must reach a device); its JSON names the device.
cold_dir=$build_dir/cold_io

# The peers' table-level rows: each peer's own lookup and its public
# iterator. The real run needs all four (release peers); a smoke run takes
# those its build has (Debian's packaged peers leave rocksdb_table out, and
# leveldb_table without LevelDB's source package).
built=$("$db_bench" --list_engines 2>/dev/null)
peer_tables=
for engine in leveldb_table leveldb_table_iterator rocksdb_table \
    rocksdb_sst_iterator; do
  if grep -qx "$engine" <<<"$built"; then
    peer_tables+=",$engine"
  elif [[ $smoke -eq 0 ]]; then
    echo "run_all.sh: $db_bench was built without $engine" >&2
    exit 1
  fi
done
# The peers' own table lookups where built, else their iterators.
own_tables=
for pair in leveldb_table:leveldb_table_iterator \
    rocksdb_table:rocksdb_sst_iterator; do
  if grep -qx "${pair%%:*}" <<<"$built"; then
    own_tables+=",${pair%%:*}"
  else
    own_tables+=",${pair##*:}"
  fi
done
rocksdb_own=${own_tables##*,}
mkdir -p "$results" "$plots"
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
dirty=false
if ! git diff --quiet HEAD -- . ':!bench/results' ':!BENCHMARKS.md' \
    ':!bench/*.svg' 2>/dev/null; then
  dirty=true
  if [[ $smoke -eq 0 ]]; then
    echo "run_all.sh: uncommitted changes: commit first, so that every JSON" \
      "names the code it ran" >&2
    exit 1
  fi
  echo "run_all.sh: uncommitted changes: the JSON will say so" >&2
fi
# One page, one commit: with --only, every JSON not retaken must already be
# of this commit, without uncommitted changes (BENCHMARKS.md would otherwise
# decide no goal).
if [[ -n $only ]]; then
  stale=$(python3 - "$results" "$only" "$commit" <<'EOF'
import glob, json, os, sys
results, only, commit = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
for path in sorted(glob.glob(os.path.join(results, "*.json"))):
    name = os.path.basename(path)[:-len(".json")]
    with open(path) as f:
        report = json.load(f)
    if name not in only and (report.get("commit") != commit or
                             report.get("dirty")):
        print(f"{name}.json ({str(report.get('commit'))[:7]}"
              f"{', dirty' if report.get('dirty') else ''})")
EOF
)
  if [[ -n $stale ]]; then
    echo "run_all.sh: not of commit ${commit:0:7}: $(echo $stale)." \
      "Retake them too (--only), or run at their commit." >&2
    exit 1
  fi
fi

# run NAME COMMAND...: runs COMMAND --json=TMP, stamps TMP with the commit
# and moves it to $results/NAME.json.
tmp=
trap '[[ -z $tmp ]] || rm -f "$tmp"' EXIT
run() {
  local name=$1
  shift
  if [[ -n $only && ",$only," != *",$name,"* ]]; then
    echo "=== $name: not retaken (--only $only)"
    return
  fi
  tmp=$(mktemp "$results/.$name.XXXXXX")
  echo "=== $name: $*"
  local started=$SECONDS
  if ! "$@" --json="$tmp"; then
    rm -f "$tmp"
    echo "run_all.sh: $name failed; $results/$name.json left as it was" >&2
    exit 1
  fi
  python3 - "$tmp" "$commit" "$dirty" $((SECONDS - started)) <<'EOF'
import json, sys
path, commit, dirty = sys.argv[1], sys.argv[2], sys.argv[3] == "true"
with open(path) as f:
    report = json.load(f)
report["commit"] = commit
report["dirty"] = dirty
report["run_all_seconds"] = int(sys.argv[4])
with open(path, "w") as f:
    json.dump(report, f, indent=1)
    f.write("\n")
EOF
  mv "$tmp" "$results/$name.json"
  tmp=
}

common=(--repeats=$repeats --max_foreign_cpu=$reject --cache_size=8M)
filters=(--filter=cache_local_bloom,ribbon --filter_layout=per_block,whole_table)
# Like-for-like point lookups, table and db level, pread and mmap, every
# filter at 10 stored bits/key; every bloomtable row at db_bench's automatic
# index restart interval: 1 for the per-block layout (leveldb_bloom
# per_block is the LevelDB-compatible row), 16 for the whole-table one.
run main "$db_bench" "${common[@]}" --filter=leveldb_bloom,cache_local_bloom,ribbon \
  --filter_layout=per_block,whole_table --num=$num \
  --reads=$reads --min_seconds=$min_seconds --stored_bits=10 --io=pread,mmap \
  --engines=bloomtable$peer_tables,leveldb,leveldb+bloomtable,rocksdb \
  --compare_no_filter=false \
  --benchmarks=fillrandom,readrandom,readmissing,readnearmiss,readunrelated,readseq
# The read-only database rows: bloomtable's Database view without and with
# sidecar filters (Ribbon, whole-table, at 10 stored bits per key) and a
# leveldb::DB (leveldb_dir, measured once the compactions its open started
# are done) on copies of one directory that LevelDB wrote with its default
# options and its Bloom at 10 bits per key, and RocksDB opened read-only on
# its own compacted database of the same keys (Bloom and Ribbon at the
# sidecars' 10 stored bits per key). seekrandom: a Seek, then 16 Nexts.
db_rows=(--num=$num --reads=$reads --min_seconds=$min_seconds --stored_bits=10
  --io=pread,mmap --filter=ribbon --filter_layout=whole_table
  --engines=bloomtable_db,bloomtable_db+sidecars,leveldb_dir,rocksdb_readonly
  --compare_no_filter=false --seek_nexts=16
  --benchmarks=fillrandom,readrandom,readmissing,readnearmiss,readunrelated,seekrandom,readseq)
run db "$db_bench" "${common[@]}" "${db_rows[@]}"
# The same on a layout that no reader changes: LevelDB compacted every key
# into one level, its live log empty.
run db_compacted "$db_bench" "${common[@]}" "${db_rows[@]}" \
  --leveldb_source=compacted
# The view's present-key, scan and seek rows again with checksums verified
# on no side, on both layouts.
unverified_rows=(--num=$num --reads=$reads --min_seconds=$min_seconds
  --stored_bits=10 --io=pread,mmap --filter=ribbon --filter_layout=whole_table
  --engines=bloomtable_db,leveldb_dir --compare_no_filter=false
  --seek_nexts=16 --verify_checksum=false
  --benchmarks=fillrandom,readrandom,seekrandom,readseq)
run db_unverified "$db_bench" "${common[@]}" "${unverified_rows[@]}"
run db_compacted_unverified "$db_bench" "${common[@]}" \
  "${unverified_rows[@]}" --leveldb_source=compacted
# The zero-copy Get (readpinned) beside the copying one (readrandom): 64 KiB
# values, a block cache holding every block, an untimed pass over the keys
# first; bloomtable's table and view, and RocksDB's read-only DB.
run pinned "$db_bench" "${common[@]}" --num=$pinned_num --value_size=65536 \
  --reads=$pinned_reads --min_seconds=$min_seconds --cache_size=256M \
  --warm_up --io=pread,mmap --stored_bits=10 --filter=ribbon \
  --filter_layout=whole_table --rocksdb_filters=bloom \
  --compare_no_filter=false --engines=bloomtable,bloomtable_db,rocksdb_readonly \
  --benchmarks=fillrandom,readrandom,readpinned
# Bulk builds of one table, with and without a filter; false positives at
# each stored budget; the filters alone.
run build "$db_bench" "${common[@]}" "${filters[@]}" --num=$num \
  --stored_bits=10 --engines=bloomtable$own_tables \
  --compare_no_filter=true --benchmarks=fillseq
run sweep "$db_bench" "${common[@]}" "${filters[@]}" --num=$sweep_num \
  --reads=$sweep_reads --stored_bits=$budgets \
  --engines=bloomtable,leveldb,$rocksdb_own --compare_no_filter=false \
  --benchmarks=fillseq,readmissing,readnearmiss,readunrelated
run filter_bench "$filter_bench" "${filter_bench_flags[@]}"
# A probe whose line is not in L1 or L2: one filter over 10^7 keys (12 MB at
# 10 bits/key, three times this machine's L2).
run filter_bench_cold "$filter_bench" "${cold_flags[@]}"
# cold_bench's engines (cold_io and warm_io below, and their profiles).
# Table level: bloomtable's table and RocksDB's (TableReader, where built);
# db level: the view with sidecars on a LevelDB directory of the same keys
# compacted into one level, and RocksDB's read-only DB.
cold_engines=bloomtable
if grep -qx rocksdb_table <<<"$built"; then cold_engines+=,rocksdb_table; fi
cold_engines+=,rocksdb_readonly,bloomtable_db+sidecars
mkdir -p "$cold_dir"
# Where a lookup's time goes: perf's shares of table- and database-level
# lookups and scans, of cold_bench's database-level MultiGet (writing the
# files cold_io and warm_io then reuse), and, in the real run, of the
# Python package's view against plyvel. A smoke run goes on without it
# where perf cannot record (a container without perf_event_open); the real
# run needs it.
profile_python=()
if [[ $smoke -eq 0 ]]; then profile_python=(--python_path="$build_dir/python"); fi
perf_probe=$(mktemp)
if [[ $smoke -eq 0 ]] || perf record -q -e cpu-clock -o "$perf_probe" true \
    >/dev/null 2>&1; then
  run profile python3 bench/profile.py --db_bench="$db_bench" \
    "${profile_flags[@]}" --pinned_num=$pinned_num --cold_bench="$cold_bench" \
    --cold_dir="$cold_dir" --cold_engines=$cold_engines \
    --cold_num=$cold_num --warm_num=$warm_num --cold_reads=$cold_reads \
    "${profile_python[@]}"
else
  echo "run_all.sh: perf cannot record here; smoke run without profile.json"
fi
rm -f "$perf_probe"
# Scale: bloomtable's whole-table Ribbon (and partitioned Ribbon) against
# RocksDB's table-level filters at 7.2 stored bits/key (about 1% false
# positives for a Ribbon filter), at each size.
for n in $scale_nums; do
  run "scale_$n" "$db_bench" "${common[@]}" --filter=ribbon \
    --filter_layout=whole_table,partitioned --index_block_restart_interval=16 \
    --num=$n --reads=$reads --min_seconds=$min_seconds --stored_bits=7.2 \
    --engines=bloomtable,$rocksdb_own --compare_no_filter=false \
    --benchmarks=fillseq,readrandom,readmissing,readnearmiss,readunrelated
done
run compression "$compression_bench" "${compression_flags[@]}"
# Cold lookups, then warm ones at 10^7 keys (no raw reads: --depths=), of
# cold_engines. Each reuses its files from an earlier run of the same size.
run cold_io "$cold_bench" "${cold_io_flags[@]}" --dir="$cold_dir" \
  --use_existing --engines=$cold_engines
run warm_io "$cold_bench" "${warm_io_flags[@]}" --dir="$cold_dir" \
  --use_existing --cold=false --depths= --engines=$cold_engines
# Scans over sparse keys: 16-digit decimal keys 128 apart (a 12-digit prefix
# holds 78 keys) and random 64-bit big-endian keys (5-byte prefix); no scan
# filter, a prefix filter, a range filter; 64-number ranges.
for scheme in strided random64; do
  if [[ $scheme == strided ]]; then prefix=12; else prefix=5; fi
  run "scan_$scheme" "$db_bench" "${common[@]}" --num=$scan_num \
    --reads=$reads --min_seconds=$min_seconds --key_scheme=$scheme \
    --scan_filters=none,prefix,range --prefix_length=$prefix \
    --scan_length=64 --range_bits=16 --compare_no_filter=false \
    --engines=bloomtable$own_tables,leveldb,rocksdb \
    --benchmarks=fillseq,scanmissing,scanshort,seekrandom
done

# python.json: the Python package against plyvel (Debian's, on its packaged LevelDB) and
# the database view, from Python: the real run only (the module of an
# instrumented build cannot be loaded by a plain interpreter).
if [[ $smoke -eq 0 ]]; then
  run python env PYTHONPATH="$build_dir/python" /usr/bin/python3 \
    python/bench/bench_python.py --keys=1000000 --lookups=200000 --repeats=3
fi

python3 bench/report.py --results "$results" --output "$report" \
  --plots "$plots"
echo "run_all.sh: wrote $report and $plots/fp_vs_bits.svg, $plots/latency.svg"
