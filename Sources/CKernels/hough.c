#include "avx2.h"
#include "ckernels.h"
#include <math.h>
#include <stdlib.h>

#pragma STDC FP_CONTRACT OFF

// HoughLines in C: the same floats in the same order as its Swift definitions (libm's atan2f,
// sinf and cosf, as Swift's Float functions call on Linux), so the lines found are the same.

// Swift's Float.pi: pi rounded toward zero (0x1.921fb4p+1), one unit in the last place below
// the nearest float, which C's (float)M_PI is.
static const float swift_pi = 0x1.921fb4p+1f;

// Int(x.rounded()) (halves away from zero) without libm's call: x less its integer part is exact
// for |x| < 2^23, as every coordinate and angle here is.
static inline long rounded(float x) {
    long whole = (long)x;
    float fraction = x - (float)whole;
    return whole + (fraction >= 0.5f ? 1 : 0) - (fraction <= -0.5f ? 1 : 0);
}

void cs_edge_pixels(const float *mag, const float *gx, const float *gy, int w, int h, float threshold,
                    uint8_t *isEdge, float *angles) {
    for (int y = 1; y < h - 1; y++) {
        for (int x = 1; x < w - 1; x++) {
            long i = (long)y * w + x;
            float m = mag[i];
            if (!(m > threshold)) continue;
            float ggx = gx[i], ggy = gy[i];
            float ax = fabsf(ggx), ay = fabsf(ggy);
            float a, b;
            if (ay <= 0.414f * ax) { a = mag[i - 1]; b = mag[i + 1]; }
            else if (ax <= 0.414f * ay) { a = mag[i - w]; b = mag[i + w]; }
            else if ((ggx > 0) == (ggy > 0)) { a = mag[i - w - 1]; b = mag[i + w + 1]; }
            else { a = mag[i - w + 1]; b = mag[i + w - 1]; }
            if (!(m >= a) || !(m >= b)) continue;
            float angle = atan2f(ggy, ggx) * 180 / swift_pi;
            if (angle < 0) angle += 180;
            isEdge[i] = 1;
            angles[i] = angle;
        }
    }
}

// How many of the eight neighbours along the edge through (x, y), up to 4 px each way, are edge
// pixels within 15 degrees of its direction (HoughLines.straightness).
static inline int straightness(int x, int y, float angle, int w, int h, const uint8_t *isEdge, const float *angles) {
    float rad = angle * swift_pi / 180;
    float tx = -sinf(rad), ty = cosf(rad);
    int straight = 0;
    for (int k = 1; k <= 4; k++) {
        long ox = rounded((float)k * tx), oy = rounded((float)k * ty);
        for (int sign = 1; sign >= -1; sign -= 2) {
            long nx = x + sign * ox, ny = y + sign * oy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
            long j = ny * w + nx;
            if (isEdge[j] == 0) continue;
            float d = fabsf(angles[j] - angle);
            if (d > 90) d = 180 - d;
            straight += d < 15 ? 1 : 0;
        }
    }
    return straight;
}

void cs_hough_vote(const float *mag, const uint8_t *isEdge, const float *angles, int w, int h, float strong,
                   const float *cosT, const float *sinT, int diag, int rhoBins, float *cells) {
    const int spread = 3, n = 180;
    float shares[7];
    for (int dt = -spread; dt <= spread; dt++) shares[dt + spread] = 1 - (float)abs(dt) / (float)(spread + 1);
    for (int y = 1; y < h - 1; y++) {
        const uint8_t *row = isEdge + (long)y * w;
        for (int x = (int)cs_next_byte(row, 1, w - 1, 0); x < w - 1; x = (int)cs_next_byte(row, x + 1, w - 1, 0)) {
            long i = (long)y * w + x;
            float angle = angles[i];
            int straight = straightness(x, y, angle, w, h, isEdge, angles);
            float ratio = mag[i] / strong;
            float weight = (ratio < 1 ? ratio : 1) * ((float)straight / 8);
            if (!(weight > 0)) continue;
            long t0 = rounded(angle) % n;
            for (int dt = -spread; dt <= spread; dt++) {
                long t = t0 + dt;
                if (t < 0) t += n; else if (t >= n) t -= n;
                float rho = (float)x * cosT[t] + (float)y * sinT[t];
                long r = rounded(rho) + diag;
                if (r < 0 || r >= rhoBins) continue;
                cells[r * n + t] += weight * shares[dt + spread];
            }
        }
    }
}

long cs_rounded(float x) { return rounded(x); }

// HoughLines.Accumulator.smooth: a 3 x 3 binomial kernel over (rho, theta), theta wrapping
// around, rows 0 and rhoBins - 1 left as they are. Written once, compiled for any processor and
// for AVX2; each cell's sum in the Swift definition's order.
#define KERNEL static inline __attribute__((always_inline))

KERNEL float smoothed_cell(const float *above, const float *here, const float *below, int t, int tl, int tr) {
    float s = 4 * here[t];
    s += 2 * (above[t] + below[t] + here[tl] + here[tr]);
    s += above[tl] + above[tr] + below[tl] + below[tr];
    return s / 16;
}

KERNEL void accumulator_row(const float *restrict above, const float *restrict here, const float *restrict below,
                            float *restrict out, int n) {
    out[0] = smoothed_cell(above, here, below, 0, n - 1, 1);
    for (int t = 1; t < n - 1; t++) {
        float s = 4 * here[t];
        s += 2 * (above[t] + below[t] + here[t - 1] + here[t + 1]);
        s += above[t - 1] + above[t + 1] + below[t - 1] + below[t + 1];
        out[t] = s / 16;
    }
    out[n - 1] = smoothed_cell(above, here, below, n - 1, n - 2, 0);
}

// In place: rows r - 1 and r as they were are kept in `scratch` (2n floats) while row r is written.
KERNEL void accumulator_body(float *cells, int rhoBins, int n, float *scratch) {
    float *above = scratch, *here = scratch + n;
    memcpy(above, cells, sizeof(float) * (size_t)n);
    memcpy(here, cells + n, sizeof(float) * (size_t)n);
    for (int r = 1; r < rhoBins - 1; r++) {
        float *row = cells + (long)r * n;
        const float *below = row + n;
        accumulator_row(above, here, below, row, n);
        float *kept = above;
        above = here;
        here = kept;
        memcpy(here, below, sizeof(float) * (size_t)n);
    }
}

static void accumulator_plain(float *cells, int rhoBins, int n, float *scratch) { accumulator_body(cells, rhoBins, n, scratch); }
#if CS_AVX2
__attribute__((target("avx2"))) static void accumulator_avx2(float *cells, int rhoBins, int n, float *scratch) {
    accumulator_body(cells, rhoBins, n, scratch);
}
#endif

int cs_smooth_accumulator(float *cells, int rhoBins, int thetaBins, float *scratch, int vector) {
    if (rhoBins < 3 || thetaBins < 3) return 0;
#if CS_AVX2
    if (cs_avx2(vector)) { accumulator_avx2(cells, rhoBins, thetaBins, scratch); return 1; }
#endif
    (void)vector;
    accumulator_plain(cells, rhoBins, thetaBins, scratch);
    return 0;
}
