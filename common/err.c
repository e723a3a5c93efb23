/* Names of error codes.  SPDX-License-Identifier: MIT */
#include "err.h"

#include <string.h>

const char *lt_strerror(int code)
{
    switch (code) {
    case 0: return "success";
    case LT_EINTERNAL: return "internal error";
    case LT_EPARSE: return "does not parse";
    case LT_EUSAGE: return "usage error";
    case LT_ELOCKED: return "database is in use by another litmus";
    case LT_ECORRUPT: return "file is corrupt or not a litmus database";
    case LT_EPYTHON: return "embedded Python failed";
    case LT_EPROTO: return "malformed wire frame";
    case LT_EBASELINE: return "tests fail on the original code";
    case LT_ENOTESTS: return "no tests collected";
    case LT_ESCHEMA: return "database schema version mismatch";
    case LT_ENOTFOUND: return "not found";
    case LT_EINTERRUPTED: return "interrupted";
    default: break;
    }
    if (code < 0 && code > -4096)
        return strerror(-code);
    return "unknown error";
}
