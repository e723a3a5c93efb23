/* What the zygotes of a lane collected and said when they started: the
 * test ids every run's per-test arrays are indexed by, the lines the
 * imports executed, the sandbox they got.  Filled by core, read-only to
 * the jobs (lt_exec_lane_suite).  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CORE_SUITE_H
#define LT_ENGINE_CORE_SUITE_H

#include <stddef.h>
#include <stdint.h>

/* Declared once, as a macro, because core's struct pool holds these as
 * its own members and, at the same addresses, as a struct lt_suite (see
 * engine/core/run.h).  Nothing else should expand it. */
#define LT__SUITE_FIELDS                                                      \
    char **test_ids;                                                          \
    size_t n_tests;                                                           \
    unsigned features;       /* the sandbox's, from the first READY */        \
    char *view_missing;      /* why the file-system view is missing, or      \
                                NULL (from the first zygote's VIEW) */       \
    char *view;              /* the view's description, or NULL */            \
    /* IMPORT_LINES of the first zygote that sent one: (subject, line)     \
     * pairs executed while the subjects and tests were imported and       \
     * collected (subject below cfg.n_subjects; lines unchecked), and how  \
     * long that took from the first subject import on. */                 \
    uint32_t *import_pairs;                                                   \
    size_t n_import;                                                          \
    int have_import;                                                          \
    double import_s;                                                          \
    int fail_cause;          /* enum lt_fail_cause of the last FAILED */

struct lt_suite {
    LT__SUITE_FIELDS
};

#endif
