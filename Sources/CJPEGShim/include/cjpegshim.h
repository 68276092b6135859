#ifndef CARDSCAN_CJPEGSHIM_H
#define CARDSCAN_CJPEGSHIM_H
#include <stddef.h>

/// What the JPEG header says, read without decoding any pixels.
typedef struct {
    int width;
    int height;
    int components;      ///< components in the file (1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK)
    int colorSpace;      ///< 1 gray, 3 colour, 4 CMYK or YCCK
    int progressive;     ///< 1 when the file is progressive
    int outputWidth;     ///< size and channels when decoded at the scale and colour asked for
    int outputHeight;
    int outputChannels;
} cs_jpeg_info;

/// Result codes of the shim's calls.
enum {
    CS_JPEG_OK = 0,
    CS_JPEG_ERROR = 1,      ///< libjpeg reported a fatal error; the message buffer says which
    CS_JPEG_BAD_ARGS = 2,   ///< the caller's buffer does not match the output size
};

/// Reads the header, and the output size when decoding at scale num/8 (gray or RGB).
/// Never calls exit() and never prints.
int cs_jpeg_read_info(const unsigned char *data, size_t length, int scaleNum, int gray, cs_jpeg_info *info,
                      char *message, size_t messageLength);

/// Decodes at scale num/8 into `out` (width*height*channels bytes, 1 = gray, 3 = RGB).
/// `warnings` receives libjpeg's warning count (a truncated file has at least one);
/// `rowsDecoded` how many rows hold real data.
int cs_jpeg_decode(const unsigned char *data, size_t length, int scaleNum, int gray,
                   unsigned char *out, size_t outLength, int *warnings, int *rowsDecoded,
                   char *message, size_t messageLength);

/// Called with each decoded row in order (`y` from 0), `width*channels` bytes valid until it returns.
typedef void (*cs_jpeg_row_fn)(void *context, int y, const unsigned char *row);

/// Decodes in colour at scale num/8 row by row into the caller's one-row buffer `row`
/// (`rowLength` bytes: width*3), writes each row's gray, (77 R + 150 G + 29 B) / 256, into
/// `grayOut` (width*height bytes; `grayLength`), and hands the colour row to `onRow` (never called
/// after an error). The colour image never has to be whole in memory. `grayNanoseconds` receives
/// the time spent on the gray rows. Warnings and rows as for cs_jpeg_decode.
int cs_jpeg_decode_rows(const unsigned char *data, size_t length, int scaleNum,
                        unsigned char *row, size_t rowLength, unsigned char *grayOut, size_t grayLength,
                        cs_jpeg_row_fn onRow, void *context, long long *grayNanoseconds,
                        int *warnings, int *rowsDecoded, char *message, size_t messageLength);

/// Encodes 8-bit gray (channels 1) or RGB (3) pixels as a baseline JPEG at `quality` (1-100) into
/// a buffer the shim allocates (`*out`, `*outLength`; release it with cs_jpeg_free). Nothing but
/// the pixels: no EXIF, no comment. Never calls exit() and never prints. The encoded image may
/// take at most `maxLength` bytes (at least 1024); past it, CS_JPEG_ERROR and nothing allocated.
int cs_jpeg_encode(const unsigned char *pixels, int width, int height, int channels, int quality, size_t maxLength,
                   unsigned char **out, unsigned long *outLength, char *message, size_t messageLength);

void cs_jpeg_free(unsigned char *buffer);

/// One RGB row of `width` pixels to gray the portable way (`plain`) and the way the decoder
/// chooses (`chosen`, AVX2 where the processor has it), for the tests. Returns 1 when AVX2 was used.
int cs_gray_rows_agree(const unsigned char *rgb, unsigned char *plain, unsigned char *chosen, size_t width);

#endif
