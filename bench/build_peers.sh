#!/usr/bin/env bash
# Builds the benchmark's peers, LevelDB and RocksDB, as their users build them
# for production, from Debian's source packages of the very versions that
# Debian ships as binaries (so the packaged and the release peer differ only
# in how they were built):
#
#   CMAKE_BUILD_TYPE=Release (NDEBUG on), baseline x86-64 (PORTABLE=ON for
#   RocksDB, as Debian builds it; bloomtable's build uses no -march either),
#   Snappy on, tests, benchmarks and tools off, otherwise the options of the
#   package's debian/rules (FAIL_ON_WARNINGS=OFF, the same compression
#   libraries). RocksDB is built with liburing (its CMake default, which
#   Debian's package misses only because liburing is not among its build
#   dependencies): its MultiGet reads a batch's blocks through io_uring then,
#   as a user who cares about MultiGet builds it. RocksDB is built as a static archive: db_bench's rocksdb_table
#   row calls its internal TableReader::Get, which must be compiled with the
#   library's own definitions and linked to that very build.
#
# LevelDB's hardware CRC32C needs Google's crc32c library, which Debian 12 does
# not ship: LevelDB computes CRC32C in software on Debian, as its users get it,
# in both builds.
#
#   bench/build_peers.sh             # fetch and build; prints the prefix
#   bench/build_peers.sh --fetch     # only download and unpack the sources
#   bench/build_peers.sh --print     # print the prefix it would use
#
# Sources go to .cache/peers/src/<package>-<version>/; each build goes to
# .cache/peers/<key>/ (installed under <key>/prefix), where <key> names both
# versions, a hash of the flags below and of the compiler's version, so a
# change of any of them builds anew and an unchanged one is never rebuilt.
# Takes 20-40 minutes on an idle 2-core machine (RocksDB is most of it).
# Configure bloomtable against the result with
#   cmake --preset release -DBLOOMTABLE_RELEASE_PEERS=$(bench/build_peers.sh --print)
#
# apt-get source needs deb-src entries: where the machine has none, this adds
# /etc/apt/sources.list.d/bloomtable-deb-src.sources, the machine's own Debian
# entries with their type changed to deb-src (it names no host of its own),
# and runs apt-get update. dpkg-source (dpkg-dev) comes from
# third_party/install_deps.sh, which it runs if dpkg-source is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

mode=build
case ${1:-} in
  "") ;;
  --fetch) mode=fetch ;;
  --print) mode=print ;;
  *) echo "build_peers.sh: unknown argument $1" >&2; exit 2 ;;
esac

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi

# The binary packages' versions: the sources fetched are these versions.
pkg_version() { dpkg-query -W -f='${source:Version}' "$1" 2>/dev/null; }
leveldb_version=$(pkg_version libleveldb-dev)
rocksdb_version=$(pkg_version librocksdb-dev)
if [[ -z $leveldb_version || -z $rocksdb_version ]]; then
  echo "build_peers.sh: libleveldb-dev and librocksdb-dev must be installed" \
    "(third_party/install_deps.sh)" >&2
  exit 1
fi

jobs=${PEER_BUILD_JOBS:-$(nproc)}
common_flags=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
leveldb_flags=(-DBUILD_SHARED_LIBS=OFF -DLEVELDB_BUILD_TESTS=OFF
  -DLEVELDB_BUILD_BENCHMARKS=OFF -DLEVELDB_INSTALL=ON)
rocksdb_flags=(-DPORTABLE=ON -DFAIL_ON_WARNINGS=OFF -DWITH_SNAPPY=ON
  -DWITH_LZ4=ON -DWITH_ZLIB=ON -DWITH_ZSTD=ON -DWITH_BZ2=ON -DWITH_GFLAGS=OFF
  -DWITH_TESTS=OFF -DWITH_BENCHMARK_TOOLS=OFF -DWITH_TOOLS=OFF
  -DWITH_CORE_TOOLS=OFF -DWITH_TRACE_TOOLS=OFF -DWITH_JNI=OFF
  -DROCKSDB_BUILD_SHARED=OFF -DWITH_LIBURING=ON -DUSE_RTTI=ON
  -DCMAKE_INSTALL_LIBDIR=lib)
compiler=$(c++ --version | head -n1)
key_text="leveldb=$leveldb_version rocksdb=$rocksdb_version
${common_flags[*]} ${leveldb_flags[*]} ${rocksdb_flags[*]}
$compiler"
key_hash=$(printf '%s' "$key_text" | sha256sum | cut -c1-12)
key="leveldb-${leveldb_version}_rocksdb-${rocksdb_version}_$key_hash"
cache=$root/.cache/peers
prefix=$cache/$key/prefix
if [[ $mode == print ]]; then
  echo "$prefix"
  exit 0
fi

# Adds deb-src entries mirroring the machine's Debian deb entries.
ensure_deb_src() {
  if apt-cache showsrc leveldb 2>/dev/null | grep -q '^Package:'; then
    return
  fi
  local out=/etc/apt/sources.list.d/bloomtable-deb-src.sources
  local tmp
  tmp=$(mktemp)
  # deb822 files: every stanza of type deb becomes a deb-src stanza.
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -e $f && $f != "$out" ]] || continue
    grep -qi '^URIs:.*debian' "$f" || continue
    awk 'BEGIN { RS = ""; ORS = "\n\n" }
      /(^|\n)Types:[^\n]*deb([ \n]|$)/ && /URIs:[^\n]*debian/ {
        gsub(/(^|\n)#[^\n]*/, "")
        sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f" >>"$tmp"
  done
  # One-line sources.list entries.
  if [[ -e /etc/apt/sources.list ]]; then
    local lines
    lines=$(sed -n 's/^deb \(.*debian.*\)$/deb-src \1/p' /etc/apt/sources.list)
    if [[ -n $lines ]]; then
      printf '%s\n' "$lines" >"${out%.sources}.list.tmp"
    fi
  fi
  if [[ -s $tmp ]]; then
    $sudo install -m 644 "$tmp" "$out"
  fi
  if [[ -s ${out%.sources}.list.tmp ]]; then
    $sudo install -m 644 "${out%.sources}.list.tmp" "${out%.sources}.list"
    rm -f "${out%.sources}.list.tmp"
  fi
  rm -f "$tmp"
  echo "build_peers.sh: added deb-src entries; apt-get update" >&2
  $sudo apt-get update -qq
}

# fetch PACKAGE VERSION: unpacks the source package into src/PACKAGE-VERSION.
fetch() {
  local dir=$cache/src/$1-$2
  if [[ -e $dir/debian/rules ]]; then
    return
  fi
  if ! command -v dpkg-source >/dev/null; then
    third_party/install_deps.sh
  fi
  ensure_deb_src
  local work
  work=$(mktemp -d "$cache/src/.fetch.XXXXXX")
  (cd "$work" && apt-get source -qq "$1=$2" >&2)
  local unpacked
  unpacked=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n1)
  mv "$unpacked" "$dir"
  rm -rf "$work"
}

mkdir -p "$cache/src"
fetch leveldb "$leveldb_version"
fetch rocksdb "$rocksdb_version"
echo "build_peers.sh: sources in $cache/src" >&2
if [[ $mode == fetch ]]; then
  exit 0
fi

# describe: writes what db_bench needs beside the installed peers (internal
# headers, RocksDB's compile definitions) and prefix/peers.env, which
# cmake/Peers.cmake reads. Cheap and idempotent: runs after every build and
# on every later call.
describe() {
  local lsrc=$cache/src/leveldb-$leveldb_version
  local rsrc=$cache/src/rocksdb-$rocksdb_version
  # LevelDB's internal headers (db/, table/, util/, port/) for db_bench's
  # leveldb_table row (TableCache, Table::InternalGet); port_config.h is
  # generated by the build.
  if [[ ! -e $prefix/src/leveldb/port/port_config.h ]]; then
    mkdir -p "$prefix/src/leveldb"
    (cd "$lsrc" && cp -r db table util port helpers "$prefix/src/leveldb/")
    cp "$cache/$key/build-leveldb/include/port/port_config.h" \
      "$prefix/src/leveldb/port/"
  fi
  # RocksDB's internal headers for TableReader::Get (table/, db/, ...).
  if [[ ! -e $prefix/src/rocksdb/table/table_reader.h ]]; then
    mkdir -p "$prefix/src/rocksdb"
    (cd "$rsrc" &&
      find . -name '*.h' -not -path './debian/*' -not -path './java/*' \
        -not -path './.pc/*' -print0 |
      xargs -0 cp --parents -t "$prefix/src/rocksdb/")
  fi
  # The -D definitions RocksDB compiled its table reader with: code that
  # includes its internal headers must see the same ones (NDEBUG among them
  # changes the layout of some of its classes).
  local defines
  defines=$(awk '/^build [^:]*block_based_table_reader\.cc\.o:/ { on = 1; next }
    on && /^build / { exit }
    on && /^ *(DEFINES|FLAGS) = / { print }' \
    "$cache/$key/build-rocksdb/build.ninja" |
    tr ' ' '\n' | grep '^-D' | sort -u | tr '\n' ' ')
  local leveldb_crc32c=0
  if grep -q '^#define HAVE_CRC32C 1' "$prefix/src/leveldb/port/port_config.h"
  then
    leveldb_crc32c=1
  fi
  cat >"$prefix/peers.env" <<EOF
LEVELDB_VERSION=$leveldb_version
ROCKSDB_VERSION=$rocksdb_version
LEVELDB_HAVE_CRC32C=$leveldb_crc32c
ROCKSDB_DEFINITIONS=${defines% }
COMPILER=$compiler
KEY=$key
EOF
}

if [[ -e $cache/$key/done ]]; then
  describe
  echo "$prefix"
  exit 0
fi
# An unfinished build (stopped, or the machine busy) resumes where it stopped:
# the same key means the same flags, and ninja rebuilds only what is missing.
mkdir -p "$cache/$key"
start=$(date +%s)
# build NAME FLAGS...: configures, builds and installs one peer into prefix.
build() {
  local name=$1 version=$2
  shift 2
  local src=$cache/src/$name-$version bld=$cache/$key/build-$name
  # With no CMAKE_CXX_FLAGS of its own the build uses CMake's Release flags
  # (-O3 -DNDEBUG), as a user's Release build does.
  cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_INSTALL_PREFIX="$prefix" \
    "${common_flags[@]}" "$@" >"$cache/$key/$name.configure.log"
  cmake --build "$bld" -j "$jobs" >"$cache/$key/$name.build.log"
  cmake --install "$bld" >"$cache/$key/$name.install.log"
}
build leveldb "$leveldb_version" "${leveldb_flags[@]}"
build rocksdb "$rocksdb_version" "${rocksdb_flags[@]}"
printf '%s\nbuild seconds: %d\n' "$key_text" $(($(date +%s) - start)) \
  >"$cache/$key/key.txt"
touch "$cache/$key/done"
describe
echo "$prefix"
