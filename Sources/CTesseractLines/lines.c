// See cstesseractlines.h: libtesseract's in-memory line images, kept uncompressed on request.
#define _GNU_SOURCE
#include "cstesseractlines.h"
#include <dlfcn.h>
#include <stdatomic.h>
#include <leptonica/allheaders.h>

typedef l_ok (*cs_write_mem_fn)(l_uint8 **, size_t *, PIX *, l_int32);

static _Thread_local int cs_uncompressed = 0;
static _Thread_local unsigned long cs_served = 0;
static _Atomic(cs_write_mem_fn) cs_leptonica_write_mem = NULL;

void cs_tesseract_lines_begin(void) { cs_uncompressed = 1; }
void cs_tesseract_lines_end(void) { cs_uncompressed = 0; }
unsigned long cs_tesseract_lines_served(void) { return cs_served; }

/// Leptonica's own pixWriteMem: the next definition after this one in the lookup order.
static cs_write_mem_fn cs_leptonica(void) {
    cs_write_mem_fn fn = atomic_load_explicit(&cs_leptonica_write_mem, memory_order_acquire);
    if (fn == NULL) {
        fn = (cs_write_mem_fn)dlsym(RTLD_NEXT, "pixWriteMem");
        if (fn == pixWriteMem) fn = NULL;  // never call ourselves
        if (fn != NULL) atomic_store_explicit(&cs_leptonica_write_mem, fn, memory_order_release);
    }
    return fn;
}

l_ok pixWriteMem(l_uint8 **pdata, size_t *psize, PIX *pix, l_int32 format) {
    if (cs_uncompressed && format == IFF_PNG && pdata != NULL && psize != NULL && pix != NULL) {
        l_ok rc = pixWriteMemSpix(pdata, psize, pix);
        if (rc == 0) {
            cs_served += 1;
            return 0;
        }
    }
    cs_write_mem_fn leptonica = cs_leptonica();
    if (leptonica != NULL) return leptonica(pdata, psize, pix, format);
    // Leptonica's symbol cannot be found (a static build): the formats libtesseract asks for.
    switch (format) {
    case IFF_PNG: return pixWriteMemPng(pdata, psize, pix, 0.0f);
    case IFF_PNM: return pixWriteMemPnm(pdata, psize, pix);
    default:
        if (pdata) *pdata = NULL;
        if (psize) *psize = 0;
        return 1;
    }
}
