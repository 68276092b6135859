#ifndef CARDSCAN_CZBAR_SHIM_H
#define CARDSCAN_CZBAR_SHIM_H
#include <zbar.h>
#endif
