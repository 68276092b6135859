#!/usr/bin/env python3
"""How cardscan found the cards: counts by method (outline, text-region, whole-frame) and, where the
truth gives the card's corners (`card_quad`), how many found outlines overlap it well.

usage: python3 scripts/placement.py TRUTH.jsonl RECORDS.jsonl
Prints one line: found by outline N, by text region N, not found N; with card_quad: IoU >= 0.85 N/M.
No third-party packages: convex polygons are clipped by Sutherland-Hodgman.
"""
import json, os, sys


def area(poly):
    s = 0.0
    for i in range(len(poly)):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % len(poly)]
        s += x1 * y2 - x2 * y1
    return abs(s) / 2


def clip(subject, clipper):
    """The part of convex polygon `subject` inside convex polygon `clipper` (both as point lists)."""
    def orient(p):
        s = sum(p[i][0] * p[(i + 1) % len(p)][1] - p[(i + 1) % len(p)][0] * p[i][1] for i in range(len(p)))
        return p if s > 0 else list(reversed(p))
    out = orient(subject)
    cl = orient(clipper)
    for i in range(len(cl)):
        a, b = cl[i], cl[(i + 1) % len(cl)]
        inp, out = out, []
        if not inp:
            break
        def inside(p):
            return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0
        def cross(p, q):
            dx1, dy1 = q[0] - p[0], q[1] - p[1]
            dx2, dy2 = b[0] - a[0], b[1] - a[1]
            den = dx1 * dy2 - dy1 * dx2
            if den == 0:
                return q
            t = ((a[0] - p[0]) * dy2 - (a[1] - p[1]) * dx2) / den
            return (p[0] + t * dx1, p[1] + t * dy1)
        for j in range(len(inp)):
            p, q = inp[j - 1], inp[j]
            if inside(q):
                if not inside(p):
                    out.append(cross(p, q))
                out.append(q)
            elif inside(p):
                out.append(cross(p, q))
    return out


def iou(q1, q2, w, h):
    frame = [(0, 0), (w, 0), (w, h), (0, h)]
    a = clip([tuple(p) for p in q1], frame)
    b = clip([tuple(p) for p in q2], frame)
    if len(a) < 3 or len(b) < 3:
        return 0.0
    inter = clip(a, b)
    i = area(inter) if len(inter) >= 3 else 0.0
    u = area(a) + area(b) - i
    return i / u if u > 0 else 0.0


def main():
    truth = {}
    for line in open(sys.argv[1], encoding="utf-8"):
        if line.strip():
            t = json.loads(line)
            truth[t["file"]] = t
    counts = {"outline": 0, "text-region": 0, "whole-frame": 0}
    good = total = 0
    for line in open(sys.argv[2], encoding="utf-8"):
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        card = ((r.get("image") or {}).get("card")) or {}
        method = card.get("found", "whole-frame")
        counts[method] = counts.get(method, 0) + 1
        t = truth.get(os.path.basename(r.get("source", "")))
        if t and t.get("card_quad") and r.get("image"):
            w, h = r["image"]["width"], r["image"]["height"]
            corners = card.get("corners") or [[0, 0], [w, 0], [w, h], [0, h]]
            total += 1
            good += iou(corners, t["card_quad"], w, h) >= 0.85
    line = "found by outline %d, by text region %d, not found %d" % (counts["outline"], counts["text-region"], counts["whole-frame"])
    if total:
        line += "; outline or region overlapping the true card (IoU >= 0.85): %d/%d" % (good, total)
    print(line)


if __name__ == "__main__":
    main()
