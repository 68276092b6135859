#!/usr/bin/env python3
"""OCR token recall: how much of a card's truth the OCR text holds, whatever the parser makes of it.

usage: python3 scripts/ocr-recall.py TRUTH.jsonl TEXT.jsonl [--per-photo]

TEXT.jsonl is what `cardscan-bench scan-text DIR` prints (one {"file", "text", ...} per photo).
Truth tokens per photo: each phone's digit groups of 4 or more digits (as printed), each e-mail
address, each web domain (scheme, www. and path dropped), and each word of 3 or more letters of
the name, title and organization. A token counts as found when the OCR text holds it: words as
whole words, e-mails and domains as substrings, digit groups within one line's digits; all case-
and accent-folded. Prints the mean share of tokens found per photo, and per kind over all tokens.
No third-party packages.
"""
import json
import re
import sys
import unicodedata


def fold(s):
    s = unicodedata.normalize("NFKD", s or "")
    return "".join(c for c in s if not unicodedata.combining(c)).lower()


def truth_tokens(t):
    tokens = []
    for p in t.get("phones") or []:
        printed = p.get("printed") or p.get("e164") or ""
        tokens += [("phone", g) for g in re.findall(r"\d{4,}", printed)]
    tokens += [("email", fold(e)) for e in t.get("emails") or []]
    for u in t.get("urls") or []:
        d = re.sub(r"^[a-z]+://", "", fold(u))
        d = re.sub(r"^www\.", "", d).split("/")[0]
        if d:
            tokens.append(("domain", d))
    for key in ("name", "title", "organization"):
        for w in re.findall(r"[^\W\d_]{3,}", fold(t.get(key) or "")):
            tokens.append(("word", w))
    return tokens


def found(kind, token, text, words, digit_lines):
    if kind == "word":
        return token in words
    if kind == "phone":
        return any(token in d for d in digit_lines)
    return token in text


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    per_photo = "--per-photo" in sys.argv
    if len(args) != 2:
        sys.exit(__doc__)
    truth = {}
    for line in open(args[0], encoding="utf-8"):
        if line.strip():
            t = json.loads(line)
            truth[t["file"]] = t
    texts = {}
    for line in open(args[1], encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            texts[r["file"]] = r
    shares, by_kind = [], {}
    for name in sorted(truth):
        tokens = truth_tokens(truth[name])
        if not tokens:
            continue
        row = texts.get(name, {})
        text = fold(row.get("text", ""))
        words = set(re.findall(r"[^\W\d_]+", text))
        digit_lines = [re.sub(r"\D", "", l) for l in text.split("\n")]
        hits = 0
        for kind, token in tokens:
            ok = found(kind, token, text, words, digit_lines)
            hits += ok
            k = by_kind.setdefault(kind, [0, 0])
            k[0] += ok
            k[1] += 1
        shares.append(hits / len(tokens))
        if per_photo:
            print(f"{name:16} {hits:3}/{len(tokens):3}  {hits / len(tokens):.2f}  rot={row.get('rotation')} found={row.get('found')}")
    kinds = "  ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(by_kind.items()))
    mean = sum(shares) / len(shares) if shares else 0
    print(f"ocr-recall {mean:.3f} over {len(shares)} photos; {kinds}")


if __name__ == "__main__":
    main()
