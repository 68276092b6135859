#!/usr/bin/env python3
"""Lists, per card, the fields where cardscan's records differ from the truth (developer aid).

usage: python3 scripts/compare.py TRUTH.jsonl PRED.jsonl
"""
import json, os, re, sys


def norm(s):
    return re.sub(r"[^0-9a-z]+", " ", (s or "").lower()).strip()


def main():
    truth = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    preds = {}
    for l in open(sys.argv[2]):
        if l.startswith("{"):
            r = json.loads(l)
            preds[os.path.basename(r["source"])] = r
    for t in truth:
        r = preds.get(t["file"], {})
        c = r.get("contact") or {}
        diffs = []
        name = (c.get("name") or {}).get("full")
        for k, pv, tv in (("name", name, t["name"]), ("title", c.get("title"), t["title"]),
                          ("org", c.get("organization"), t["organization"])):
            if norm(pv) != norm(tv):
                diffs.append(f"{k}: {pv!r} != {tv!r}")
        ta, pa = t.get("address"), c.get("address") or {}
        if ta:
            for k in ("street", "city", "postalCode"):
                if norm(pa.get(k)) != norm(ta.get(k)):
                    diffs.append(f"{k}: {pa.get(k)!r} != {ta.get(k)!r}")
        te, pe = sorted(x.lower() for x in t["emails"]), sorted(c.get("emails") or [])
        if te != pe:
            diffs.append(f"emails: {pe} != {te}")
        tu = sorted(re.sub(r"^(https?://)?(www\.)?", "", u).rstrip("/") for u in t["urls"])
        pu = sorted(re.sub(r"^(https?://)?(www\.)?", "", u).rstrip("/") for u in (c.get("urls") or []))
        if tu != pu:
            diffs.append(f"urls: {pu} != {tu}")
        tp = sorted((p["e164"], p["type"]) for p in t["phones"])
        pp = sorted((p.get("e164") or "?" + p.get("number", ""), p.get("type")) for p in (c.get("phones") or []))
        if tp != pp:
            diffs.append(f"phones: {pp} != {tp}")
        if diffs:
            print(t["file"], t.get("layout"), t.get("region"))
            for d in diffs:
                print("   ", d)


if __name__ == "__main__":
    main()
