#ifndef CARDSCAN_CHEIF_SHIM_H
#define CARDSCAN_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
