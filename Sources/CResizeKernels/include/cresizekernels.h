#ifndef CARDSCAN_CRESIZEKERNELS_H
#define CARDSCAN_CRESIZEKERNELS_H
#include <stdint.h>

/// The vertical pass of an area-averaging resize: for every i < length, sums[i] is the sum over
/// t < count, in that order and from zero, of rows[t][i] times weights[t] (float multiplies and
/// adds, none fused: the same floats however it is done). With `vector` nonzero and AVX2 there,
/// eight values at a time (returns 1); otherwise one at a time (returns 0).
int cs_weighted_rows(const uint8_t *const *rows, const float *weights, int count, float *sums, long length, int vector);

/// The horizontal pass: output pixel x < count of a row of `channels`-channel sums (`length`
/// floats) is, per channel, the sum from zero over taps t = offsets[x] ..< offsets[x + 1] of the
/// value of input pixel starts[x] + (t - offsets[x]) times weights[t], plus 0.5, clamped to 0...255
/// and truncated to a byte. The same bytes with `vector` nonzero (RGB two pixels at a time with
/// AVX2, returning 1 when used) as without.
int cs_resample_row(const float *sums, long length, int channels, const long *starts, const long *offsets,
                    const float *weights, long count, uint8_t *out, int vector);

#endif
