#ifndef CARDSCAN_CTESSERACTLEAN_H
#define CARDSCAN_CTESSERACTLEAN_H

/// Two pieces of work libtesseract does, as Debian builds it, that cardscan's readings do not
/// need, left out on request, on the requesting thread only, without changing a reading:
///
/// 1. Line images. Built without TESSERACT_IMAGEDATA_AS_PIX, Tesseract keeps the image of every
///    text line it reads as a PNG in memory: it compresses each line with zlib and decompresses
///    it a moment later, about a tenth of a reading. Inside a `cs_tesseract_lines_begin()` /
///    `cs_tesseract_lines_end()` window they are kept in Leptonica's own uncompressed serialised
///    form instead, which `pixReadMem` reads back pixel for pixel.
/// 2. The universal ambiguity table. Every engine's initialisation parses a built-in table of
///    character confusions (most of the 55-65 ms an engine takes to make) that only Tesseract's
///    legacy recogniser consults. Inside a `cs_tesseract_ambigs_skip_begin()` /
///    `cs_tesseract_ambigs_skip_end()` window (which the caller opens only around the
///    initialisation of an engine whose language data has no legacy recogniser) it is not built.
///
/// Both work by defining, in the program, a function libtesseract calls through its PLT
/// (`pixWriteMem`, and `tesseract::UnicharAmbigs::LoadUniversal`), which the dynamic linker binds
/// before the libraries' own definitions (ELF symbol interposition). Outside the windows, and on
/// every other thread, each call goes on to the library's own function unchanged; a library built
/// differently (other symbols) simply never calls these.

/// From now on, PNG images this thread asks Leptonica for in memory are kept uncompressed.
void cs_tesseract_lines_begin(void);
/// Back to Leptonica's PNG on this thread.
void cs_tesseract_lines_end(void);
/// How many line images this thread has kept uncompressed (for tests).
unsigned long cs_tesseract_lines_served(void);

/// The engines this thread initialises from now on skip the universal ambiguity table.
void cs_tesseract_ambigs_skip_begin(void);
/// Back to Tesseract's own initialisation on this thread.
void cs_tesseract_ambigs_skip_end(void);
/// How many times this thread has skipped the table (for tests).
unsigned long cs_tesseract_ambigs_skipped(void);

#endif
