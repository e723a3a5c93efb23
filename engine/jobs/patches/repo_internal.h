/* Shared between the files of `litmus patches` on repositories
 * (docs/patches.md, "Repository candidates"), which call downward only:
 * repo.c (the run: lanes, tasks, decisions) over repo_input.c
 * (instances, predictions, environments, the CI form), repo_mutants.c
 * (the mutation layer's plan and counts) and repo_report.c (reports),
 * all over repo_tree.c (string lists, worktrees, applying diffs, which
 * files and lines a diff touches, test ids).  Internal to engine/.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_PATCHES_REPO_INTERNAL_H
#define LT_ENGINE_PATCHES_REPO_INTERNAL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/core/exec.h"
#include "engine/core/progress.h"
#include "engine/core/store.h"
#include "engine/engine.h"
#include "runners/runner.h"

#define LT_REPO_SCHEMA "litmus.patches.repo/1"
#define LT_REPO_MAX_DIFF (8u << 20) /* larger diffs are not applied */

/* A list of strings (heap, each and the array); repo_tree.c. */
struct strv {
    char **v;
    size_t n, cap;
};
void lt__strv_push(struct strv *s, const char *str);
void lt__strv_push_own(struct strv *s, char *str);
int lt__strv_has(const struct strv *s, const char *str);
void lt__strv_free(struct strv *s);

/* A diff applied on an instance's tree: a candidate's (identical diffs
 * share one), the reference fix's, or the empty one of the base run. */
struct rover {
    char sha[65];            /* SHA-256 of the diff text */
    int applied;             /* 1: in place; 0: does not apply */
    int empty;               /* the diff changes nothing */
    const char *how;         /* which command of the cascade applied it */
    char *apply_error;       /* why it does not apply */
    /* What the child puts in place: [[absolute path, text or null]]
     * for the files of the package the diff changes. */
    json_t *files;
    json_t *notes;           /* what was left out and why: test files,
                                configuration, files outside the package */
    json_t *changed;         /* every path the diff touches */
    char *diff_lines;        /* its added and removed lines (similarity) */
    json_t *result;          /* the run's evidence, once known */
    json_t *mut;             /* its mutation layer's state (repo_mutants.c) */
    /* The probe layer's records (repo_probe.c), in memory only: the
     * reference's and the candidate's runs, first and second round. */
    json_t *probe_recs[2][2];
    json_t *probe_first;     /* the first round's comparison */
    int probe_queued;        /* its probe runs under way */
    int confirm_queued;      /* the reference's run on its list of tests
                                is under way */
    double probe_ms;         /* their wall time so far */
    json_t *wider_choice;    /* the wider tests its run repeats */
    const char *diff;        /* its text (a candidate's or the reference's) */
    int queued;
    size_t mut_queued;       /* its mutants' runs under way */
    int is_ref, is_base;
};

/* One instance: a repository at a base commit, its test patch, the
 * reference fix and the tests that decide. */
struct rinst {
    char *id, *repo, *base, *version;
    char *patch, *test_patch;    /* the reference fix and the tests */
    struct strv f2p, p2p;        /* the instance's lists, as given */
    char *python;                /* the environment's interpreter, or
                                    NULL: as `litmus score` chooses */
    const char *where;           /* the input file, for messages */
    long line;                   /* its line (JSON Lines), or 0 */
    int ci;                      /* the CI form: lists derived */
    int ref_home;                /* the tests import what only the fix
                                    defines: the worktree holds the fix
                                    too, and every run (the base's too)
                                    puts its own files in */
    const char *home_patch;      /* that fix: the reference's, else (the
                                    CI form without one) the first
                                    candidate's (borrowed) */
    char *ci_first;              /* CI form: the first candidate's diff of
                                    package files (before any shard deal) */
    struct rover *home_ov;       /* ... the first candidate's diff
                                    applied (owned; the reference's run
                                    serves when there is one) */
    json_t *home_base;           /* [path, base text or null] of the
                                    fix's files, read once */
    char *clone;                 /* the repository's clone */
    char *tree;                  /* its worktree: base + test patch */
    char *apply_tree;            /* a checkout of the base, where diffs are
                                    applied as the harness applies them */
    char key[17];                /* fingerprint: the store's `program` */
    struct strv test_files;      /* files the test patch touches (and,
                                    in the CI form, those --tests names) */
    struct strv named;           /* CI form: node ids --tests names */
    struct strv wider_files;     /* test files that may observe a change */
    struct strv documented;      /* pairs: a documented test method's
                                    docstring line, its node id */
    int documented_read;         /* documented was made (once) */
    struct rover *base_ov, *ref_ov;
    struct rover **ovs;          /* candidates' distinct diffs */
    size_t n_ovs;
    size_t n_cands;
    /* Its lane, once it needs runs. */
    struct lt_runner_config cfg;
    struct lt_subject *subjects;
    size_t n_subjects;
    struct strv args[2];         /* pytest's arguments: the lane's, and
                                    those of a lane given up (kept while
                                    the executor may read them) */
    char *libpython;
    char *path_prefix;
    int narrowed;                /* judged without the wider suite: it
                                    could not be collected here */
    int runner;                  /* enum lt_test_runner: pytest, or
                                    Django's runner for Django's tree */
    /* Differential execution: the one package file the reference fix
     * changes (its subject index, or -1: none), and its module. */
    struct strv unpin;           /* guard entries the instance's own
                                    tests replace (the base run showed) */
    int diff_subject;
    char *diff_path;
    char *diff_module;
    /* The reference's other changed modules: [[path, module], ...],
     * loaded beside the compared file on each side. */
    json_t *diff_also;
    struct lt_lane *lane;
    int have_tests, done, pending;
    int set_up;                  /* its base, reference and wider runs are
                                    known (counted in the progress) */
    size_t n_wider;              /* tests of the wider suite collected */
};

/* One prediction: a candidate diff for an instance. */
struct rcand {
    long long seq;
    char *instance_id, *model;
    char *patch;
    size_t len;
    struct rinst *inst;
    struct rover *ov;
    const char *where;
    long line;
    json_t *dropped;             /* CI form: {"path", "kind"} of its test
                                    changes other than the instance's */
    int tests_only;              /* CI form: it changes test files and
                                    nothing else (a pull request that
                                    adds tests) */
};

/* The state of one run. */
struct repo_run {
    const struct lt_patches_opts *o;
    char shard[48];              /* "I/N", or "" for the whole run */
    char *plan;                  /* the run's fingerprint, before the deal */
    struct lt_store *st;
    struct rinst **insts;
    size_t n_insts;
    struct rcand *cands;
    size_t n_cands;
    char *trees;                 /* the folder of worktrees */
    char *scratch;
    struct lt_exec ex;
    struct lt_progress prog;
    size_t decided, n_runs;      /* candidates decided; runs queued */
    size_t runs_done, set_up;    /* runs ended; instances set up */
    double t_start;
    FILE *run_log;
};

/*** repo_input.c ***/

/* The instances and predictions (or the CI form's one instance and its
 * candidates) into r.  0, or -1 after an error printed (exit 2). */
int lt__ri_read(struct repo_run *r);
/* The run's plan (every instance and candidate and the options that
 * decide a verdict, hashed) into r->plan, then keeps the candidates dealt
 * to the shard of --shard, if any.  0, or -1 after an error printed. */
int lt__ri_shard(struct repo_run *r);
void lt__ri_inst_free(struct rinst *in);

/*** repo_tree.c ***/

/* The worktree of an instance: a clone of its repository at the base
 * commit with the test patch committed on top, made once and reused.
 * 0, or -1 after an error printed. */
int lt__rt_worktree(struct repo_run *r, struct rinst *in);

/* Whether a test file of the test patch imports, when collected, what
 * only the fix (in->home_patch) brings: a module it adds, a name the
 * fix's text of the module names and the base's does not (a definition
 * or a package's re-export), or a name a changed file of the same
 * top-level package newly defines (re-exported by a star import).
 * Relative imports are resolved from the test file; imports in a
 * function's body are not looked at.  If so its tests cannot be
 * collected at the base.  Reads the worktree's test files and the base
 * checkout. */
int lt__rt_tests_need_fix(const struct rinst *in);

/* With in->ref_home: adds to run ov's files the base's text (or null:
 * no such file at the base) of every file the fix (the reference's run,
 * else in->home_ov) changes and ov does not, since the worktree holds
 * the fix's. */
void lt__rt_home_files(struct rinst *in, struct rover *ov);
/* Applies diff (NULL or "": the empty diff) on the instance's worktree
 * with the harness's cascade and reads back what it changed, then
 * restores the tree; fills ov.  0 (ov says whether it applied), or -1
 * after an error printed (the tree could not be restored). */
int lt__rt_apply(struct repo_run *r, struct rinst *in, const char *diff,
                 struct rover *ov);
/* The path a diff header's side names ("a/x" or "b/x" of s, n bytes,
 * maybe quoted by git; a tab and what follows it dropped): heap, or NULL
 * for /dev/null. */
char *lt__rt_side_path(const char *s, size_t n);
/* The files a unified diff touches (b/ side, or a/ for a deletion). */
void lt__rt_diff_paths(const char *diff, struct strv *out);

/* One file's block of a git diff: from its "diff --git" line up to the
 * next one (start, len: borrowed from the diff), and the path its header
 * names on the b/ side (path: heap, the caller frees it). */
struct lt__diff_block {
    const char *start;
    size_t len;
    char *path;
};
/* The block at or after *at (text before a first header is skipped);
 * moves *at past it.  1, or 0 when there is none left. */
int lt__rt_next_block(const char **at, struct lt__diff_block *block);
/* For each test node id ("file::[Class::]name[params]") sets touched[i]
 * to whether diff adds or changes a line of that test function in the
 * worktree's text of its file: its body, its def line or its decorators
 * (a new parameter of a parametrize list).  An id of no such form, or of
 * a file that cannot be read, counts as changed. */
void lt__rt_touched_tests(const struct rinst *in, const char *diff,
                          char *const *ids, size_t n_ids,
                          unsigned char *touched);
/* Marks in mark[1..n_lines] the lines of text (file rel after diff)
 * that diff adds, and for a removal the line now in its place.  A hunk
 * applied with an offset or fuzz lands elsewhere than its header says:
 * its lines are found at the nearest place of text where they stand. */
void lt__rt_added_lines(const char *diff, const char *rel, const char *text,
                        unsigned char *mark, size_t n_lines);
/* The runner a worktree's tests need: Django's own suite (a django
 * package and tests/runtests.py at its root) runs under Django's runner
 * (LT_TEST_RUNNER_DJANGO), any other under pytest. */
int lt__rt_test_runner(const char *tree);
/* Test files of the worktree that may observe the files of the
 * instance's diffs (import their module or sit beside them). */
void lt__rt_wider_files(struct rinst *in, const struct strv *changed,
                        struct strv *out);
/* The test file (relative to the tree) an instance's test id names: a
 * node id's, or the module's of unittest's form found in the tree; NULL
 * for a bare name (heap). */
char *lt__rt_id_file(const struct rinst *in, const char *id);
/* The collected test indices an instance's test id names: a pytest node
 * id, `name (module.Class)` as unittest prints it, a bare test name found
 * in the instance's test files, or the first line of a test method's
 * docstring (read once per instance into in->documented).  Appends to
 * *out (heap, *n). */
void lt__rt_match_id(struct rinst *in, char *const *ids, size_t n_ids,
                     const char *want, uint32_t **out, size_t *n);
/* The dotted module of a package file relative to the tree
 * ("src/pkg/mod.py" -> "pkg.mod"), or NULL for a file that is not Python
 * (heap). */
char *lt__rt_module_of(const char *rel);
/* Whether a path of the tree is a test file, test configuration, or
 * outside the package: what a candidate cannot change. */
const char *lt__rt_protected(const struct rinst *in, const char *path);

/*** repo_mutants.c ***/

/* The mutation layer's state for a diff with files [[abs path, text]]
 * in tree: {"budget", "mutants" (runnable ones on the lines diff adds),
 * "equivalent", "sample": [{"path", "line", "op", "start", "end",
 * "original", "replacement", "status": null}]} (or "error": why, and an
 * empty sample).  The sample is every mutant budget_s CPU seconds afford
 * at per_mutant_s each (every one for budget_s 0), at most 12, spread
 * evenly over the lines; none, and "skipped": why, when one alone is over
 * the budget. */
json_t *lt__rm_plan(const json_t *files, const char *tree, const char *diff,
                    double per_mutant_s, double budget_s);
/* files with the sample entry mutant applied to its file, or NULL when
 * it does not fit (a file changed since the plan). */
json_t *lt__rm_files(const json_t *files, const json_t *mutant);
/* Whether every entry of the sample has its status. */
int lt__rm_done(const json_t *st);
/* The evidence of a finished layer: {"mutants", "sampled", "killed",
 * "survived", "errors", "duration_ms" (the runs' wall time, summed),
 * "score" (null without a run), "survivors"}, {"mutants", "skipped",
 * "score": null}, or
 * {"error"}; NULL for NULL. */
json_t *lt__rm_summary(const json_t *st);

/*** repo_probe.c ***/

/* Whether two of runners/probe.py's summaries are equal as the tests'
 * `==` would find them. */
int lt__rp_same(const json_t *a, const json_t *b);
/* The first round's comparison of the reference's and the candidate's
 * probe records: {"status": "same", "differs" or "inconclusive",
 * "compared", "differing": [keys]}. */
json_t *lt__rp_compare(const json_t *ref, const json_t *cand);
/* The layer's result once a second pair of runs has repeated the
 * differing keys: a witness only where both sides repeat themselves. */
json_t *lt__rp_confirm(const json_t *first, const json_t *ref0,
                       const json_t *cand0, const json_t *ref1,
                       const json_t *cand1, char *const *test_ids,
                       size_t n_tests);

/*** repo_report.c ***/

/* Renders the stored verdicts: text or JSON to out, CSV and the
 * harness's reports when asked.  Returns the exit code. */
int lt__repo_report(struct lt_store *st, const struct lt_patches_opts *o,
                    double elapsed_s, FILE *out);

#endif
