#ifndef CARDSCAN_CDETECTIONKERNELS_H
#define CARDSCAN_CDETECTIONKERNELS_H
#include <stdint.h>
#include <string.h>

/// The gray perspective warp's eight-pixel blocks with AVX2 (each gather loads a pixel and its right-hand
/// neighbour at eight sample points; the blocks go down strips of 16 rows), where the processor has it. Each lane's arithmetic is
/// `Rectifier.warpGray`'s, operation for operation and in the same order, without fused
/// multiply-adds, so the bytes are the same.
///
/// Writes, for every output row y < outH, the pixels x < outW / 8 * 8 (the caller does the rest of
/// each row) and returns 1; returns 0 and writes nothing without AVX2. `m` is the homography
/// (row-major, 9 values), `offsets` the `samples` sub-pixel offsets, `norm` 1 / samples^2.
/// `src` is width x height bytes; the sample coordinates are clamped to it.
int cs_warp_gray_blocks(const uint8_t *src, int width, int height, uint8_t *dst, int outW, int outH,
                        const float *m, const float *offsets, int samples, float norm);

/// The snap's band means (`QuadRefiner.boundaryStrength8`'s, the same doubles): for sample k <
/// `samples` along the line `line` = {centre x, centre y, direction x, y, unit normal x, y, half
/// length}, at s = -half + 2 half k / (samples - 1) from the centre, the mean of the bilinear
/// samples 1, 2.5 and 4 pixels to the normal's minus side into near[k], its plus side into
/// far[k]. Every sample must lie inside the image with a pixel to spare right and below (the
/// caller checks). Returns 1 when done with AVX2 (samples a multiple of 4), 0 when not done.
int cs_band_means(const uint8_t *pixels, int width, const double *line, int samples, double *near, double *far);

/// EdgeMap's planes (the same floats as its Swift definitions; `vector` nonzero uses AVX2 where
/// the processor has it and returns 1, otherwise 0):
/// [1 2 1] smoothing of a width x height plane, `passes` times, both ways, the border pixel
/// repeated; `ring` is scratch of 3 * width floats.
int cs_smooth(float *plane, int width, int height, int passes, float *ring, int vector);
/// Brightness, red-green and yellow-blue of `count` RGB pixels.
int cs_opponent_channels(const uint8_t *rgb, long count, float *luma, float *redGreen, float *yellowBlue, int vector);
/// Per inner pixel the Sobel gradient (/4) and its magnitude (/4) of the first of `count` (1 or 3)
/// channels whose magnitude is greatest; zeros where all are flat. Border pixels are not written.
int cs_strongest_gradients(const float *c0, const float *c1, const float *c2, int count, int width, int height,
                           float *gx, float *gy, float *magnitude, int vector);
/// Adds each value, clamped to 0...1024 and truncated, to its bin of `bins` (1025 of them).
void cs_histogram(const float *values, long count, long *bins);

/// RegionCandidates.halved: each value of the (width / 2) x (height / 2) `out` is the mean
/// ((a + b + c + d) * 0.25, in that order) or, with `maximum` nonzero, the maximum of a 2 x 2 block
/// of `plane`. With `vector` nonzero and AVX2 there, several at a time (returns 1), else 0.
int cs_halve(const float *plane, int width, int height, float *out, int maximum, int vector);
/// mask[i] = values[i] > t (`above` nonzero) or values[i] < t, as 1 or 0; returns as cs_halve.
int cs_threshold(const float *values, long count, float t, int above, uint8_t *mask, int vector);
/// The least and the greatest of `count` (at least one) values, none NaN (eight at a time with
/// AVX2 when `vector` is nonzero and the processor has it).
void cs_range(const float *values, long count, float *lo, float *hi, int vector);
/// Adds each value to bin (long)((value - lo) * scale) of `bins` (binCount of them, at most 1024),
/// clamped to the bins (RegionCandidates.quantiles: lo the least value, scale (binCount - 1) /
/// range, so none falls outside).
void cs_scaled_histogram(const float *values, long count, float lo, float scale, long *bins, long binCount);

/// The value sorted()[k] of `count` values (0 <= k < count, no NaN) into *result, found by
/// counting for each value how many are smaller (count * count comparisons: for a few dozen
/// values). With `vector` nonzero and AVX2 there, eight comparisons at a time (returns 1), else 0.
int cs_kth_smallest(const float *values, int count, int k, float *result, int vector);

/// HoughLines.edgePixels: inner pixels above `threshold` that are local maxima across their
/// gradient get isEdge 1 and their gradient direction in degrees (0..<180); others are untouched.
/// With `vector` nonzero and AVX2 there, the tests eight pixels at a time (returns 1), else 0.
int cs_edge_pixels(const float *mag, const float *gx, const float *gy, int w, int h, float threshold,
                   uint8_t *isEdge, float *angles, int vector);
/// HoughLines.vote: each edge pixel (raster order) adds its strength times its straightness to the
/// 180-degree-wide `cells` around its direction, the same floats in the same order. With `vector`
/// nonzero and AVX2 there, each pixel's eight neighbours along its edge are looked at together
/// (returns 1), else one at a time (returns 0).
int cs_hough_vote(const float *mag, const uint8_t *isEdge, const float *angles, int w, int h, float strong,
                  const float *cosT, const float *sinT, int diag, int rhoBins, float *cells, int vector);

/// HoughLines.Accumulator.smooth in place: cells (rhoBins rows of thetaBins) inside the first and
/// last rows become (4 c + 2 (up + down + left + right) + the four diagonals) / 16 of the cells as
/// they were, theta wrapping around, the same floats in the same order; `scratch` holds 2 *
/// thetaBins floats. With `vector` nonzero and AVX2 there, eight cells at a time (returns 1);
/// otherwise one at a time (returns 0; nothing done with fewer than 3 rows or columns).
int cs_smooth_accumulator(float *cells, int rhoBins, int thetaBins, float *scratch, int vector);

/// A run of set bytes in row y: x0 ..< x1.
typedef struct { int32_t y, x0, x1; } cs_run;
/// A connected component: its pixel count and bounding box (inclusive).
typedef struct { long area; int32_t minX, minY, maxX, maxY; } cs_component;

/// How many runs of set (nonzero) bytes the rows of a w x h mask have.
long cs_count_runs(const uint8_t *mask, int w, int h);
/// RunComponents: the runs of the mask in raster order into `runs` (cs_count_runs of them), the
/// 4-way connected components they make into `components` (at most as many as runs), numbered
/// in the order of their first pixel in raster order, and each run's component's number into
/// `componentOfRun`; `parent` is scratch, one per run. Returns the number of components.
long cs_run_components(const uint8_t *mask, int w, int h, cs_run *runs, int32_t *componentOfRun, int32_t *parent,
                       cs_component *components);

/// The votes' rounding: x to the nearest whole number, halves away from zero (|x| < 2^23).
long cs_rounded(float x);

/// The first x in [from, end) of a row of bytes whose byte is zero (`set` nonzero: the set bytes
/// are passed over) or nonzero (`set` zero); `end` when there is none. Eight bytes at a time while
/// the row has eight more: their word (little-endian, the lowest byte the leftmost), the first
/// wanted byte by trailing zero bits; a zero byte's high bit survives (v - 1 per byte) & ~v, and a
/// borrow only runs upwards from a zero byte, so the lowest marked byte is the first zero.
static inline long cs_next_byte(const uint8_t *row, long from, long end, int set) {
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    long x = from;
    while (x + 8 <= end) {
        uint64_t v;
        memcpy(&v, row + x, 8);
        uint64_t marks = set ? (v - ones) & ~v & highs : v;
        if (marks != 0) return x + __builtin_ctzll(marks) / 8;
        x += 8;
    }
    while (x < end && (row[x] != 0) == (set != 0)) x++;
    return x;
}

#endif
