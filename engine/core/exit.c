/* The job boundary: internal codes become exit codes, and the messages
 * that end a run early are written once for every job.
 * SPDX-License-Identifier: MIT */
#include "engine/core/exit.h"

#include <errno.h>

#include "common/err.h"
#include "common/log.h"
#include "engine/core/store.h"

/* Contract: see exit.h. */
enum lt_exit lt_exit_from_error(int rc)
{
    switch (rc) {
    case 0:
        return LT_EXIT_OK;
    case LT_EUSAGE:
    case LT_EPARSE:
    case LT_ELOCKED:
    case LT_ECORRUPT:
    case LT_ESCHEMA:
    case LT_ENOTESTS:
    case LT_ENOTFOUND:
        return LT_EXIT_USAGE;
    case LT_EINTERRUPTED:
        return LT_EXIT_INTERRUPTED;
    default:
        return LT_EXIT_ENGINE;
    }
}

/* Ends a job whose write to the store at `db` failed with rc: discards
 * the open batch (its results were never durable; the rerun runs them
 * again), says what failed, that the committed work is kept and how to
 * resume, and returns LT_EXIT_ENGINE.  st may be NULL. */
enum lt_exit lt__store_write_failed(struct lt_store *st, const char *db,
                                    int rc)
{
    if (st)
        lt_store_rollback(st); /* LT_EUSAGE when SQLite rolled back */
    lt_error("%s: cannot write to the database: %s; the work committed "
             "before the failure is kept: %s, then run the same command "
             "again to resume", db, lt_strerror(rc),
             rc == -ENOSPC || rc == -EDQUOT || rc == -EFBIG
                 ? "free some space" : "fix the cause");
    return LT_EXIT_ENGINE;
}

/* Ends a job stopped by SIGINT or SIGTERM, after its last batch was
 * committed: says how to resume and returns LT_EXIT_INTERRUPTED. */
enum lt_exit lt__exit_interrupted(void)
{
    lt_error("interrupted; the results committed so far are kept: run the "
             "same command again to resume");
    return LT_EXIT_INTERRUPTED;
}
