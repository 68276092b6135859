#ifndef CARDSCAN_CPHONENUMBER_H
#define CARDSCAN_CPHONENUMBER_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/// Kinds of number libphonenumber tells apart (values of cs_phone_match.type).
enum {
    CS_PHONE_FIXED_LINE = 0,
    CS_PHONE_MOBILE = 1,
    CS_PHONE_FIXED_LINE_OR_MOBILE = 2,
    CS_PHONE_TOLL_FREE = 3,
    CS_PHONE_OTHER = 4,
    CS_PHONE_UNKNOWN = 5,
};

/// One number found in a text. Offsets are UTF-8 byte offsets into the text.
typedef struct {
    int start;
    int end;
    int type;
    int valid;            ///< 1 when libphonenumber calls the number valid for its region
    int countryCode;
    char e164[32];
    char region[4];       ///< ISO 3166 region the number belongs to, "" when unknown
    char national[48];    ///< national significant number
} cs_phone_match;

/// Finds numbers in UTF-8 `text` with libphonenumber's matcher at leniency POSSIBLE (0) or
/// VALID (1), reading national numbers as `region`'s. Returns how many were written to `out`
/// (at most `capacity`), or -1 when the library threw.
int cs_phone_find(const char *text, const char *region, int leniency, cs_phone_match *out, int capacity);

/// Parses one number string; returns 1 and fills `out` when it parses, 0 when not, -1 on a throw.
int cs_phone_parse(const char *text, const char *region, cs_phone_match *out);

/// A number written as `region` prints it at home (libphonenumber's national format: "03-1234-5678"
/// in Japan), written to `out`; returns 1, or 0 when the text is no valid number of that region.
int cs_phone_national_format(const char *text, const char *region, char *out, int capacity);

/// The calling code of a region ("DE" -> 49), 0 when unknown.
int cs_phone_country_code(const char *region);

/// The main region of a calling code (49 -> "DE"), written to `out` (at least 4 bytes); returns 1,
/// or 0 when the code is unknown (then `out` is "ZZ").
int cs_phone_region_for_code(int code, char *out, int capacity);

/// libphonenumber's example number of a region (`mobile` 1 for a mobile number, 0 for a fixed
/// line), written in the region's national format to `national` and as E.164 to `e164`; returns 1,
/// or 0 when the region has no such example.
int cs_phone_example(const char *region, int mobile, char *national, int nationalCapacity, char *e164, int e164Capacity);

/// The regions libphonenumber knows, as two-letter codes without separators written to `out`;
/// returns how many were written (at most capacity / 2).
int cs_phone_supported_regions(char *out, int capacity);

#ifdef __cplusplus
}
#endif
#endif
