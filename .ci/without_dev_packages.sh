#!/usr/bin/env bash
# CI: runs a command as it would run on a machine without any Debian -dev
# package: in a private mount namespace (unshare, as root) where
# /usr/include is an empty tmpfs and every other regular file of every
# installed *-dev package (static libraries, pkg-config and CMake files,
# headers elsewhere) is an empty file. Runtime libraries stay: they belong to
# the runtime packages. The unversioned .so links of the -dev packages stay
# too (a mount would land on the library they name); the dynamic loader
# never opens them, and without headers nothing can build against them.
# Before the command runs it checks that a header of every hidden package is
# gone, so that a namespace that hid nothing fails rather than passes.
#
#   .ci/without_dev_packages.sh COMMAND [ARG...]
set -euo pipefail
[[ $# -gt 0 ]] || { echo "usage: $0 COMMAND [ARG...]" >&2; exit 2; }

if [[ "${BLOOMTABLE_IN_DEV_FREE_NAMESPACE:-}" != 1 ]]; then
  export BLOOMTABLE_IN_DEV_FREE_NAMESPACE=1
  exec unshare --mount --propagation private "$0" "$@"
fi

mapfile -t packages < <(dpkg-query -W -f='${db:Status-Status} ${Package}\n' |
  awk '$1 == "installed" && $2 ~ /-dev$/ { print $2 }')
[[ ${#packages[@]} -gt 0 ]] || { echo "$0: no -dev package is installed: nothing to hide" >&2; exit 1; }

mount -t tmpfs -o ro,size=1m none /usr/include
hidden=0
while IFS= read -r file; do
  [[ $file == /usr/include/* || -L $file || ! -f $file ]] && continue
  mount --bind /dev/null "$file"
  hidden=$((hidden + 1))
done < <(dpkg -L "${packages[@]}" 2>/dev/null | sort -u)

# Every header the -dev packages shipped is gone.
while IFS= read -r header; do
  if [[ -s $header ]]; then
    echo "$0: $header is still readable: the namespace hid nothing" >&2
    exit 1
  fi
done < <(dpkg -L "${packages[@]}" 2>/dev/null | grep -E '\.(h|hpp)$' | head -200)
echo "without -dev packages: ${#packages[@]} packages hidden (/usr/include and $hidden other files)"
exec "$@"
