/* Error codes shared by every module: 0 or a negative code, either -errno
 * or one of the LT_E* values below.  SPDX-License-Identifier: MIT */
#ifndef LT_COMMON_ERR_H
#define LT_COMMON_ERR_H

/* litmus' own codes sit far below any errno value. */
enum {
    LT_EINTERNAL = -10000, /* a bug or an impossible state */
    LT_EPARSE = -10001,    /* input that does not parse */
    LT_EUSAGE = -10002,    /* bad option or argument */
    LT_ELOCKED = -10003,   /* another litmus holds the database */
    LT_ECORRUPT = -10004,  /* a file that is not what it claims */
    LT_EPYTHON = -10005,   /* the embedded interpreter failed */
    LT_EPROTO = -10006,    /* a malformed or oversized wire frame */
    LT_EBASELINE = -10007, /* tests fail on the unmutated code */
    LT_ENOTESTS = -10008,  /* no test was collected */
    LT_ESCHEMA = -10009,   /* database written by another schema */
    LT_ENOTFOUND = -10010, /* a named item does not exist */
    LT_EINTERRUPTED = -10011, /* SIGINT or SIGTERM stopped the work */
};

/* Name of an error code: strerror() for -errno, litmus text otherwise.
 * Never NULL; the string is static. */
const char *lt_strerror(int code);

#endif
