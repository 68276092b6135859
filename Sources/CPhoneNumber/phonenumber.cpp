// A plain C API over Google's libphonenumber. Every C++ exception stops here.
#include "cphonenumber.h"
#include <cstring>
#include <set>
#include <string>
#include <phonenumbers/phonenumbermatcher.h>
#include <phonenumbers/phonenumbermatch.h>
#include <phonenumbers/phonenumberutil.h>
#include <phonenumbers/phonenumber.pb.h>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberMatch;
using i18n::phonenumbers::PhoneNumberMatcher;
using i18n::phonenumbers::PhoneNumberUtil;

static int cs_type(PhoneNumberUtil::PhoneNumberType t) {
    switch (t) {
    case PhoneNumberUtil::FIXED_LINE: return CS_PHONE_FIXED_LINE;
    case PhoneNumberUtil::MOBILE: return CS_PHONE_MOBILE;
    case PhoneNumberUtil::FIXED_LINE_OR_MOBILE: return CS_PHONE_FIXED_LINE_OR_MOBILE;
    case PhoneNumberUtil::TOLL_FREE: return CS_PHONE_TOLL_FREE;
    case PhoneNumberUtil::UNKNOWN: return CS_PHONE_UNKNOWN;
    default: return CS_PHONE_OTHER;
    }
}

static void cs_fill(const PhoneNumberUtil &util, const PhoneNumber &number, cs_phone_match *out) {
    std::string e164;
    util.Format(number, PhoneNumberUtil::E164, &e164);
    std::snprintf(out->e164, sizeof out->e164, "%s", e164.c_str());
    std::string region;
    util.GetRegionCodeForNumber(number, &region);
    if (region == "ZZ") region.clear();
    std::snprintf(out->region, sizeof out->region, "%s", region.c_str());
    std::string national;
    util.GetNationalSignificantNumber(number, &national);
    std::snprintf(out->national, sizeof out->national, "%s", national.c_str());
    out->valid = util.IsValidNumber(number) ? 1 : 0;
    out->type = cs_type(util.GetNumberType(number));
    out->countryCode = number.country_code();
}

extern "C" int cs_phone_find(const char *text, const char *region, int leniency, cs_phone_match *out,
                             int capacity) {
    try {
        const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
        PhoneNumberMatcher matcher(util, text ? text : "", region ? region : "ZZ",
                                   leniency == 1 ? PhoneNumberMatcher::VALID : PhoneNumberMatcher::POSSIBLE,
                                   65535);
        int count = 0;
        PhoneNumberMatch match;
        while (count < capacity && matcher.HasNext()) {
            if (!matcher.Next(&match)) break;
            cs_phone_match *m = &out[count];
            std::memset(m, 0, sizeof *m);
            m->start = match.start();
            m->end = match.end();
            cs_fill(util, match.number(), m);
            count++;
        }
        return count;
    } catch (...) {
        return -1;
    }
}

extern "C" int cs_phone_parse(const char *text, const char *region, cs_phone_match *out) {
    try {
        const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
        PhoneNumber number;
        if (util.Parse(text ? text : "", region ? region : "ZZ", &number) != PhoneNumberUtil::NO_PARSING_ERROR) {
            return 0;
        }
        std::memset(out, 0, sizeof *out);
        out->start = 0;
        out->end = (int)std::strlen(text ? text : "");
        cs_fill(util, number, out);
        return 1;
    } catch (...) {
        return -1;
    }
}

extern "C" int cs_phone_national_format(const char *text, const char *region, char *out, int capacity) {
    try {
        const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
        PhoneNumber number;
        const char *r = region ? region : "ZZ";
        if (util.Parse(text ? text : "", r, &number) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
        std::string own;
        util.GetRegionCodeForNumber(number, &own);
        if (!util.IsValidNumber(number) || own != r) return 0;
        std::string n;
        util.Format(number, PhoneNumberUtil::NATIONAL, &n);
        if ((int)n.size() >= capacity) return 0;
        std::snprintf(out, (size_t)capacity, "%s", n.c_str());
        return 1;
    } catch (...) {
        return 0;
    }
}

extern "C" int cs_phone_country_code(const char *region) {
    try {
        return PhoneNumberUtil::GetInstance()->GetCountryCodeForRegion(region ? region : "ZZ");
    } catch (...) {
        return 0;
    }
}

extern "C" int cs_phone_region_for_code(int code, char *out, int capacity) {
    try {
        std::string region;
        PhoneNumberUtil::GetInstance()->GetRegionCodeForCountryCode(code, &region);
        std::snprintf(out, (size_t)capacity, "%s", region.c_str());
        return region == "ZZ" ? 0 : 1;
    } catch (...) {
        return 0;
    }
}

extern "C" int cs_phone_supported_regions(char *out, int capacity) {
    try {
        std::set<std::string> regions;
        PhoneNumberUtil::GetInstance()->GetSupportedRegions(&regions);
        int n = 0;
        for (const std::string &r : regions) {
            if (r.size() != 2 || (n + 1) * 2 > capacity) continue;
            std::memcpy(out + 2 * n, r.data(), 2);
            n++;
        }
        return n;
    } catch (...) {
        return 0;
    }
}

extern "C" int cs_phone_example(const char *region, int mobile, char *national, int nationalCapacity, char *e164,
                                int e164Capacity) {
    try {
        const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
        PhoneNumber number;
        if (!util.GetExampleNumberForType(region ? region : "ZZ",
                                          mobile ? PhoneNumberUtil::MOBILE : PhoneNumberUtil::FIXED_LINE, &number)) {
            return 0;
        }
        std::string n, e;
        util.Format(number, PhoneNumberUtil::NATIONAL, &n);
        util.Format(number, PhoneNumberUtil::E164, &e);
        std::snprintf(national, (size_t)nationalCapacity, "%s", n.c_str());
        std::snprintf(e164, (size_t)e164Capacity, "%s", e.c_str());
        return 1;
    } catch (...) {
        return 0;
    }
}
