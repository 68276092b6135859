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
run() {  # prints "peak-KiB seconds"; with a second argument, also samples the RSS into that file
  local n=$1 samples=${2:-}
  list "$n" > "$TMP/list"
  /usr/bin/time -f "%M %e" -o "$TMP/time" "$BIN" scan --files-from "$TMP/list" > /dev/null 2>/dev/null &
  local timer=$! pid=""
  if [ -n "$samples" ]; then
    # The RSS every 0.1 s while the batch runs: whether memory grows with it, apart from the peak.
    while kill -0 "$timer" 2>/dev/null; do
      [ -n "$pid" ] || pid=$(pgrep -P "$timer" -x cardscan || true)
      [ -n "$pid" ] && awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null >> "$samples"
      sleep 0.1
    done
  fi
  wait "$timer" || true
  tail -1 "$TMP/time"
}
small=$(run 10)
once=$(run ${#FILES[@]})
large=$(run "$COUNT" "$TMP/rss")

# Hostile input: decompression bombs made here (a 16-bit PNG and a 1-bit PackBits TIFF of
# 9,999 x 9,999 pixels, a few hundred KB each) and the malformed corpus, at --jobs 2.
mkdir -p "$TMP/bombs"
python3 - "$TMP/bombs" <<'PY'
import struct, sys, zlib
d, w = sys.argv[1], 9999
def chunk(t, b): return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b))
rows = zlib.compress((b"\0" * (w * 6 + 1)) * w, 9)
open(f"{d}/bomb16.png", "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, w, 16, 2, 0, 0, 0)) + chunk(b"IDAT", rows) + chunk(b"IEND", b""))
row = bytes([0x81, 0]) * ((w + 7) // 8 // 128) + bytes([257 - ((w + 7) // 8 % 128), 0])  # PackBits runs of zeros
data = row * w
entries = [(256, 4, 1, w), (257, 4, 1, w), (258, 3, 1, 1), (259, 3, 1, 32773), (262, 3, 1, 0),
           (273, 4, 1, 8), (277, 3, 1, 1), (278, 4, 1, w), (279, 4, 1, len(data))]
ifd_at = 8 + len(data)
ifd = struct.pack("<H", len(entries)) + b"".join(struct.pack("<HHII", t, k, n, v) for t, k, n, v in entries) + struct.pack("<I", 0)
open(f"{d}/bomb1.tif", "wb").write(b"II*\0" + struct.pack("<I", ifd_at) + data + ifd)
PY
hostile=("$TMP/bombs")
[ -d ../shared/corpora/metadata ] && hostile+=(../shared/corpora/metadata)
/usr/bin/time -f "%M %e" -o "$TMP/time" "$BIN" scan --jobs 2 "${hostile[@]}" > /dev/null 2>/dev/null || true
bombs=$(tail -1 "$TMP/time")
python3 - "$small" "$large" "$COUNT" "$bombs" "$once" "${#FILES[@]}" "$TMP/rss" <<'PY'
import sys
(s_rss, s_t), (l_rss, l_t), n = sys.argv[1].split(), sys.argv[2].split(), int(sys.argv[3])
b_rss, b_t = sys.argv[4].split()
o_rss, o_t = sys.argv[5].split()
s_rss, l_rss, o_rss = int(s_rss) / 1024, int(l_rss) / 1024, int(o_rss) / 1024
print(f"peak RSS, 10 photos:   {s_rss:7.1f} MiB  ({float(s_t):.1f} s)")
print(f"peak RSS, the {sys.argv[6]} photos once each: {o_rss:7.1f} MiB  ({float(o_t):.1f} s; the 1,000 below are these again and again)")
print(f"peak RSS, {n} photos: {l_rss:7.1f} MiB  ({float(l_t):.1f} s, {n / float(l_t):.2f} cards/s)")
print(f"ratio {l_rss / s_rss:.3f} against 10 photos (target <= 1.10; peak target <= 160 MiB); {l_rss / o_rss:.3f} against the same photos once each")
import os
rss = [int(x) / 1024 for x in open(sys.argv[7]) if x.strip()] if os.path.exists(sys.argv[7]) else []
if len(rss) >= 20:
    tenth = len(rss) // 10
    parts = [rss[k * tenth:(k + 1) * tenth] for k in range(10)]
    print(f"RSS sampled every 0.1 s over the {n} photos, by tenth of the run (mean / highest MiB):")
    print("  " + "  ".join(f"{sum(p) / len(p):.1f}/{max(p):.1f}" for p in parts))
    mean = [sum(p) / len(p) for p in parts]
    print(f"  last tenth's mean {mean[-1]:.1f} against the second's {mean[1]:.1f} MiB (x{mean[-1] / mean[1]:.3f}; the first"
          f" tenth holds the start, engines and tables being made); {len(rss)} samples")
print(f"peak RSS, bombs + malformed corpus at --jobs 2: {int(b_rss) / 1024:7.1f} MiB  ({float(b_t):.1f} s; target <= 300)")
PY
