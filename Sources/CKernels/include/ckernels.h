#ifndef CARDSCAN_CKERNELS_H
#define CARDSCAN_CKERNELS_H
#include <stdint.h>

/// The gray perspective warp's eight-pixel blocks with AVX2 (its gathers load the four pixels
/// around eight sample points at once), where the processor has it. Each lane's arithmetic is
/// `Rectifier.warpGray`'s, operation for operation and in the same order, without fused
/// multiply-adds, so the bytes are the same.
///
/// Writes, for every output row y < outH, the pixels x < outW / 8 * 8 (the caller does the rest of
/// each row) and returns 1; returns 0 and writes nothing without AVX2. `m` is the homography
/// (row-major, 9 values), `offsets` the `samples` sub-pixel offsets, `norm` 1 / samples^2.
/// `src` is width x height bytes; the sample coordinates are clamped to it.
int cs_warp_gray_blocks(const uint8_t *src, int width, int height, uint8_t *dst, int outW, int outH,
                        const float *m, const float *offsets, int samples, float norm);

#endif
