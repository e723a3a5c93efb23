/* Checks of a patch verdict (struct pverdict, lt__pe_decide) shared by
 * the unit tests of litmus patches.  Include after <cmocka.h> and
 * engine/jobs/patches/patches_internal.h.  SPDX-License-Identifier: MIT */
#ifndef LT_TEST_PATCH_VERDICTS_H
#define LT_TEST_PATCH_VERDICTS_H

#include <stdlib.h>
#include <string.h>

/* Fails unless the verdict and reason are these and, when in_text is
 * given, it stands in the detail or in one of the notes. */
static inline void expect_verdict(const struct pverdict *v,
                                  const char *verdict, const char *reason,
                                  const char *in_text)
{
    char *notes = json_dumps(json_object_get(v->evidence, "notes"), 0);
    if (strcmp(v->verdict, verdict) != 0 || strcmp(v->reason, reason) != 0)
        fail_msg("verdict %s/%s (%s), expected %s/%s", v->verdict, v->reason,
                 v->detail, verdict, reason);
    if (in_text && !strstr(v->detail, in_text) && !strstr(notes, in_text))
        fail_msg("\"%s\" is in neither the detail (%s) nor the notes (%s)",
                 in_text, v->detail, notes);
    free(notes);
}

/* Frees what lt__pe_decide filled in. */
static inline void clear(struct pverdict *v)
{
    free(v->detail);
    json_decref(v->evidence);
}

#endif
