#!/usr/bin/env python3
"""Trains the edge-debris model (is the first or last word of an OCR line debris: a logo, an icon
or a texture read as letters, printed nowhere on the card?) and writes its weights to
Sources/ContactParser/Model/EdgeDebrisWeights.swift.

The corpus is what Tesseract really reads on generated photos (scripts/make_photos.py, the seeds
below, read by `cardscan-bench ocr-lines` as scanning reads them): a line whose words, less some
at its ends, spell the card's name, title or organisation as printed gives examples, the words
at its ends that are not printed on the card being debris and the ends of the printed value not.
The features are the word's OCR evidence against the rest of its line (confidence, the gap after
it, the width per letter, its letters) and are computed by `EdgeDebris.features` in Swift; the
model is a logistic regression (L2, Newton's method).

It prints precision and recall on the photos of the check seed, never trained on.

usage: python3 scripts/train_debris.py [--write]
needs: numpy, Pillow, faker, phonenumbers, segno, Unidecode (make eval's venv), a built cardscan-bench
"""
import argparse, json, os, re, subprocess, sys, unicodedata

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.environ.get("CARDSCAN_BENCH") or os.path.join(ROOT, ".build/release/cardscan-bench")
OUT = os.path.join(ROOT, "Sources/ContactParser/Model/EdgeDebrisWeights.swift")
TRAIN_SEEDS = [1795930001, 1795930002, 1795930004, 1795930005]
CHECK_SEED = 1795930003
PHOTOS = 200
FEATURES = ["bias", "confidence", "confidenceBelowLine", "gapExcess", "widthPerLetter", "letters", "symbolShare",
            "noVowel", "lowerBeforeUpper", "leading"]
VOWELS = set("aeiouyAEIOUY")


def norm(s):
    s = unicodedata.normalize("NFC", s or "")
    s = re.sub(r"[\W_]+", " ", s).strip().lower()
    return re.sub(r"\s+", " ", s)


def features(words, k, height):
    """Mirrors EdgeDebris.features: word k (0 or the last) of a line of at least two words."""
    w = words[k]
    others = [x for i, x in enumerate(words) if i != k]
    conf = w["c"]
    median_conf = sorted(x["c"] for x in others)[len(others) // 2]
    neighbour = 1 if k == 0 else len(words) - 2
    a, b = (w, words[1]) if k == 0 else (words[-2], w)
    gap = max(0.0, b["l"] - a["r"]) / height
    inner = [max(0.0, y["l"] - x["r"]) / height for x, y in zip(words, words[1:])]
    inner = inner[1:] if k == 0 else inner[:-1]
    usual = sorted(inner)[len(inner) // 2] if inner else 0.35
    def per_letter(x):
        return max(1.0, x["r"] - x["l"]) / max(1, len(x["t"])) / height
    own = per_letter(w)
    typical = sorted(per_letter(x) for x in others)[len(others) // 2]
    text = w["t"]
    letters = [ch for ch in text if ch.isalpha()]
    symbols = [ch for ch in text if not ch.isalnum()]
    nb = words[neighbour]["t"]
    return [1.0, conf, max(0.0, median_conf - conf), min(5.0, max(-1.0, gap - usual)),
            max(-2.0, min(2.0, float(np.log(own / max(typical, 1e-6))))), min(len(letters), 6) / 6.0,
            len(symbols) / max(1, len(text)), 1.0 if letters and not any(ch in VOWELS or ord(ch) > 0x7F for ch in letters) else 0.0,
            1.0 if letters and all(ch.islower() for ch in letters) and nb[:1].isupper() else 0.0, 1.0 if k == 0 else 0.0]


def eligible(token):
    """Mirrors EdgeDebris.isCandidate: contact data and initials are never judged (labels, which
    Swift also leaves out, hardly end a name, title or company line: not checked here)."""
    if re.fullmatch(r"[^\W\d_]\.?", token) and token[0].isupper():
        return False
    address = "@" in token and any(ch.isalnum() for ch in token)  # an "@" alone is an icon
    return sum(ch.isdigit() for ch in token) < 2 and not address and not re.search(r"\w\.\w", token)


def examples(directory):
    cache = directory.rstrip("/") + ".lines.jsonl"
    if not os.path.exists(cache):
        with open(cache, "w") as f:
            subprocess.run([BENCH, "ocr-lines", directory], stdout=f, check=True, env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    truth = {json.loads(l)["file"]: json.loads(l) for l in open(os.path.join(directory, "truth.jsonl"))}
    X, y = [], []
    for row in open(cache):
        r = json.loads(row)
        t = truth.get(r["file"])
        # A card on a printed page: the page's words beside the card's lines are text, not debris,
        # and nothing tells them apart from the card's.
        if not t or "bg_paper_text" in t.get("conditions", []):
            continue
        printed = " ".join(norm(str(v)) for v in [t.get("name"), t.get("title"), t.get("organization"), json.dumps(t.get("address")),
                                                   " ".join(t.get("emails") or []), " ".join(t.get("urls") or []),
                                                   json.dumps(t.get("phones"))] if v).split()
        printed = set(printed)

        def spelled(token):  # every word of the token is printed somewhere on the card
            return bool(norm(token)) and all(part in printed for part in norm(token).split())
        for line in r["lines"]:
            words = [w for w in line["words"] if w["t"].strip()]
            h = line.get("h") or 0
            if len(words) < 2 or h <= 0:
                continue
            tokens = [w["t"] for w in words]
            for value in (t.get("name"), t.get("title"), t.get("organization")):
                v = norm(value)
                if not v:
                    continue
                span = next(((i, j) for i in range(len(tokens)) for j in range(len(tokens), i, -1)
                             if norm(" ".join(tokens[i:j])) == v), None)
                if not span:
                    continue
                i, j = span
                while j - i > 1 and not norm(tokens[i]):  # the value's span holds no bare symbols
                    i += 1
                while j - i > 1 and not norm(tokens[j - 1]):
                    j -= 1
                # Debris before and after the value: each word at the end of what is left.
                for k in range(i):
                    part = words[k:]
                    if len(part) >= 2 and eligible(part[0]["t"]) and not spelled(part[0]["t"]):
                        X.append(features(part, 0, h)); y.append(1)
                for k in range(len(words), j, -1):
                    part = words[:k]
                    if len(part) >= 2 and eligible(part[-1]["t"]) and not spelled(part[-1]["t"]):
                        X.append(features(part, len(part) - 1, h)); y.append(1)
                # The value's own ends, once the debris is gone: not debris.
                inner = words[i:j]
                if len(inner) >= 2:
                    if eligible(inner[0]["t"]):
                        X.append(features(inner, 0, h)); y.append(0)
                    if eligible(inner[-1]["t"]):
                        X.append(features(inner, len(inner) - 1, h)); y.append(0)
                break
    return np.array(X), np.array(y)


def fit(X, y, l2=1.0, iterations=30):
    w = np.zeros(X.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-X @ w))
        g = X.T @ (p - y) + l2 * np.r_[0, w[1:]]
        H = X.T @ (X * (p * (1 - p))[:, None]) + l2 * np.diag(np.r_[0, np.ones(len(w) - 1)])
        w -= np.linalg.solve(H, g)
    return w


def report(name, w, X, y):
    p = 1 / (1 + np.exp(-X @ w)) > 0.5
    tp = int((p & (y == 1)).sum())
    print("%-6s examples %5d (debris %4d)  precision %.3f  recall %.3f" % (
        name, len(y), int(y.sum()), tp / max(1, int(p.sum())), tp / max(1, int(y.sum()))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--work", default=os.path.join(ROOT, ".build-debris"))
    args = ap.parse_args()
    if not os.access(BENCH, os.X_OK):
        raise SystemExit("train_debris.py: build cardscan-bench first (make tools)")
    os.makedirs(args.work, exist_ok=True)
    python = os.path.join(ROOT, ".build-eval/venv/bin/python")
    sets = {}
    for seed in TRAIN_SEEDS + [CHECK_SEED]:
        d = os.path.join(args.work, "photos-%d" % seed)
        if not os.path.exists(os.path.join(d, "truth.jsonl")):
            subprocess.run([python, os.path.join(ROOT, "scripts/make_photos.py"), "--count", str(PHOTOS), "--seed", str(seed), d],
                           stdout=subprocess.DEVNULL, check=True)
        sets[seed] = examples(d)
    X = np.vstack([sets[s][0] for s in TRAIN_SEEDS]); y = np.concatenate([sets[s][1] for s in TRAIN_SEEDS])
    w = fit(X, y)
    for name, value in zip(FEATURES, w):
        print("  %-20s %+.3f" % (name, value))
    report("train", w, X, y)
    report("check", w, *sets[CHECK_SEED])
    if args.write:
        with open(OUT, "w") as f:
            f.write("// Generated by scripts/train_debris.py: do not edit. Corpus: scripts/make_photos.py seeds %s, %d photos each, "
                    "read by cardscan-bench ocr-lines; %d examples.\n" % (", ".join(map(str, TRAIN_SEEDS)), PHOTOS, len(y)))
            f.write("/// The edge-debris model's weights, one per feature of `EdgeDebris.features`, in its order.\n")
            f.write("enum EdgeDebrisWeights {\n")
            f.write("    static let weights: [Double] = [%s]\n" % ", ".join("%.4f" % v for v in w))
            f.write("}\n")
        print("wrote", OUT)


if __name__ == "__main__":
    main()
