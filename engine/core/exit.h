/* How a job ends: the process exit codes of every job, the one place an
 * internal code becomes one, and the messages that end a run early.
 * Inside the engine, functions return 0 or a negative code
 * (common/err.h); a job turns it into an exit code at its boundary, and
 * nowhere else.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CORE_EXIT_H
#define LT_ENGINE_CORE_EXIT_H

struct lt_store;

enum lt_exit {
    LT_EXIT_OK = 0,
    LT_EXIT_GATE = 1,         /* score below --fail-under, overfitting patch */
    LT_EXIT_USAGE = 2,        /* usage or input error */
    LT_EXIT_ENGINE = 3,       /* engine, sandbox or store failure */
    LT_EXIT_INTERRUPTED = 130 /* SIGINT or SIGTERM; the same command resumes */
};

/* The exit code for an internal code: LT_EXIT_OK for 0, LT_EXIT_USAGE for
 * what the user can fix in the command or its input (bad option, input
 * that does not parse, a database that is locked, corrupt, of another
 * schema, no tests, an unknown id), LT_EXIT_INTERRUPTED for
 * LT_EINTERRUPTED, LT_EXIT_ENGINE for everything else (-errno included:
 * a full disk is not the user's typing). */
enum lt_exit lt_exit_from_error(int rc);

/* A write to the store db failed with rc: says so and returns the exit
 * code (contracts in exit.c). */
enum lt_exit lt__store_write_failed(struct lt_store *st, const char *db,
                                    int rc);
/* The run was interrupted: says how to resume; LT_EXIT_INTERRUPTED. */
enum lt_exit lt__exit_interrupted(void);

#endif
