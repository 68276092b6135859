#!/usr/bin/env python3
"""Generates Fixtures/Cards: photographs-like pictures of business cards, with their expected records.

Each card is rendered with a real font (Debian's fonts-dejavu-core / fonts-liberation), placed on a
textured desk with a perspective tilt, lit unevenly, blurred and JPEG-compressed like a phone photo;
its pixels are stored rotated with the matching EXIF orientation, and the file carries GPS, camera
make/model, a thumbnail, and in some XMP, IPTC and a comment: everything cardscan must strip.

usage: python3 scripts/make_fixtures.py [OUT_DIR]     (needs Pillow: pip install Pillow)
Deterministic: the same script writes the same files.
"""
import io, json, math, os, random, struct, sys

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_DIRS = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation"]

CARDS = [
    dict(file="card-us-plain.jpg", region="US", layout="plain", font="DejaVuSans", orientation=1,
         name="Laura Kimball", given="Laura", family="Kimball", title="Director of Engineering",
         organization="Northwind Labs Inc", emails=["laura.kimball@northwindlabs.com"], urls=["www.northwindlabs.com"],
         phones=[("work", "Tel", "(312) 555-0142", "+13125550142"), ("mobile", "Mobile", "773-555-0188", "+17735550188")],
         address=dict(lines=["2200 Lakeshore Drive, Suite 410", "Chicago, IL 60616"], street="2200 Lakeshore Drive, Suite 410",
                      city="Chicago", region="IL", postalCode="60616", country=""),
         metadata=["EXIF", "GPS", "Thumbnail", "XMP", "COM"]),
    dict(file="card-gb-dark.jpg", region="GB", layout="dark", font="LiberationSans", orientation=6,
         name="Oliver Hastings", given="Oliver", family="Hastings", title="Senior Account Manager",
         organization="Bramble & Finch Ltd", emails=["oliver@brambleandfinch.co.uk"], urls=["https://brambleandfinch.co.uk"],
         phones=[("work", "T", "020 7946 0321", "+442079460321"), ("mobile", "M", "07700 900461", "+447700900461")],
         address=dict(lines=["14 Wharf Road", "London N1 7GR", "United Kingdom"], street="14 Wharf Road",
                      city="London", region="", postalCode="N1 7GR", country="United Kingdom"),
         metadata=["EXIF", "GPS", "Thumbnail", "IPTC"]),
    dict(file="card-de-band.jpg", region="DE", layout="band", font="DejaVuSerif", orientation=3,
         name="Katrin Vogel", given="Katrin", family="Vogel", title="Leiterin Vertrieb",
         organization="Lindenholz GmbH", emails=["k.vogel@lindenholz.de"], urls=["www.lindenholz.de"],
         phones=[("work", "Tel.", "030 2345 6789", "+493023456789"), ("fax", "Fax", "030 2345 6790", "+493023456790"),
                 ("mobile", "Mobil", "0151 2345 6789", "+4915123456789")],
         address=dict(lines=["Friedrichstraße 112", "10117 Berlin"], street="Friedrichstraße 112",
                      city="Berlin", region="", postalCode="10117", country=""),
         metadata=["EXIF", "GPS", "XMP", "COM"]),
    dict(file="card-ca-split.jpg", region="CA", layout="split", font="LiberationSerif", orientation=8,
         name="Marc Tremblay", given="Marc", family="Tremblay", title="Project Manager",
         organization="Maplegate Consulting", emails=["marc.tremblay@maplegate.ca"], urls=["maplegate.ca"],
         phones=[("work", "P", "(604) 555-0119", "+16045550119"), ("fax", "F", "604.555.0120", "+16045550120")],
         address=dict(lines=["885 West Georgia Street", "Vancouver, BC V6C 3E8"], street="885 West Georgia Street",
                      city="Vancouver", region="BC", postalCode="V6C 3E8", country=""),
         metadata=["EXIF", "GPS", "Thumbnail"]),
    dict(file="card-au-small.jpg", region="AU", layout="plain", font="DejaVuSans", orientation=1, scale=0.42,
         name="Priya Natarajan", given="Priya", family="Natarajan", title="Chief Financial Officer",
         organization="Coralbay Pty Ltd", emails=["priya@coralbay.com.au"], urls=["www.coralbay.com.au"],
         phones=[("work", "Ph", "+61 2 9374 4000", "+61293744000")],
         address=dict(lines=["Level 9, 60 Martin Place", "Sydney NSW 2000"], street="Level 9, 60 Martin Place",
                      city="Sydney", region="NSW", postalCode="2000", country=""),
         metadata=["EXIF", "GPS", "Thumbnail", "XMP"]),
    dict(file="card-us-full.jpg", region="US", layout="plain", font="LiberationSans", orientation=1, scale=1.05,
         name="Samuel Okafor", given="Samuel", family="Okafor", title="Sales Representative",
         organization="Bluebell Outfitters LLC", emails=["sokafor@bluebelloutfitters.com"], urls=["https://bluebelloutfitters.com"],
         phones=[("work", "Office", "+1 206-555-0173", "+12065550173"), ("mobile", "Cell", "+1 425-555-0191", "+14255550191")],
         address=dict(lines=["410 Pine Street, Seattle, WA 98101"], street="410 Pine Street",
                      city="Seattle", region="WA", postalCode="98101", country=""),
         metadata=["EXIF", "GPS", "COM"]),
    # The card lay upside down on the desk: EXIF says upright, the text is turned 180 degrees.
    dict(file="card-us-upside.jpg", region="US", layout="plain", font="DejaVuSans", orientation=1, turn=180,
         name="Grace Whitfield", given="Grace", family="Whitfield", title="Marketing Director",
         organization="Harborline Partners", emails=["grace@harborline.com"], urls=["www.harborline.com"],
         phones=[("work", "Phone", "(617) 555-0134", "+16175550134"), ("fax", "Fax", "(617) 555-0135", "+16175550135")],
         address=dict(lines=["77 Summer Street", "Boston, MA 02110"], street="77 Summer Street",
                      city="Boston", region="MA", postalCode="02110", country=""),
         metadata=["EXIF", "GPS"]),
    # The card lay on its side, and the phone stored the photo upright: text turned 90 degrees.
    dict(file="card-ca-sideways.jpg", region="CA", layout="plain", font="LiberationSans", orientation=1, turn=270,
         name="Nadia Ferreira", given="Nadia", family="Ferreira", title="Operations Manager",
         organization="Northshore Freight Inc", emails=["nferreira@northshorefreight.ca"], urls=["northshorefreight.ca"],
         phones=[("work", "T", "(416) 555-0176", "+14165550176"), ("mobile", "M", "(647) 555-0129", "+16475550129")],
         address=dict(lines=["120 Bremner Blvd", "Toronto, ON M5J 0A8"], street="120 Bremner Blvd",
                      city="Toronto", region="ON", postalCode="M5J 0A8", country=""),
         metadata=["EXIF", "GPS", "Thumbnail"]),
]

BACKGROUNDS = [(92, 64, 51), (40, 44, 52), (150, 160, 150), (112, 128, 144), (180, 150, 120), (60, 90, 120)]


def font(name, size, bold=False):
    base = name + ("-Bold" if bold else ("" if "Liberation" not in name else "-Regular"))
    if "Liberation" in name and bold:
        base = name + "-Bold"
    for d in FONT_DIRS:
        p = os.path.join(d, base + ".ttf")
        if os.path.exists(p):
            return ImageFont.truetype(p, size)
    raise SystemExit(f"font {base}.ttf not found: apt-get install fonts-dejavu-core fonts-liberation")


def render_card(c, rng):
    W, H = 1050, 600  # 3.5 x 2 in at 300 dpi
    dark = c["layout"] == "dark"
    paper = (34, 38, 48) if dark else (248, 246, 240)
    ink = (236, 236, 236) if dark else (30, 30, 36)
    accent = (30, 90, 160)
    img = Image.new("RGB", (W, H), paper)
    d = ImageDraw.Draw(img)
    f = c["font"]
    big, mid, small = font(f, 46, True), font(f, 30), font(f, 25)
    y = 60
    x = 60
    if c["layout"] == "band":
        d.rectangle([0, 0, W, 120], fill=accent)
        d.text((x, 36), c["organization"], font=font(f, 40, True), fill=(255, 255, 255))
        y = 160
    else:
        d.text((x, y), c["organization"], font=font(f, 36, True), fill=accent if not dark else (120, 180, 240))
        y += 70
    d.text((x, y), c["name"], font=big, fill=ink); y += 62
    d.text((x, y), c["title"], font=mid, fill=ink); y += 60
    contact_lines = [f"{label}: {printed}" if label else printed for (_, label, printed, _) in c["phones"]]
    contact_lines += c["emails"] + c["urls"]
    addr = c["address"]["lines"] if c.get("address") else []
    if c["layout"] == "split":
        yy = y + 10
        for line in contact_lines:
            d.text((W - 60, yy), line, font=small, fill=ink, anchor="ra"); yy += 36
        yy = y + 10
        for line in addr:
            d.text((x, yy + 110), line, font=small, fill=ink); yy += 36
    else:
        for line in contact_lines + addr:
            d.text((x, y), line, font=small, fill=ink); y += 34
    return img


def perspective_coeffs(src, dst):
    # Coefficients for PIL's PERSPECTIVE transform mapping output (dst) to input (src).
    import numpy as np  # only for the 8x8 solve
    A, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    return list(np.linalg.solve(np.array(A, float), np.array(b, float)))


def photograph(card, c, rng, index):
    PW, PH = 2000, 1500
    bg = BACKGROUNDS[index % len(BACKGROUNDS)]
    noise = Image.effect_noise((PW // 8, PH // 8), 40).convert("L").resize((PW, PH), Image.BICUBIC)
    base = Image.new("RGB", (PW, PH), bg)
    tint = Image.merge("RGB", [noise.point(lambda v, k=k: max(0, min(255, bg[k] + (v - 128) // 2))) for k in range(3)])
    photo = Image.blend(base, tint, 0.7)
    scale = c.get("scale", 0.62)
    cw = PW * scale
    ch = cw * card.height / card.width
    if card.height > card.width:  # a card turned on its side: fit its long side to the frame's height
        ch = PH * scale * 1.1
        cw = ch * card.width / card.height
    angle = math.radians(rng.uniform(-9, 9))
    cx, cy = PW / 2 + rng.uniform(-60, 60), PH / 2 + rng.uniform(-40, 40)
    corners = []
    for (sx, sy) in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
        x, y = sx * cw / 2, sy * ch / 2
        # a little perspective: the far edge shorter
        x *= 1 - 0.04 * (sy + 1) / 2
        corners.append((cx + x * math.cos(angle) - y * math.sin(angle), cy + x * math.sin(angle) + y * math.cos(angle)))
    if scale > 1:
        corners = [(min(PW + 200, max(-200, x)), min(PH + 200, max(-200, y))) for x, y in corners]
    src = [(0, 0), (card.width, 0), (card.width, card.height), (0, card.height)]
    coeffs = perspective_coeffs(src, corners)
    warped = card.transform((PW, PH), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    mask = Image.new("L", card.size, 255).transform((PW, PH), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    shadow = mask.filter(ImageFilter.GaussianBlur(14)).point(lambda v: v // 3)
    photo.paste((0, 0, 0), (18, 22), shadow)
    photo.paste(warped, (0, 0), mask)
    # Uneven light: a gradient from one corner.
    light = Image.linear_gradient("L").resize((PW, PH)).rotate(rng.uniform(0, 360), fillcolor=128).point(lambda v: 200 + v // 5)
    photo = Image.composite(photo, Image.new("RGB", (PW, PH), (0, 0, 0)), light)
    photo = photo.filter(ImageFilter.GaussianBlur(0.8))
    return photo


# --- metadata, written by hand so every kind a phone writes is there -------------------------------

def tiff_ifd(entries, offset, next_ifd=0):
    """entries: list of (tag, type, count, bytes). Returns (ifd bytes, data bytes), data placed after the IFD."""
    n = len(entries)
    ifd_size = 2 + 12 * n + 4
    data = b""
    out = struct.pack(">H", n)
    for tag, typ, count, value in sorted(entries):
        if len(value) <= 4:
            out += struct.pack(">HHI", tag, typ, count) + value.ljust(4, b"\0")
        else:
            out += struct.pack(">HHII", tag, typ, count, offset + ifd_size + len(data))
            data += value
            if len(data) % 2:
                data += b"\0"
    out += struct.pack(">I", next_ifd)
    return out, data


def ascii_(s):
    b = s.encode() + b"\0"
    return (2, len(b), b)


def rationals(vals):
    return (5, len(vals), b"".join(struct.pack(">II", n, d) for n, d in vals))


def exif_block(orientation, gps, thumbnail):
    # Layout: header(8) | IFD0 | ExifIFD | GPS IFD | IFD1 | thumbnail
    def build(off_exif, off_gps, off_ifd1):
        e0 = [(0x010F, *ascii_("CardCam")), (0x0110, *ascii_("CC-9 Pro")), (0x0112, 3, 1, struct.pack(">H", orientation)),
              (0x0131, *ascii_("fixture-generator 1.0")), (0x8769, 4, 1, struct.pack(">I", off_exif)),
              (0x8825, 4, 1, struct.pack(">I", off_gps))]
        ifd0, d0 = tiff_ifd(e0, 8, off_ifd1)
        ee = [(0x9003, *ascii_("2026:03:14 09:26:53")), (0x927C, 7, 16, b"CARDCAM MAKERNTE"),
              (0xA431, *ascii_("SN-0042-7781"))]
        exif, de = tiff_ifd(ee, off_exif)
        lat, lon = gps
        def dms(v):
            v = abs(v); d = int(v); m = int((v - d) * 60); s = round(((v - d) * 60 - m) * 60 * 100)
            return [(d, 1), (m, 1), (s, 100)]
        eg = [(0x0000, 1, 4, b"\x02\x03\x00\x00"), (0x0001, *ascii_("N" if lat >= 0 else "S")), (0x0002, *rationals(dms(lat))),
              (0x0003, *ascii_("E" if lon >= 0 else "W")), (0x0004, *rationals(dms(lon)))]
        gpsb, dg = tiff_ifd(eg, off_gps)
        return ifd0 + d0, exif + de, gpsb + dg, e0
    a, b, c, _ = build(0, 0, 0)
    off_exif = 8 + len(a); off_gps = off_exif + len(b); off_ifd1 = off_gps + len(c) if thumbnail else 0
    a, b, c, _ = build(off_exif, off_gps, off_ifd1)
    body = b"MM\x00\x2a" + struct.pack(">I", 8) + a + b + c
    if thumbnail:
        off_thumb = off_ifd1 + 2 + 12 * 3 + 4
        e1 = [(0x0103, 3, 1, struct.pack(">H", 6)), (0x0201, 4, 1, struct.pack(">I", off_thumb)),
              (0x0202, 4, 1, struct.pack(">I", len(thumbnail)))]
        ifd1, d1 = tiff_ifd(e1, off_ifd1)
        body += ifd1 + d1 + thumbnail
    return b"Exif\0\0" + body


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def with_metadata(jpeg, c, photo, rng):
    kinds = c["metadata"]
    gps = (round(rng.uniform(-60, 60), 6), round(rng.uniform(-150, 150), 6))
    thumb = None
    if "Thumbnail" in kinds:
        t = photo.copy(); t.thumbnail((160, 120))
        buf = io.BytesIO(); t.save(buf, "JPEG", quality=70); thumb = buf.getvalue()
    segs = [segment(0xE1, exif_block(c["orientation"], gps, thumb))]
    if "XMP" in kinds:
        xmp = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
               '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="%s" exif:GPSLongitude="%s"/>'
               '</rdf:RDF></x:xmpmeta>' % gps)
        segs.append(segment(0xE1, b"http://ns.adobe.com/xap/1.0/\0" + xmp.encode()))
    if "IPTC" in kinds:
        record = b"\x1c\x02\x5a" + struct.pack(">H", 7) + b"Seattle"  # City
        res = b"8BIM" + struct.pack(">H", 0x0404) + b"\0\0" + struct.pack(">I", len(record)) + record
        if len(record) % 2: res += b"\0"
        segs.append(segment(0xED, b"Photoshop 3.0\0" + res))
    if "COM" in kinds:
        segs.append(segment(0xFE, b"fixture photo, taken at the fair"))
    # Drop the JFIF APP0 the encoder wrote: phones write EXIF first.
    assert jpeg[:2] == b"\xff\xd8"
    rest = jpeg[2:]
    if rest[:2] == b"\xff\xe0":
        n = struct.unpack(">H", rest[2:4])[0]
        rest = rest[2 + n:]
    return b"\xff\xd8" + b"".join(segs) + rest


STORE_ROTATION = {1: None, 3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Fixtures", "Cards")
    os.makedirs(out, exist_ok=True)
    truth = []
    for i, c in enumerate(CARDS):
        rng = random.Random(1000 + i)
        random.seed(1000 + i)
        card = render_card(c, rng)
        if c.get("turn"):
            card = card.rotate(-c["turn"], expand=True)  # PIL rotates counter-clockwise
        photo = photograph(card, c, rng, i)
        # Store the pixels as a phone does: rotated, with the orientation that turns them upright.
        stored = photo.transpose(STORE_ROTATION[c["orientation"]]) if STORE_ROTATION[c["orientation"]] else photo
        buf = io.BytesIO()
        stored.save(buf, "JPEG", quality=86)
        data = with_metadata(buf.getvalue(), c, photo, rng)
        with open(os.path.join(out, c["file"]), "wb") as fh:
            fh.write(data)
        truth.append({
            "file": c["file"], "name": c["name"], "given": c["given"], "family": c["family"], "title": c["title"],
            "organization": c["organization"], "emails": c["emails"], "urls": c["urls"],
            "phones": [{"type": t, "printed": p, "e164": e} for (t, _, p, e) in c["phones"]],
            "address": c.get("address"), "region": c["region"], "layout": c["layout"], "orientation": c["orientation"],
            "metadata": c["metadata"],
        })
    with open(os.path.join(out, "expected.jsonl"), "w") as fh:
        for t in truth:
            fh.write(json.dumps(t, ensure_ascii=False) + "\n")
    print(f"wrote {len(CARDS)} cards to {out}")


if __name__ == "__main__":
    main()
