#!/usr/bin/env bash
# make fuzz: libFuzzer (with AddressSanitizer) over the parsers that read untrusted bytes.
#
#   scripts/fuzz.sh [SECONDS] [TARGET ...]      (default 60 seconds per target, every target)
#
# Builds .build-fuzz/release/cardscan-fuzz with -sanitize=fuzzer,address, replays every file of
# Fuzz/Regressions/TARGET (earlier findings, kept after their fix), then fuzzes each target for
# SECONDS from a corpus seeded with ../shared/corpora, the fixtures and Fuzz/Regressions. A
# finding (crash, sanitizer report, leak, timeout, out of memory) is written to
# .build-fuzz/findings/TARGET/ and makes the run fail: fix it, then copy the file into
# Fuzz/Regressions/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(jpeg-segments exif-tiff metadata stream-splitter image-header contact-parser code-payload privacy-linter)
SWIFT=${SWIFT:-swift}
BUILD=.build-fuzz
# Leaks: see -detect_leaks below (also at exit). Swift's own backtracer is off: libFuzzer prints
# the stack of a trap and writes the input.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export SWIFT_BACKTRACE=enable=no
# -gnone and lld: gold cannot read the DWARF of sanitized objects (internal error in format_file_lineno).
$SWIFT build -c release --product cardscan-fuzz --build-path $BUILD \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -gnone \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld 2>&1 | grep -v "Cannot export local symbol" | tail -3
FUZZ=$BUILD/release/cardscan-fuzz
SHARED=../shared

seed() {  # seed TARGET DIR: copies the seeds of a target into DIR
  local target=$1 dir=$2
  mkdir -p "$dir"
  case $target in
    jpeg-segments|exif-tiff|metadata|stream-splitter|image-header)
      find Fixtures -type f \( -iname '*.jpg' -o -iname '*.png' \) -exec cp {} "$dir" \; 2>/dev/null || true
      [ -d $SHARED/corpora/metadata ] && find $SHARED/corpora/metadata -type f -size -2M \
        \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' -o -iname '*.heic' -o -iname '*.tif' -o -iname '*.tiff' -o -iname '*.webp' -o -iname '*.gif' -o -iname '*.bmp' \) \
        -exec cp {} "$dir" \; 2>/dev/null || true ;;
    contact-parser)
      [ -d $SHARED/peer-tests ] && find $SHARED/peer-tests -type f \( -name '*.txt' -o -name '*.json' -o -name '*.jsonl' \) -size -200k -exec cp {} "$dir" \; 2>/dev/null || true
      python3 - "$dir" <<'PY'
import json, sys
for i, line in enumerate(open("Fixtures/Conditions/truth.jsonl")):
    t = json.loads(line)
    text = "\n".join([t.get("name", ""), t.get("organization", "")] + t.get("emails", []) + [p.get("e164", "") for p in t.get("phones", [])])
    open(f"{sys.argv[1]}/condition-{i}.txt", "w").write(text)
PY
      ;;
    code-payload)
      # The payloads of the parser's own tests, one file each.
      python3 - "$dir" <<'PY'
import re, sys
src = open("Tests/CardCodesTests/CodePayloadTests.swift", encoding="utf-8").read()
for i, m in enumerate(re.findall(r'"""\n(.*?)"""', src, re.S) + re.findall(r'#"(.*?)"#', src)):
    open(f"{sys.argv[1]}/payload-{i}.txt", "w", encoding="utf-8").write(re.sub(r"^ {12}", "", m, flags=re.M))
PY
      ;;
    privacy-linter)
      cp Sources/CardScan/Resources/PrivacyInfo.xcprivacy "$dir/"
      find Tests -name '*.xcprivacy' -exec cp {} "$dir" \; 2>/dev/null || true ;;
  esac
  [ -d Fuzz/Regressions/$target ] && cp Fuzz/Regressions/$target/* "$dir" 2>/dev/null || true
}

status=0
summary=""
for target in "${TARGETS[@]}"; do
  # Earlier findings first: each must now pass.
  if [ -d Fuzz/Regressions/$target ] && [ -n "$(ls -A Fuzz/Regressions/$target)" ]; then
    if ! $FUZZ $target -runs=0 -detect_leaks=0 Fuzz/Regressions/$target > $BUILD/replay-$target.log 2>&1; then
      echo "fuzz: $target: a regression file fails again (see $BUILD/replay-$target.log)"; status=1
    fi
  fi
  corpus=$BUILD/corpus/$target
  findings=$BUILD/findings/$target
  mkdir -p "$corpus" "$findings"
  [ -n "$(ls -A "$corpus")" ] || seed $target "$corpus"
  log=$BUILD/fuzz-$target.log
  start=$(date +%s)
  set +e
  # -detect_leaks=0: LeakSanitizer reports Foundation's own process-lifetime allocations (the
  # parser's static regular expressions, FoundationXML's error objects) as leaks on the first
  # input; memory that grows with inputs is caught by -rss_limit_mb instead.
  $FUZZ $target -max_total_time=$SECONDS_PER_TARGET -max_len=65536 -rss_limit_mb=2048 -timeout=20 -detect_leaks=0 \
    -artifact_prefix=$findings/ -print_final_stats=1 "$corpus" > "$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  crashes=$(ls "$findings" | wc -l)
  cpu=$(( $(date +%s) - start ))
  line=$(printf "%-16s %5d s  %9s runs  corpus %5d  findings %d  (exit %d)" "$target" "$cpu" "$runs" "$(ls "$corpus" | wc -l)" "$crashes" "$rc")
  echo "$line"
  summary+="$line"$'\n'
  [ $rc -eq 0 ] && [ "$crashes" -eq 0 ] || status=1
done
echo "== fuzzing summary (one core per target)"
printf "%s" "$summary"
exit $status
