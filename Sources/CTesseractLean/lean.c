// See cstesseractlean.h: work libtesseract does that cardscan's readings do not need, left out
// on request, on the requesting thread only.
#define _GNU_SOURCE
#include "cstesseractlean.h"
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <leptonica/allheaders.h>

/// The next definition of `name` after this program's in the lookup order (the library's own),
/// looked up once and kept in `slot`; NULL when there is none.
static void *cs_next(const char *name, _Atomic(void *) *slot, void *self) {
    void *fn = atomic_load_explicit(slot, memory_order_acquire);
    if (fn == NULL) {
        fn = dlsym(RTLD_NEXT, name);
        if (fn == self) fn = NULL;  // never call ourselves
        if (fn != NULL) atomic_store_explicit(slot, fn, memory_order_release);
    }
    return fn;
}

// MARK: 1. Line images

static _Thread_local int cs_lines_uncompressed = 0;
static _Thread_local unsigned long cs_lines_served = 0;
static _Atomic(void *) cs_leptonica_write_mem = NULL;

void cs_tesseract_lines_begin(void) { cs_lines_uncompressed = 1; }
void cs_tesseract_lines_end(void) { cs_lines_uncompressed = 0; }
unsigned long cs_tesseract_lines_served(void) { return cs_lines_served; }

typedef l_ok (*cs_write_mem_fn)(l_uint8 **, size_t *, PIX *, l_int32);

l_ok pixWriteMem(l_uint8 **pdata, size_t *psize, PIX *pix, l_int32 format) {
    if (cs_lines_uncompressed && format == IFF_PNG && pdata != NULL && psize != NULL && pix != NULL
        && pixWriteMemSpix(pdata, psize, pix) == 0) {
        cs_lines_served += 1;
        return 0;
    }
    cs_write_mem_fn leptonica = (cs_write_mem_fn)cs_next("pixWriteMem", &cs_leptonica_write_mem, (void *)pixWriteMem);
    if (leptonica != NULL) return leptonica(pdata, psize, pix, format);
    // Leptonica's symbol cannot be found: the two formats libtesseract asks for.
    switch (format) {
    case IFF_PNG: return pixWriteMemPng(pdata, psize, pix, 0.0f);
    case IFF_PNM: return pixWriteMemPnm(pdata, psize, pix);
    default:
        if (pdata) *pdata = NULL;
        if (psize) *psize = 0;
        return 1;
    }
}

// MARK: 2. The universal ambiguity table

static _Thread_local int cs_ambigs_skip = 0;
static _Thread_local unsigned long cs_ambigs_skipped = 0;
static _Atomic(void *) cs_tesseract_load_universal = NULL;

void cs_tesseract_ambigs_skip_begin(void) { cs_ambigs_skip = 1; }
void cs_tesseract_ambigs_skip_end(void) { cs_ambigs_skip = 0; }
unsigned long cs_tesseract_ambigs_skipped(void) { return cs_ambigs_skipped; }

#define CS_LOAD_UNIVERSAL _ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_
#define CS_STRING(x) CS_STRING2(x)
#define CS_STRING2(x) #x

/// tesseract::UnicharAmbigs::LoadUniversal(const UNICHARSET &encoder_set, UNICHARSET *unicharset),
/// a member function: `self` is its `this`.
void CS_LOAD_UNIVERSAL(void *self, const void *encoderSet, void *unicharset);
typedef void (*cs_load_universal_fn)(void *, const void *, void *);

void CS_LOAD_UNIVERSAL(void *self, const void *encoderSet, void *unicharset) {
    if (cs_ambigs_skip) {
        cs_ambigs_skipped += 1;
        return;
    }
    cs_load_universal_fn tesseract = (cs_load_universal_fn)cs_next(CS_STRING(CS_LOAD_UNIVERSAL), &cs_tesseract_load_universal,
                                                                   (void *)CS_LOAD_UNIVERSAL);
    if (tesseract != NULL) tesseract(self, encoderSet, unicharset);
}
