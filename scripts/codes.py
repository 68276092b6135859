#!/usr/bin/env python3
"""QR codes on the cards: how many of the photos whose truth says "qr": true had their code read,
and how exact the fields the records took from a code ("sources": {FIELD: "qr"}) are, compared
with the truth under scripts/score.py's strict rules (letters as printed).

usage: python3 scripts/codes.py TRUTH.jsonl RECORDS.jsonl
Prints two lines: codes read N/M (and on photos without a code, codes read there: should be 0);
fields from a code: exact H/N = accuracy.
"""
import json, os, sys

sys.argv.append("--strict")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from score import fold, url_form, phone_form, same_phone  # noqa: E402


def exact(field, got, want):
    if field == "name":
        return fold((got or {}).get("full")) == fold(want.get("name"))
    if field in ("title", "organization"):
        return fold(got) == fold(want.get(field))
    if field == "emails":
        return sorted(e.lower() for e in got) == sorted(e.lower() for e in want.get("emails", []))
    if field == "urls":
        return sorted(map(url_form, got)) == sorted(map(url_form, want.get("urls", [])))
    if field == "phones":
        g, w = [phone_form(p) for p in got], [phone_form(p) for p in want.get("phones", [])]
        return len(g) == len(w) and all(any(same_phone(a, b) for b in w) for a in g)
    if field == "address":
        wa = want.get("address") or {}
        return all(fold((got or {}).get(k)) == fold(wa.get(k)) for k in ("street", "city", "postalCode"))
    return False


def main():
    truth_path, records_path = sys.argv[1], sys.argv[2]
    truth = {}
    for line in open(truth_path, encoding="utf-8"):
        if line.strip():
            t = json.loads(line)
            truth[t.get("file") or t.get("source")] = t
    with_code = read = read_without = 0
    hits = total = 0
    misses = []
    for line in open(records_path, encoding="utf-8"):
        if not line.strip():
            continue
        r = json.loads(line)
        name = os.path.basename(r.get("source", ""))
        t = truth.get(name)
        if t is None or r.get("status") != "ok":
            continue
        codes = [c for c in (r.get("image") or {}).get("codes", []) if c.get("contact")]
        if t.get("qr"):
            with_code += 1
            read += bool(codes)
        else:
            read_without += bool(codes)
        for field, source in (r.get("sources") or {}).items():
            if source != "qr":
                continue
            total += 1
            ok = exact(field, r["contact"].get(field), t)
            hits += ok
            if not ok:
                misses.append(f"{name}:{field}")
    print(f"codes read {read}/{with_code} of the photos with a QR code; on photos without one: {read_without}")
    acc = hits / total if total else 1.0
    print(f"fields from a code: exact {hits}/{total} = {acc:.3f}" + (f" (wrong: {' '.join(misses)})" if misses else ""))


if __name__ == "__main__":
    main()
