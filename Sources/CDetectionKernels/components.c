#include "cdetectionkernels.h"

// RunComponents in C: the runs of set bytes of each row, joined (union-find) to the runs they
// touch in the row above, components numbered in the order of their first run.

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

// Bit x of the result is set when row[x] is nonzero, for x < count (at most 64).
static inline uint64_t set_bits(const uint8_t *row, long count) {
    uint64_t bits = 0;
    long x = 0;
#if defined(__x86_64__)
    // SSE2, which every x86-64 processor has: sixteen bytes against zero at a time.
    const __m128i zero = _mm_setzero_si128();
    for (; x + 16 <= count; x += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(row + x));
        uint64_t zeros = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero));
        bits |= (~zeros & 0xFFFFull) << x;
    }
#endif
    for (; x < count; x++) bits |= (uint64_t)(row[x] != 0) << x;
    return bits;
}

// The runs of set bytes of a row come from their bits, 64 pixels at a time: a run starts at a
// set bit after a clear one (or at the row's start) and ends at a clear bit after a set one (or
// at the row's end), so starts and ends alternate.
static inline uint64_t run_starts(uint64_t bits, uint64_t carry) { return bits & ~((bits << 1) | carry); }

static inline long count_row_runs(const uint8_t *row, long w) {
    long count = 0;
    uint64_t carry = 0;
    for (long base = 0; base < w; base += 64) {
        long n = w - base < 64 ? w - base : 64;
        uint64_t bits = set_bits(row + base, n);
        count += __builtin_popcountll(run_starts(bits, carry));
        carry = (bits >> (n - 1)) & 1;
    }
    return count;
}

// Writes the runs of row y into `out` in order; returns how many.
static inline long row_runs(const uint8_t *row, long w, int32_t y, cs_run *out) {
    long count = 0, open = 0;
    uint64_t carry = 0;
    for (long base = 0; base < w; base += 64) {
        long n = w - base < 64 ? w - base : 64;
        uint64_t bits = set_bits(row + base, n);
        uint64_t before = (bits << 1) | carry;
        uint64_t events = (bits & ~before) | (~bits & before);
        if (n < 64) events &= (1ull << n) - 1;
        while (events) {
            int at = __builtin_ctzll(events);
            if ((bits >> at) & 1) open = base + at;
            else out[count++] = (cs_run){y, (int32_t)open, (int32_t)(base + at)};
            events &= events - 1;
        }
        carry = (bits >> (n - 1)) & 1;
    }
    if (carry) out[count++] = (cs_run){y, (int32_t)open, (int32_t)w};
    return count;
}

long cs_count_runs(const uint8_t *mask, int w, int h) {
    long count = 0;
    for (int y = 0; y < h; y++) count += count_row_runs(mask + (long)y * w, w);
    return count;
}

static inline int32_t find_root(int32_t *parent, int32_t i) {
    int32_t root = i;
    while (parent[root] != root) root = parent[root];
    while (parent[i] != root) {
        int32_t next = parent[i];
        parent[i] = root;
        i = next;
    }
    return root;
}

// The earlier run stays the root, so a root is always its component's first run.
static inline void join(int32_t *parent, int32_t a, int32_t b) {
    int32_t ra = find_root(parent, a), rb = find_root(parent, b);
    if (ra == rb) return;
    if (ra < rb) parent[rb] = ra; else parent[ra] = rb;
}

long cs_run_components(const uint8_t *mask, int w, int h, cs_run *runs, int32_t *componentOfRun, int32_t *parent,
                       cs_component *components) {
    long count = 0, previous = 0, previousEnd = 0;  // the runs of the row above: [previous, previousEnd)
    for (int y = 0; y < h; y++) {
        const uint8_t *row = mask + (long)y * w;
        long first = count;
        count += row_runs(row, w, y, runs + count);
        for (long i = first; i < count; i++) parent[i] = (int32_t)i;
        // Join each new run with the runs above that overlap it (both lists run left to right).
        long j = previous;
        for (long i = first; i < count; i++) {
            while (j < previousEnd && runs[j].x1 <= runs[i].x0) j++;
            for (long k = j; k < previousEnd && runs[k].x0 < runs[i].x1; k++) join(parent, (int32_t)i, (int32_t)k);
        }
        previous = first;
        previousEnd = count;
    }
    // A run whose root is itself starts a new component; the others take their root's.
    long n = 0;
    for (long i = 0; i < count; i++) {
        int32_t root = find_root(parent, (int32_t)i);
        int32_t k;
        if (root == i) {
            k = (int32_t)n++;
            components[k] = (cs_component){0, runs[i].x0, runs[i].y, runs[i].x1 - 1, runs[i].y};
        } else {
            k = componentOfRun[root];
        }
        componentOfRun[i] = k;
        cs_component *c = &components[k];
        c->area += runs[i].x1 - runs[i].x0;
        if (runs[i].x0 < c->minX) c->minX = runs[i].x0;
        if (runs[i].x1 - 1 > c->maxX) c->maxX = runs[i].x1 - 1;
        if (runs[i].y > c->maxY) c->maxY = runs[i].y;
    }
    return n;
}
