#!/usr/bin/env bash
# make eval: scans photos with known contents and scores the records, field by field.
#   - Fixtures/Cards against Fixtures/Cards/expected.jsonl, with scripts/score.py (same rules);
#   - ../shared/eval/dev, when it is beside the checkout, with its own ../shared/eval/score.py.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/cardscan
[ -x "$BIN" ] || { echo "eval: build first (make build)" >&2; exit 2; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
echo "== Fixtures/Cards"
"$BIN" scan Fixtures/Cards > "$OUT/fixtures.jsonl" || true
python3 scripts/score.py Fixtures/Cards/expected.jsonl "$OUT/fixtures.jsonl"
if [ -f ../shared/eval/dev/truth.jsonl ]; then
  echo "== ../shared/eval/dev"
  "$BIN" scan ../shared/eval/dev > "$OUT/dev.jsonl" || true
  python3 ../shared/eval/score.py ../shared/eval/dev/truth.jsonl "$OUT/dev.jsonl"
  echo "== ../shared/eval/dev, whole frame (no card detection), for comparison"
  "$BIN" scan --whole-frame ../shared/eval/dev > "$OUT/dev-whole.jsonl" || true
  python3 ../shared/eval/score.py ../shared/eval/dev/truth.jsonl "$OUT/dev-whole.jsonl" | tail -1
fi
