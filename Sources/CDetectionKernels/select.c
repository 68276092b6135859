#include "avx2.h"
#include "cdetectionkernels.h"

// The k-th smallest of a few values by counting: the value v[i] for which fewer than k + 1 values
// are smaller and more than k are smaller or equal is sorted()[k]. No branch depends on the
// values' order, which a partition mispredicts about half the time.

static float kth_plain(const float *v, int n, int k) {
    for (int i = 0; i < n; i++) {
        int less = 0, notMore = 0;
        for (int j = 0; j < n; j++) {
            less += v[j] < v[i];
            notMore += v[j] <= v[i];
        }
        if (less <= k && k < notMore) return v[i];
    }
    return v[k];  // only with NaNs, which no caller has
}

#if CS_AVX2
__attribute__((target("avx2"))) static float kth_avx2(const float *v, int n, int k) {
    int full = n / 8 * 8, rest = n - full;
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i tailMask = _mm256_cmpgt_epi32(_mm256_set1_epi32(rest), lane);
    __m256 tail = _mm256_maskload_ps(v + full, tailMask);
    for (int i = 0; i < n; i++) {
        __m256 x = _mm256_set1_ps(v[i]);
        int less = 0, notMore = 0;
        for (int j = 0; j < full; j += 8) {
            __m256 y = _mm256_loadu_ps(v + j);
            less += __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(y, x, _CMP_LT_OQ)));
            notMore += __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(y, x, _CMP_LE_OQ)));
        }
        if (rest) {
            unsigned inTail = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(tailMask));
            less += __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(tail, x, _CMP_LT_OQ)) & inTail);
            notMore += __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(tail, x, _CMP_LE_OQ)) & inTail);
        }
        if (less <= k && k < notMore) return v[i];
    }
    return v[k];
}
#endif

int cs_kth_smallest(const float *values, int count, int k, float *result, int vector) {
#if CS_AVX2
    if (cs_avx2(vector)) { *result = kth_avx2(values, count, k); return 1; }
#endif
    (void)vector;
    *result = kth_plain(values, count, k);
    return 0;
}
