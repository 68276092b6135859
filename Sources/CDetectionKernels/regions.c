#include "avx2.h"
#include "cdetectionkernels.h"

#pragma STDC FP_CONTRACT OFF

// RegionCandidates' planes and masks (the same floats and bytes as its Swift definitions), each
// loop written once and compiled for any processor and for AVX2, chosen at run time.

KERNEL void halve_body(const float *restrict src, int width, int w, int h, float *restrict out, int maximum) {
    for (int y = 0; y < h; y++) {
        const float *restrict top = src + (long)2 * y * width, *restrict bottom = top + width;
        float *restrict o = out + (long)y * w;
        if (maximum) {
            for (int x = 0; x < w; x++) {
                float v0 = top[2 * x], v1 = top[2 * x + 1], v2 = bottom[2 * x], v3 = bottom[2 * x + 1];
                // Swift's max(a, b): b when b >= a, else a.
                float m01 = v1 >= v0 ? v1 : v0, m23 = v3 >= v2 ? v3 : v2;
                o[x] = m23 >= m01 ? m23 : m01;
            }
        } else {
            for (int x = 0; x < w; x++) o[x] = (top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1]) * 0.25f;
        }
    }
}

KERNEL void threshold_body(const float *restrict a, long count, float t, int above, uint8_t *restrict out) {
    if (above) {
        for (long i = 0; i < count; i++) out[i] = a[i] > t;
    } else {
        for (long i = 0; i < count; i++) out[i] = a[i] < t;
    }
}

static void halve_plain(const float *src, int width, int w, int h, float *out, int maximum) {
    halve_body(src, width, w, h, out, maximum);
}
static void threshold_plain(const float *a, long count, float t, int above, uint8_t *out) { threshold_body(a, count, t, above, out); }
#if CS_AVX2
__attribute__((target("avx2"))) static void halve_avx2(const float *src, int width, int w, int h, float *out, int maximum) {
    halve_body(src, width, w, h, out, maximum);
}
__attribute__((target("avx2"))) static void threshold_avx2(const float *a, long count, float t, int above, uint8_t *out) {
    threshold_body(a, count, t, above, out);
}
#endif

int cs_halve(const float *plane, int width, int height, float *out, int maximum, int vector) {
    int w = width / 2, h = height / 2;
#if CS_AVX2
    if (cs_avx2(vector)) { halve_avx2(plane, width, w, h, out, maximum); return 1; }
#endif
    (void)vector;
    halve_plain(plane, width, w, h, out, maximum);
    return 0;
}

int cs_threshold(const float *values, long count, float t, int above, uint8_t *mask, int vector) {
#if CS_AVX2
    if (cs_avx2(vector)) { threshold_avx2(values, count, t, above, mask); return 1; }
#endif
    (void)vector;
    threshold_plain(values, count, t, above, mask);
    return 0;
}

// Swift's min() and max(): a value replaces the one kept only when strictly smaller (larger).
static void range_plain(const float *values, long count, float *lo, float *hi) {
    float a = values[0], b = values[0];
    for (long i = 1; i < count; i++) {
        float v = values[i];
        a = v < a ? v : a;
        b = v > b ? v : b;
    }
    *lo = a;
    *hi = b;
}

#if CS_AVX2
// Eight running minima and maxima (each lane as range_plain), then the least and greatest of them:
// the same values for values without NaNs (a +0 and a -0 may trade places, which are equal).
__attribute__((target("avx2"))) static void range_avx2(const float *values, long count, float *lo, float *hi) {
    __m256 a = _mm256_set1_ps(values[0]), b = a;
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256 v = _mm256_loadu_ps(values + i);
        a = _mm256_min_ps(v, a);
        b = _mm256_max_ps(v, b);
    }
    float lows[8], highs[8];
    _mm256_storeu_ps(lows, a);
    _mm256_storeu_ps(highs, b);
    float x = lows[0], y = highs[0];
    for (int l = 1; l < 8; l++) {
        x = lows[l] < x ? lows[l] : x;
        y = highs[l] > y ? highs[l] : y;
    }
    for (; i < count; i++) {
        x = values[i] < x ? values[i] : x;
        y = values[i] > y ? values[i] : y;
    }
    *lo = x;
    *hi = y;
}
#endif

void cs_range(const float *values, long count, float *lo, float *hi, int vector) {
#if CS_AVX2
    if (cs_avx2(vector)) { range_avx2(values, count, lo, hi); return; }
#endif
    (void)vector;
    range_plain(values, count, lo, hi);
}

void cs_scaled_histogram(const float *values, long count, float lo, float scale, long *bins, long binCount) {
    // Four histograms filled in turn, then added (see cs_histogram).
    enum { most = 1024 };
    uint32_t part[4][most];
    if (binCount > most) binCount = most;
    memset(part, 0, sizeof part);
    long last = binCount - 1;
    for (long i = 0; i < count; i++) {
        long b = (long)((values[i] - lo) * scale);
        part[i & 3][b < 0 ? 0 : b > last ? last : b] += 1;
    }
    for (long b = 0; b < binCount; b++) bins[b] += (long)part[0][b] + part[1][b] + part[2][b] + part[3][b];
}
