#ifndef CARDSCAN_CPNG_SHIM_H
#define CARDSCAN_CPNG_SHIM_H
#include <png.h>
#endif
