#ifndef CARDSCAN_CHEIFSHIM_H
#define CARDSCAN_CHEIFSHIM_H
#include <libheif/heif.h>

/// libheif, loaded the first time a HEIF file arrives instead of when cardscan starts.
///
/// libheif brings its HEVC, AV1 and JPEG codecs with it (x265, libde265, dav1d, libaom: 14 shared
/// libraries), and libde265 builds its tables when it is loaded: about 10 ms and 3.4 MiB for every
/// run of cardscan, most of which never sees a HEIF file. So cardscan does not link libheif; these
/// calls reach it through dlopen, once, the first time one is needed.
///
/// `cs_heif_load` loads it (once; thread-safe) and returns NULL, or a message saying why it cannot
/// (libheif is not installed, or lacks a function). Every other call here is libheif's function of
/// the same name without `cs_`, and may be made only after `cs_heif_load` returned NULL.
/// The declarations above (libheif's header) are for the types: the functions they declare are
/// not linked into cardscan (the tests link libheif to write fixtures with its encoder).
const char *cs_heif_load(void);

struct heif_context *cs_heif_context_alloc(void);
void cs_heif_context_free(struct heif_context *context);
struct heif_error cs_heif_context_read_from_memory_without_copy(struct heif_context *context, const void *mem, size_t size,
                                                                const struct heif_reading_options *options);
struct heif_error cs_heif_context_get_primary_image_handle(struct heif_context *context, struct heif_image_handle **handle);
void cs_heif_image_handle_release(const struct heif_image_handle *handle);
int cs_heif_image_handle_get_width(const struct heif_image_handle *handle);
int cs_heif_image_handle_get_height(const struct heif_image_handle *handle);
struct heif_error cs_heif_decode_image(const struct heif_image_handle *handle, struct heif_image **image,
                                       enum heif_colorspace colorspace, enum heif_chroma chroma,
                                       const struct heif_decoding_options *options);
void cs_heif_image_release(const struct heif_image *image);
const uint8_t *cs_heif_image_get_plane_readonly(const struct heif_image *image, enum heif_channel channel, int *stride);
int cs_heif_image_get_width(const struct heif_image *image, enum heif_channel channel);
int cs_heif_image_get_height(const struct heif_image *image, enum heif_channel channel);
int cs_heif_image_handle_get_number_of_metadata_blocks(const struct heif_image_handle *handle, const char *type_filter);
int cs_heif_image_handle_get_list_of_metadata_block_IDs(const struct heif_image_handle *handle, const char *type_filter,
                                                        heif_item_id *ids, int count);
const char *cs_heif_image_handle_get_metadata_type(const struct heif_image_handle *handle, heif_item_id id);
size_t cs_heif_image_handle_get_metadata_size(const struct heif_image_handle *handle, heif_item_id id);
struct heif_error cs_heif_image_handle_get_metadata(const struct heif_image_handle *handle, heif_item_id id, void *data);
enum heif_color_profile_type cs_heif_image_handle_get_color_profile_type(const struct heif_image_handle *handle);
int cs_heif_image_handle_get_number_of_thumbnails(const struct heif_image_handle *handle);

#endif
