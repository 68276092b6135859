#include "cresizekernels.h"

// Where a loop may use AVX2: x86-64 with a compiler that takes per-function targets, and there
// only on a processor that has it, asked at run time (__builtin_cpu_supports).
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CS_AVX2 1
#include <immintrin.h>
#else
#define CS_AVX2 0
#endif

#pragma STDC FP_CONTRACT OFF

// One loop for any x86-64 (and other processors): each sum from zero, the rows' weighted values
// added in the rows' order.
static void weighted_rows_plain(const uint8_t *const *rows, const float *weights, int count, float *sums, long from,
                                long length) {
    for (long i = from; i < length; i++) {
        float s = 0;
        for (int t = 0; t < count; t++) s = s + (float)rows[t][i] * weights[t];
        sums[i] = s;
    }
}

#if CS_AVX2
// Eight values at a time, each sum kept in a register across the rows (the same additions in the
// same order as the plain loop, without fused multiply-adds: the same floats).
__attribute__((target("avx2")))
static void weighted_rows_avx2(const uint8_t *const *rows, const float *weights, int count, float *sums, long length) {
    long blocks = length / 8 * 8;
    for (long i = 0; i < blocks; i += 8) {
        __m256 s = _mm256_setzero_ps();
        for (int t = 0; t < count; t++) {
            __m128i bytes = _mm_loadl_epi64((const __m128i *)(const void *)(rows[t] + i));
            __m256 v = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes));
            s = _mm256_add_ps(s, _mm256_mul_ps(v, _mm256_set1_ps(weights[t])));
        }
        _mm256_storeu_ps(sums + i, s);
    }
    weighted_rows_plain(rows, weights, count, sums, blocks, length);
}
#endif

int cs_weighted_rows(const uint8_t *const *rows, const float *weights, int count, float *sums, long length, int vector) {
#if CS_AVX2
    if (vector && __builtin_cpu_supports("avx2")) {
        weighted_rows_avx2(rows, weights, count, sums, length);
        return 1;
    }
#endif
    weighted_rows_plain(rows, weights, count, sums, 0, length);
    return 0;
}

static inline uint8_t to_byte(float v) {
    float f = v + 0.5f;
    f = 255 < f ? 255 : f;
    f = f < 0 ? 0 : f;
    return (uint8_t)f;
}

// Output pixel x of a row, one channel at a time: each channel's sum from zero, its taps added in order.
static inline void resample_pixel(const float *sums, int channels, const long *starts, const long *offsets,
                                  const float *weights, long x, uint8_t *out) {
    for (int k = 0; k < channels; k++) {
        const float *p = sums + starts[x] * channels + k;
        float s = 0;
        for (long t = offsets[x]; t < offsets[x + 1]; t++) {
            s = s + *p * weights[t];
            p += channels;
        }
        out[x * channels + k] = to_byte(s);
    }
}

#if CS_AVX2
// RGB, two output pixels at a time, each in four lanes of one vector (the fourth reads the next
// value and is dropped). The pixel with fewer taps adds the other's extra ones at weight zero:
// every value is a nonnegative finite float, so each adds +0 and its sum stays the same float.
__attribute__((target("avx2")))
static long resample_rgb_pairs_avx2(const float *sums, long length, const long *starts, const long *offsets,
                                    const float *weights, long count, uint8_t *out) {
    long x = 0;
    for (; x + 1 < count; x += 2) {
        long ta = offsets[x + 1] - offsets[x], tb = offsets[x + 2] - offsets[x + 1];
        long n = ta > tb ? ta : tb;
        if ((starts[x] + n) * 3 + 1 > length || (starts[x + 1] + n) * 3 + 1 > length) break;
        const float *pa = sums + starts[x] * 3, *pb = sums + starts[x + 1] * 3;
        const float *wa = weights + offsets[x], *wb = weights + offsets[x + 1];
        __m256 s = _mm256_setzero_ps();
        for (long t = 0; t < n; t++) {
            __m256 v = _mm256_loadu2_m128(pb + 3 * t, pa + 3 * t);
            __m256 w = _mm256_setr_m128(_mm_set1_ps(t < ta ? wa[t] : 0), _mm_set1_ps(t < tb ? wb[t] : 0));
            s = _mm256_add_ps(s, _mm256_mul_ps(v, w));
        }
        s = _mm256_add_ps(s, _mm256_set1_ps(0.5f));
        s = _mm256_min_ps(s, _mm256_set1_ps(255));
        s = _mm256_max_ps(s, _mm256_setzero_ps());
        int bytes[8];
        _mm256_storeu_si256((__m256i *)(void *)bytes, _mm256_cvttps_epi32(s));
        uint8_t *o = out + 3 * x;
        o[0] = (uint8_t)bytes[0]; o[1] = (uint8_t)bytes[1]; o[2] = (uint8_t)bytes[2];
        o[3] = (uint8_t)bytes[4]; o[4] = (uint8_t)bytes[5]; o[5] = (uint8_t)bytes[6];
    }
    return x;
}
#endif

int cs_resample_row(const float *sums, long length, int channels, const long *starts, const long *offsets,
                    const float *weights, long count, uint8_t *out, int vector) {
    long x = 0;
    int used = 0;
#if CS_AVX2
    if (channels == 3 && vector && __builtin_cpu_supports("avx2")) {
        x = resample_rgb_pairs_avx2(sums, length, starts, offsets, weights, count, out);
        used = 1;
    }
#endif
    (void)length;
    for (; x < count; x++) resample_pixel(sums, channels, starts, offsets, weights, x, out);
    return used;
}
