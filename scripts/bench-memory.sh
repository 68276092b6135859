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

# Large inputs, each at --jobs 2 with the default limits (target: peak <= 300 MB):
# uncompressed TIFFs (5000 x 5000 RGB, 4900 x 4900 RGBA), a 5000 x 5000 BMP, a 32-byte lossless
# WebP of 4900 x 4900, two TIFFs and two BMPs at once, and on --stream a JPEG marker followed by
# 300 MB of zeros and a 200 MB JPEG (a fixture card behind 200 MB of comment segments).
mkdir -p "$TMP/large"
python3 - "$TMP/large" Fixtures/Cards/card-us-plain.jpg <<'PY'
import struct, sys
d, card = sys.argv[1], open(sys.argv[2], "rb").read()
def tiff(path, w, h, spp):
    n = w * h * spp
    entries = [(256, 4, 1, w), (257, 4, 1, h), (258, 3, spp, 8 + n + 2 + 12 * (9 + (spp == 4)) + 4), (259, 3, 1, 1),
               (262, 3, 1, 2), (273, 4, 1, 8), (277, 3, 1, spp), (278, 4, 1, h), (279, 4, 1, n)] + ([(338, 3, 1, 2)] if spp == 4 else [])
    with open(path, "wb") as f:
        f.write(b"II*\0" + struct.pack("<I", 8 + n))
        row = bytes([200, 180, 160, 255][:spp]) * w
        for _ in range(h): f.write(row)
        f.write(struct.pack("<H", len(entries)))
        for t, k, c, v in entries:
            f.write(struct.pack("<HHIHH", t, k, c, v, 0) if k == 3 and c == 1 else struct.pack("<HHII", t, k, c, v))
        f.write(struct.pack("<I", 0) + struct.pack("<" + "H" * spp, *[8] * spp))
def bmp(path, w, h):
    row = bytes([160, 180, 200]) * w; row += b"\0" * ((4 - len(row) % 4) % 4)
    with open(path, "wb") as f:
        f.write(b"BM" + struct.pack("<IHHI", 54 + len(row) * h, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, len(row) * h, 2835, 2835, 0, 0))
        for _ in range(h): f.write(row)
def webp(path, w, h, rgba=(200, 180, 160, 255)):  # lossless, one symbol per channel: no bits per pixel
    bits, n = 0, 0
    def put(v, k):
        nonlocal bits, n
        bits |= v << n; n += k
    put(w - 1, 14); put(h - 1, 14); put(1, 1); put(0, 3); put(0, 1); put(0, 1); put(0, 1)
    for sym in (rgba[1], rgba[0], rgba[2], rgba[3]): put(1, 1); put(0, 1); put(1, 1); put(sym, 8)
    put(1, 1); put(0, 1); put(0, 1); put(0, 1)
    data = b"\x2f" + bits.to_bytes((n + 7) // 8, "little"); data += b"\0" * (len(data) % 2)
    chunk = b"VP8L" + struct.pack("<I", len(data)) + data
    open(path, "wb").write(b"RIFF" + struct.pack("<I", 4 + len(chunk)) + b"WEBP" + chunk)
tiff(f"{d}/rgb5000.tif", 5000, 5000, 3); tiff(f"{d}/rgba4900.tif", 4900, 4900, 4); bmp(f"{d}/rgb5000.bmp", 5000, 5000)
webp(f"{d}/w4900.webp", 4900, 4900)
segment = b"\xff\xfe\xff\xff" + b"x" * 0xfffd
with open(f"{d}/big200.jpg", "wb") as f:
    f.write(card[:2]); f.write(segment * (200_000_000 // len(segment))); f.write(card[2:])
PY
cp "$TMP/large/rgb5000.bmp" "$TMP/large/rgb5000-2.bmp"; cp "$TMP/large/rgb5000.tif" "$TMP/large/rgb5000-2.tif"
peak() {  # a label, then the command's arguments (stdin from $STDIN when set): "label KiB seconds"
  local label=$1; shift
  /usr/bin/time -f "%M %e" -o "$TMP/time" "$BIN" "$@" < "${STDIN:-/dev/null}" > /dev/null 2>/dev/null || true
  echo "$label $(tail -1 "$TMP/time")"
}
L=$TMP/large
{
  peak tiff-rgb-5000 scan --jobs 2 "$L/rgb5000.tif"
  peak tiff-rgba-4900 scan --jobs 2 "$L/rgba4900.tif"
  peak bmp-5000 scan --jobs 2 "$L/rgb5000.bmp"
  peak webp-4900-32-bytes scan --jobs 2 "$L/w4900.webp"
  peak two-tiffs-two-bmps scan --jobs 2 "$L/rgb5000.tif" "$L/rgb5000.bmp" "$L/rgba4900.tif" "$L/rgb5000-2.bmp"
  (printf '\xff\xd8\xff'; head -c 300000000 /dev/zero) > "$L/zeros"
  STDIN=$L/zeros peak stream-marker-then-zeros scan --jobs 2 --stream -
  STDIN=$L/big200.jpg peak stream-200-MB-image scan --jobs 2 --stream -
} > "$TMP/large.txt"
rm -rf "$L"
python3 - "$small" "$large" "$COUNT" "$bombs" "$once" "${#FILES[@]}" "$TMP/rss" "$TMP/large.txt" <<'PY'
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
for line in open(sys.argv[8]):
    label, kib, t = line.split()
    print(f"peak RSS, {label:26} at --jobs 2: {int(kib) / 1024:7.1f} MiB = {int(kib) * 1.024 / 1000:6.1f} MB  ({float(t):.1f} s; target <= 300 MB)")
PY
