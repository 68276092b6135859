#!/usr/bin/env bash
# Installs the system packages cardscan needs (Debian/Ubuntu), through sudo when not root;
# with --tests, also what only the tests need (chromium, khard, abook).
# Does nothing when all are present, so it is cheap to run before every build.
set -euo pipefail
packages=(
  pkg-config
  libtesseract-dev libleptonica-dev tesseract-ocr-eng tesseract-ocr-osd                    # OCR
  tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-ita tesseract-ocr-por   # second readings in
  tesseract-ocr-nld tesseract-ocr-pol tesseract-ocr-swe tesseract-ocr-dan tesseract-ocr-nor   # the card's language
  tesseract-ocr-fin tesseract-ocr-ces
  tesseract-ocr-jpn tesseract-ocr-jpn-vert tesseract-ocr-chi-sim tesseract-ocr-chi-tra  # cards in their own
  tesseract-ocr-chi-sim-vert tesseract-ocr-chi-tra-vert tesseract-ocr-kor                # script (docs/cjk.md)
  libjpeg-dev libpng-dev libtiff-dev libheif-dev libexif-dev                                   # decoding, metadata
  libphonenumber-dev                                                     # phone numbers
  publicsuffix                                                           # domains: the Public Suffix List
  libzbar-dev                                                            # QR codes on the card
  libsqlite3-dev                                                         # the contact book (GRDB)
  libimage-exiftool-perl strace python3 python3-vobject tesseract-ocr time   # tests, evaluation, benchmark anchor
  fonts-dejavu-core fonts-liberation python3-segno                       # fixture generator
  fonts-noto-cjk                                                         # CJK card generator (make eval-cjk)
)
# Only for the tests (make test): the report's browser test renders it in headless Chromium; the
# exports are imported by address books nobody here wrote: khard (a vdir address book) and abook.
if [ "${1:-}" = "--tests" ]; then
  packages+=(chromium khard abook)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "setup: missing ${missing[*]}; install them with your package manager" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
