#include "avx2.h"
#include "cdetectionkernels.h"

#pragma STDC FP_CONTRACT OFF

// Each loop below is written once and compiled twice, for any processor and for one with AVX2,
// chosen at run time. Every value is computed element by element with the operations of the
// Swift definitions (EdgeMap), in their order and without fused multiply-adds, so the vector
// code the compiler makes gives the same floats as one value at a time.

KERNEL void smooth_row(const float *restrict r, float *restrict o, int w) {
    o[0] = (r[0] + 2 * r[0] + r[1]) * 0.25f;
    for (int x = 1; x < w - 1; x++) o[x] = (r[x - 1] + 2 * r[x] + r[x + 1]) * 0.25f;
    o[w - 1] = (r[w - 2] + 2 * r[w - 1] + r[w - 1]) * 0.25f;
}

KERNEL void smooth_body(float *a, int w, int h, int passes, float *ring) {
    for (int pass = 0; pass < passes; pass++) {
        smooth_row(a, ring, w);
        for (int y = 0; y < h; y++) {
            // Row y + 1 is still unsmoothed in `a`: only rows up to y - 1 were written.
            if (y + 1 < h) smooth_row(a + (long)(y + 1) * w, ring + (long)((y + 1) % 3) * w, w);
            const float *restrict up = ring + (long)((y > 0 ? y - 1 : 0) % 3) * w;
            const float *restrict row = ring + (long)(y % 3) * w;
            const float *restrict down = ring + (long)((y + 1 < h ? y + 1 : h - 1) % 3) * w;
            float *restrict o = a + (long)y * w;
            for (int x = 0; x < w; x++) o[x] = (up[x] + 2 * row[x] + down[x]) * 0.25f;
        }
    }
}

KERNEL void opponent_body(const uint8_t *restrict rgb, long n, float *restrict luma, float *restrict rg, float *restrict yb) {
    for (long i = 0; i < n; i++) {
        float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
        luma[i] = 0.299f * r + 0.587f * g + 0.114f * b;
        rg[i] = 0.5f * (r - g);
        yb[i] = 0.5f * (0.5f * (r + g) - b);
    }
}

// One row of EdgeMap.strongestGradients: per pixel the Sobel gradient of the first channel whose
// magnitude is greatest, none where all are flat.
KERNEL void gradients_row(const float *restrict s0, const float *restrict s1, const float *restrict s2, int count,
                          int w, long start, float *restrict gx, float *restrict gy, float *restrict mag) {
    for (long i = start + 1; i < start + w - 1; i++) {
#define SOBEL(s, dx, dy, m)                                                                                    \
        float dx = (s[i - w + 1] + 2 * s[i + 1] + s[i + w + 1]) - (s[i - w - 1] + 2 * s[i - 1] + s[i + w - 1]); \
        float dy = (s[i + w - 1] + 2 * s[i + w] + s[i + w + 1]) - (s[i - w - 1] + 2 * s[i - w] + s[i - w + 1]); \
        float m = __builtin_elementwise_sqrt(dx * dx + dy * dy) / 4;
        SOBEL(s0, dx0, dy0, m0)
        int flat = m0 <= 0;
        float dx = flat ? 0 : dx0, dy = flat ? 0 : dy0, m = flat ? 0 : m0;
        if (count == 3) {
            SOBEL(s1, dx1, dy1, m1)
            int take1 = m1 > m;
            dx = take1 ? dx1 : dx; dy = take1 ? dy1 : dy; m = take1 ? m1 : m;
            SOBEL(s2, dx2, dy2, m2)
            int take2 = m2 > m;
            dx = take2 ? dx2 : dx; dy = take2 ? dy2 : dy; m = take2 ? m2 : m;
        }
#undef SOBEL
        mag[i] = m;
        gx[i] = dx / 4;
        gy[i] = dy / 4;
    }
}

KERNEL void gradients_body(const float *s0, const float *s1, const float *s2, int count, int w, int h,
                           float *gx, float *gy, float *mag) {
    for (int y = 1; y < h - 1; y++) gradients_row(s0, s1, s2, count, w, (long)y * w, gx, gy, mag);
}

static void smooth_plain(float *a, int w, int h, int passes, float *ring) { smooth_body(a, w, h, passes, ring); }
static void opponent_plain(const uint8_t *rgb, long n, float *l, float *rg, float *yb) { opponent_body(rgb, n, l, rg, yb); }
static void gradients_plain(const float *s0, const float *s1, const float *s2, int count, int w, int h,
                            float *gx, float *gy, float *mag) {
    gradients_body(s0, s1, s2, count, w, h, gx, gy, mag);
}

#if CS_AVX2
__attribute__((target("avx2"))) static void smooth_avx2(float *a, int w, int h, int passes, float *ring) {
    smooth_body(a, w, h, passes, ring);
}
__attribute__((target("avx2"))) static void opponent_avx2(const uint8_t *rgb, long n, float *l, float *rg, float *yb) {
    opponent_body(rgb, n, l, rg, yb);
}
__attribute__((target("avx2"))) static void gradients_avx2(const float *s0, const float *s1, const float *s2, int count,
                                                           int w, int h, float *gx, float *gy, float *mag) {
    gradients_body(s0, s1, s2, count, w, h, gx, gy, mag);
}
#endif

int cs_smooth(float *plane, int width, int height, int passes, float *ring, int vector) {
    if (width < 2 || height < 2) return 0;
#if CS_AVX2
    if (cs_avx2(vector)) { smooth_avx2(plane, width, height, passes, ring); return 1; }
#endif
    (void)vector;
    smooth_plain(plane, width, height, passes, ring);
    return 0;
}

int cs_opponent_channels(const uint8_t *rgb, long count, float *luma, float *redGreen, float *yellowBlue, int vector) {
#if CS_AVX2
    if (cs_avx2(vector)) { opponent_avx2(rgb, count, luma, redGreen, yellowBlue); return 1; }
#endif
    (void)vector;
    opponent_plain(rgb, count, luma, redGreen, yellowBlue);
    return 0;
}

int cs_strongest_gradients(const float *c0, const float *c1, const float *c2, int count, int width, int height,
                           float *gx, float *gy, float *magnitude, int vector) {
    if (width < 3 || height < 3) return 0;
#if CS_AVX2
    if (cs_avx2(vector)) { gradients_avx2(c0, c1, c2, count, width, height, gx, gy, magnitude); return 1; }
#endif
    (void)vector;
    gradients_plain(c0, c1, c2, count, width, height, gx, gy, magnitude);
    return 0;
}

void cs_histogram(const float *values, long count, long *bins) {
    // Four histograms, filled in turn, then added: runs of equal values (a plain photo's many
    // small gradients) would otherwise wait on the previous increment of the same bin.
    uint32_t part[4][1025];
    memset(part, 0, sizeof part);
    for (long i = 0; i < count; i++) {
        float v = values[i];
        v = v >= 0 ? v : 0;
        v = 1024 < v ? 1024 : v;
        part[i & 3][(long)v] += 1;
    }
    for (int b = 0; b < 1025; b++) bins[b] += (long)part[0][b] + part[1][b] + part[2][b] + part[3][b];
}
