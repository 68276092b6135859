#!/usr/bin/env python3
"""Writes Fixtures/Colour/colour-band.png: a made-up straightened card whose wordmark is green on
a red band of the same gray (77 R + 150 G + 29 B), so that gray conversion loses it while its
colour does not, above black contact lines on white. For the tests of ColourContrast.

usage: python3 scripts/make_colour_fixture.py   (needs Pillow and Debian's fonts-dejavu-core)
"""
import os
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
REGULAR = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def gray(c):
    return (77 * c[0] + 150 * c[1] + 29 * c[2]) >> 8


def main():
    ground, ink = (214, 40, 52), (0, 146, 50)
    assert abs(gray(ground) - gray(ink)) <= 6, (gray(ground), gray(ink))
    card = Image.new("RGB", (1024, 584), (250, 250, 246))
    d = ImageDraw.Draw(card)
    d.rectangle((0, 0, 1023, 200), fill=ground)
    d.text((60, 50), "QUILLON LANTERN", font=ImageFont.truetype(FONT, 80), fill=ink)
    small = ImageFont.truetype(REGULAR, 32)
    for i, line in enumerate(["Marta Okonedo", "Workshop Manager", "+1 415 555 0142", "marta@quillonworks.example"]):
        d.text((60, 250 + 72 * i), line, font=small, fill=(20, 20, 20))
    out = os.path.join(os.path.dirname(__file__), "..", "Fixtures", "Colour", "colour-band.png")
    card.save(out, optimize=True)


if __name__ == "__main__":
    main()
