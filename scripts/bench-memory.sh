#!/usr/bin/env bash
# make bench-memory: peak RSS of `cardscan scan` for 10 and for 1,000 photos (the same photos
# listed again and again through --files-from), to show memory does not grow with the batch.
#
#   scripts/bench-memory.sh [DIR] [COUNT]     (default ../shared/eval/dev or Fixtures/Cards; 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-}
if [ -z "$DIR" ]; then
  if [ -d ../shared/eval/dev ]; then DIR=../shared/eval/dev; else DIR=Fixtures/Cards; fi
fi
COUNT=${2:-1000}
BIN=.build/release/cardscan
[ -x "$BIN" ] || { echo "bench-memory: build first (make build)" >&2; exit 2; }
mapfile -t FILES < <(find "$DIR" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | sort)
[ ${#FILES[@]} -gt 0 ] || { echo "bench-memory: no images in $DIR" >&2; exit 2; }
list() {  # the first N entries of the photos repeated
  local n=$1 i=0
  while [ $i -lt "$n" ]; do echo "${FILES[$((i % ${#FILES[@]}))]}"; i=$((i + 1)); done
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
run() {
  local n=$1
  list "$n" | /usr/bin/time -f "%M %e" -o "$TMP/time" "$BIN" scan --files-from - > /dev/null 2>/dev/null || true
  tail -1 "$TMP/time"
}
small=$(run 10)
large=$(run "$COUNT")
python3 - "$small" "$large" "$COUNT" <<'PY'
import sys
(s_rss, s_t), (l_rss, l_t), n = sys.argv[1].split(), sys.argv[2].split(), int(sys.argv[3])
s_rss, l_rss = int(s_rss) / 1024, int(l_rss) / 1024
print(f"peak RSS, 10 photos:   {s_rss:7.1f} MB  ({float(s_t):.1f} s)")
print(f"peak RSS, {n} photos: {l_rss:7.1f} MB  ({float(l_t):.1f} s, {n / float(l_t):.2f} cards/s)")
print(f"ratio {l_rss / s_rss:.3f} (target <= 1.10)")
PY
