#!/usr/bin/env bash
# Behaviour unchanged? Records of the fixtures, ../shared/eval/dev, wild and real-dev, and make
# eval's generated photos when they are there, without their timings, and the fixtures' and dev's
# CSV and vCard output as written, saved before a refactoring and compared byte for byte after it.
#
#   scripts/compare-records.sh save     # writes .build/records-baseline/*.jsonl
#   scripts/compare-records.sh check    # scans again and diffs against them
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/cardscan
[ -x "$BIN" ] || { echo "compare-records: build first (make build)" >&2; exit 2; }
DIR=.build/records-baseline
mode=${1:-check}
sets=(Fixtures/Cards Fixtures/Conditions)
[ -d ../shared/eval/dev ] && sets+=(../shared/eval/dev)
[ -d ../shared/eval/wild ] && sets+=(../shared/eval/wild)
[ -d ../shared/eval/real-dev ] && sets+=(../shared/eval/real-dev)
[ -f .build-eval/generated/truth.jsonl ] && sets+=(.build-eval/generated)  # made by make eval
records() {  # the records of a folder, timings removed
  "$BIN" scan -q "$1" 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    r.pop("timingsMs", None)
    print(json.dumps(r, ensure_ascii=False, sort_keys=False))'
}
formatted() {  # a folder's output in another format, as written (set, format)
  "$BIN" scan -q --format "$2" "$1" 2>/dev/null || true
}
mkdir -p "$DIR"
status=0
compare() {  # name, what, then the command that makes the text
  local name=$1 what=$2
  shift 2
  if [ "$mode" = save ]; then
    "$@" > "$DIR/$name"
    echo "saved $(wc -l < "$DIR/$name") lines of $what"
  elif "$@" | cmp -s "$DIR/$name" -; then
    echo "same: $what ($(wc -l < "$DIR/$name") lines)"
  else
    echo "DIFFERENT: $what"; "$@" | diff "$DIR/$name" - | head -20; status=1
  fi
}
for set in "${sets[@]}"; do
  name=$(echo "$set" | tr '/.' '__')
  compare "$name.jsonl" "records of $set" records "$set"
done
format_sets=(Fixtures/Cards)
[ -d ../shared/eval/dev ] && format_sets+=(../shared/eval/dev)
for set in "${format_sets[@]}"; do
  name=$(echo "$set" | tr '/.' '__')
  for format in csv vcard; do
    compare "$name.$format" "$format of $set" formatted "$set" "$format"
  done
done
exit $status
