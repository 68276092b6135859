#!/usr/bin/env bash
# make eval-cjk: generated photos of Japanese, Chinese (simplified and traditional) and Korean
# cards (scripts/make_cjk_photos.py, Noto CJK fonts, the wild set's photo conditions), scanned and
# scored with ../shared/eval/score.py --strict (names and companies in the card's own script),
# for all of them and language by language.
#   EVAL_SEED   the generator's seed (default: the time, a set never seen); the tuning seed was 11
#   CJK_COUNT   photos (default 64, taken in turn from ja, zh_CN, zh_TW, ko)
#   CJK_KEEP=1  keeps .build-eval/cjk-SEED (photos, truth, records) for a look card by card
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/cardscan
[ -x "$BIN" ] || { echo "eval-cjk: build first (make build)" >&2; exit 2; }
SCORER=../shared/eval/score.py
[ -f "$SCORER" ] || SCORER=scripts/score.py
SEED=${EVAL_SEED:-$(date +%s)}
COUNT=${CJK_COUNT:-64}
VENV=.build-eval/venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV" || { echo "eval-cjk: python3-venv is missing" >&2; exit 2; }
fi
"$VENV/bin/pip" install -q Pillow numpy faker phonenumbers segno Unidecode >/dev/null 2>&1 \
  || { echo "eval-cjk: cannot install Pillow, numpy, faker, phonenumbers" >&2; exit 2; }
OUT=.build-eval/cjk-$SEED
[ "${CJK_KEEP:-0}" = 1 ] || trap 'rm -rf "$OUT"' EXIT
"$VENV/bin/python" scripts/make_cjk_photos.py --count "$COUNT" --seed "$SEED" "$OUT" 2>/dev/null
export OMP_THREAD_LIMIT=1
"$BIN" scan --quiet "$OUT" > "$OUT/records.jsonl" || true
echo "== $COUNT generated CJK photos, seed $SEED"
python3 "$SCORER" "$OUT/truth.jsonl" "$OUT/records.jsonl" --strict
for lang in ja zh_CN zh_TW ko; do
  python3 -c 'import json, sys
for l in open(sys.argv[1]):
    if json.loads(l)["language"] == sys.argv[2]: print(l, end="")' "$OUT/truth.jsonl" "$lang" > "$OUT/truth-$lang.jsonl"
  echo "-- $lang ($(grep -c . "$OUT/truth-$lang.jsonl") photos): $(python3 "$SCORER" "$OUT/truth-$lang.jsonl" "$OUT/records.jsonl" --strict | tail -1)"
done
