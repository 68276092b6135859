// libjpeg-turbo behind a setjmp/longjmp error manager: a corrupt file becomes an error code
// and a message, never exit() and never a line on stderr.
#include "cjpegshim.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
    size_t messageLength;
} cs_error_mgr;

static void cs_error_exit(j_common_ptr cinfo) {
    cs_error_mgr *err = (cs_error_mgr *)cinfo->err;
    if (err->message && err->messageLength > 0) {
        char buffer[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, buffer);
        snprintf(err->message, err->messageLength, "%s", buffer);
    }
    longjmp(err->jump, 1);
}

static void cs_emit_message(j_common_ptr cinfo, int level) {
    // Count warnings (level -1) like libjpeg does, but print nothing.
    if (level < 0) cinfo->err->num_warnings++;
}

static void cs_output_message(j_common_ptr cinfo) { (void)cinfo; }

/// The error manager for a decoder or an encoder: errors longjmp back with a message, nothing is printed.
static struct jpeg_error_mgr *cs_error_init(cs_error_mgr *err, char *message, size_t messageLength) {
    struct jpeg_error_mgr *pub = jpeg_std_error(&err->pub);
    err->pub.error_exit = cs_error_exit;
    err->pub.emit_message = cs_emit_message;
    err->pub.output_message = cs_output_message;
    err->message = message;
    err->messageLength = messageLength;
    if (message && messageLength) message[0] = 0;
    return pub;
}

static void cs_setup(struct jpeg_decompress_struct *cinfo, cs_error_mgr *err, char *message,
                     size_t messageLength) {
    cinfo->err = cs_error_init(err, message, messageLength);
}

static int cs_color_class(J_COLOR_SPACE cs) {
    switch (cs) {
    case JCS_GRAYSCALE: return 1;
    case JCS_CMYK:
    case JCS_YCCK: return 4;
    default: return 3;
    }
}

static void cs_configure(struct jpeg_decompress_struct *cinfo, int scaleNum, int gray) {
    cinfo->scale_num = (unsigned)(scaleNum < 1 ? 1 : (scaleNum > 16 ? 16 : scaleNum));
    cinfo->scale_denom = 8;
    cinfo->dct_method = JDCT_ISLOW;
    int cls = cs_color_class(cinfo->jpeg_color_space);
    if (cls == 4) {
        cinfo->out_color_space = JCS_CMYK;   // converted to gray/RGB below
    } else if (gray) {
        cinfo->out_color_space = JCS_GRAYSCALE;
    } else {
        cinfo->out_color_space = JCS_RGB;
    }
}

/// What `body` is given: a decompressor with the header of the data read, and its own context.
typedef int (*cs_decompressor_body)(struct jpeg_decompress_struct *cinfo, void *context);

/// Runs `body` on a decompressor of `data` with its header read, and destroys it after. libjpeg's
/// errors, in the header or in `body`, longjmp back here: CS_JPEG_ERROR with `message` set.
/// Everything libjpeg allocates comes from cinfo's pools and is freed with it on either path.
static int cs_with_decompressor(const unsigned char *data, size_t length, char *message, size_t messageLength,
                                cs_decompressor_body body, void *context) {
    struct jpeg_decompress_struct cinfo;
    cs_error_mgr err;
    memset(&cinfo, 0, sizeof cinfo);
    cs_setup(&cinfo, &err, message, messageLength);
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return CS_JPEG_ERROR;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    int rc = body(&cinfo, context);
    jpeg_destroy_decompress(&cinfo);
    return rc;
}

typedef struct {
    int scaleNum;
    int gray;
    cs_jpeg_info *info;
} cs_info_request;

static int cs_read_info_body(struct jpeg_decompress_struct *cinfo, void *context) {
    cs_info_request *request = context;
    cs_jpeg_info *info = request->info;
    info->width = (int)cinfo->image_width;
    info->height = (int)cinfo->image_height;
    info->components = cinfo->num_components;
    info->colorSpace = cs_color_class(cinfo->jpeg_color_space);
    info->progressive = cinfo->progressive_mode ? 1 : 0;
    cs_configure(cinfo, request->scaleNum, request->gray);
    jpeg_calc_output_dimensions(cinfo);
    info->outputWidth = (int)cinfo->output_width;
    info->outputHeight = (int)cinfo->output_height;
    info->outputChannels = request->gray ? 1 : 3;
    return CS_JPEG_OK;
}

int cs_jpeg_read_info(const unsigned char *data, size_t length, int scaleNum, int gray, cs_jpeg_info *info,
                      char *message, size_t messageLength) {
    cs_info_request request = {scaleNum, gray, info};
    return cs_with_decompressor(data, length, message, messageLength, cs_read_info_body, &request);
}

/// Where decoded rows go: into one buffer holding the whole image (`out` non-NULL, row y at
/// `out + y * rowBytes`), or through one reused row buffer to a callback.
typedef struct {
    unsigned char *out;
    size_t outLength;
    unsigned char *row;
    size_t rowLength;
    unsigned char *gray;
    size_t grayLength;
    cs_jpeg_row_fn onRow;
    void *context;
    long long grayNanoseconds;
} cs_row_sink;

static long long cs_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/// Gray from RGB, as PixelImage.grayscale() makes it: (77 R + 150 G + 29 B) / 256.
static inline unsigned char cs_gray(unsigned r, unsigned g, unsigned b) {
    return (unsigned char)((r * 77 + g * 150 + b * 29) >> 8);
}

/// One RGB row to gray: one loop compiled twice, for any x86-64 and for one with AVX2 (whose byte
/// shuffles undo the R, G, B interleave four times faster), chosen at run time. Integer
/// arithmetic: the same bytes either way.
static inline __attribute__((always_inline)) void cs_gray_row_loop(const unsigned char *rgb, unsigned char *gray,
                                                                   size_t width) {
    for (size_t x = 0; x < width; x++) gray[x] = cs_gray(rgb[3 * x], rgb[3 * x + 1], rgb[3 * x + 2]);
}

static void cs_gray_row_plain(const unsigned char *rgb, unsigned char *gray, size_t width) {
    cs_gray_row_loop(rgb, gray, width);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2")))
static void cs_gray_row_avx2(const unsigned char *rgb, unsigned char *gray, size_t width) {
    cs_gray_row_loop(rgb, gray, width);
}

static void cs_gray_row(const unsigned char *rgb, unsigned char *gray, size_t width) {
    if (__builtin_cpu_supports("avx2")) cs_gray_row_avx2(rgb, gray, width); else cs_gray_row_plain(rgb, gray, width);
}
#else
static void cs_gray_row(const unsigned char *rgb, unsigned char *gray, size_t width) {
    cs_gray_row_plain(rgb, gray, width);
}
#endif

/// The gray rows of `rgb` as both ways make them (for the tests): 1 when AVX2 is there and was compared.
int cs_gray_rows_agree(const unsigned char *rgb, unsigned char *plain, unsigned char *chosen, size_t width) {
    cs_gray_row_plain(rgb, plain, width);
    cs_gray_row(rgb, chosen, width);
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}

/// True when the sink's buffers have the sizes the decode at this scale writes.
static int cs_sink_fits(const cs_row_sink *sinkp, const struct jpeg_decompress_struct *cinfo, size_t rowBytes, int gray) {
    if (sinkp->out) return sinkp->outLength == rowBytes * cinfo->output_height;
    return sinkp->row != NULL && sinkp->onRow != NULL && sinkp->rowLength == rowBytes && !gray && sinkp->gray != NULL
           && sinkp->grayLength == (size_t)cinfo->output_width * cinfo->output_height;
}

/// One CMYK row as RGB (or gray). Adobe stores inverted CMYK: there the sample is already (255 - ink).
static void cs_cmyk_row(const JSAMPLE *cmykRow, unsigned char *row, JDIMENSION width, int adobeInverted, int gray) {
    for (JDIMENSION x = 0; x < width; x++) {
        int c = cmykRow[4 * x], m = cmykRow[4 * x + 1], y = cmykRow[4 * x + 2], k = cmykRow[4 * x + 3];
        if (!adobeInverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        int r = c * k / 255, g = m * k / 255, b = y * k / 255;
        if (gray) {
            row[x] = cs_gray((unsigned)r, (unsigned)g, (unsigned)b);
        } else {
            row[3 * x] = (unsigned char)r;
            row[3 * x + 1] = (unsigned char)g;
            row[3 * x + 2] = (unsigned char)b;
        }
    }
}

/// Every row of the started decode into the sink: into `out`, or row by row through `row`, each
/// also made gray into `gray` (timed) and handed to `onRow`.
static void cs_read_rows(struct jpeg_decompress_struct *cinfo, cs_row_sink *sinkp, size_t rowBytes, int gray,
                         int *rowsDecoded) {
    int cmyk = cinfo->out_color_space == JCS_CMYK;
    // A row buffer from libjpeg's own pool: released by jpeg_destroy_decompress, even on longjmp.
    JSAMPLE *cmykRow = cmyk ? (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, (size_t)cinfo->output_width * 4)
                            : NULL;
    while (cinfo->output_scanline < cinfo->output_height) {
        int rowIndex = (int)cinfo->output_scanline;
        unsigned char *row = sinkp->out ? sinkp->out + rowBytes * cinfo->output_scanline : sinkp->row;
        JSAMPROW rows[1] = {cmyk ? cmykRow : row};
        jpeg_read_scanlines(cinfo, rows, 1);
        if (cmyk) cs_cmyk_row(cmykRow, row, cinfo->output_width, cinfo->saw_Adobe_marker, gray);
        *rowsDecoded = (int)cinfo->output_scanline;
        if (!sinkp->out) {
            long long start = cs_now_ns();
            cs_gray_row(row, sinkp->gray + (size_t)rowIndex * cinfo->output_width, cinfo->output_width);
            sinkp->grayNanoseconds += cs_now_ns() - start;
            sinkp->onRow(sinkp->context, rowIndex, row);
        }
    }
}

typedef struct {
    int scaleNum;
    int gray;
    cs_row_sink *sink;
    int *warnings;
    int *rowsDecoded;
    char *message;
    size_t messageLength;
} cs_decode_request;

static int cs_decode_body(struct jpeg_decompress_struct *cinfo, void *context) {
    cs_decode_request *request = context;
    cs_configure(cinfo, request->scaleNum, request->gray);
    jpeg_start_decompress(cinfo);
    size_t rowBytes = (size_t)cinfo->output_width * (size_t)(request->gray ? 1 : 3);
    if (!cs_sink_fits(request->sink, cinfo, rowBytes, request->gray)) {
        if (request->message && request->messageLength)
            snprintf(request->message, request->messageLength, "output buffer size mismatch");
        return CS_JPEG_BAD_ARGS;
    }
    cs_read_rows(cinfo, request->sink, rowBytes, request->gray, request->rowsDecoded);
    jpeg_finish_decompress(cinfo);
    *request->warnings = (int)cinfo->err->num_warnings;
    return CS_JPEG_OK;
}

static int cs_jpeg_decode_into(const unsigned char *data, size_t length, int scaleNum, int gray, cs_row_sink *sinkp,
                               int *warnings, int *rowsDecoded, char *message, size_t messageLength) {
    *warnings = 0;
    *rowsDecoded = 0;
    cs_decode_request request = {scaleNum, gray, sinkp, warnings, rowsDecoded, message, messageLength};
    return cs_with_decompressor(data, length, message, messageLength, cs_decode_body, &request);
}

int cs_jpeg_decode(const unsigned char *data, size_t length, int scaleNum, int gray,
                   unsigned char *out, size_t outLength, int *warnings, int *rowsDecoded,
                   char *message, size_t messageLength) {
    if (!out) return CS_JPEG_BAD_ARGS;
    cs_row_sink sink = {out, outLength, NULL, 0, NULL, 0, NULL, NULL, 0};
    return cs_jpeg_decode_into(data, length, scaleNum, gray, &sink, warnings, rowsDecoded, message, messageLength);
}

int cs_jpeg_decode_rows(const unsigned char *data, size_t length, int scaleNum,
                        unsigned char *row, size_t rowLength, unsigned char *grayOut, size_t grayLength,
                        cs_jpeg_row_fn onRow, void *context, long long *grayNanoseconds,
                        int *warnings, int *rowsDecoded, char *message, size_t messageLength) {
    cs_row_sink sink = {NULL, 0, row, rowLength, grayOut, grayLength, onRow, context, 0};
    int rc = cs_jpeg_decode_into(data, length, scaleNum, 0, &sink, warnings, rowsDecoded, message, messageLength);
    if (grayNanoseconds) *grayNanoseconds = sink.grayNanoseconds;
    return rc;
}

// --- Encoding -----------------------------------------------------------------------------------

// The encoder's output, in a buffer this shim owns: libjpeg's jpeg_mem_dest frees its first
// buffer when it grows it and keeps the new one in a private struct, so an error path holding the
// first buffer would free one libjpeg has already freed. Here the buffer is
// grown (realloc) and freed only by this code, and never beyond `limit` bytes.
typedef struct {
    struct jpeg_destination_mgr pub;
    unsigned char *buffer;
    size_t size;
    size_t limit;
    int overLimit;
} cs_mem_dest;

static void cs_dest_init(j_compress_ptr cinfo) {
    cs_mem_dest *d = (cs_mem_dest *)cinfo->dest;
    d->pub.next_output_byte = d->buffer;
    d->pub.free_in_buffer = d->size;
}

/// The buffer is full: twice its size (at most `limit`), or an error.
static boolean cs_dest_grow(j_compress_ptr cinfo) {
    cs_mem_dest *d = (cs_mem_dest *)cinfo->dest;
    // libjpeg asks as soon as the last byte is used, so a JPEG of exactly `limit` bytes needs one more.
    size_t used = d->size, room = d->limit + 1;
    size_t grown = d->size * 2 > room ? room : d->size * 2;
    if (grown <= used) {
        d->overLimit = 1;
        ERREXIT(cinfo, JERR_OUT_OF_MEMORY);
    }
    unsigned char *bigger = realloc(d->buffer, grown);
    if (!bigger) ERREXIT(cinfo, JERR_OUT_OF_MEMORY);  // d->buffer is still the old one: freed below
    d->buffer = bigger;
    d->size = grown;
    d->pub.next_output_byte = bigger + used;
    d->pub.free_in_buffer = grown - used;
    return TRUE;
}

static void cs_dest_term(j_compress_ptr cinfo) { (void)cinfo; }

/// Encodes the pixels; on an error everything is freed and the message says why.
static void cs_encode_pixels(struct jpeg_compress_struct *cinfo, const unsigned char *pixels, int width, int height,
                             int channels, int quality) {
    cinfo->image_width = (JDIMENSION)width;
    cinfo->image_height = (JDIMENSION)height;
    cinfo->input_components = channels;
    cinfo->in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality < 1 ? 1 : (quality > 100 ? 100 : quality), TRUE);
    // No JFIF density, no comments, no EXIF: only the pixels (write_JFIF_header keeps the APP0
    // marker decoders expect, with no data beyond the version and 1:1 density).
    cinfo->density_unit = 0;
    cinfo->X_density = 1;
    cinfo->Y_density = 1;
    jpeg_start_compress(cinfo, TRUE);
    JSAMPROW row;
    while (cinfo->next_scanline < cinfo->image_height) {
        row = (JSAMPROW)(pixels + (size_t)cinfo->next_scanline * (size_t)width * (size_t)channels);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
}

int cs_jpeg_encode(const unsigned char *pixels, int width, int height, int channels, int quality, size_t maxLength,
                   unsigned char **out, unsigned long *outLength, char *message, size_t messageLength) {
    if (!pixels || !out || !outLength || width <= 0 || height <= 0 || (channels != 1 && channels != 3) || maxLength < 1024)
        return CS_JPEG_BAD_ARGS;
    struct jpeg_compress_struct cinfo;
    cs_error_mgr err;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = cs_error_init(&err, message, messageLength);
    // On the heap, so that after a longjmp its fields are what libjpeg's calls left there (the
    // pointer itself never changes after setjmp).
    cs_mem_dest *dest = calloc(1, sizeof *dest);
    if (!dest) return CS_JPEG_ERROR;
    dest->size = maxLength < 65536 ? maxLength : 65536;
    dest->limit = maxLength;
    dest->buffer = malloc(dest->size);
    if (!dest->buffer) { free(dest); return CS_JPEG_ERROR; }
    dest->pub.init_destination = cs_dest_init;
    dest->pub.empty_output_buffer = cs_dest_grow;
    dest->pub.term_destination = cs_dest_term;
    *out = NULL;
    *outLength = 0;
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&cinfo);
        if (dest->overLimit && message && messageLength)
            snprintf(message, messageLength, "the encoded image is over its limit of %zu bytes", maxLength);
        free(dest->buffer);
        free(dest);
        return CS_JPEG_ERROR;
    }
    jpeg_create_compress(&cinfo);
    cinfo.dest = &dest->pub;
    cs_encode_pixels(&cinfo, pixels, width, height, channels, quality);
    jpeg_destroy_compress(&cinfo);
    *out = dest->buffer;
    *outLength = (unsigned long)(dest->size - dest->pub.free_in_buffer);
    free(dest);
    return CS_JPEG_OK;
}

void cs_jpeg_free(unsigned char *buffer) { free(buffer); }
