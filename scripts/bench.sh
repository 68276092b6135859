#!/usr/bin/env bash
# make bench: cardscan's throughput against the anchor a shell user would write, in one run.
#
#   scripts/bench.sh [DIR] [RUNS]      (default: ../shared/eval/dev if present, else Fixtures/Cards; 3 runs)
#
# Per run, alternating: cardscan scan DIR (all cores), cardscan scan --jobs 1 DIR, cardscan with
# OpenMP left unlimited (what happens without the OMP_THREAD_LIMIT fix), and `tesseract FILE stdout`
# for each file one after another. Prints cards/s (median of the runs), ratios, peak RSS, and
# cardscan's per-stage time summed over the batch from the records' timingsMs. A program, not a
# test: it never fails on a time.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-}
if [ -z "$DIR" ]; then
  if [ -d ../shared/eval/dev ]; then DIR=../shared/eval/dev; else DIR=Fixtures/Cards; fi
fi
RUNS=${2:-3}
BIN=.build/release/cardscan
[ -x "$BIN" ] || { echo "bench: build first (make build)" >&2; exit 2; }
mapfile -t FILES < <(find "$DIR" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | sort)
N=${#FILES[@]}
[ "$N" -gt 0 ] || { echo "bench: no images in $DIR" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Runs a command under GNU time; appends "seconds maxRSS_kB" to $TMP/NAME.
measure() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$TMP/time.$name" "$@" > "$TMP/out.$name" 2>/dev/null || true
  cat "$TMP/time.$name" >> "$TMP/$name"
}

anchor() {
  for f in "${FILES[@]}"; do tesseract "$f" stdout 2>/dev/null; done
}
export -f anchor
export FILES_LIST="${FILES[*]}"

for run in $(seq 1 "$RUNS"); do
  measure cardscan_all "$BIN" scan "$DIR"
  cp "$TMP/out.cardscan_all" "$TMP/records.jsonl"
  measure cardscan_1 "$BIN" scan --jobs 1 "$DIR"
  measure cardscan_omp env OMP_THREAD_LIMIT=64 "$BIN" scan "$DIR"
  measure tesseract_cli bash -c 'for f in $FILES_LIST; do tesseract "$f" stdout 2>/dev/null; done'
done

python3 - "$TMP" "$N" "$RUNS" "$DIR" <<'PY'
import json, statistics, sys, os, platform, subprocess
tmp, n, runs, d = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def load(name):
    rows = [l.split() for l in open(os.path.join(tmp, name)) if l.strip()]
    secs = [float(r[0]) for r in rows]
    rss = [int(r[1]) for r in rows]
    return statistics.median(secs), max(rss) / 1024
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
print(f"machine: {os.cpu_count()} cores, {cpu}")
print(f"photos: {n} in {d}, median of {runs} runs, alternating")
names = [("cardscan_all", f"cardscan scan (default --jobs {os.cpu_count()})"), ("cardscan_1", "cardscan scan --jobs 1"),
         ("cardscan_omp", "cardscan scan, OpenMP unlimited (OMP_THREAD_LIMIT=64)"), ("tesseract_cli", "tesseract FILE stdout, one after another")]
results = {k: load(k) for k, _ in names}
anchor = n / results["tesseract_cli"][0]
print(f"{'command':58s} {'s':>7s} {'cards/s':>8s} {'x anchor':>9s} {'peak RSS MB':>12s}")
for k, label in names:
    s, rss = results[k]
    print(f"{label:58s} {s:7.2f} {n / s:8.2f} {n / s / anchor:9.2f} {rss:12.1f}")
stages = {}
ok = 0
for line in open(os.path.join(tmp, "records.jsonl")):
    r = json.loads(line)
    if r.get("status") == "ok": ok += 1
    for k, v in (r.get("timingsMs") or {}).items():
        stages[k] = stages.get(k, 0) + v
if stages:
    total = sum(v for k, v in stages.items() if k != "total")
    print("cardscan per-stage time summed over the batch (from timingsMs, last default run):")
    for k in ("decode", "metadata", "detect", "ocr", "parse"):
        if k in stages:
            print(f"  {k:8s} {stages[k] / 1000:7.2f} s  {100 * stages[k] / total:5.1f}%   {stages[k] / max(ok, 1):7.1f} ms/card")
PY
