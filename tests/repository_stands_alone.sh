#!/usr/bin/env bash
# The repository stands alone: no code, comment, doc or CI file cites design
# notes or issue numbers that live outside it. Decisions are written in
# docs/ in the project's own words. Usage: repository_stands_alone.sh SOURCE_DIR
set -euo pipefail
cd "$1"
# Issue numbers (#12, "issue 9"), numbered decisions of an outside design
# page, and paths outside the repository. Colours such as #1f77b4 do not
# match: a citation's digits end the word; nor do C++ symbols in profiles
# such as "{lambda()#1}", where the number follows a parenthesis. Ignored
# directories that hold other projects' files are not searched: build trees
# and .cache (bench/build_peers.sh's Debian source packages of the peers).
pattern='(^|[^[:alnum:]&/)])#[0-9]{1,3}\b|[Ii]ssue #?[0-9]|[Dd]ecisions? [0-9]|\.\./shared|/work/shared'
if grep -rnE "$pattern" \
    --include='*.cc' --include='*.h' --include='*.md' --include='*.txt' \
    --include='*.cmake' --include='*.sh' --include='*.json' --include='*.in' \
    --include='*.py' --include='*.pyi' \
    --include='run' \
    --exclude-dir=build --exclude-dir=.git --exclude-dir=testdata \
    --exclude-dir=.cache . \
    | grep -v '^./tests/repository_stands_alone.sh:'; then
  echo "repository_stands_alone: the lines above cite something outside the repository" >&2
  exit 1
fi
echo "repository_stands_alone: no outside citations"
