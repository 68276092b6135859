#ifndef CARDSCAN_CEXIF_SHIM_H
#define CARDSCAN_CEXIF_SHIM_H
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-ifd.h>
#include <libexif/exif-utils.h>
#endif
