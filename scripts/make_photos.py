#!/usr/bin/env python3
"""Generates phone-photo-like pictures of business cards under hard conditions, with their truth.

Two uses:
  - `--conditions DIR`: one photo per condition cardscan must handle (a small card, a white card on
    a white desk, a card cut off by the frame, printed paper beside the card, a card turned by 30
    degrees, ...), small enough to commit: Fixtures/Conditions.
  - `--count N DIR`: N photos with every condition mixed at random (several per photo), at phone
    resolution, for measuring accuracy on photos no rule was written for (`make eval`).

Cards are rendered with Debian's fonts (fonts-dejavu-core, fonts-liberation and, when installed,
Lato, Open Sans, Roboto, Inter, Cabin, Quicksand, M+, TeX Gyre, EB Garamond, Linux Libertine,
Noto), with contact data from Faker's locales (names, companies, streets, cities and postcodes of
25 countries, letters as they are written there) and phone numbers made valid with libphonenumber's
Python port (phonenumbers). Designs vary: layouts, dark and coloured cards, logos, icons instead
of labels, letter-spaced capitals, thin fonts, small print, dividers, QR codes (segno).
Photos: wood, fabric, carpet, keyboard, white desk, printed paper with text beside or under the
card; any rotation, perspective, drop and hand shadows, glare, defocus and motion blur, noise,
low light, colour casts; stored rotated with an EXIF orientation as phones do, with GPS.

Truth lines have the fields of ../shared/eval's truth.jsonl (so its score.py reads them) plus
`card_quad` (corners in the upright photo, clockwise from the card's own top-left) and `conditions`.

usage: python3 scripts/make_photos.py --count 60 [--seed 7] [--size 3264] OUT_DIR
       python3 scripts/make_photos.py --conditions Fixtures/Conditions
needs: pip install Pillow numpy faker phonenumbers segno
Deterministic: the same arguments write the same files.
"""
import argparse, io, json, math, os, random, re, sys, unicodedata

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_fixtures import with_metadata, STORE_ROTATION  # noqa: E402

try:
    from faker import Faker
    import phonenumbers
    from phonenumbers import PhoneNumberFormat, PhoneNumberType
except ImportError:
    raise SystemExit("make_photos.py needs: pip install Pillow numpy faker phonenumbers segno")
try:
    import segno
except ImportError:
    segno = None

# --- fonts ------------------------------------------------------------------------------------------

FONT_FAMILIES = {
    # family: (regular, bold, light-or-thin or None)
    "DejaVuSans": ("dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf", "dejavu/DejaVuSans-ExtraLight.ttf"),
    "DejaVuSerif": ("dejavu/DejaVuSerif.ttf", "dejavu/DejaVuSerif-Bold.ttf", None),
    "LiberationSans": ("liberation/LiberationSans-Regular.ttf", "liberation/LiberationSans-Bold.ttf", None),
    "LiberationSerif": ("liberation/LiberationSerif-Regular.ttf", "liberation/LiberationSerif-Bold.ttf", None),
    "Lato": ("lato/Lato-Regular.ttf", "lato/Lato-Bold.ttf", "lato/Lato-Light.ttf"),
    "OpenSans": ("open-sans/OpenSans-Regular.ttf", "open-sans/OpenSans-Bold.ttf", "open-sans/OpenSans-Light.ttf"),
    "Roboto": ("roboto/unhinted/RobotoTTF/Roboto-Regular.ttf", "roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
               "roboto/unhinted/RobotoTTF/Roboto-Light.ttf"),
    "RobotoSlab": ("roboto/slab/RobotoSlab-Regular.otf", "roboto/slab/RobotoSlab-Bold.otf", "roboto/slab/RobotoSlab-Light.otf"),
    "Inter": ("inter/Inter-Regular.otf", "inter/Inter-Bold.otf", "inter/Inter-Light.otf"),
    "Cabin": ("cabin/Cabin-Regular.otf", "cabin/Cabin-Bold.otf", None),
    "Quicksand": ("quicksand/Quicksand-Regular.ttf", "quicksand/Quicksand-Bold.ttf", "quicksand/Quicksand-Light.ttf"),
    "Mplus1": ("mplus/Mplus1-Regular.otf", "mplus/Mplus1-Bold.otf", "mplus/Mplus1-Light.otf"),
    "Cantarell": ("cantarell/Cantarell-Regular.otf", "cantarell/Cantarell-Bold.otf", "cantarell/Cantarell-Light.otf"),
    "Comfortaa": ("comfortaa/Comfortaa-Regular.ttf", "comfortaa/Comfortaa-Bold.ttf", "comfortaa/Comfortaa-Light.ttf"),
    "EBGaramond": ("ebgaramond/EBGaramond12-Regular.otf", "ebgaramond/EBGaramond12-Bold.otf", None),
    "Libertine": ("linux-libertine/LinLibertine_R.otf", "linux-libertine/LinLibertine_RB.otf", None),
    "NotoSans": ("noto/NotoSans-Regular.ttf", "noto/NotoSans-Bold.ttf", None),
    "NotoSerif": ("noto/NotoSerif-Regular.ttf", "noto/NotoSerif-Bold.ttf", None),
    "Gentium": ("gentiumplus/GentiumPlus-Regular.ttf", "gentiumplus/GentiumPlus-Bold.ttf", None),
    "TeXGyreHeros": ("/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheros-regular.otf",
                     "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheros-bold.otf", None),
    "TeXGyreTermes": ("/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyretermes-regular.otf",
                      "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyretermes-bold.otf", None),
}
FONT_ROOTS = ["/usr/share/fonts/truetype", "/usr/share/fonts/opentype"]


def font_path(rel):
    if rel is None:
        return None
    if rel.startswith("/"):
        return rel if os.path.exists(rel) else None
    for root in FONT_ROOTS:
        p = os.path.join(root, rel)
        if os.path.exists(p):
            return p
    return None


def available_families():
    out = [f for f, (r, b, _) in FONT_FAMILIES.items() if font_path(r) and font_path(b)]
    if not out:
        raise SystemExit("no fonts found: apt-get install fonts-dejavu-core fonts-liberation")
    return out


_font_cache = {}


def font(family, size, weight="regular"):
    r, b, light = FONT_FAMILIES[family]
    rel = {"regular": r, "bold": b, "light": light or r}[weight]
    key = (rel, size)
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(font_path(rel), size)
    return _font_cache[key]


# --- contact data -----------------------------------------------------------------------------------

COUNTRIES = {
    # region: (Faker locale, label language, top-level domain, country name as printed)
    "US": ("en_US", "en", "com", "USA"), "CA": ("en_CA", "en", "ca", "Canada"), "GB": ("en_GB", "en", "co.uk", "United Kingdom"),
    "AU": ("en_AU", "en", "com.au", "Australia"), "IE": ("en_IE", "en", "ie", "Ireland"), "NZ": ("en_NZ", "en", "co.nz", "New Zealand"),
    "IN": ("en_IN", "en", "co.in", "India"), "SG": ("en_US", "en", "sg", "Singapore"), "DE": ("de_DE", "de", "de", "Deutschland"),
    "AT": ("de_AT", "de", "at", "Österreich"), "CH": ("de_CH", "de", "ch", "Schweiz"), "FR": ("fr_FR", "fr", "fr", "France"),
    "BE": ("nl_BE", "nl", "be", "België"), "NL": ("nl_NL", "nl", "nl", "Nederland"), "ES": ("es_ES", "es", "es", "España"),
    "IT": ("it_IT", "it", "it", "Italia"), "PT": ("pt_PT", "pt", "pt", "Portugal"), "BR": ("pt_BR", "pt", "com.br", "Brasil"),
    "SE": ("sv_SE", "sv", "se", "Sverige"), "NO": ("no_NO", "no", "no", "Norge"), "DK": ("da_DK", "da", "dk", "Danmark"),
    "FI": ("fi_FI", "fi", "fi", "Suomi"), "PL": ("pl_PL", "pl", "pl", "Polska"), "CZ": ("cs_CZ", "cs", "cz", "Česko"),
    "JP": ("ja_JP", "en", "co.jp", "Japan"),
}
ENGLISH_COUNTRY = {"DE": "Germany", "AT": "Austria", "CH": "Switzerland", "FR": "France", "BE": "Belgium", "NL": "Netherlands",
                   "ES": "Spain", "IT": "Italy", "PT": "Portugal", "BR": "Brazil", "SE": "Sweden", "NO": "Norway", "DK": "Denmark",
                   "FI": "Finland", "PL": "Poland", "CZ": "Czech Republic"}

TITLES = {
    "en": ["Sales Director", "Chief Executive Officer", "Managing Director", "Senior Software Engineer", "Product Manager",
           "Head of Marketing", "Account Executive", "Business Development Manager", "Operations Manager", "Art Director",
           "Financial Controller", "Research Scientist", "Partner", "Founder", "Co-Founder & CTO", "Senior Consultant",
           "Project Manager", "Lead UX Designer", "Legal Counsel", "Procurement Manager", "Regional Manager",
           "Customer Success Lead", "Data Analyst", "Office Manager", "Technical Lead", "Head of Partnerships"],
    "de": ["Geschäftsführer", "Vertriebsleiterin", "Leiter Einkauf", "Projektleiterin", "Steuerberater", "Prokurist",
           "Key Account Manager", "Rechtsanwältin", "Leiterin Marketing", "Softwareentwickler"],
    "fr": ["Directeur commercial", "Chef de projet", "Responsable marketing", "Directrice générale", "Ingénieur commercial",
           "Gérant", "Consultante senior", "Responsable des achats"],
    "nl": ["Directeur", "Accountmanager", "Projectleider", "Commercieel directeur", "Adviseur", "Bedrijfsleider"],
    "es": ["Director Comercial", "Gerente General", "Responsable de Compras", "Jefa de Proyecto", "Consultor Senior",
           "Directora de Marketing"],
    "it": ["Direttore Commerciale", "Responsabile Acquisti", "Amministratore Delegato", "Direttore Tecnico", "Consulente",
           "Responsabile Marketing"],
    "pt": ["Diretor Comercial", "Gerente de Projetos", "Diretora Geral", "Consultor", "Gestor de Compras"],
    "sv": ["VD", "Försäljningschef", "Projektledare", "Ekonomichef", "Inköpschef", "Konsult"],
    "no": ["Daglig leder", "Salgssjef", "Prosjektleder", "Økonomisjef", "Rådgiver"],
    "da": ["Direktør", "Salgschef", "Projektleder", "Økonomichef", "Konsulent"],
    "fi": ["Toimitusjohtaja", "Myyntipäällikkö", "Projektipäällikkö", "Talousjohtaja", "Asiantuntija"],
    "pl": ["Dyrektor Handlowy", "Kierownik Projektu", "Prezes Zarządu", "Specjalista ds. Zakupów", "Konsultant"],
    "cs": ["Obchodní ředitel", "Vedoucí projektu", "Jednatel", "Konzultant", "Nákupčí"],
}

LABELS = {
    # language: phone work, mobile, fax, email, web
    "en": [("Tel", "Mobile", "Fax", "Email", "Web"), ("T", "M", "F", "E", "W"), ("Phone", "Cell", "Fax", "E-mail", "Website"),
           ("Office", "Mob", "Fax", "Mail", "Web"), ("P", "C", "F", "E", "W"), ("Direct line", "Mobile", "Fax", "Email", "Web")],
    "de": [("Tel.", "Mobil", "Fax", "E-Mail", "Web"), ("Telefon", "Handy", "Telefax", "E-Mail", "Internet"), ("T", "M", "F", "E", "W")],
    "fr": [("Tél.", "Mobile", "Fax", "Email", "Web"), ("Tél", "Portable", "Fax", "Courriel", "Site")],
    "nl": [("Tel.", "Mobiel", "Fax", "E-mail", "Web"), ("T", "M", "F", "E", "W")],
    "es": [("Tel.", "Móvil", "Fax", "Correo", "Web"), ("Teléfono", "Móvil", "Fax", "Email", "Web")],
    "it": [("Tel.", "Cell.", "Fax", "Email", "Web"), ("Telefono", "Cellulare", "Fax", "E-mail", "Sito")],
    "pt": [("Tel.", "Telemóvel", "Fax", "Email", "Web"), ("Tel", "Celular", "Fax", "E-mail", "Site")],
    "sv": [("Tel", "Mobil", "Fax", "E-post", "Webb"), ("Telefon", "Mobil", "Fax", "E-post", "Web")],
    "no": [("Tlf", "Mobil", "Faks", "E-post", "Web"), ("Telefon", "Mobil", "Faks", "E-post", "Nett")],
    "da": [("Tlf.", "Mobil", "Fax", "E-mail", "Web"), ("Telefon", "Mobil", "Fax", "Mail", "Web")],
    "fi": [("Puh.", "GSM", "Faksi", "Sähköposti", "Web"), ("Puhelin", "Matkapuhelin", "Faksi", "Email", "Web")],
    "pl": [("Tel.", "Tel. kom.", "Faks", "E-mail", "WWW"), ("Tel", "Kom.", "Fax", "Email", "Web")],
    "cs": [("Tel.", "Mobil", "Fax", "E-mail", "Web")],
}

JP_PLACES = [("Chiyoda-ku", "Tokyo", "Marunouchi"), ("Minato-ku", "Tokyo", "Akasaka"), ("Shibuya-ku", "Tokyo", "Jingumae"),
             ("Chuo-ku", "Osaka", "Honmachi"), ("Kita-ku", "Osaka", "Umeda"), ("Naka-ku", "Nagoya", "Sakae"),
             ("Nishi-ku", "Yokohama", "Minatomirai"), ("Chuo-ku", "Kobe", "Sannomiya"), ("Hakata-ku", "Fukuoka", "Hakataekimae"),
             ("Aoba-ku", "Sendai", "Ichibancho"), ("Chuo-ku", "Sapporo", "Kita-Sanjo"), ("Shimogyo-ku", "Kyoto", "Karasuma")]
JP_COMPANY = ["Precision", "Robotics", "Electronics", "Trading", "Logistics", "Design", "Pharma", "Systems", "Foods", "Instruments"]
SG_STREETS = ["Anson Road", "Ubi Avenue 1", "Kallang Avenue", "Raffles Place", "Tampines Street 92", "Jurong East Street 21",
              "Orchard Road", "Shenton Way", "Alexandra Road", "Toa Payoh Lorong 6"]
STATE_NAMES_IN = ["Karnataka", "Maharashtra", "Tamil Nadu", "Kerala", "Gujarat", "Telangana", "Delhi", "West Bengal"]


def ascii_slug(s):
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]", "", s.lower())


def make_phone(rng, region, kind):
    example = phonenumbers.example_number_for_type(region, kind) or phonenumbers.example_number(region)
    if example is None:
        return None
    national = str(example.national_number)
    for _ in range(400):
        keep = max(2, len(national) - rng.randint(4, 6))
        digits = national[:keep] + "".join(str(rng.randint(0, 9)) for _ in range(len(national) - keep))
        try:
            n = phonenumbers.parse("+%d%s" % (example.country_code, digits), None)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(n) and phonenumbers.number_type(n) in (kind, PhoneNumberType.FIXED_LINE_OR_MOBILE):
            break
    else:
        n = example
    style = rng.random()
    if style < 0.45:
        printed = phonenumbers.format_number(n, PhoneNumberFormat.INTERNATIONAL)
    else:
        printed = phonenumbers.format_number(n, PhoneNumberFormat.NATIONAL)
    if rng.random() < 0.2 and region in ("US", "CA") and not printed.startswith("+"):
        d = re.sub(r"\D", "", printed)[-10:]
        printed = rng.choice(["%s.%s.%s", "%s-%s-%s"]) % (d[:3], d[3:6], d[6:])
    return dict(printed=printed, e164=phonenumbers.format_number(n, PhoneNumberFormat.E164))


def make_address(rng, fake, region):
    country_line = None
    if region == "JP":
        ward, city, town = rng.choice(JP_PLACES)
        street = "%d-%d-%d %s" % (rng.randint(1, 9), rng.randint(1, 30), rng.randint(1, 20), town)
        pc = "%03d-%04d" % (rng.randint(100, 999), rng.randint(0, 9999))
        lines = [street + ", " + ward, "%s %s" % (city, pc)]
        return dict(street=street, city=ward, region=city, postalCode=pc, lines=lines, country="Japan")
    if region == "SG":
        street = "%d %s" % (rng.randint(1, 200), rng.choice(SG_STREETS))
        if rng.random() < 0.6:
            street += ", #%02d-%02d" % (rng.randint(1, 40), rng.randint(1, 30))
        pc = "%06d" % rng.randint(10000, 829999)
        return dict(street=street, city="Singapore", region="", postalCode=pc, lines=[street, "Singapore " + pc], country="")
    street = fake.street_address().replace("\n", ", ")
    city = fake.city()
    state = ""
    if region in ("US", "CA", "AU"):
        state = fake.state_abbr() if region != "CA" else fake.province_abbr()
        pc = fake.postcode() if region != "CA" else fake.postalcode()
        city_line = "%s, %s %s" % (city, state, pc) if region != "AU" else "%s %s %s" % (city, state, pc)
    elif region in ("GB", "IE", "NZ"):
        pc = fake.postcode()
        city_line = "%s %s" % (city, pc)
    elif region == "IN":
        pc = fake.postcode()
        state = rng.choice(STATE_NAMES_IN)
        city_line = "%s - %s" % (city, pc) if rng.random() < 0.5 else "%s, %s %s" % (city, state, pc)
    elif region == "IT":
        pc = fake.postcode()
        state = fake.state_abbr() if hasattr(fake, "state_abbr") else "MI"
        city_line = "%s %s (%s)" % (pc, city, state)
    elif region == "BR":
        pc = fake.postcode()
        state = fake.estado_sigla()
        city_line = "%s - %s, %s" % (city, state, pc)
    else:
        pc = fake.postcode()
        city_line = "%s %s" % (pc, city)
    lines = [street, city_line]
    if rng.random() < 0.3:
        country_line = rng.choice([COUNTRIES[region][3], ENGLISH_COUNTRY.get(region, COUNTRIES[region][3])])
        lines.append(country_line)
    return dict(street=street, city=city, region=state, postalCode=pc, lines=lines, country=country_line or "")


def make_contact(rng, region):
    locale, lang, tld, _ = COUNTRIES[region]
    fake = Faker(locale)
    fake.seed_instance(rng.randint(0, 10 ** 9))
    if region == "JP":
        given, family = fake.first_romanized_name().capitalize(), fake.last_romanized_name().capitalize()
        company = "%s %s %s" % (fake.last_romanized_name().capitalize(), rng.choice(JP_COMPANY),
                                rng.choice(["K.K.", "Co., Ltd.", "Inc.", "Corporation"]))
    else:
        given, family = fake.first_name(), fake.last_name()
        company = fake.company()
    name = "%s %s" % (given, family)
    title = rng.choice(TITLES["en"] if rng.random() < 0.4 or lang not in TITLES else TITLES[lang])
    slug = ascii_slug(company.split(",")[0].split(" and ")[0].split(" ")[0] if rng.random() < 0.6 else company)[:18] or "company"
    domain = slug + "." + (tld if rng.random() < 0.75 else "com")
    g, f = ascii_slug(given), ascii_slug(family)
    local = rng.choice([g + "." + f, g[0] + f, g, f, g + "_" + f, "info", "hello"])
    emails = [local + "@" + domain]
    url_style = rng.random()
    urls = [] if url_style < 0.15 else [rng.choice(["www." + domain, "https://" + domain, domain, "https://www." + domain])]
    phones = []
    kinds = rng.choice([["work"], ["work", "mobile"], ["mobile"], ["work", "fax"], ["work", "mobile", "fax"]])
    for k in kinds:
        t = {"work": PhoneNumberType.FIXED_LINE, "mobile": PhoneNumberType.MOBILE, "fax": PhoneNumberType.FIXED_LINE}[k]
        for _ in range(5):  # a card lists each number once
            p = make_phone(rng, region, t)
            if p and all(p["e164"] != q["e164"] for q in phones):
                phones.append(dict(type=k, **p))
                break
    address = make_address(rng, fake, region) if rng.random() < 0.75 else None
    return dict(name=name, given=given, family=family, title=title, organization=company, emails=emails, urls=urls,
                phones=phones, address=address, region=region, lang=lang)


# --- card rendering ---------------------------------------------------------------------------------

LIGHT_PAPERS = [(250, 250, 248), (246, 242, 232), (240, 244, 248), (252, 248, 240), (236, 240, 236), (248, 236, 232), (222, 232, 240)]
DARK_PAPERS = [(28, 32, 44), (20, 20, 24), (34, 46, 80), (60, 24, 40), (24, 56, 48), (70, 40, 100), (150, 30, 40)]
ACCENTS = [(30, 90, 160), (200, 80, 30), (40, 130, 90), (150, 40, 90), (90, 60, 160), (20, 140, 160), (180, 140, 30)]


def spaced(text, on):
    return " ".join(text) if on else text


def fitting_size(family, size, style, text, width):
    """The largest type size up to `size` at which `text` is at most `width` wide."""
    while size > 12 and font(family, size, style).getlength(text) > width:
        size -= 2
    return size


def draw_icon(d, kind, x, y, s, colour):
    """Small pictograms in place of labels: handset, mobile, fax, envelope, globe, pin."""
    if kind == "work":
        d.arc([x, y, x + s, y + s], 200, 340, fill=colour, width=max(2, s // 5))
        d.rectangle([x, y + s * 0.45, x + s * 0.3, y + s * 0.75], fill=colour)
        d.rectangle([x + s * 0.7, y + s * 0.45, x + s, y + s * 0.75], fill=colour)
    elif kind == "mobile":
        d.rounded_rectangle([x + s * 0.25, y, x + s * 0.75, y + s], radius=max(1, s // 8), outline=colour, width=max(2, s // 7))
    elif kind == "fax":
        d.rectangle([x, y + s * 0.35, x + s, y + s], fill=colour)
        d.rectangle([x + s * 0.2, y, x + s * 0.8, y + s * 0.35], outline=colour, width=max(1, s // 8))
    elif kind == "email":
        d.rectangle([x, y + s * 0.15, x + s, y + s * 0.85], outline=colour, width=max(1, s // 8))
        d.line([x, y + s * 0.15, x + s / 2, y + s * 0.55, x + s, y + s * 0.15], fill=colour, width=max(1, s // 8))
    elif kind == "web":
        d.ellipse([x, y, x + s, y + s], outline=colour, width=max(1, s // 8))
        d.line([x, y + s / 2, x + s, y + s / 2], fill=colour, width=max(1, s // 10))
        d.ellipse([x + s * 0.3, y, x + s * 0.7, y + s], outline=colour, width=max(1, s // 10))
    elif kind == "address":
        d.ellipse([x + s * 0.2, y, x + s * 0.8, y + s * 0.6], fill=colour)
        d.polygon([(x + s * 0.25, y + s * 0.4), (x + s * 0.75, y + s * 0.4), (x + s / 2, y + s)], fill=colour)


def draw_logo(d, kind, x, y, s, colour, initials, fnt):
    if kind == "circle":
        d.ellipse([x, y, x + s, y + s], fill=colour)
    elif kind == "triangle":
        d.polygon([(x + s / 2, y), (x + s, y + s), (x, y + s)], fill=colour)
    elif kind == "square":
        d.rectangle([x, y, x + s, y + s], fill=colour)
    elif kind == "bars":
        for k in range(3):
            d.rectangle([x + k * s / 3, y + s * (0.6 - 0.25 * k), x + k * s / 3 + s / 4.5, y + s], fill=colour)
    elif kind == "rings":
        d.ellipse([x, y, x + s * 0.7, y + s * 0.7], outline=colour, width=max(2, s // 8))
        d.ellipse([x + s * 0.3, y, x + s, y + s * 0.7], outline=colour, width=max(2, s // 8))
    elif kind == "initials":
        d.ellipse([x, y, x + s, y + s], outline=colour, width=max(2, s // 12))
        d.text((x + s / 2, y + s / 2), initials, font=fnt, fill=colour, anchor="mm")


def qr_image(payload, size):
    if segno is None:
        return None
    q = segno.make(payload, error="m")
    buf = io.BytesIO()
    q.save(buf, kind="png", scale=10, border=1)
    buf.seek(0)
    return Image.open(buf).convert("RGB").resize((size, size), Image.NEAREST)


def vcard_payload(c):
    lines = ["BEGIN:VCARD", "VERSION:3.0", "N:%s;%s" % (c["family"], c["given"]), "FN:" + c["name"], "ORG:" + c["organization"],
             "TITLE:" + c["title"]]
    for p in c["phones"]:
        lines.append("TEL;TYPE=%s:%s" % ({"work": "WORK", "mobile": "CELL", "fax": "FAX"}[p["type"]], p["e164"]))
    lines += ["EMAIL:" + e for e in c["emails"]] + ["URL:" + u for u in c["urls"]]
    a = c.get("address")
    if a:
        esc = lambda v: (v or "").replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
        lines.append("ADR;TYPE=WORK:;;%s;%s;%s;%s;%s" % tuple(esc(a.get(k)) for k in ("street", "city", "region", "postalCode", "country")))
    lines.append("END:VCARD")
    return "\n".join(lines)


def render_card(c, rng, families, force=None):
    force = force or {}
    portrait = force.get("portrait", rng.random() < 0.12)
    W, H = (1050, 600) if rng.random() < 0.5 else (1004, 650)
    if portrait:
        W, H = H, W
    dark = force.get("dark", rng.random() < 0.22)
    paper = rng.choice(DARK_PAPERS if dark else LIGHT_PAPERS)
    paper = force.get("paper", paper)
    ink = (236, 236, 232) if dark else rng.choice([(30, 30, 36), (50, 50, 60), (20, 30, 60), (60, 50, 45)])
    accent = rng.choice(ACCENTS)
    if dark:
        accent = tuple(min(255, int(a * 0.5 + 140)) for a in accent)
    family = force.get("font", rng.choice(families))
    thin = FONT_FAMILIES[family][2] is not None and rng.random() < 0.25
    weight = "light" if thin else "regular"
    design = []
    if thin:
        design.append("thin_font")
    small_print = rng.random() < 0.3
    if small_print:
        design.append("small_print")
    unit = min(W, H) / 600
    s_name, s_title, s_org = int(rng.uniform(40, 56) * unit), int(rng.uniform(24, 30) * unit), int(rng.uniform(28, 40) * unit)
    s_small = int((rng.uniform(17, 20) if small_print else rng.uniform(21, 27)) * unit)
    caps_name = rng.random() < 0.2
    caps_org = rng.random() < 0.2
    spaced_name = caps_name and rng.random() < 0.5
    spaced_org = caps_org and rng.random() < 0.6
    if caps_name:
        design.append("caps_spaced_name" if spaced_name else "caps_name")
    if caps_org:
        design.append("caps_spaced_org" if spaced_org else "caps_org")
    name_txt = spaced(c["name"].upper() if caps_name else c["name"], spaced_name)
    org_txt = spaced(c["organization"].upper() if caps_org else c["organization"], spaced_org)
    img = Image.new("RGB", (W, H), paper)
    d = ImageDraw.Draw(img)
    layouts = ["left_stack", "centered_stack", "split_corners", "logo_left", "band_top", "side_band"]
    layout = force.get("layout", rng.choice(layouts if not portrait else ["centered_stack", "left_stack", "band_top"]))
    label_mode = force.get("labels", rng.choice(["labels", "labels", "icons", "none", "short"]))
    if label_mode == "icons":
        design.append("icons")
    elif label_mode == "none":
        design.append("no_labels")
    labels = rng.choice(LABELS.get(c["lang"], LABELS["en"]) if rng.random() < 0.7 else LABELS["en"])
    if label_mode == "short":
        labels = ("T", "M", "F", "E", "W")
    logo = force.get("logo", rng.random() < 0.55)
    qr = force.get("qr", segno is not None and rng.random() < 0.18)
    if qr and layout in ("split_corners", "side_band", "centered_stack"):
        layout = "left_stack"
    # Contact lines: (kind, label, value)
    rows = []
    for p in c["phones"]:
        lab = {"work": labels[0], "mobile": labels[1], "fax": labels[2]}[p["type"]]
        rows.append((p["type"], lab, p["printed"]))
    rows += [("email", labels[3], e) for e in c["emails"]] + [("web", labels[4], u) for u in c["urls"]]
    addr_rows = [("address", "", line) for line in (c["address"]["lines"] if c["address"] else [])]
    f_small = font(family, s_small, weight)
    name_style = "bold" if rng.random() < 0.6 else weight
    f_title = font(family, s_title, weight)
    org_style = "bold" if rng.random() < 0.5 else weight
    margin = int(rng.uniform(48, 70) * unit)
    # Letter-spaced capitals can run past the card's edge: the type is made smaller until the
    # line fits the narrowest column a layout gives it (the truth must be printed whole).
    column = W - 2 * margin - (int(W * 0.22) if layout == "side_band" else 0)
    s_name, s_org = fitting_size(family, s_name, name_style, name_txt, column), fitting_size(family, s_org, org_style, org_txt, column)
    f_name, f_org = font(family, s_name, name_style), font(family, s_org, org_style)
    line_gap = int(s_small * 1.38)
    text_colour = ink
    band_colour = accent

    def contact_block(x, y, rows_, anchor="la", colour=None):
        colour = colour or text_colour
        for kind, lab, val in rows_:
            if label_mode == "icons" and kind != "address":
                s = int(s_small * 0.8)
                ix = x if anchor == "la" else x - d.textlength(val, font=f_small) - s - 10
                draw_icon(d, kind, ix, y + s_small * 0.12, s, accent if not dark else colour)
                tx = x + s + 12 if anchor == "la" else x
                d.text((tx, y), val, font=f_small, fill=colour, anchor=anchor)
            elif label_mode in ("labels", "short") and kind != "address":
                sep = rng.choice([": ", "  ", " | "]) if not hasattr(contact_block, "sep") else contact_block.sep
                contact_block.sep = sep
                d.text((x, y), lab + sep + val, font=f_small, fill=colour, anchor=anchor)
            else:
                d.text((x, y), val, font=f_small, fill=colour, anchor=anchor)
            y += line_gap
        return y

    logo_kind = rng.choice(["circle", "triangle", "square", "bars", "rings", "initials"])
    initials = "".join(w[0] for w in c["organization"].split()[:2] if w[:1].isalpha()).upper()[:2] or "C"
    qr_size = int(min(W, H) * 0.3)
    if layout == "band_top":
        bh = int(H * (0.2 if not portrait else 0.14))
        d.rectangle([0, 0, W, bh], fill=band_colour)
        d.text((margin, bh / 2), org_txt, font=f_org, fill=(255, 255, 255), anchor="lm")
        y = bh + margin * 0.6
        d.text((margin, y), name_txt, font=f_name, fill=text_colour); y += s_name * 1.3
        d.text((margin, y), c["title"], font=f_title, fill=text_colour); y += s_title * 1.8
        y = contact_block(margin, y, rows)
        contact_block(margin, y + line_gap * 0.3, addr_rows)
    elif layout == "side_band":
        bw = int(W * 0.22)
        d.rectangle([W - bw, 0, W, H], fill=band_colour)
        if logo:
            draw_logo(d, logo_kind, W - bw / 2 - 35 * unit, H * 0.25, int(70 * unit), (255, 255, 255), initials, f_small)
            design.append("logo")
        d.text((W - bw / 2, H * 0.62), org_txt if len(org_txt) < 16 else c["organization"], font=font(family, int(s_small * 0.9), weight),
               fill=(255, 255, 255), anchor="mm")
        y = margin
        d.text((margin, y), name_txt, font=f_name, fill=text_colour); y += s_name * 1.3
        d.text((margin, y), c["title"], font=f_title, fill=text_colour); y += s_title * 1.6
        y = max(y, H - margin - line_gap * (len(rows) + len(addr_rows)))
        y = contact_block(margin, y, rows)
        contact_block(margin, y, addr_rows)
    elif layout == "split_corners":
        d.text((margin, margin), name_txt, font=f_name, fill=text_colour)
        d.text((margin, margin + s_name * 1.3), c["title"], font=f_title, fill=text_colour)
        # The company beside the name, never over it: its type made smaller to fit the room the
        # name leaves (with a gap), or, where that would make it small, set on a line of its own
        # under the title.
        beside = W - 2 * margin - f_name.getlength(name_txt) - W * 0.06
        s_beside = fitting_size(family, s_org, org_style, org_txt, beside)
        f_beside = font(family, s_beside, org_style)
        if f_beside.getlength(org_txt) <= beside and (s_beside == s_org or s_beside >= max(s_small, 0.7 * s_org)):
            d.text((W - margin, margin), org_txt, font=f_beside, fill=accent, anchor="ra")
        else:
            d.text((W - margin, margin + s_name * 1.3 + s_title * 1.6), org_txt, font=f_org, fill=accent, anchor="ra")
        y0 = H - margin - line_gap * len(rows)
        contact_block(margin, y0, rows)
        contact_block(W - margin, H - margin - line_gap * len(addr_rows), addr_rows, anchor="ra")
    elif layout == "centered_stack":
        y = margin * 0.8
        if logo:
            draw_logo(d, logo_kind, W / 2 - 32 * unit, y, int(64 * unit), accent, initials, f_small)
            design.append("logo")
            y += 84 * unit
        d.text((W / 2, y), org_txt, font=f_org, fill=accent, anchor="ma"); y += s_org * 1.5
        d.text((W / 2, y), name_txt, font=f_name, fill=text_colour, anchor="ma"); y += s_name * 1.25
        d.text((W / 2, y), c["title"], font=f_title, fill=text_colour, anchor="ma"); y += s_title * 1.6
        if rng.random() < 0.5:
            d.line([W / 2 - 60, y, W / 2 + 60, y], fill=accent, width=3); y += 20
            design.append("divider")
        for kind, lab, val in rows + addr_rows:
            txt = val if label_mode in ("none", "icons") or kind == "address" else lab + ": " + val
            d.text((W / 2, y), txt, font=f_small, fill=text_colour, anchor="ma"); y += line_gap
    else:  # left_stack, logo_left
        x = margin
        y = margin
        if layout == "logo_left" or (logo and rng.random() < 0.5):
            draw_logo(d, logo_kind, x, y, int(s_org * 1.4), accent, initials, f_small)
            design.append("logo")
            d.text((x + s_org * 1.8, y + s_org * 0.7), org_txt, font=f_org, fill=accent, anchor="lm")
            y += s_org * 2.2
        else:
            d.text((x, y), org_txt, font=f_org, fill=accent); y += s_org * 1.8
        d.text((x, y), name_txt, font=f_name, fill=text_colour); y += s_name * 1.3
        d.text((x, y), c["title"], font=f_title, fill=text_colour); y += s_title * 1.7
        if rng.random() < 0.4:
            d.line([x, y, x + 160, y], fill=accent, width=3); y += 18
            design.append("divider")
        y = max(y, H - margin - line_gap * (len(rows) + len(addr_rows)) - 10)
        if qr or len(rows) + len(addr_rows) < 5 or portrait:
            y = contact_block(x, y, rows)
            contact_block(x, y, addr_rows)
        else:
            contact_block(x, y, rows)
            contact_block(W / 2 + 20 * unit, y, addr_rows)
    if qr:
        # A code holds the card's contact, or its web address; a card without one gets the contact
        # (a code's URL the card does not print would be a field the truth does not hold).
        as_vcard = rng.random() < 0.6 or force.get("qr_contact") is not None or not c["urls"]
        payload = vcard_payload(force.get("qr_contact", c)) if as_vcard else "https://" + c["urls"][0].split("//")[-1]
        q = qr_image(payload, qr_size)
        if q is not None:
            img.paste(q, (W - margin - qr_size, H - margin - qr_size) if layout not in ("side_band",) else (margin, margin))
            design.append("qr")
    if rng.random() < 0.3:
        design.append("rounded_corners")
    return img, dict(layout=layout, font=family, design=design, dark=dark, qr=qr, portrait=portrait,
                     qr_payload=("vcard" if as_vcard else "url") if qr else None)


# --- photo ------------------------------------------------------------------------------------------

def noise_field(rng, w, h, scale, octaves=3):
    """Smooth random field in 0..1 (value noise, a few octaves)."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        gw, gh = max(2, int(w / scale) + 2), max(2, int(h / scale) + 2)
        g = np.array(Image.fromarray((np.random.default_rng(rng.randint(0, 10 ** 9)).random((gh, gw)) * 255).astype(np.uint8))
                     .resize((w, h), Image.BICUBIC), np.float32) / 255
        out += amp * g
        total += amp
        amp *= 0.5
        scale /= 2.2
    return out / total


def background(rng, kind, w, h):
    if kind == "wood":
        base = np.array(rng.choice([(150, 110, 70), (190, 150, 105), (120, 85, 55), (205, 180, 140)]), np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, math.pi)
        t = xx * math.cos(ang) + yy * math.sin(ang)
        warp = noise_field(rng, w, h, w / 6) * 60
        grain = 0.5 + 0.5 * np.sin((t + warp * 8) / rng.uniform(6, 14))
        field = 0.75 + 0.25 * grain + 0.15 * (noise_field(rng, w, h, w / 20) - 0.5)
        img = base[None, None, :] * field[..., None]
    elif kind == "fabric":
        base = np.array(rng.choice([(150, 40, 60), (60, 70, 140), (70, 110, 80), (120, 120, 130), (90, 60, 110)]), np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(4, 9)
        weave = 0.5 + 0.25 * np.sin(xx / period * math.pi) * np.sin(yy / period * math.pi)
        field = 0.8 + 0.25 * weave + 0.3 * (noise_field(rng, w, h, w / 25) - 0.5)
        img = base[None, None, :] * field[..., None]
    elif kind == "carpet":
        base = np.array(rng.choice([(110, 100, 90), (80, 80, 85), (140, 120, 100)]), np.float32)
        field = 0.7 + 0.6 * (noise_field(rng, w, h, w / 80, 4) - 0.5) + 0.15 * np.random.default_rng(rng.randint(0, 10 ** 9)).random((h, w))
        img = base[None, None, :] * field[..., None]
    elif kind == "white":
        base = np.array(rng.choice([(235, 235, 232), (228, 230, 234), (240, 236, 228)]), np.float32)
        field = 0.95 + 0.08 * (noise_field(rng, w, h, w / 3) - 0.5)
        img = base[None, None, :] * field[..., None]
    else:  # plain desk
        base = np.array(rng.choice([(92, 64, 51), (40, 44, 52), (150, 160, 150), (112, 128, 144), (60, 90, 120), (180, 170, 160)]), np.float32)
        field = 0.9 + 0.2 * (noise_field(rng, w, h, w / 4) - 0.5)
        img = base[None, None, :] * field[..., None]
    return Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))


LOREM = ("the quarterly figures show steady growth across all regions while costs remained within the agreed budget "
         "please review the attached notes before the meeting on thursday and bring any questions about the schedule "
         "delivery dates for the second phase depend on the supplier confirming the revised order quantities this week").split()


def paper_sheet(rng, w, h, families):
    """A sheet of printed paper (A4 proportions) with lines of text, and its size."""
    pw = int(w * rng.uniform(0.55, 0.9))
    ph = int(pw * 1.414)
    sheet = Image.new("RGB", (pw, ph), rng.choice([(246, 246, 244), (250, 248, 240), (236, 238, 240)]))
    d = ImageDraw.Draw(sheet)
    fnt = font(rng.choice(families), max(14, pw // 45))
    y = pw // 12
    words = LOREM[:]
    while y < ph - pw // 12:
        rng.shuffle(words)
        line = " ".join(words[:rng.randint(6, 12)]).capitalize()
        d.text((pw // 12, y), line, font=fnt, fill=(30, 30, 34))
        y += int(fnt.size * rng.uniform(1.4, 1.8))
    return sheet


def keyboard(rng, kw):
    kh = int(kw * 0.33)
    dark = rng.random() < 0.5
    img = Image.new("RGB", (kw, kh), (40, 40, 44) if dark else (215, 215, 212))
    d = ImageDraw.Draw(img)
    key = kw / 15.5
    f = font("DejaVuSans", max(10, int(key * 0.3)))
    letters = "1234567890QWERTYUIOPASDFGHJKLZXCVBNM"
    k = 0
    for r in range(4):
        for c in range(14 - r):
            x0, y0 = key * 0.3 + c * key + r * key * 0.3, key * 0.3 + r * key
            d.rounded_rectangle([x0, y0, x0 + key * 0.88, y0 + key * 0.88], radius=key * 0.12, fill=(70, 70, 76) if dark else (245, 245, 242))
            d.text((x0 + key * 0.2, y0 + key * 0.15), letters[k % len(letters)], font=f, fill=(220, 220, 220) if dark else (50, 50, 50))
            k += 1
    return img


def homography(src, dst):
    A, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    return list(np.linalg.solve(np.array(A, float), np.array(b, float)))


def place(photo, obj, corners, shadow=0.35, blur=10, offset=(12, 16), alpha=None):
    """Pastes `obj` into `photo` warped onto `corners` (through `alpha` if given), with a soft drop shadow."""
    w, h = photo.size
    src = [(0, 0), (obj.width, 0), (obj.width, obj.height), (0, obj.height)]
    coeffs = homography(corners, src)  # PIL maps output -> input
    warped = obj.transform((w, h), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    mask = (alpha or Image.new("L", obj.size, 255)).transform((w, h), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    if shadow > 0:
        sh = mask.filter(ImageFilter.GaussianBlur(blur)).point(lambda v: int(v * shadow))
        photo.paste((0, 0, 0), offset, sh)
    photo.paste(warped, (0, 0), mask)


def card_corners(rng, w, h, fit, rotation, tilt, aspect, cut=False):
    """Corners (clockwise from the card's own top-left) of a card scaled to `fit` x the largest
    size at which it (turned by `rotation`) still fits the frame."""
    a = math.radians(rotation)
    cw0, ch0 = (aspect, 1.0) if aspect >= 1 else (1.0, 1 / aspect)
    bw = abs(cw0 * math.cos(a)) + abs(ch0 * math.sin(a))
    bh = abs(cw0 * math.sin(a)) + abs(ch0 * math.cos(a))
    scale = min(w / bw, h / bh) * fit
    cw, ch = cw0 * scale, ch0 * scale
    if cut:
        cx, cy = w / 2 + rng.uniform(-0.04, 0.04) * w, h / 2 + rng.uniform(-0.04, 0.04) * h
    else:
        ex, ey = bw * scale / 2, bh * scale / 2
        cx, cy = rng.uniform(ex, max(ex, w - ex)), rng.uniform(ey, max(ey, h - ey))
    pts = []
    t = math.radians(tilt)
    for sx, sy in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
        x, y = sx * cw / 2, sy * ch / 2
        # perspective: the far edge (top) shorter, by the tilt
        x *= 1 - math.sin(t) * 0.35 * (1 - sy) / 2
        y *= 1 - math.sin(t) * 0.12
        pts.append((cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)))
    return pts


def inside_frame(pts, w, h):
    return all(0 <= x < w and 0 <= y < h for x, y in pts)


def photograph(rng, card, conditions, size, families, alpha=None):
    w, h = size
    bg_kind = "white" if "white_on_white" in conditions else rng.choice(["wood", "fabric", "carpet", "plain", "plain"])
    if "bg_keyboard" in conditions:
        bg_kind = rng.choice(["wood", "plain", "fabric"])
    photo = background(rng, bg_kind, w, h)
    aspect = card.width / card.height
    if "small_in_frame" in conditions:
        frac = rng.uniform(0.2, 0.38)
    elif "fills_frame_cropped" in conditions:
        frac = rng.uniform(0.97, 1.08)
    else:
        frac = rng.uniform(0.45, 0.85)
    rotation = rng.uniform(-180, 180) if "rotation_any" in conditions else rng.uniform(-8, 8)
    if "fills_frame_cropped" in conditions:
        rotation = rng.choice([0, 90, 180, -90]) + rng.uniform(-7, 7) if "rotation_any" in conditions else rng.uniform(-6, 6)
    if "rotation_30" in conditions:
        rotation = rng.choice([-1, 1]) * rng.uniform(26, 34)
    tilt = rng.uniform(12, 24) if "strong_perspective" in conditions else rng.uniform(0, 8)
    cut = "fills_frame_cropped" in conditions or "cut_off" in conditions
    for _ in range(50):
        corners = card_corners(rng, w, h, frac, rotation, tilt, aspect, cut=cut)
        if cut:
            if "cut_off" in conditions:
                # one edge out of the frame: shift the card toward a border, past it by a margin's width
                xs = [x for x, _ in corners]
                shift = (min(xs) + 0.04 * (max(xs) - min(xs))) if rng.random() < 0.5 else -(w - max(xs) + 0.04 * (max(xs) - min(xs)))
                corners = [(x - shift, y) for x, y in corners]
            break
        if inside_frame(corners, w, h):
            break
        frac *= 0.95
    # distractors first (under the card)
    if "bg_paper_text" in conditions:
        sheet = paper_sheet(rng, w, h, families)
        a = math.radians(rotation + rng.uniform(-25, 25))
        cx, cy = np.mean([p[0] for p in corners]) + rng.uniform(-0.3, 0.3) * w, np.mean([p[1] for p in corners]) + rng.uniform(-0.3, 0.3) * h
        sw, sh = sheet.size
        pts = [(cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a))
               for x, y in [(-sw / 2, -sh / 2), (sw / 2, -sh / 2), (sw / 2, sh / 2), (-sw / 2, sh / 2)]]
        place(photo, sheet, pts, shadow=0.2, blur=20)
    if "bg_keyboard" in conditions:
        kb = keyboard(rng, int(max(w, h) * rng.uniform(0.5, 0.8)))
        a = math.radians(rng.uniform(-40, 40))
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        kw, kh = kb.size
        pts = [(cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a))
               for x, y in [(-kw / 2, -kh / 2), (kw / 2, -kh / 2), (kw / 2, kh / 2), (-kw / 2, kh / 2)]]
        place(photo, kb, pts, shadow=0.3, blur=25)
    place(photo, card, corners, shadow=rng.uniform(0.2, 0.45), blur=max(4, int(max(w, h) / 300)),
          offset=(int(w / 300), int(h / 250)), alpha=alpha)
    a = np.asarray(photo, np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # light: a broad gradient
    ang = rng.uniform(0, 2 * math.pi)
    grad = ((xx / w - 0.5) * math.cos(ang) + (yy / h - 0.5) * math.sin(ang))
    a *= (1 + 0.25 * grad)[..., None]
    if "shadow" in conditions:
        m = Image.new("L", (w, h), 0)
        dm = ImageDraw.Draw(m)
        bx, by = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        s = max(w, h) * rng.uniform(0.12, 0.25)
        dm.ellipse([bx - s, by - s * 0.7, bx + s, by + s * 0.7], fill=255)
        for k in range(4):
            fx = bx - s * 0.6 + k * s * 0.4
            dm.rounded_rectangle([fx, by - s * 2.2, fx + s * 0.28, by], radius=s * 0.14, fill=255)
        m = m.rotate(rng.uniform(0, 360), center=(bx, by)).filter(ImageFilter.GaussianBlur(max(w, h) / 60))
        a *= (1 - rng.uniform(0.35, 0.55) * np.asarray(m, np.float32) / 255)[..., None]
    if "glare" in conditions:
        gx, gy = np.mean([p[0] for p in corners]) + rng.uniform(-0.2, 0.2) * w, np.mean([p[1] for p in corners]) + rng.uniform(-0.15, 0.15) * h
        r = max(w, h) * rng.uniform(0.03, 0.08)
        g = np.exp(-(((xx - gx) / (r * 1.8)) ** 2 + ((yy - gy) / r) ** 2))
        a += (g * rng.uniform(90, 160))[..., None]
    if "low_light" in conditions:
        a *= rng.uniform(0.45, 0.65)
    if "wb_warm" in conditions:
        a *= np.array([1.08, 1.0, 0.86], np.float32)
    if "wb_cool" in conditions:
        a *= np.array([0.88, 0.98, 1.1], np.float32)
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    if "defocus_blur" in conditions:
        img = img.filter(ImageFilter.GaussianBlur(max(w, h) / 4032 * rng.uniform(1.5, 2.6)))
    else:
        img = img.filter(ImageFilter.GaussianBlur(max(w, h) / 4032 * 0.8))
    if "motion_blur" in conditions:
        n = max(3, int(max(w, h) / 4032 * rng.uniform(5, 9)))
        ang = rng.uniform(0, math.pi)
        src = np.asarray(img, np.float32)
        acc = np.zeros_like(src)
        for k in range(n):
            t = k - (n - 1) / 2
            acc += np.roll(np.roll(src, int(round(t * math.sin(ang))), 0), int(round(t * math.cos(ang))), 1)
        img = Image.fromarray(np.clip(acc / n, 0, 255).astype(np.uint8))
    a = np.asarray(img, np.float32)
    sigma = rng.uniform(6, 12) if ("noise_high_iso" in conditions or "low_light" in conditions) else rng.uniform(1.5, 3.5)
    a += np.random.default_rng(rng.randint(0, 10 ** 9)).normal(0, sigma, a.shape).astype(np.float32)
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)), corners


CONDITION_POOL = ["small_in_frame", "fills_frame_cropped", "white_on_white", "bg_paper_text", "bg_keyboard", "glare", "shadow",
                  "defocus_blur", "motion_blur", "noise_high_iso", "low_light", "strong_perspective", "rotation_any",
                  "wb_warm", "wb_cool"]
EXCLUSIVE = [{"small_in_frame", "fills_frame_cropped"}, {"white_on_white", "bg_keyboard"}, {"wb_warm", "wb_cool"},
             {"motion_blur", "defocus_blur"}, {"fills_frame_cropped", "bg_paper_text"}, {"fills_frame_cropped", "bg_keyboard"}]


def pick_conditions(rng):
    while True:
        chosen = set(rng.sample(CONDITION_POOL, rng.randint(3, 5)))
        if not any(len(chosen & e) > 1 for e in EXCLUSIVE):
            return sorted(chosen)


def write_photo(path, photo, orientation, rng, metadata):
    stored = photo.transpose(STORE_ROTATION[orientation]) if STORE_ROTATION[orientation] else photo
    buf = io.BytesIO()
    stored.save(buf, "JPEG", quality=rng.randint(72, 92))
    data = with_metadata(buf.getvalue(), dict(metadata=metadata, orientation=orientation), photo, rng)
    with open(path, "wb") as fh:
        fh.write(data)


def truth_record(file, c, info, conditions, corners, orientation, size, metadata):
    addr = c["address"]
    return {
        "file": file, "name": c["name"], "given": c["given"], "family": c["family"], "title": c["title"],
        "organization": c["organization"], "emails": c["emails"], "urls": c["urls"],
        "phones": [{"type": p["type"], "printed": p["printed"], "e164": p["e164"]} for p in c["phones"]],
        "address": None if addr is None else {k: addr[k] for k in ("lines", "street", "city", "region", "postalCode", "country")},
        "region": c["region"], "layout": info["layout"], "font": info["font"], "design": info["design"], "qr": info["qr"],
        "qr_payload": info.get("qr_payload"),
        "conditions": conditions, "orientation": orientation, "metadata": metadata, "photo_size": list(size),
        "card_quad": [[round(x, 1), round(y, 1)] for x, y in corners], "set": "synthetic",
    }


# The committed condition fixtures: one photo per condition the detector must handle.
CONDITION_FIXTURES = [
    ("cond-small.jpg", "GB", ["small_in_frame"], {}),
    ("cond-white-on-white.jpg", "DE", ["white_on_white"], {"paper": (248, 248, 246), "dark": False}),
    ("cond-cut-off.jpg", "US", ["cut_off", "fills_frame_cropped"], {}),
    ("cond-paper-beside.jpg", "IT", ["bg_paper_text"], {"dark": False}),
    ("cond-rotated-30.jpg", "SE", ["rotation_30"], {}),
    ("cond-keyboard-glare.jpg", "JP", ["bg_keyboard", "glare"], {}),
    ("cond-shadow-dark-card.jpg", "AU", ["shadow"], {"dark": True}),
    ("cond-perspective.jpg", "ES", ["strong_perspective"], {}),
    # A vCard QR code holding a mobile number the card does not print: OCR alone cannot get the
    # phones right; the code does (its data wins, and the record says so).
    ("cond-qr-vcard.jpg", "SE", ["qr_holds_more"], {"qr": True, "qr_extra_mobile": True, "dark": False, "layout": "left_stack"}),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--conditions", action="store_true", help="write the committed condition fixtures")
    ap.add_argument("--only", action="append", default=[], help="with --conditions: write only this fixture (its truth line replaced)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--size", type=int, default=3264, help="long side of the photos")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    families = available_families()
    records = []
    if args.conditions:
        jobs = [(f, region, conds, force, 1800) for f, region, conds, force in CONDITION_FIXTURES]
    else:
        jobs = []
        regions = list(COUNTRIES)
        for i in range(args.count):
            jobs.append(("synth-%03d.jpg" % i, None, None, {}, args.size))
    for i, (file, region, conds, force, long_side) in enumerate(jobs):
        if args.only and file not in args.only:
            continue
        rng = random.Random(args.seed * 100003 + i)
        region = region or rng.choice(list(COUNTRIES))
        conds = conds or pick_conditions(rng)
        c = make_contact(rng, region)
        if force.get("qr_extra_mobile"):
            # The code holds the contact and one more number; the card prints the contact only.
            extra = make_phone(rng, region, PhoneNumberType.MOBILE)
            force = dict(force, qr_contact=dict(c, phones=c["phones"] + [dict(type="mobile", **extra)]))
        card, info = render_card(c, rng, families, force)
        c = force.get("qr_contact", c)
        alpha = None
        if "rounded_corners" in info["design"]:
            alpha = Image.new("L", card.size, 0)
            ImageDraw.Draw(alpha).rounded_rectangle([0, 0, card.width - 1, card.height - 1], radius=min(card.size) // 14, fill=255)
        landscape = rng.random() < 0.7
        size = (long_side, long_side * 3 // 4) if landscape else (long_side * 3 // 4, long_side)
        photo, corners = photograph(rng, card, conds, size, families, alpha)
        orientation = rng.choice([1, 1, 6, 6, 3, 8])
        metadata = ["EXIF", "GPS"] + (["Thumbnail"] if rng.random() < 0.5 else [])
        write_photo(os.path.join(args.out, file), photo, orientation, rng, metadata)
        records.append(truth_record(file, c, info, conds, corners, orientation, size, metadata))
        print("wrote", file, region, ",".join(conds), file=sys.stderr)
    truth_path = os.path.join(args.out, "truth.jsonl")
    if args.only and os.path.exists(truth_path):
        kept = [json.loads(line) for line in open(truth_path, encoding="utf-8") if line.strip()]
        new = {r["file"]: r for r in records}
        records = [new.pop(r["file"], r) for r in kept] + list(new.values())
    with open(truth_path, "w") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    # A seed names one set of cards only if sets iterate alike in every run: Python salts string
    # hashes per process unless PYTHONHASHSEED is fixed.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable] + sys.orig_argv[1:])
    main()
