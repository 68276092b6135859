// Where a kernel may use AVX2: x86-64 with a compiler that takes per-function targets
// (CS_AVX2 1), and there only on a processor that has it, asked at run time (cs_avx2).
// Elsewhere CS_AVX2 is 0 and every kernel takes its plain path.
#ifndef CARDSCAN_CDETECTIONKERNELS_AVX2_H
#define CARDSCAN_CDETECTIONKERNELS_AVX2_H

// A loop body written once and inlined into both the plain and the AVX2 function that call it, so
// the compiler makes each from the same source.
#define KERNEL static inline __attribute__((always_inline))

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CS_AVX2 1
#include <immintrin.h>
/// True when `wanted` (the caller's choice) is nonzero and this processor has AVX2.
static inline int cs_avx2(int wanted) { return wanted && __builtin_cpu_supports("avx2"); }
#else
#define CS_AVX2 0
#endif

#endif
