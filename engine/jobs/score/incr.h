/* Partial and incremental runs inside the engine: exclusions, the lines
 * changed since a git revision, the keys of earlier verdicts
 * (engine/jobs/score/incr.c, docs/incremental.md).  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_INCR_H
#define LT_ENGINE_INCR_H

#include <stddef.h>

#include "engine/engine.h"
#include "operators/operators.h"

/* 1 when rel matches one of the n globs (fnmatch, '*' matches '/'). */
int lt__path_excluded(const char *rel, char *const *globs, size_t n);

/* 1 when operator op is switched off in rel by an "OP" or "OP:GLOB"
 * entry of ex. */
int lt__op_excluded(const char *op, const char *rel, char *const *ex,
                    size_t n);

/* The changed lines of one file: all of them (whole), or the ranges
 * from[i]..to[i], 1-based and inclusive. */
struct lt_lines {
    int whole;
    long *from, *to;
    size_t n, cap;
};

/* Runs git in the working directory for the n absolute paths: *out gets
 * per path the lines changed since rev (caller frees with
 * lt__changed_free(*out, n)); files git does not track are wholly changed.
 * 0, or LT_EUSAGE after printing a one-line error (not a git checkout,
 * unknown revision, git failing). */
int lt__since_lines(const char *rev, char *const *paths, size_t n,
                    struct lt_lines **out);
int lt__changed_touch(const struct lt_lines *l, long first, long last);
void lt__changed_free(struct lt_lines *l, size_t n);

/* The reuse key of m in a file at rel (relative path) with source src:
 * 64 hex chars of SHA-256 over the path, operator, original text,
 * replacement, columns, the occurrence number among mutants with the same
 * everything else, and the text of the mutated lines and of one line
 * before and after.  Byte offsets and line numbers are left out, so lines
 * moving elsewhere in the file keep the key. */
void lt__reuse_key(const struct lt_mutant *m, const char *rel,
                   const char *src, size_t len, unsigned occurrence,
                   char out[65]);

/* The signature of the tests a mutant runs: SHA-256 over each test's
 * node id and the hash of its test file, in the order given (sorted by
 * the caller). */
void lt__tests_sig(char *const *nodeids, const char *const *file_sha,
                   size_t n, char out[65]);

/* The SHA-256 of the test files of node ids, read once each. */
struct lt_test_files {
    struct file_hash {
        char *path; /* the cache key: the id's file part */
        char *sha;  /* 64 hex chars, or "-" when it cannot be read */
    } *v;
    size_t n;
};
/* The hash of the file nodeid's test lives in: the id up to "::", or for
 * a unittest or doctest dotted name the module it starts with (borrowed
 * from c, valid until lt__test_files_free). */
const char *lt__test_file_sha(const struct lt_score_opts *o,
                              const char *nodeid, struct lt_test_files *c);
void lt__test_files_free(struct lt_test_files *c);

#endif
