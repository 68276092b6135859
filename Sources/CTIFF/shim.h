#ifndef CARDSCAN_CTIFF_SHIM_H
#define CARDSCAN_CTIFF_SHIM_H
#include <tiffio.h>
#endif
