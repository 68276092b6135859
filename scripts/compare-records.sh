#!/usr/bin/env bash
# Behaviour unchanged? Records of the fixtures, ../shared/eval/dev and wild, and make eval's
# generated photos when they are there, without their timings,
# saved before a refactoring and compared byte for byte after it.
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
[ -f .build-eval/generated/truth.jsonl ] && sets+=(.build-eval/generated)  # made by make eval
records() {  # the records of a folder, timings removed
  "$BIN" scan -q "$1" 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    r.pop("timingsMs", None)
    print(json.dumps(r, ensure_ascii=False, sort_keys=False))'
}
mkdir -p "$DIR"
status=0
for set in "${sets[@]}"; do
  name=$(echo "$set" | tr '/.' '__')
  if [ "$mode" = save ]; then
    records "$set" > "$DIR/$name.jsonl"
    echo "saved $(wc -l < "$DIR/$name.jsonl") records of $set"
  else
    if records "$set" | diff -q "$DIR/$name.jsonl" - > /dev/null; then
      echo "same: $set ($(wc -l < "$DIR/$name.jsonl") records)"
    else
      echo "DIFFERENT: $set"; records "$set" | diff "$DIR/$name.jsonl" - | head -20; status=1
    fi
  fi
done
exit $status
