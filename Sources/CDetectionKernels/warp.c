#include "avx2.h"
#include "cdetectionkernels.h"

#if CS_AVX2

// Two neighbouring pixels of a row at eight points: one gather of 32 bits starting at each point,
// its lowest byte the pixel and the next byte its right-hand neighbour. A load would reach past
// the image's end only for a point among its last three bytes; `pairs` takes those one by one.
__attribute__((target("avx2")))
static inline void pairs(const uint8_t *src, int count, __m256i index, __m256 *left, __m256 *right) {
    if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(index, _mm256_set1_epi32(count - 4)))) != 0) {
        int lanes[8];
        _mm256_storeu_si256((__m256i *)lanes, index);
        *left = _mm256_setr_ps(src[lanes[0]], src[lanes[1]], src[lanes[2]], src[lanes[3]],
                               src[lanes[4]], src[lanes[5]], src[lanes[6]], src[lanes[7]]);
        int next[8];
        for (int l = 0; l < 8; l++) next[l] = lanes[l] + 1 < count ? src[lanes[l] + 1] : 0;
        *right = _mm256_setr_ps(next[0], next[1], next[2], next[3], next[4], next[5], next[6], next[7]);
        return;
    }
    __m256i words = _mm256_i32gather_epi32((const int *)(const void *)src, index, 1);
    __m256i byte = _mm256_set1_epi32(0xFF);
    *left = _mm256_cvtepi32_ps(_mm256_and_si256(words, byte));
    *right = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(words, 8), byte));
}

// Rectifier.Sampler.gray8: clamp, integer parts by adding and taking away 2^23, bilinear blend.
// The right-hand neighbour is the pixel itself at the last column (x1 = x0): there the byte after
// it (the next row's first) is replaced by the pixel, so every value is the one-point sampler's.
// The row below is the row itself at the last row, as in the sampler.
__attribute__((target("avx2")))
static inline __m256 gray8(const uint8_t *src, int width, int height, __m256 x, __m256 y) {
    __m256 zero = _mm256_setzero_ps();
    __m256 maxX = _mm256_set1_ps((float)(width - 1)), maxY = _mm256_set1_ps((float)(height - 1));
    // "Not greater or equal", true for NaN too: a non-finite homography gives NaN coordinates,
    // which an ordered "less than" kept (and cvtt made INT_MIN: a gather ~2 GiB before the image).
    __m256 fx = _mm256_blendv_ps(x, zero, _mm256_cmp_ps(x, zero, _CMP_NGE_UQ));
    fx = _mm256_blendv_ps(fx, maxX, _mm256_cmp_ps(fx, maxX, _CMP_GT_OQ));
    __m256 fy = _mm256_blendv_ps(y, zero, _mm256_cmp_ps(y, zero, _CMP_NGE_UQ));
    fy = _mm256_blendv_ps(fy, maxY, _mm256_cmp_ps(fy, maxY, _CMP_GT_OQ));
    __m256 shift = _mm256_set1_ps(8388608.0f), one = _mm256_set1_ps(1.0f);
    __m256 x0 = _mm256_sub_ps(_mm256_add_ps(fx, shift), shift);
    x0 = _mm256_blendv_ps(x0, _mm256_sub_ps(x0, one), _mm256_cmp_ps(x0, fx, _CMP_GT_OQ));
    __m256 y0 = _mm256_sub_ps(_mm256_add_ps(fy, shift), shift);
    y0 = _mm256_blendv_ps(y0, _mm256_sub_ps(y0, one), _mm256_cmp_ps(y0, fy, _CMP_GT_OQ));
    __m256i xi = _mm256_cvttps_epi32(x0), yi = _mm256_cvttps_epi32(y0);
    __m256i y1 = _mm256_min_epi32(_mm256_add_epi32(yi, _mm256_set1_epi32(1)), _mm256_set1_epi32(height - 1));
    __m256i w = _mm256_set1_epi32(width);
    __m256i r0 = _mm256_mullo_epi32(yi, w), r1 = _mm256_mullo_epi32(y1, w);
    int count = width * height;
    __m256 p00, p10, p01, p11;
    pairs(src, count, _mm256_add_epi32(r0, xi), &p00, &p10);
    pairs(src, count, _mm256_add_epi32(r1, xi), &p01, &p11);
    __m256 lastColumn = _mm256_castsi256_ps(_mm256_cmpeq_epi32(xi, _mm256_set1_epi32(width - 1)));
    p10 = _mm256_blendv_ps(p10, p00, lastColumn);
    p11 = _mm256_blendv_ps(p11, p01, lastColumn);
    __m256 ax = _mm256_sub_ps(fx, x0), ay = _mm256_sub_ps(fy, y0);
    __m256 top = _mm256_add_ps(p00, _mm256_mul_ps(_mm256_sub_ps(p10, p00), ax));
    __m256 bottom = _mm256_add_ps(p01, _mm256_mul_ps(_mm256_sub_ps(p11, p01), ax));
    return _mm256_add_ps(top, _mm256_mul_ps(_mm256_sub_ps(bottom, top), ay));
}

// Asks for the source pixels of output pixel (x, y) (at the block four on, before they are
// needed: the gathers wait on memory otherwise).
static inline void prefetch_source(const uint8_t *src, int width, int height, const float *m, int x, int y) {
    float dx = (float)x, dy = (float)y;
    float inv = 1 / (m[6] * dx + m[7] * dy + m[8]);
    float sourceX = (m[0] * dx + m[1] * dy + m[2]) * inv, sourceY = (m[3] * dx + m[4] * dy + m[5]) * inv;
    if (sourceX >= 0 && sourceY >= 0 && sourceX < width - 1 && sourceY < height - 1) {
        const uint8_t *p = src + (long)sourceY * width + (long)sourceX;
        __builtin_prefetch(p);
        __builtin_prefetch(p + width);
    }
}

__attribute__((target("avx2")))
static void warp_blocks_avx2(const uint8_t *src, int width, int height, uint8_t *dst, int outW, int outH,
                             const float *m, const float *offsets, int samples, float norm) {
    __m256 m0 = _mm256_set1_ps(m[0]), m2 = _mm256_set1_ps(m[2]), m3 = _mm256_set1_ps(m[3]);
    __m256 m5 = _mm256_set1_ps(m[5]), m6 = _mm256_set1_ps(m[6]), m8 = _mm256_set1_ps(m[8]);
    __m256 laneX = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7), half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
    int lanes = outW / 8 * 8;
    // Strips of rows, each eight columns at a time down the strip: an output column runs along a
    // source row or column (EXIF orientations 5-8 turn the card), and the strip's next rows sample
    // next to the pixels just loaded, while they are still in the first-level cache.
    for (int strip = 0; strip < outH; strip += 16) {
        int stripEnd = strip + 16 < outH ? strip + 16 : outH;
        for (int x = 0; x < lanes; x += 8) {
            for (int y = strip; y < stripEnd; y++) {
                prefetch_source(src, width, height, m, x + 32, y);
                __m256 sum = _mm256_setzero_ps();
                for (int sy = 0; sy < samples; sy++) {
                    float dy = (float)y + offsets[sy];
                    __m256 m1dy = _mm256_set1_ps(m[1] * dy), m4dy = _mm256_set1_ps(m[4] * dy), m7dy = _mm256_set1_ps(m[7] * dy);
                    for (int sx = 0; sx < samples; sx++) {
                        __m256 dx = _mm256_add_ps(_mm256_add_ps(_mm256_set1_ps((float)x), laneX), _mm256_set1_ps(offsets[sx]));
                        __m256 inv = _mm256_div_ps(one, _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(m6, dx), m7dy), m8));
                        __m256 px = _mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(m0, dx), m1dy), m2), inv), half);
                        __m256 py = _mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(m3, dx), m4dy), m5), inv), half);
                        sum = _mm256_add_ps(sum, gray8(src, width, height, px, py));
                    }
                }
                __m256i value = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(sum, _mm256_set1_ps(norm)), half));
                __m128i lo = _mm256_castsi256_si128(value), hi = _mm256_extracti128_si256(value, 1);
                __m128i words = _mm_packus_epi32(lo, hi);
                _mm_storel_epi64((__m128i *)(void *)(dst + (long)y * outW + x), _mm_packus_epi16(words, words));
            }
        }
    }
}

#endif

int cs_warp_gray_blocks(const uint8_t *src, int width, int height, uint8_t *dst, int outW, int outH,
                        const float *m, const float *offsets, int samples, float norm) {
#if CS_AVX2
    if (cs_avx2(1)) {
        warp_blocks_avx2(src, width, height, dst, outW, outH, m, offsets, samples, norm);
        return 1;
    }
#endif
    (void)src; (void)width; (void)height; (void)dst; (void)outW; (void)outH; (void)m; (void)offsets; (void)samples; (void)norm;
    return 0;
}
