#!/usr/bin/env python3
"""Scores cardscan's JSON Lines against expected records (Fixtures/Cards/expected.jsonl).

usage: python3 scripts/score.py EXPECTED.jsonl RECORDS.jsonl [--strict]

With --strict, letters are compared as printed ("Jantsch" is not "Jäntsch"): accents are not folded.

The field rules are those of the evaluation this project is measured by: name, title,
organization and address street/city/postalCode compared exactly after normalising (accents
folded, punctuation to spaces, case and runs of spaces ignored); emails (case-insensitive), urls
(scheme, a leading www. and a trailing / ignored), phones (E.164; a number without a country code
matches on its national digits) and phone types as F1 scores. field-accuracy is the mean of the
ten field scores.
"""
import json
import os
import re
import sys
import unicodedata


STRICT = "--strict" in sys.argv


def fold(text):
    if text is None:
        return ""
    if STRICT:
        plain = unicodedata.normalize("NFC", str(text))
        return " ".join(re.sub(r"[\W_]+", " ", plain).lower().split())
    decomposed = unicodedata.normalize("NFKD", str(text))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^0-9A-Za-z]+", " ", plain).lower().split())


def url_form(u):
    u = re.sub(r"^[a-z]+://", "", (u or "").strip().lower())
    return re.sub(r"^www\.", "", u).rstrip("/")


def phone_form(p):
    digits = re.sub(r"\D", "", p.get("e164") or "")
    if digits:
        return "+" + digits
    printed = p.get("number") or ""
    digits = re.sub(r"\D", "", printed)
    return ("+" + digits) if printed.strip().startswith("+") else ("?" + digits.lstrip("0"))


def same_phone(got, want):
    if got == want:
        return True
    return got.startswith("?") and len(got) > 6 and want.endswith(got[1:])


def f1(hits, predicted, expected):
    if predicted == 0 and expected == 0:
        return 1.0
    precision = hits / predicted if predicted else 0.0
    recall = hits / expected if expected else 0.0
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def main():
    expected = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    records = {}
    for line in open(sys.argv[2], errors="replace"):
        if line.startswith("{"):
            r = json.loads(line)
            records[os.path.basename(r.get("source", ""))] = r
    exact = {k: [0, 0] for k in ("name", "title", "organization", "address.postalCode", "address.city", "address.street")}
    counted = {k: [0, 0, 0] for k in ("emails", "urls", "phones", "phones.type")}
    for e in expected:
        r = records.get(e["file"]) or {}
        c = r.get("contact") or {}
        name = (c.get("name") or {}).get("full")
        for key, got, want in (("name", name, e["name"]), ("title", c.get("title"), e["title"]),
                               ("organization", c.get("organization"), e["organization"])):
            exact[key][0] += fold(got) == fold(want)
            exact[key][1] += 1
        if e.get("address"):
            got_address = c.get("address") or {}
            for key in ("postalCode", "city", "street"):
                exact["address." + key][0] += fold(got_address.get(key)) == fold(e["address"].get(key))
                exact["address." + key][1] += 1
        want_emails, got_emails = {x.lower() for x in e["emails"]}, {x.lower() for x in c.get("emails") or []}
        counted["emails"][0] += len(want_emails & got_emails)
        counted["emails"][1] += len(got_emails)
        counted["emails"][2] += len(want_emails)
        want_urls, got_urls = {url_form(x) for x in e["urls"]}, {url_form(x) for x in c.get("urls") or []}
        counted["urls"][0] += len(want_urls & got_urls)
        counted["urls"][1] += len(got_urls)
        counted["urls"][2] += len(want_urls)
        want_phones = [("+" + re.sub(r"\D", "", p["e164"]), p["type"]) for p in e["phones"]]
        got_phones = [(phone_form(p), p.get("type")) for p in c.get("phones") or []]
        taken, hits, typed = set(), 0, 0
        for want, want_type in want_phones:
            for i, (got, got_type) in enumerate(got_phones):
                if i not in taken and same_phone(got, want):
                    taken.add(i)
                    hits += 1
                    typed += got_type == want_type
                    break
        for key, h in (("phones", hits), ("phones.type", typed)):
            counted[key][0] += h
            counted[key][1] += len(got_phones)
            counted[key][2] += len(want_phones)
    scores = {k: (v[0] / v[1] if v[1] else 1.0) for k, v in exact.items()}
    scores.update({k: f1(*v) for k, v in counted.items()})
    print(f"cards: {len(expected)}")
    for key, value in scores.items():
        print(f"{key:20s} {value:6.3f}")
    print(f"field-accuracy: {sum(scores.values()) / len(scores):.3f}")


if __name__ == "__main__":
    main()
