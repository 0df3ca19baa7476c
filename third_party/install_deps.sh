#!/usr/bin/env bash
# Installs the Debian packages that bloomtable's build, tests and benchmarks need,
# only those that are missing. Runs `apt-get update` at most once. Re-runnable.
#
#   third_party/install_deps.sh          # everything (library, tests, peers, tools)
#   BLOOMTABLE_NO_PEERS=1 third_party/install_deps.sh   # without LevelDB/RocksDB
set -euo pipefail

packages=(
  # build tools
  cmake ninja-build g++ clang pkg-config ccache clang-format
  # library dependencies
  libabsl-dev libsnappy-dev libxxhash-dev libisal-dev nlohmann-json3-dev
  # block compression of other LevelDB variants (and bloomtable's zstd)
  zlib1g-dev libzstd-dev liblz4-dev libbz2-dev
  # io_uring for batched reads (RandomAccessFile::MultiRead)
  liburing-dev
  # tests
  libgtest-dev libgmock-dev
  # sanitizer and libFuzzer runtimes for clang 14
  libclang-rt-14-dev
  # BENCHMARKS.md and its plots from db_bench's JSON (bench/report.py), and
  # the perf profiles of bench/profile.py
  gnuplot-nox python3 linux-perf
  # the Python package (python/): the extension, its pytest suite, and
  # plyvel for its benchmark against LevelDB (python/bench/)
  pybind11-dev python3-dev python3-pytest python3-hypothesis python3-plyvel
)
if [[ -z "${BLOOMTABLE_NO_PEERS:-}" ]]; then
  # peer engines: tests and benchmarks only, never linked by the library
  packages+=(libleveldb-dev librocksdb-dev rocksdb-tools)
  # dpkg-source, for bench/build_peers.sh's apt-get source of the peers
  packages+=(dpkg-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "install_deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
