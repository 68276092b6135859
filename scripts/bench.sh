#!/usr/bin/env bash
# make bench: cardscan's throughput against the anchors a user would pick instead, in one run.
#
#   scripts/bench.sh [DIR] [RUNS]      (default: ../shared/eval/dev and ../shared/eval/wild if present,
#                                       else Fixtures/Cards; 3 runs)
#
# Per run, alternating: cardscan scan DIR (all cores), the same with --report, cardscan scan --jobs 1 DIR, cardscan with
# OpenMP left unlimited (what happens without the OMP_THREAD_LIMIT fix), `tesseract FILE stdout`
# for each file one after another, with OpenMP left alone and with OMP_THREAD_LIMIT=1, and
# ../shared/anchors/baseline_cv.py (OpenCV card crop + pytesseract) run 2-wide with
# OMP_THREAD_LIMIT=1 as its README says (its venv is made in ANCHOR_VENV, default
# /tmp/anchor-venv, outside the project, when missing). Prints cards/s (median of the runs),
# ratios, peak RSS, and cardscan's per-stage time summed over the batch from the records'
# timingsMs. A program, not a test: it never fails on a time.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-}
RUNS=${2:-3}
if [ -z "$DIR" ]; then
  if [ -d ../shared/eval/dev ]; then
    for d in ../shared/eval/dev ../shared/eval/wild; do [ -d "$d" ] && bash "$0" "$d" "$RUNS"; done
    exit 0
  fi
  DIR=Fixtures/Cards
fi
ANCHOR_VENV=${ANCHOR_VENV:-/tmp/anchor-venv}
CV_ANCHOR=../shared/anchors/baseline_cv.py
[ "${BENCH_CV:-1}" = 0 ] && CV_ANCHOR=/nonexistent  # BENCH_CV=0: without baseline_cv.py (the smoke test)
if [ -f "$CV_ANCHOR" ] && [ ! -x "$ANCHOR_VENV/bin/python" ]; then
  echo "bench: setting up the anchors' venv in $ANCHOR_VENV (PyPI)" >&2
  python3 -m venv "$ANCHOR_VENV" && "$ANCHOR_VENV/bin/pip" install -q pillow pytesseract phonenumbers opencv-python-headless numpy >&2 \
    || { echo "bench: the venv could not be set up; baseline_cv.py is left out" >&2; rm -rf "$ANCHOR_VENV"; }
fi
BIN=.build/release/cardscan
[ -x "$BIN" ] || { echo "bench: build first (make build)" >&2; exit 2; }
mapfile -t FILES < <(find "$DIR" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | sort)
N=${#FILES[@]}
[ "$N" -gt 0 ] || { echo "bench: no images in $DIR" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Runs a command under GNU time; appends "seconds maxRSS_KiB" to $TMP/NAME (printed in MiB).
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
  rm -f "$TMP/report.html"
  measure cardscan_report "$BIN" scan --report "$TMP/report.html" "$DIR"
  measure cardscan_1 "$BIN" scan --jobs 1 "$DIR"
  measure cardscan_omp env OMP_THREAD_LIMIT=64 "$BIN" scan "$DIR"
  measure tesseract_cli bash -c 'for f in $FILES_LIST; do tesseract "$f" stdout 2>/dev/null; done'
  measure tesseract_cli_1 env OMP_THREAD_LIMIT=1 bash -c 'for f in $FILES_LIST; do tesseract "$f" stdout 2>/dev/null; done'
  if [ -x "$ANCHOR_VENV/bin/python" ] && [ -f "$CV_ANCHOR" ]; then
    measure baseline_cv bash -c 'printf "%s\n" $FILES_LIST | OMP_THREAD_LIMIT=1 xargs -P2 -n5 "$0" "$1"' "$ANCHOR_VENV/bin/python" "$CV_ANCHOR"
  fi
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
names = [("cardscan_all", f"cardscan scan (default --jobs {os.cpu_count()})"),
         ("cardscan_report", "cardscan scan --report FILE (the review page too)"), ("cardscan_1", "cardscan scan --jobs 1"),
         ("cardscan_omp", "cardscan scan, OpenMP unlimited (OMP_THREAD_LIMIT=64)"), ("tesseract_cli", "tesseract FILE stdout, one after another")]
names += [("tesseract_cli_1", "tesseract FILE stdout, OMP_THREAD_LIMIT=1, one after another"),
          ("baseline_cv", "baseline_cv.py (OpenCV + pytesseract), 2-wide, OMP_THREAD_LIMIT=1")]
names = [(k, label) for k, label in names if os.path.exists(os.path.join(tmp, k))]
results = {k: load(k) for k, _ in names}
anchor = n / results["tesseract_cli"][0]
print(f"{'command':68s} {'s':>7s} {'cards/s':>8s} {'x tesseract':>11s} {'peak RSS MiB':>12s}")
for k, label in names:
    s, rss = results[k]
    print(f"{label:68s} {s:7.2f} {n / s:8.2f} {n / s / anchor:11.2f} {rss:12.1f}")
def ratio(a, b, label, target):
    if a in results and b in results:
        x = results[b][0] / results[a][0]
        print(f"{label}: x{x:.2f} (target >= {target})")
ratio("cardscan_all", "baseline_cv", "cardscan scan (all cores) against baseline_cv.py 2-wide", 4.5)
if "cardscan_report" in results:
    extra = results["cardscan_report"][0] / results["cardscan_all"][0] - 1
    size = os.path.getsize(os.path.join(tmp, "report.html")) / 1e6 if os.path.exists(os.path.join(tmp, "report.html")) else 0
    print(f"the review page (--report) adds {100 * extra:+.1f}% to the scan time (target <= 10%); the page is {size:.1f} MB")
ratio("cardscan_1", "tesseract_cli_1", "cardscan scan --jobs 1 against the tesseract CLI with OMP_THREAD_LIMIT=1", 5)
stages = {}
ok = 0
codes_without = []  # zbar's time on cards that show no code
per_card = {}  # stage -> each card's ms
detect_12mp = []  # detection's ms on the photos of 12 MP or more
for line in open(os.path.join(tmp, "records.jsonl")):
    r = json.loads(line)
    if r.get("status") == "ok": ok += 1
    timings, image = r.get("timingsMs") or {}, r.get("image") or {}
    for k, v in timings.items():
        stages[k] = stages.get(k, 0) + v
        per_card.setdefault(k, []).append(v)
    if "detect" in timings and image.get("width", 0) * image.get("height", 0) >= 11.5e6:
        detect_12mp.append(timings["detect"])
    if "codes" in timings and not image.get("codes"):
        codes_without.append(timings["codes"])
if stages:
    total = sum(v for k, v in stages.items() if k != "total")
    print("cardscan per-stage time summed over the batch (from timingsMs, last default run; per card: mean, median):")
    for k in ("decode", "metadata", "detect", "ocr", "codes", "parse"):
        if k in stages:
            print(f"  {k:8s} {stages[k] / 1000:7.2f} s  {100 * stages[k] / total:5.1f}%   {stages[k] / max(ok, 1):7.1f} ms/card"
                  f"  {statistics.median(per_card[k]):7.1f} median")
if "detect" in per_card:
    twelve = f", {statistics.median(detect_12mp):.1f} ms on the {len(detect_12mp)} of 12 MP" if detect_12mp else ""
    print(f"detection: {statistics.median(per_card['detect']):.1f} ms median per card ({len(per_card['detect'])} photos{twelve}; target <= 15)")
if codes_without:
    print(f"QR codes: {statistics.median(codes_without):.1f} ms median added per card without a code ({len(codes_without)} cards; target <= 5)")
PY
