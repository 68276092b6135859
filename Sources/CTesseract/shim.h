#ifndef CARDSCAN_CTESSERACT_SHIM_H
#define CARDSCAN_CTESSERACT_SHIM_H
#include <tesseract/capi.h>
#endif
