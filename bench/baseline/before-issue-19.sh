#!/usr/bin/env bash
# The product as it was before issue 19's changes (d4c80b1), measured by the bench of that
# day with what today's bench added to its send phase: the databases analysed first, a
# 5 s warm-up at the same rate, and the CPU per send of each service printed
# (d4c80b1-send-cpu.patch). Run it beside `npm run bench` on the same machine, one after
# the other and alternated, to compare today's figures with that starting point
# (docs/benchmarks.md, session 53). The old checkout is a git worktree outside this one,
# with its own install and build: no file of this checkout changes, and
# `git worktree remove <directory>` drops it when done.
#   bash bench/baseline/before-issue-19.sh [directory]   (default: $TMPDIR/esign-before-issue-19)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(git -C "$here" rev-parse --show-toplevel)"
dir="${1:-${TMPDIR:-/tmp}/esign-before-issue-19}"
ready="$dir/.before-issue-19-ready"
if [ ! -f "$ready" ]; then
  if [ -e "$dir" ]; then
    echo "$dir exists but was not set up to the end: remove it (git worktree remove --force $dir) and run again" >&2
    exit 1
  fi
  git -C "$root" worktree add --detach "$dir" d4c80b1
  git -C "$dir" apply "$here/d4c80b1-send-cpu.patch"
  (cd "$dir" && npm ci --no-audit --no-fund && npm run build)
  touch "$ready"
fi
cd "$dir"
BENCH_SEND_SECONDS="${BENCH_SEND_SECONDS:-30}" exec node --conditions=source --import=tsx bench/system.bench.ts
