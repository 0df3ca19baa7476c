#!/usr/bin/env bash
# Installs the Debian packages that bloomtable's build, tests and benchmarks need,
# only those that are missing. Runs `apt-get update` at most once. Then makes the
# Python test environment, .cache/python-venv: a virtual environment of Debian's
# /usr/bin/python3 (the interpreter the Python package is built for) holding the
# pinned test requirements from PyPI (pyproject.toml; ctest's python_tests runs in
# it). Re-runnable: the environment is made again only when the pins change.
#
#   third_party/install_deps.sh          # everything (library, tests, peers, tools)
#   BLOOMTABLE_NO_PEERS=1 third_party/install_deps.sh   # without LevelDB/RocksDB
#   BLOOMTABLE_NO_PYPI=1 third_party/install_deps.sh    # no test environment: for a
#       machine without PyPI; python_tests then fails, saying that it is missing
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

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
  # the Python package (python/): the extension, the virtual environment of
  # its tests (below), and plyvel on Debian's LevelDB for its benchmark
  # (python/bench/) and the installed-package checks of .ci/run
  pybind11-dev python3-dev python3-venv python3-pytest python3-hypothesis
  python3-plyvel
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

if ((${#missing[@]} > 0)); then
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  echo "install_deps: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# The Python test environment.
if [[ -n "${BLOOMTABLE_NO_PYPI:-}" ]]; then
  echo "install_deps: BLOOMTABLE_NO_PYPI is set: no Python test environment" >&2
  exit 0
fi
venv="$root/.cache/python-venv"
requirements="$(/usr/bin/python3 "$root/python/requirements.py" test)"
stamp="$(printf '%s\n' "$requirements" | sha256sum | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" && "$(cat "$venv/.requirements-sha256" 2>/dev/null)" == "$stamp" ]]; then
  exit 0
fi
echo "install_deps: making the Python test environment $venv (pinned requirements from PyPI)" >&2
rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
if ! printf '%s\n' "$requirements" |
    "$venv/bin/pip" install --disable-pip-version-check -q -r /dev/stdin >&2; then
  rm -rf "$venv"
  echo "install_deps: could not install the Python test requirements from PyPI" \
    "(is it reachable?). The Python tests (ctest's python_tests) need them and fail" \
    "without them. Set BLOOMTABLE_NO_PYPI=1 to install the rest without them." >&2
  exit 1
fi
echo "$stamp" > "$venv/.requirements-sha256"
