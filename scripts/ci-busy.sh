#!/usr/bin/env bash
# .ci/run on a fresh clone of this checkout's main while the other core is busy: the check that
# the suite holds on a loaded 2-core machine (CI's own machine size).
#   bash scripts/ci-busy.sh DIR            one run in DIR (a fresh clone) beside a busy-loop
#   bash scripts/ci-busy.sh DIR --no-spin  no busy-loop: for two runs at once, each the other's load
#   CI_BUSY_COMMIT=<rev> bash scripts/ci-busy.sh DIR   that commit instead of main's tip (runs in a
#                                          row on one commit while main moves on)
# Prints the run's output and its last line: "== ci-busy: exit N in S s (commit)".
set -uo pipefail
dir=${1:?usage: ci-busy.sh DIR [--no-spin]}
src=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$dir"
git clone -q "$src" "$dir" && cd "$dir" || exit 2
if [ -n "${CI_BUSY_COMMIT:-}" ]; then git checkout -q "$CI_BUSY_COMMIT" || exit 2; fi
commit=$(git log --oneline -1 | cut -c1-7)
spin=""
if [ "${2:-}" != "--no-spin" ]; then node -e 'for(;;);' & spin=$!; fi
trap '[ -n "$spin" ] && kill $spin 2>/dev/null' EXIT
start=$(date +%s)
CI=true bash .ci/run </dev/null
rc=$?
echo "== ci-busy: exit $rc in $(( $(date +%s) - start )) s ($commit)"
exit $rc
