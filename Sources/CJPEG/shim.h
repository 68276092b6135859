#ifndef CARDSCAN_CJPEG_SHIM_H
#define CARDSCAN_CJPEG_SHIM_H
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#endif
