#!/usr/bin/env bash
# make eval: scans photos with known contents and scores the records, field by field (letters as
# printed: "Jantsch" is not "Jäntsch"), with how the cards were found.
#   - Fixtures/Cards and Fixtures/Conditions, with scripts/score.py (the same rules);
#   - ../shared/eval/dev and ../shared/eval/wild, when they are beside the checkout, with their own
#     ../shared/eval/score.py --strict, and ../shared/eval/real-dev (real photos of real cards) on
#     the seven fields its truth pins down;
#   - freshly generated card texts from a seed never used before (EVAL_SEED, default the time):
#     500 of the split the line-role model was trained on (other seeds) and 500 of the check split
#     (regions, labels, separators and layouts training never saw), parsed as OCR lines;
#   - generated photos no rule was written for (scripts/make_photos.py, 60 photos, all conditions
#     mixed, the same seed), when Python can install its packages (EVAL_GENERATED=0 skips both).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/cardscan
[ -x "$BIN" ] || { echo "eval: build first (make build)" >&2; exit 2; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export OMP_THREAD_LIMIT=1

score() {  # score NAME TRUTH SCORER [scan options...]
  local name=$1 truth=$2 scorer=$3; shift 3
  local dir
  dir=$(dirname "$truth")
  "$BIN" scan --quiet "$@" "$dir" > "$OUT/$name.jsonl" || true
  echo "== $dir ($(grep -c . "$truth") photos)"
  python3 "$scorer" "$truth" "$OUT/$name.jsonl" --strict
  python3 scripts/placement.py "$truth" "$OUT/$name.jsonl"
  python3 scripts/codes.py "$truth" "$OUT/$name.jsonl"
}

score fixtures Fixtures/Cards/expected.jsonl scripts/score.py
[ -f Fixtures/Conditions/truth.jsonl ] && score conditions Fixtures/Conditions/truth.jsonl scripts/score.py
for set in dev wild; do
  if [ -f "../shared/eval/$set/truth.jsonl" ]; then
    score "$set" "../shared/eval/$set/truth.jsonl" ../shared/eval/score.py
  fi
done
if [ -f ../shared/eval/real-dev/truth.jsonl ]; then
  "$BIN" scan --quiet ../shared/eval/real-dev > "$OUT/real-dev.jsonl" || true
  echo "== ../shared/eval/real-dev ($(grep -c . ../shared/eval/real-dev/truth.jsonl) real photos; seven fields)"
  python3 ../shared/eval/score.py ../shared/eval/real-dev/truth.jsonl "$OUT/real-dev.jsonl" --strict \
    --fields name,title,organization,emails,urls,phones,phones.type
  python3 scripts/placement.py ../shared/eval/real-dev/truth.jsonl "$OUT/real-dev.jsonl" 2>/dev/null || true
fi
if [ -f ../shared/eval/dev/truth.jsonl ]; then
  echo "== ../shared/eval/dev, whole frame (no card detection), for comparison"
  "$BIN" scan --quiet --whole-frame ../shared/eval/dev > "$OUT/dev-whole.jsonl" || true
  python3 ../shared/eval/score.py ../shared/eval/dev/truth.jsonl "$OUT/dev-whole.jsonl" --strict | tail -1
fi

if [ "${EVAL_GENERATED:-1}" != 0 ]; then
  SEED=${EVAL_SEED:-$(date +%s)}
  VENV=.build-eval/venv
  if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV" 2>/dev/null || { echo "eval: python3-venv is missing; generated cards skipped" >&2; exit 0; }
  fi
  "$VENV/bin/pip" install -q Pillow numpy faker phonenumbers segno Unidecode >/dev/null 2>&1 \
    || { echo "eval: cannot install Pillow, numpy, faker, phonenumbers, segno, Unidecode; generated cards skipped" >&2; exit 0; }
  for split in train check; do
    "$VENV/bin/python" scripts/cardgen.py --count 500 --seed "$SEED" --split "$split" > "$OUT/text-$split.jsonl"
    "$VENV/bin/python" -c 'import json,sys
for l in sys.stdin: print(json.dumps(json.loads(l)["truth"], ensure_ascii=False))' < "$OUT/text-$split.jsonl" > "$OUT/text-$split.truth"
    REGION=none .build/release/cardscan-bench parse-lines "$OUT/text-$split.jsonl" > "$OUT/text-$split.pred"
    echo "== 500 generated card texts, $split split, seed $SEED (never seen in training)"
    python3 ../shared/eval/score.py "$OUT/text-$split.truth" "$OUT/text-$split.pred" --strict
  done
  GEN=.build-eval/generated-$SEED
  "$VENV/bin/python" scripts/make_photos.py --count 60 --seed "$SEED" "$GEN" >/dev/null 2>&1
  score generated "$GEN/truth.jsonl" ../shared/eval/score.py 2>/dev/null || score generated "$GEN/truth.jsonl" scripts/score.py
  rm -rf "$GEN"
fi
