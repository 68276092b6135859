#ifndef CARDSCAN_CTESSERACTLINES_H
#define CARDSCAN_CTESSERACTLINES_H
#include <stddef.h>

/// Tesseract as Debian builds it (without TESSERACT_IMAGEDATA_AS_PIX) keeps the image of every
/// text line it reads as a PNG in memory: it compresses each line with zlib and decompresses it
/// again a moment later, about a tenth of a reading. This shim lets the calling thread ask for
/// those images to be kept uncompressed instead (Leptonica's own serialised form, which
/// `pixReadMem` reads back pixel for pixel) while it is inside a recognition.
///
/// It works by defining `pixWriteMem` in the program, which the dynamic linker binds
/// libtesseract's calls to before Leptonica's own (ELF symbol interposition). Outside a
/// `cs_tesseract_lines_begin()` / `cs_tesseract_lines_end()` window, on any other thread, and for
/// every format but PNG, every call goes on to Leptonica's `pixWriteMem` unchanged.

/// From now on, PNG images this thread asks Leptonica for in memory are kept uncompressed.
void cs_tesseract_lines_begin(void);
/// Back to Leptonica's PNG on this thread.
void cs_tesseract_lines_end(void);
/// How many line images this thread has kept uncompressed (for tests).
unsigned long cs_tesseract_lines_served(void);

#endif
