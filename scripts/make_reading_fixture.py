#!/usr/bin/env python3
"""Writes Fixtures/Reading/large-line.png: a made-up straightened card, gray print on a dark
ground, whose name is set in capitals far larger than the lines under it. Tesseract's layout
analysis (one block, as cardscan reads a card) leaves the name line out; read alone it is read.
For the tests of the reading of unread lines (`CardScanner.withUnreadLines`).

usage: python3 scripts/make_reading_fixture.py   (needs Pillow and Debian's fonts-dejavu-core)
"""
import os
from PIL import Image, ImageDraw, ImageFont

BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
REGULAR = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def main():
    card = Image.new("L", (1024, 600), 30)
    d = ImageDraw.Draw(card)

    def centred(y, text, font, ink):
        d.text(((1024 - d.textlength(text, font=font)) / 2, y), text, font=font, fill=ink)

    centred(150, "Harbour & Pinewood Partners", ImageFont.truetype(REGULAR, 40), 100)
    centred(215, "TOM ABERNATHY", ImageFont.truetype(BOLD, 64), 120)
    small = ImageFont.truetype(REGULAR, 24)
    lines = ["Managing Partner", "020 7946 0321", "+44 7700 900123", "tom@harbourpine.example", "Quay Street 12",
             "Bristol BS1 4DJ"]
    for i, line in enumerate(lines):
        centred(300 + 36 * i, line, small, 100)
    out = os.path.join(os.path.dirname(__file__), "..", "Fixtures", "Reading", "large-line.png")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    card.save(out, optimize=True)


if __name__ == "__main__":
    main()
