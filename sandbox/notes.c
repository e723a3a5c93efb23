/* The sandbox's degradation notes: why each feature is missing, written
 * by the probe and by every step of lt_sandbox_enter(), read back as one
 * line for the warnings.  The bottom file of sandbox/: every other file
 * writes notes here, and it calls none of them.
 * SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sandbox/internal.h"
#include "sandbox/sandbox.h"

static const char *const feature_names[LT__SBX_NFEATURES] = {
    "rlimits", "caps", "no_new_privs", "landlock", "netns", "seccomp",
    "fs_view", "identity", "processes",
};

/* Why each feature is missing, filled by the probe or by enter.  Plain
 * static storage: enter runs in a single-threaded child, probe in the
 * caller's set-up code. */
static char notes[LT__SBX_NFEATURES][160];

static int feature_index(unsigned feature)
{
    for (int i = 0; i < LT__SBX_NFEATURES; i++)
        if (feature == 1u << i)
            return i;
    return -1;
}

/* Contract: see internal.h. */
void lt__sbx_note(unsigned feature, const char *fmt, ...)
{
    int i = feature_index(feature);
    if (i < 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(notes[i], sizeof(notes[i]), fmt, ap);
    va_end(ap);
}

/* Contract: a comma-separated "name (reason)" list of the features that
 * `have` lacks, "" when none is missing.  Points into a static buffer
 * that the next call overwrites. */
const char *lt_sandbox_describe_missing(unsigned have)
{
    static char out[LT__SBX_NFEATURES * 176];
    size_t len = 0;

    out[0] = '\0';
    for (int i = 0; i < LT__SBX_NFEATURES; i++) {
        if (have & (1u << i))
            continue;
        /* Process mode is asked for by some children only: missing only
         * where one tried and failed. */
        if ((1u << i) == LT_SBX_PROCESSES && !notes[i][0])
            continue;
        const char *why = notes[i][0] ? notes[i] : "not in force";
        int n = snprintf(out + len, sizeof(out) - len, "%s%s (%s)",
                         len ? ", " : "", feature_names[i], why);
        if (n < 0 || (size_t)n >= sizeof(out) - len)
            break;
        len += (size_t)n;
    }
    return out;
}

/* Contract: see internal.h. */
int lt__sbx_noted(unsigned feature)
{
    int i = feature_index(feature);
    return i >= 0 && notes[i][0];
}

/* Contract: see internal.h. */
void lt__sbx_notes_clear(void)
{
    memset(notes, 0, sizeof(notes));
}
