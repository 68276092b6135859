#include "avx2.h"
#include "cdetectionkernels.h"
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

// Marks pixel i an edge pixel, with its gradient's direction in degrees (0..<180).
static inline void mark_edge(const float *gx, const float *gy, long i, uint8_t *isEdge, float *angles) {
    float angle = atan2f(gy[i], gx[i]) * 180 / swift_pi;
    if (angle < 0) angle += 180;
    isEdge[i] = 1;
    angles[i] = angle;
}

// One pixel of cs_edge_pixels (an inner pixel).
static inline void edge_pixel(const float *mag, const float *gx, const float *gy, long i, int w, float threshold,
                              uint8_t *isEdge, float *angles) {
    float m = mag[i];
    if (!(m > threshold)) return;
    float ggx = gx[i], ggy = gy[i];
    float ax = fabsf(ggx), ay = fabsf(ggy);
    float a, b;
    if (ay <= 0.414f * ax) { a = mag[i - 1]; b = mag[i + 1]; }
    else if (ax <= 0.414f * ay) { a = mag[i - w]; b = mag[i + w]; }
    else if ((ggx > 0) == (ggy > 0)) { a = mag[i - w - 1]; b = mag[i + w + 1]; }
    else { a = mag[i - w + 1]; b = mag[i + w - 1]; }
    if (!(m >= a) || !(m >= b)) return;
    mark_edge(gx, gy, i, isEdge, angles);
}

#if CS_AVX2
// Eight pixels from i on: the same tests with every lane's neighbours loaded and chosen by blends;
// the angle (libm's atan2f) only for the pixels that pass, one at a time as edge_pixel does.
__attribute__((target("avx2"))) static void edge_block(const float *mag, const float *gx, const float *gy, long i, int w,
                                                     __m256 threshold, uint8_t *isEdge, float *angles) {
    __m256 m = _mm256_loadu_ps(mag + i);
    __m256 above = _mm256_cmp_ps(m, threshold, _CMP_GT_OQ);
    if (_mm256_movemask_ps(above) == 0) return;
    const __m256 sign = _mm256_set1_ps(-0.0f), ratio = _mm256_set1_ps(0.414f), zero = _mm256_setzero_ps();
    __m256 ggx = _mm256_loadu_ps(gx + i), ggy = _mm256_loadu_ps(gy + i);
    __m256 ax = _mm256_andnot_ps(sign, ggx), ay = _mm256_andnot_ps(sign, ggy);
    __m256 across = _mm256_cmp_ps(ay, _mm256_mul_ps(ratio, ax), _CMP_LE_OQ);   // the gradient runs along x
    __m256 down = _mm256_cmp_ps(ax, _mm256_mul_ps(ratio, ay), _CMP_LE_OQ);     // along y
    __m256 same = _mm256_xor_ps(_mm256_cmp_ps(ggx, zero, _CMP_GT_OQ), _mm256_cmp_ps(ggy, zero, _CMP_GT_OQ));
    // Chosen from the last case to the first, so the first that holds wins.
    __m256 a = _mm256_blendv_ps(_mm256_loadu_ps(mag + i - w - 1), _mm256_loadu_ps(mag + i - w + 1), same);
    __m256 b = _mm256_blendv_ps(_mm256_loadu_ps(mag + i + w + 1), _mm256_loadu_ps(mag + i + w - 1), same);
    a = _mm256_blendv_ps(a, _mm256_loadu_ps(mag + i - w), down);
    b = _mm256_blendv_ps(b, _mm256_loadu_ps(mag + i + w), down);
    a = _mm256_blendv_ps(a, _mm256_loadu_ps(mag + i - 1), across);
    b = _mm256_blendv_ps(b, _mm256_loadu_ps(mag + i + 1), across);
    __m256 keep = _mm256_and_ps(above, _mm256_and_ps(_mm256_cmp_ps(m, a, _CMP_GE_OQ), _mm256_cmp_ps(m, b, _CMP_GE_OQ)));
    unsigned kept = (unsigned)_mm256_movemask_ps(keep);
    for (; kept; kept &= kept - 1) mark_edge(gx, gy, i + __builtin_ctz(kept), isEdge, angles);
}

__attribute__((target("avx2"))) static void edge_pixels_avx2(const float *mag, const float *gx, const float *gy, int w, int h,
                                                            float threshold, uint8_t *isEdge, float *angles) {
    __m256 t = _mm256_set1_ps(threshold);
    for (int y = 1; y < h - 1; y++) {
        long row = (long)y * w;
        int x = 1;
        for (; x + 8 <= w - 1; x += 8) edge_block(mag, gx, gy, row + x, w, t, isEdge, angles);
        for (; x < w - 1; x++) edge_pixel(mag, gx, gy, row + x, w, threshold, isEdge, angles);
    }
}
#endif

int cs_edge_pixels(const float *mag, const float *gx, const float *gy, int w, int h, float threshold,
                   uint8_t *isEdge, float *angles, int vector) {
#if CS_AVX2
    if (cs_avx2(vector)) { edge_pixels_avx2(mag, gx, gy, w, h, threshold, isEdge, angles); return 1; }
#endif
    (void)vector;
    for (int y = 1; y < h - 1; y++) {
        for (int x = 1; x < w - 1; x++) edge_pixel(mag, gx, gy, (long)y * w + x, w, threshold, isEdge, angles);
    }
    return 0;
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

#if CS_AVX2
// rounded() in eight lanes: the same truncation, fraction and comparisons.
__attribute__((target("avx2"))) static inline __m256i rounded8(__m256 x) {
    __m256i whole = _mm256_cvttps_epi32(x);
    __m256 fraction = _mm256_sub_ps(x, _mm256_cvtepi32_ps(whole));
    __m256i up = _mm256_castps_si256(_mm256_cmp_ps(fraction, _mm256_set1_ps(0.5f), _CMP_GE_OQ));
    __m256i down = _mm256_castps_si256(_mm256_cmp_ps(fraction, _mm256_set1_ps(-0.5f), _CMP_LE_OQ));
    // A true comparison is -1 in every bit: subtracting it adds one.
    return _mm256_add_epi32(_mm256_sub_epi32(whole, up), down);
}

// straightness() with its eight neighbours in eight lanes (k = 1, 1, 2, 2, ... 4, 4; the sign +, -
// in turn). Every neighbour lies at most four rows below y, so with y + 5 < h the four bytes a
// gather of isEdge reads stay inside the plane.
__attribute__((target("avx2"))) static inline int straightness8(int x, int y, float angle, int w, int h,
                                                               const uint8_t *isEdge, const float *angles) {
    float rad = angle * swift_pi / 180;
    float tx = -sinf(rad), ty = cosf(rad);
    const __m256 k = _mm256_setr_ps(1, 1, 2, 2, 3, 3, 4, 4);
    const __m256i sign = _mm256_setr_epi32(1, -1, 1, -1, 1, -1, 1, -1);
    __m256i ox = _mm256_mullo_epi32(rounded8(_mm256_mul_ps(k, _mm256_set1_ps(tx))), sign);
    __m256i oy = _mm256_mullo_epi32(rounded8(_mm256_mul_ps(k, _mm256_set1_ps(ty))), sign);
    __m256i nx = _mm256_add_epi32(_mm256_set1_epi32(x), ox), ny = _mm256_add_epi32(_mm256_set1_epi32(y), oy);
    __m256i minus = _mm256_set1_epi32(-1);
    __m256i inside = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(nx, minus), _mm256_cmpgt_epi32(ny, minus)),
                                      _mm256_and_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(w), nx),
                                                       _mm256_cmpgt_epi32(_mm256_set1_epi32(h), ny)));
    __m256i j = _mm256_add_epi32(_mm256_mullo_epi32(ny, _mm256_set1_epi32(w)), nx);
    j = _mm256_and_si256(j, inside);  // outside lanes read pixel 0 and are not counted
    __m256i bytes = _mm256_i32gather_epi32((const int *)isEdge, j, 1);
    __m256i edge = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(bytes, _mm256_set1_epi32(0xFF)),
                                                          _mm256_setzero_si256()), inside);
    __m256 d = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), _mm256_sub_ps(_mm256_i32gather_ps(angles, j, 4), _mm256_set1_ps(angle)));
    __m256 wide = _mm256_cmp_ps(d, _mm256_set1_ps(90), _CMP_GT_OQ);
    d = _mm256_blendv_ps(d, _mm256_sub_ps(_mm256_set1_ps(180), d), wide);
    __m256 near = _mm256_and_ps(_mm256_cmp_ps(d, _mm256_set1_ps(15), _CMP_LT_OQ), _mm256_castsi256_ps(edge));
    return __builtin_popcount((unsigned)_mm256_movemask_ps(near));
}
#endif

// The votes of the edge pixels of rows [y0, y1), in raster order, each pixel's straightness by
// STRAIGHTNESS (straightness, or straightness8 in the AVX2 copy).
#define VOTE_ROWS(STRAIGHTNESS)                                                                        \
    for (int y = y0; y < y1; y++) {                                                                    \
        const uint8_t *row = isEdge + (long)y * w;                                                     \
        for (int x = (int)cs_next_byte(row, 1, w - 1, 0); x < w - 1; x = (int)cs_next_byte(row, x + 1, w - 1, 0)) { \
            long i = (long)y * w + x;                                                                  \
            float angle = angles[i];                                                                   \
            int straight = STRAIGHTNESS(x, y, angle, w, h, isEdge, angles);                            \
            float ratio = mag[i] / strong;                                                             \
            float weight = (ratio < 1 ? ratio : 1) * ((float)straight / 8);                            \
            if (!(weight > 0)) continue;                                                               \
            long t0 = rounded(angle) % theta_bins;                                                              \
            for (int dt = -vote_spread; dt <= vote_spread; dt++) {                                     \
                long t = t0 + dt;                                                                      \
                if (t < 0) t += theta_bins; else if (t >= theta_bins) t -= theta_bins;                  \
                float rho = (float)x * cosT[t] + (float)y * sinT[t];                                   \
                long r = rounded(rho) + diag;                                                          \
                if (r < 0 || r >= rhoBins) continue;                                                   \
                cells[r * theta_bins + t] += weight * shares[dt + vote_spread];                        \
            }                                                                                          \
        }                                                                                              \
    }

// Each pixel votes for its own direction and three degrees either side, over 180 degrees.
enum { vote_spread = 3, theta_bins = 180 };

static void vote_rows(const float *mag, const uint8_t *isEdge, const float *angles, int w, int h, int y0, int y1,
                      float strong, const float *cosT, const float *sinT, int diag, int rhoBins, const float *shares,
                      float *cells) {
    VOTE_ROWS(straightness)
}

#if CS_AVX2
__attribute__((target("avx2"))) static void vote_rows_avx2(const float *mag, const uint8_t *isEdge, const float *angles,
                                                           int w, int h, int y0, int y1, float strong, const float *cosT,
                                                           const float *sinT, int diag, int rhoBins, const float *shares,
                                                           float *cells) {
    VOTE_ROWS(straightness8)
}
#endif

int cs_hough_vote(const float *mag, const uint8_t *isEdge, const float *angles, int w, int h, float strong,
                  const float *cosT, const float *sinT, int diag, int rhoBins, float *cells, int vector) {
    float shares[2 * vote_spread + 1];
    for (int dt = -vote_spread; dt <= vote_spread; dt++) shares[dt + vote_spread] = 1 - (float)abs(dt) / (float)(vote_spread + 1);
    // Rows whose neighbours (up to four rows down) end more than four bytes before the plane's end.
    int lastSafe = h - 5 > 1 ? h - 5 : 1;
#if CS_AVX2
    if (cs_avx2(vector)) {
        vote_rows_avx2(mag, isEdge, angles, w, h, 1, lastSafe, strong, cosT, sinT, diag, rhoBins, shares, cells);
        vote_rows(mag, isEdge, angles, w, h, lastSafe, h - 1, strong, cosT, sinT, diag, rhoBins, shares, cells);
        return 1;
    }
#endif
    (void)vector;
    vote_rows(mag, isEdge, angles, w, h, 1, h - 1, strong, cosT, sinT, diag, rhoBins, shares, cells);
    return 0;
}

long cs_rounded(float x) { return rounded(x); }

// HoughLines.Accumulator.smooth: a 3 x 3 binomial kernel over (rho, theta), theta wrapping
// around, rows 0 and rhoBins - 1 left as they are. Written once, compiled for any processor and
// for AVX2; each cell's sum in the Swift definition's order.

KERNEL float smoothed_cell(const float *above, const float *here, const float *below, int t, int tl, int tr) {
    float s = 4 * here[t];
    s += 2 * (above[t] + below[t] + here[tl] + here[tr]);
    s += above[tl] + above[tr] + below[tl] + below[tr];
    return s / 16;
}

KERNEL void accumulator_row(const float *restrict above, const float *restrict here, const float *restrict below,
                            float *restrict out, int n) {
    out[0] = smoothed_cell(above, here, below, 0, n - 1, 1);
    for (int t = 1; t < n - 1; t++) out[t] = smoothed_cell(above, here, below, t, t - 1, t + 1);
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
