#!/usr/bin/env python3
"""Generates phone photos of Japanese, Chinese and Korean business cards, with their truth.

Cards are rendered with Debian's Noto CJK fonts (fonts-noto-cjk: Sans and Serif, regular and
bold, in each language's own glyph forms) from made-up contact data: names, company words,
prefectures, provinces, cities and roads from Faker's ja_JP, zh_CN, zh_TW and ko_KR locales,
recombined here with legal forms, job titles and phone labels; phone numbers made valid with
libphonenumber's Python port (scripts/make_photos.py's make_phone). Layouts: horizontal stacks
(left, centred, a band, split corners) and, for Japanese and Taiwanese cards, vertical text set
in columns from right to left; bilingual cards add a reading of the name in kana or Latin
letters, an English company name or title. Numbers are sometimes printed in full-width digits.
The photos take scripts/make_photos.py's conditions (background, light, blur, rotation, ...).

Truth lines have the fields of ../shared/eval's truth.jsonl (so its score.py scores them, with
--strict the letters as printed) in the card's own script, plus `phonetic` (the reading printed
beside the name, or null), `language`, `layout` and `conditions`.

Address fields, for every language: `postalCode` as printed without its mark (〒, 邮编, 우);
`region` the prefecture, province or province-level unit (東京都, 广东省, 경기도) when printed;
`city` the first municipal unit after it (千代田区, 深圳市, 台北市, 성남시); `street` the rest of
that line (district, road or town, number); a building on its own line is in `lines` only.

usage: python3 scripts/make_cjk_photos.py --count 60 [--seed 11] [--size 3264] OUT_DIR
needs: pip install Pillow numpy faker phonenumbers
Deterministic: the same arguments write the same files.
"""
import argparse, json, os, random, re, sys

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_photos as mp  # noqa: E402
from faker import Faker  # noqa: E402
from phonenumbers import PhoneNumberType  # noqa: E402

FONT_DIR = "/usr/share/fonts/opentype/noto"
# The index of each language's glyph forms in Noto's collections.
FACE_INDEX = {"ja": 0, "ko": 1, "zh_CN": 2, "zh_TW": 3}
LANGUAGES = {  # language: (region, Faker locale)
    "ja": ("JP", "ja_JP"), "zh_CN": ("CN", "zh_CN"), "zh_TW": ("TW", "zh_TW"), "ko": ("KR", "ko_KR"),
}

JA_LEGAL = [("株式会社", "pre"), ("株式会社", "post"), ("(株)", "pre"), ("（株）", "post"), ("有限会社", "pre"),
            ("合同会社", "pre"), ("株式会社", "pre")]
ZH_CN_LEGAL = ["有限公司", "股份有限公司", "集团有限公司", "有限责任公司", "科技有限公司"]
ZH_TW_LEGAL = ["股份有限公司", "有限公司", "企業股份有限公司"]
KO_LEGAL = [("주식회사 ", "pre"), (" 주식회사", "post"), ("(주)", "pre"), ("㈜", "pre"), ("(주)", "post"), ("유한회사 ", "pre")]
JA_INDUSTRY = ["商事", "工業", "電機", "システムズ", "物産", "建設", "製作所", "ソリューションズ", "テクノロジー", "不動産", "食品", "薬品"]
ZH_INDUSTRY = ["科技", "信息技术", "贸易", "网络", "电子", "传媒", "咨询", "物流", "医药", "建设", "软件"]
TW_INDUSTRY = ["科技", "資訊", "貿易", "電子", "傳媒", "顧問", "物流", "生技", "建設", "光電"]
KO_INDUSTRY = ["전자", "소프트", "건설", "물산", "테크", "바이오", "에너지", "시스템즈", "통상", "미디어"]

JA_DEPTS = ["営業部", "総務部", "技術部", "開発部", "人事部", "経理部", "企画部", "マーケティング部", "海外事業部", "製造部",
            "品質保証部", "情報システム部", "営業本部 第一営業部"]
JA_RANKS = ["部長", "課長", "係長", "主任", "次長", "マネージャー", "シニアエンジニア", "課長代理", "担当部長"]
JA_TOP = ["代表取締役社長", "代表取締役", "取締役", "常務取締役", "専務取締役", "執行役員", "取締役会長", "監査役"]
ZH_TITLES = ["销售总监", "总经理", "副总经理", "市场部经理", "技术总监", "高级工程师", "项目经理", "首席执行官", "董事长",
             "财务主管", "人力资源经理", "产品经理", "销售部 经理", "研发中心 主任"]
TW_TITLES = ["業務經理", "總經理", "副總經理", "協理", "資深工程師", "專案經理", "董事長", "特別助理", "行銷部 經理",
             "技術長", "財務長", "研發處 處長"]
KO_TITLES = ["대표이사", "이사", "영업부 부장", "차장", "과장", "대리", "팀장", "수석연구원", "책임연구원", "선임연구원",
             "마케팅팀 매니저", "기술연구소 소장", "전무이사", "상무"]
ENGLISH_TITLES = ["Sales Manager", "General Manager", "Senior Engineer", "Director", "Project Manager", "CEO"]

LABELS = {  # work, mobile, fax
    "ja": [("TEL", "携帯", "FAX"), ("電話", "携帯", "FAX"), ("Tel", "Mobile", "Fax"), ("TEL", "携帯電話", "FAX"), ("T", "M", "F")],
    "zh_CN": [("电话", "手机", "传真"), ("Tel", "Mob", "Fax"), ("电话", "手机", "传真"), ("座机", "手机", "传真"), ("T", "M", "F")],
    "zh_TW": [("電話", "手機", "傳真"), ("Tel", "Mobile", "Fax"), ("電話", "行動", "傳真"), ("TEL", "手機", "FAX")],
    "ko": [("전화", "휴대폰", "팩스"), ("Tel", "Mobile", "Fax"), ("T", "M", "F"), ("전화", "핸드폰", "팩스"), ("대표전화", "휴대전화", "팩스")],
}
EMAIL_LABELS = {"ja": ["E-mail", "Email", "メール", "E"], "zh_CN": ["邮箱", "Email", "E-mail"], "zh_TW": ["Email", "電郵", "E-mail"],
                "ko": ["이메일", "E-mail", "E"]}
SYLLABLES = ["hua", "xing", "tai", "ming", "long", "feng", "jia", "hong", "da", "tian", "sheng", "kang", "han", "bit", "sol",
             "nuri", "jin", "woo", "sung", "min", "yeon", "cheon", "guang", "yuan", "kai", "rui"]
FULL_WIDTH = str.maketrans("0123456789-()+:", "０１２３４５６７８９－（）＋：")


def face(lang, size, bold=False, serif=False):
    name = "Noto%sCJK-%s.ttc" % ("Serif" if serif else "Sans", "Bold" if bold else "Regular")
    return ImageFont.truetype(os.path.join(FONT_DIR, name), size, index=FACE_INDEX[lang])


def strip_legal(company, forms):
    for f in forms:
        company = company.replace(f, "")
    return company.strip() or "総合"


def romaji_slug(rng):
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))


def name_ja(rng, fake):
    family, family_kana, family_romaji = fake.last_name_pair()
    given, given_kana, given_romaji = fake.first_name_pair()
    sep = rng.choice([" ", " ", "　", ""])
    printed = family + sep + given
    full = family + (" " if sep else "") + given
    reading = None
    r = rng.random()
    if r < 0.3:
        kana = family_kana + " " + given_kana
        reading = kana if rng.random() < 0.5 else "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in kana)
    elif r < 0.6:
        reading = rng.choice(["%s %s" % (given_romaji, family_romaji), "%s %s" % (family_romaji.upper(), given_romaji)])
    return dict(name=full, printed=printed, given=given, family=family, phonetic=reading,
                romaji=(given_romaji.lower(), family_romaji.lower()))


def name_zh(rng, fake):
    family, given = fake.last_name(), fake.first_name()
    sep = " " if rng.random() < 0.3 else ""
    return dict(name=family + sep + given, printed=family + sep + given, given=given, family=family, phonetic=None, romaji=None)


def company(rng, lang, fake):
    if lang == "ja":
        core = strip_legal(fake.company(), ["株式会社", "有限会社", "合同会社"])
        core = core if rng.random() < 0.5 else fake.last_name() + rng.choice(JA_INDUSTRY)
        form, where = rng.choice(JA_LEGAL)
        return form + core if where == "pre" else core + form
    if lang == "zh_CN":
        city = fake.city_name() if rng.random() < 0.5 else ""
        return city + fake.company_prefix() + rng.choice(ZH_INDUSTRY) + rng.choice(ZH_CN_LEGAL)
    if lang == "zh_TW":
        return fake.company_prefix() + rng.choice(TW_INDUSTRY) + rng.choice(ZH_TW_LEGAL)
    core = fake.company().split(" ")[-1].replace("(주)", "").replace("(유)", "").strip() or "한빛"
    core = core if rng.random() < 0.5 else core[:2] + rng.choice(KO_INDUSTRY)
    form, where = rng.choice(KO_LEGAL)
    return (form + core if where == "pre" else core + form).strip()


def title(rng, lang):
    if lang == "ja":
        if rng.random() < 0.35:
            return rng.choice(JA_TOP)
        dept, rank = rng.choice(JA_DEPTS), rng.choice(JA_RANKS)
        return dept + rng.choice([" ", "　", ""]) + rank
    return rng.choice({"zh_CN": ZH_TITLES, "zh_TW": TW_TITLES, "ko": KO_TITLES}[lang])


def address(rng, lang, fake):
    """(lines, fields): the printed lines and the truth's fields."""
    if lang == "ja":
        pc = fake.zipcode()
        pref, city = fake.prefecture(), fake.city()
        town = fake.town()
        if rng.random() < 0.5:
            street = "%s%d-%d-%d" % (town, rng.randint(1, 9), rng.randint(1, 30), rng.randint(1, 20))
        else:
            street = town + fake.chome() + fake.ban() + fake.gou()
        building = fake.building_name() + rng.choice([" %dF" % rng.randint(2, 30), " %d階" % rng.randint(2, 30), "%d" % rng.randint(101, 1205)]) \
            if rng.random() < 0.5 else None
        main = pref + city + street
        lines = (["〒" + pc + " " + main] if rng.random() < 0.5 else ["〒" + pc, main]) + ([building] if building else [])
        return lines, dict(postalCode=pc, region=pref, city=city, street=street)
    if lang == "zh_CN":
        pc = "%06d" % rng.randint(100000, 850000)
        municipality = rng.random() < 0.3
        prov = "" if municipality else fake.province()
        city = rng.choice(["北京市", "上海市", "天津市", "重庆市"]) if municipality else fake.city_name() + "市"
        street = "%s区%s路%d号" % (fake.district(), fake.street_name().rstrip("街路"), rng.randint(1, 999))
        if rng.random() < 0.4:
            street += "%d室" % rng.randint(101, 2808)
        lines = [prov + city + street, rng.choice(["邮编：", "邮编 ", "邮政编码："]) + pc]
        return lines, dict(postalCode=pc, region=prov, city=city, street=street)
    if lang == "zh_TW":
        pc = "%03d" % rng.randint(100, 983)
        city = fake.city_name() + rng.choice(["市", "縣"]) if rng.random() < 0.6 else rng.choice(["台北市", "新北市", "台中市", "高雄市"])
        street = "%s區%s路%d號" % (fake.city_name()[:2], fake.street_name()[:2], rng.randint(1, 399))
        if rng.random() < 0.5:
            street += "%d樓" % rng.randint(2, 30)
        return [pc + " " + city + street], dict(postalCode=pc, region="", city=city, street=street)
    pc = "%05d" % rng.randint(1000, 63600)
    metro = rng.random() < 0.5
    region = fake.metropolitan_city() if metro else fake.province()
    city = fake.borough() if metro else fake.city().split(" ")[0]
    street = "%s로 %d" % (fake.road_name().rstrip("로길"), rng.randint(1, 500))
    tail = rng.choice(["", ", %d층" % rng.randint(2, 25)])
    main = region + " " + city + " " + street + tail
    lines = [main, "(우) " + pc] if rng.random() < 0.5 else ["(" + pc + ") " + main]
    return lines, dict(postalCode=pc, region=region, city=city, street=street + tail)


def make_contact(rng, lang):
    region, locale = LANGUAGES[lang]
    fake = Faker(locale)
    fake.seed_instance(rng.randint(0, 10 ** 9))
    person = name_ja(rng, fake) if lang == "ja" else name_zh(rng, fake)
    org = company(rng, lang, fake)
    slug = romaji_slug(rng)
    tld = {"ja": "co.jp", "zh_CN": "cn", "zh_TW": "com.tw", "ko": "co.kr"}[lang]
    domain = slug + "." + (tld if rng.random() < 0.8 else "com")
    given_r, family_r = person["romaji"] or (romaji_slug(rng)[:6], romaji_slug(rng)[:5])
    local = rng.choice([given_r + "." + family_r, given_r[0] + "." + family_r, family_r, "info"])
    phones = []
    kinds = rng.choice([["work"], ["work", "mobile"], ["mobile"], ["work", "fax"], ["work", "fax", "mobile"]])
    for k in kinds:
        t = {"work": PhoneNumberType.FIXED_LINE, "mobile": PhoneNumberType.MOBILE, "fax": PhoneNumberType.FIXED_LINE}[k]
        for _ in range(5):
            p = mp.make_phone(rng, region, t)
            if p and all(p["e164"] != q["e164"] for q in phones):
                phones.append(dict(type=k, **p))
                break
    addr = address(rng, lang, fake) if rng.random() < 0.85 else None
    return dict(person=person, organization=org, title=title(rng, lang), emails=[local + "@" + domain],
                urls=[] if rng.random() < 0.25 else [rng.choice(["www.", "https://www.", ""]) + domain],
                phones=phones, address=addr, region=region, lang=lang,
                english_org=rng.random() < 0.25, english_title=rng.random() < 0.2)


def contact_rows(rng, c):
    """The card's small lines: phones with labels, e-mail, web, address."""
    lang = c["lang"]
    labels = rng.choice(LABELS[lang])
    colon = rng.choice(["：", ":", " ", "  "]) if lang != "ko" else rng.choice([":", " ", ". "])
    wide = rng.random() < 0.2
    rows = []
    phone_rows = []
    for p in c["phones"]:
        lab = labels[["work", "mobile", "fax"].index(p["type"])]
        number = p["printed"].translate(FULL_WIDTH) if wide else p["printed"]
        phone_rows.append(lab + colon + number)
    if len(phone_rows) >= 2 and rng.random() < 0.35:
        rows.append("  ".join(phone_rows[:2]))
        rows += phone_rows[2:]
    else:
        rows += phone_rows
    elab = rng.choice(EMAIL_LABELS[lang])
    rows += [(elab + colon if rng.random() < 0.5 else "") + e for e in c["emails"]]
    rows += c["urls"]
    return rows


def render_horizontal(rng, c, W, H, paper, ink, accent, fonts):
    img = Image.new("RGB", (W, H), paper)
    d = ImageDraw.Draw(img)
    f_name, f_org, f_title, f_small, f_read = fonts
    person, lang = c["person"], c["lang"]
    layout = rng.choice(["left_stack", "centered_stack", "band_top", "split_corners"])
    rows = contact_rows(rng, c)
    addr_lines = c["address"][0] if c["address"] else []
    margin = int(rng.uniform(45, 65))
    gap = int(f_small.size * 1.45)
    top_lines = [(c["organization"], f_org, accent)]
    if c["english_org"]:
        top_lines.append((english_org(c), f_small, accent))
    name_block = ([(person["phonetic"], f_read, ink)] if person["phonetic"] else []) + [(tracked(person["printed"], rng), f_name, ink)]
    title_block = [(c["title"], f_title, ink)] + ([(rng.choice(ENGLISH_TITLES), f_small, ink)] if c["english_title"] else [])
    person_lines = name_block + title_block if rng.random() < 0.5 else title_block + name_block
    small = [(t, f_small, ink) for t in addr_lines + rows]
    anchor, x = ("ma", W / 2) if layout == "centered_stack" else ("la", margin)
    y = margin
    if layout == "band_top":
        bh = int(H * 0.22)
        d.rectangle([0, 0, W, bh], fill=accent)
        d.text((margin, bh / 2), c["organization"], font=f_org, fill=(255, 255, 255), anchor="lm")
        top_lines, y = top_lines[1:], bh + 25
    if layout == "split_corners":
        d.text((W - margin, margin), c["organization"], font=f_org, fill=accent, anchor="ra")
        top_lines = top_lines[1:]
    for text, fnt, colour in top_lines + person_lines:
        d.text((x, y), text, font=fnt, fill=colour, anchor=anchor)
        y += int(fnt.size * 1.35)
    y = max(y + 10, H - margin - gap * len(small))
    for text, fnt, colour in small:
        d.text((x, y), text, font=fnt, fill=colour, anchor=anchor)
        y += gap
    return img, layout


def english_org(c):
    core = re.sub(r"[^a-z]", "", c["emails"][0].split("@")[1].split(".")[0])
    return core.capitalize() + " " + {"JP": "Co., Ltd.", "CN": "Co., Ltd.", "TW": "Corporation", "KR": "Co., Ltd."}[c["region"]]


def tracked(text, rng):
    """Names are often set with wide tracking on Japanese and Chinese cards."""
    if rng.random() < 0.2 and " " in text:
        family, given = text.split(" ", 1)
        return " ".join(family) + "  " + " ".join(given)
    return text


def vertical_column(d, x, y, text, fnt, colour):
    """Draws text top to bottom, one character under the other (Latin letters and digits upright)."""
    step = fnt.size * 1.08
    for ch in text:
        if ch in " 　":
            y += step * 0.6
            continue
        if ch in "-－ー":
            ch = "｜" if ch != "ー" else "丨"
        d.text((x, y), ch, font=fnt, fill=colour, anchor="ma")
        y += step
    return y


def render_vertical(rng, c, W, H, paper, ink, accent, fonts):
    """Columns from right to left: company and title, the name large, then address; the numbers,
    e-mail and web address across the foot, as vertical cards print them."""
    img = Image.new("RGB", (H, W), paper)  # portrait
    W, H = H, W
    d = ImageDraw.Draw(img)
    f_name, f_org, f_title, f_small, _ = fonts
    x = W - 60
    columns = [(c["organization"], f_org, accent), (c["title"], f_title, ink), (c["person"]["printed"], f_name, ink)]
    if c["address"]:
        columns += [(line, f_small, ink) for line in c["address"][0]]
    for text, fnt, colour in columns:
        x -= int(fnt.size * 1.25)
        vertical_column(d, x + fnt.size / 2, 50, text, fnt, colour)
        x -= int(fnt.size * 0.35)
    rows = contact_rows(rng, c)
    y = H - 40 - int(f_small.size * 1.4) * len(rows)
    for text in rows:
        d.text((40, y), text, font=f_small, fill=ink)
        y += int(f_small.size * 1.4)
    return img, "vertical"


def render_card(rng, c):
    lang = c["lang"]
    W, H = (1050, 600) if rng.random() < 0.5 else (1004, 650)
    dark = rng.random() < 0.15
    paper = rng.choice(mp.DARK_PAPERS if dark else mp.LIGHT_PAPERS)
    ink = (236, 236, 232) if dark else rng.choice([(30, 30, 36), (50, 50, 60), (20, 30, 60)])
    accent = rng.choice(mp.ACCENTS)
    if dark:
        accent = tuple(min(255, int(a * 0.5 + 140)) for a in accent)
    serif = rng.random() < 0.3
    unit = 1.0
    fonts = (face(lang, int(rng.uniform(44, 60) * unit), bold=rng.random() < 0.6, serif=serif),
             face(lang, int(rng.uniform(28, 38) * unit), bold=rng.random() < 0.5, serif=serif),
             face(lang, int(rng.uniform(23, 28) * unit), serif=serif),
             face(lang, int(rng.uniform(20, 25) * unit), serif=serif),
             face(lang, int(rng.uniform(18, 22) * unit), serif=serif))
    vertical = lang in ("ja", "zh_TW") and rng.random() < 0.2
    render = render_vertical if vertical else render_horizontal
    img, layout = render(rng, c, W, H, paper, ink, accent, fonts)
    design = (["dark"] if dark else []) + (["serif"] if serif else [])
    return img, dict(layout=layout, design=design, font="NotoSerifCJK" if serif else "NotoSansCJK")


def truth_record(file, c, info, conditions, corners, orientation, size):
    person, addr = c["person"], c["address"]
    fields = None
    if addr:
        lines, parts = addr
        fields = dict(lines=lines, street=parts["street"], city=parts["city"], region=parts["region"],
                      postalCode=parts["postalCode"], country="")
    return {
        "file": file, "name": person["name"], "given": person["given"], "family": person["family"],
        "phonetic": person["phonetic"], "title": c["title"].replace("　", " "), "organization": c["organization"],
        "emails": c["emails"], "urls": c["urls"],
        "phones": [{"type": p["type"], "printed": p["printed"], "e164": p["e164"]} for p in c["phones"]],
        "address": fields, "region": c["region"], "language": c["lang"], "layout": info["layout"], "font": info["font"],
        "design": info["design"], "conditions": conditions, "orientation": orientation, "photo_size": list(size),
        "card_quad": [[round(x, 1), round(y, 1)] for x, y in corners], "set": "synthetic-cjk",
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--size", type=int, default=3264, help="long side of the photos")
    ap.add_argument("--languages", default="ja,zh_CN,zh_TW,ko", help="languages, taken in turn")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    families = mp.available_families()
    languages = args.languages.split(",")
    records = []
    for i in range(args.count):
        rng = random.Random(args.seed * 100019 + i)
        lang = languages[i % len(languages)]
        c = make_contact(rng, lang)
        card, info = render_card(rng, c)
        conds = mp.pick_conditions(rng)
        landscape = rng.random() < 0.7
        size = (args.size, args.size * 3 // 4) if landscape else (args.size * 3 // 4, args.size)
        photo, corners = mp.photograph(rng, card, conds, size, families)
        orientation = rng.choice([1, 1, 6, 6, 3, 8])
        file = "cjk-%s-%03d.jpg" % (lang.replace("_", "").lower(), i)
        mp.write_photo(os.path.join(args.out, file), photo, orientation, rng, ["EXIF", "GPS"])
        records.append(truth_record(file, c, info, conds, corners, orientation, size))
        print("wrote", file, ",".join(conds), file=sys.stderr)
    with open(os.path.join(args.out, "truth.jsonl"), "w") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    # A seed names one set of cards only if sets iterate alike in every run (make_photos' helpers
    # use them): Python salts string hashes per process unless PYTHONHASHSEED is fixed.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable] + sys.orig_argv[1:])
    main()
