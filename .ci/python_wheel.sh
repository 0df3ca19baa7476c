#!/usr/bin/env bash
# CI: the Python package as a user installs it. Builds the wheel
# (python -m build, scikit-build-core over the CMake build, pyproject.toml),
# repairs it with auditwheel into a manylinux wheel that carries the shared
# libraries it needs, checks that the extension and the tool need nothing else
# (every library they link is one the manylinux policy allows or one the wheel
# bundles), installs it into a fresh virtual environment of Debian's python3
# and runs the whole pytest suite there against the installed copy, with
# every Debian -dev package's files hidden (.ci/without_dev_packages.sh): from a
# directory where the source tree's package is not importable, with the
# `bloomtable` console entry point as the tool, and a test asserting that
# bloomtable.__file__ lies in that environment.
#
# Needs PyPI (the build requirements, the wheel tools and the test
# requirements, all pinned in pyproject.toml): where PyPI cannot be reached
# it stops with a message saying so, and CI fails.
#
#   .ci/python_wheel.sh [WORK_DIR]     # default: a temporary directory
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
fail() { echo ".ci/python_wheel.sh: $*" >&2; exit 1; }
policy=manylinux_2_36_x86_64

pip_install() {  # VENV REQUIREMENTS...
  local venv=$1
  shift
  printf '%s\n' "$@" | "$venv/bin/pip" install --disable-pip-version-check -q -r /dev/stdin ||
    fail "could not install $* from PyPI (is it reachable?): the wheel stage needs it"
}

echo "--- wheel tools ($work/tools) (${SECONDS}s)"
/usr/bin/python3 -m venv "$work/tools"
mapfile -t wheel_tools < <(/usr/bin/python3 "$root/python/requirements.py" wheel)
pip_install "$work/tools" "${wheel_tools[@]}"

echo "--- python -m build --wheel (${SECONDS}s)"
rm -rf "$work/dist" "$work/wheelhouse"
(cd "$root" && "$work/tools/bin/python" -m build --wheel --outdir "$work/dist" .) \
  > "$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "the wheel did not build (log: $work/build.log)"; }
built=("$work"/dist/bloomtable-*.whl)
[[ -f "${built[0]}" ]] || fail "python -m build made no wheel"
echo "built ${built[0]##*/}"

echo "--- auditwheel repair --plat $policy (${SECONDS}s)"
PATH="$work/tools/bin:$PATH" "$work/tools/bin/auditwheel" repair --plat "$policy" -w "$work/wheelhouse" "${built[0]}" \
  > "$work/repair.log" 2>&1 || { cat "$work/repair.log"; fail "auditwheel repair failed"; }
wheel=("$work"/wheelhouse/bloomtable-*"$policy"*.whl)
[[ -f "${wheel[0]}" ]] || fail "auditwheel wrote no $policy wheel"
"$work/tools/bin/auditwheel" show "${wheel[0]}"

echo "--- the wheel's ELF files need only allowed or bundled libraries (${SECONDS}s)"
"$work/tools/bin/python" "$root/.ci/check_wheel_libraries.py" "${wheel[0]}" "$policy"

echo "--- fresh virtual environment ($work/venv): the wheel, then the test requirements (${SECONDS}s)"
rm -rf "$work/venv"
/usr/bin/python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --disable-pip-version-check -q "${wheel[0]}" ||
  fail "the wheel does not install"
mapfile -t test_requirements < <(/usr/bin/python3 "$root/python/requirements.py" test)
pip_install "$work/venv" "${test_requirements[@]}"
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')

echo "--- pytest against the installed package, every -dev package hidden (${SECONDS}s)"
mkdir -p "$work/run"
(cd "$work/run" &&
  CI=true PYTHONDONTWRITEBYTECODE=1 \
  BLOOMTABLE_TOOL="$work/venv/bin/bloomtable" \
  BLOOMTABLE_EXPECT_PACKAGE_IN="$site/bloomtable" \
  "$root/.ci/without_dev_packages.sh" \
  "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests")
echo "--- the README's pip install . into another fresh environment (${SECONDS}s)"
rm -rf "$work/venv-pip"
/usr/bin/python3 -m venv "$work/venv-pip"
(cd "$root" && "$work/venv-pip/bin/pip" install --disable-pip-version-check -q .) \
  > "$work/pip.log" 2>&1 || { tail -40 "$work/pip.log"; fail "pip install . failed (log: $work/pip.log)"; }
(cd "$work/run" && "$work/venv-pip/bin/python" -c \
  'import bloomtable, sys; assert bloomtable.__file__.startswith(sys.prefix), bloomtable.__file__' &&
  "$work/venv-pip/bin/bloomtable" --version) || fail "the package pip install . made does not import or run"
echo "python wheel: ${wheel[0]##*/} installs and passes the suite in a fresh environment without -dev packages (${SECONDS}s)"
