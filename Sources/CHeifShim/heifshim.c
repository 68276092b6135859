#include "cheifshim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#ifdef __APPLE__
#define CS_HEIF_LIBRARY "libheif.1.dylib"
#else
#define CS_HEIF_LIBRARY "libheif.so.1"
#endif

// Every libheif function cardscan calls: X(return type, name, parameters, arguments), or V(...) for
// those returning void (C does not return a void expression).
#define CS_HEIF_FUNCTIONS(X, V) \
    X(struct heif_context *, heif_context_alloc, (void), ()) \
    V(void, heif_context_free, (struct heif_context *c), (c)) \
    X(struct heif_error, heif_context_read_from_memory_without_copy, \
      (struct heif_context *c, const void *m, size_t n, const struct heif_reading_options *o), (c, m, n, o)) \
    X(struct heif_error, heif_context_get_primary_image_handle, (struct heif_context *c, struct heif_image_handle **h), (c, h)) \
    V(void, heif_image_handle_release, (const struct heif_image_handle *h), (h)) \
    X(int, heif_image_handle_get_width, (const struct heif_image_handle *h), (h)) \
    X(int, heif_image_handle_get_height, (const struct heif_image_handle *h), (h)) \
    X(struct heif_error, heif_decode_image, \
      (const struct heif_image_handle *h, struct heif_image **i, enum heif_colorspace s, enum heif_chroma c, \
       const struct heif_decoding_options *o), (h, i, s, c, o)) \
    V(void, heif_image_release, (const struct heif_image *i), (i)) \
    X(const uint8_t *, heif_image_get_plane_readonly, (const struct heif_image *i, enum heif_channel c, int *s), (i, c, s)) \
    X(int, heif_image_get_width, (const struct heif_image *i, enum heif_channel c), (i, c)) \
    X(int, heif_image_get_height, (const struct heif_image *i, enum heif_channel c), (i, c)) \
    X(int, heif_image_handle_get_number_of_metadata_blocks, (const struct heif_image_handle *h, const char *t), (h, t)) \
    X(int, heif_image_handle_get_list_of_metadata_block_IDs, \
      (const struct heif_image_handle *h, const char *t, heif_item_id *ids, int n), (h, t, ids, n)) \
    X(const char *, heif_image_handle_get_metadata_type, (const struct heif_image_handle *h, heif_item_id id), (h, id)) \
    X(size_t, heif_image_handle_get_metadata_size, (const struct heif_image_handle *h, heif_item_id id), (h, id)) \
    X(struct heif_error, heif_image_handle_get_metadata, (const struct heif_image_handle *h, heif_item_id id, void *d), (h, id, d)) \
    X(enum heif_color_profile_type, heif_image_handle_get_color_profile_type, (const struct heif_image_handle *h), (h)) \
    X(int, heif_image_handle_get_number_of_thumbnails, (const struct heif_image_handle *h), (h))

#define CS_POINTER(type, name, params, args) type (*name) params;
static struct { CS_HEIF_FUNCTIONS(CS_POINTER, CS_POINTER) } api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char failureText[256];

static void load(void) {
    void *library = dlopen(CS_HEIF_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        failure = "libheif (" CS_HEIF_LIBRARY ") cannot be loaded: install libheif1 to read HEIC and HEIF photos";
        return;
    }
#define CS_RESOLVE(type, name, params, args) \
    if (!(*(void **)&api.name = dlsym(library, #name))) { \
        snprintf(failureText, sizeof failureText, "the libheif installed (" CS_HEIF_LIBRARY ") has no %s: it is too old", #name); \
        failure = failureText; \
        return; \
    }
    CS_HEIF_FUNCTIONS(CS_RESOLVE, CS_RESOLVE)
}

const char *cs_heif_load(void) {
    pthread_once(&once, load);
    return failure;
}

#define CS_WRAPPER(type, name, params, args) type cs_##name params { return api.name args; }
#define CS_VOID_WRAPPER(type, name, params, args) void cs_##name params { api.name args; }
CS_HEIF_FUNCTIONS(CS_WRAPPER, CS_VOID_WRAPPER)
