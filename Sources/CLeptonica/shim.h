#ifndef CARDSCAN_CLEPTONICA_SHIM_H
#define CARDSCAN_CLEPTONICA_SHIM_H
#include <leptonica/allheaders.h>
#endif
