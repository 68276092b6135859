#include "avx2.h"
#include "cdetectionkernels.h"

#pragma STDC FP_CONTRACT OFF

#if CS_AVX2
// Bilinear samples at four points inside the image (QuadRefiner.sample8's arithmetic): the integer
// parts by floor (what adding and taking away 2^52 gives there), each row's two pixels by one
// gather of 32 bits starting at the left one.
__attribute__((target("avx2")))
static inline __m256d sample4(const uint8_t *p, int width, __m256d x, __m256d y) {
    __m256d x0 = _mm256_floor_pd(x), y0 = _mm256_floor_pd(y);
    __m128i index = _mm_add_epi32(_mm_mullo_epi32(_mm256_cvttpd_epi32(y0), _mm_set1_epi32(width)), _mm256_cvttpd_epi32(x0));
    __m128i byte = _mm_set1_epi32(0xFF);
    __m128i upper = _mm_i32gather_epi32((const int *)(const void *)p, index, 1);
    __m128i lower = _mm_i32gather_epi32((const int *)(const void *)(p + width), index, 1);
    __m256d p00 = _mm256_cvtepi32_pd(_mm_and_si128(upper, byte)), p10 = _mm256_cvtepi32_pd(_mm_and_si128(_mm_srli_epi32(upper, 8), byte));
    __m256d p01 = _mm256_cvtepi32_pd(_mm_and_si128(lower, byte)), p11 = _mm256_cvtepi32_pd(_mm_and_si128(_mm_srli_epi32(lower, 8), byte));
    __m256d one = _mm256_set1_pd(1.0);
    __m256d ax = _mm256_sub_pd(x, x0), ay = _mm256_sub_pd(y, y0);
    __m256d bx = _mm256_sub_pd(one, ax), by = _mm256_sub_pd(one, ay);
    __m256d top = _mm256_add_pd(_mm256_mul_pd(p00, bx), _mm256_mul_pd(p10, ax));
    __m256d bottom = _mm256_add_pd(_mm256_mul_pd(p01, bx), _mm256_mul_pd(p11, ax));
    return _mm256_add_pd(_mm256_mul_pd(top, by), _mm256_mul_pd(bottom, ay));
}

__attribute__((target("avx2")))
static void band_means_avx2(const uint8_t *p, int width, const double *line, int samples, double *near, double *far) {
    double cx = line[0], cy = line[1], dx = line[2], dy = line[3], nx = line[4], ny = line[5], half = line[6];
    __m256d twiceHalf = _mm256_set1_pd(2 * half), last = _mm256_set1_pd((double)(samples - 1));
    __m256d minusHalf = _mm256_set1_pd(-half), three = _mm256_set1_pd(3.0);
    static const double depths[3] = {1.0, 2.5, 4.0};
    for (int block = 0; block < samples; block += 4) {
        __m256d k = _mm256_add_pd(_mm256_setr_pd(0, 1, 2, 3), _mm256_set1_pd((double)block));
        __m256d s = _mm256_add_pd(minusHalf, _mm256_div_pd(_mm256_mul_pd(twiceHalf, k), last));
        __m256d px = _mm256_add_pd(_mm256_set1_pd(cx), _mm256_mul_pd(s, _mm256_set1_pd(dx)));
        __m256d py = _mm256_add_pd(_mm256_set1_pd(cy), _mm256_mul_pd(s, _mm256_set1_pd(dy)));
        for (int side = 0; side < 2; side++) {
            double sign = side == 0 ? -1.0 : 1.0;
            __m256d sum = _mm256_setzero_pd();
            for (int d = 0; d < 3; d++) {
                double ox = sign * depths[d] * nx, oy = sign * depths[d] * ny;
                __m256d v = sample4(p, width, _mm256_add_pd(px, _mm256_set1_pd(ox)), _mm256_add_pd(py, _mm256_set1_pd(oy)));
                sum = d == 0 ? v : _mm256_add_pd(sum, v);
            }
            _mm256_storeu_pd((side == 0 ? near : far) + block, _mm256_div_pd(sum, three));
        }
    }
}
#endif

int cs_band_means(const uint8_t *pixels, int width, const double *line, int samples, double *near, double *far) {
#if CS_AVX2
    if (samples % 4 == 0 && cs_avx2(1)) {
        band_means_avx2(pixels, width, line, samples, near, far);
        return 1;
    }
#endif
    (void)pixels; (void)width; (void)line; (void)near; (void)far;
    return 0;
}
