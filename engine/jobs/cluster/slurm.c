/* `litmus slurm score ...`: writes a Slurm array job that runs the shards
 * of a score run and a merge job that depends on it, and submits both
 * with sbatch; re-submitting runs only the shards not yet complete.
 * SPDX-License-Identifier: MIT */
#include "engine/engine.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/core/store.h"

/* Contract: see engine.h (dir "litmus-slurm", sbatch from PATH). */
void lt_slurm_opts_init(struct lt_slurm_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->dir = "litmus-slurm";
    o->sbatch = "sbatch";
}

/* Appends s to b as one word of POSIX sh: single-quoted, with each ' as
 * '\''.  Everything the user gave reaches litmus unchanged. */
static void sh_word(struct lt_buf *b, const char *s)
{
    lt_buf_puts(b, "'");
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            lt_buf_puts(b, "'\\''");
        else
            lt_buf_append(b, p, 1);
    }
    lt_buf_puts(b, "'");
}

/* #SBATCH lines shared by both scripts.  An #SBATCH value is not parsed
 * by a shell, so values with a newline are refused by the caller. */
static void sbatch_header(struct lt_buf *b, const struct lt_slurm_opts *o,
                          const char *name, const char *output)
{
    lt_buf_printf(b, "#!/bin/sh\n#SBATCH --job-name=%s\n", name);
    lt_buf_printf(b, "#SBATCH --output=%s\n", output);
    if (o->partition)
        lt_buf_printf(b, "#SBATCH --partition=%s\n", o->partition);
    if (o->time)
        lt_buf_printf(b, "#SBATCH --time=%s\n", o->time);
    for (size_t i = 0; i < o->n_sbatch_args; i++)
        lt_buf_printf(b, "#SBATCH %s\n", o->sbatch_args[i]);
}

static int write_file(const char *path, const char *text)
{
    char *tmp = xasprintf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int rc = 0;
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        rc = -errno;
        if (f && rc == 0)
            rc = -EIO;
    }
    f = NULL;
    if (rc == 0 && chmod(tmp, 0755) < 0)
        rc = -errno;
    if (rc == 0 && rename(tmp, path) < 0)
        rc = -errno;
    if (rc < 0) {
        lt_error("cannot write %s: %s", path, strerror(-rc));
        unlink(tmp);
    }
    free(tmp);
    return rc;
}

/* Runs argv (sbatch) and keeps the job id it prints with --parsable
 * ("ID" or "ID;CLUSTER").  0, or -1 after saying why. */
static int submit(char *const *argv, long *job)
{
    int pfd[2];
    if (pipe(pfd) < 0) {
        lt_error("pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        lt_error("fork: %s", strerror(errno));
        close(pfd[0]);
        close(pfd[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(pfd[1], 1);
        close(pfd[0]);
        close(pfd[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "litmus: error: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127);
    }
    close(pfd[1]);
    char out[256];
    size_t n = 0;
    for (;;) {
        ssize_t r = read(pfd[0], out + n, sizeof(out) - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
        if (n == sizeof(out) - 1)
            break;
    }
    out[n] = '\0';
    close(pfd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        lt_error("%s failed (%s %d)%s%s", argv[0],
                 WIFEXITED(status) ? "exit" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                 n ? ": " : "", out);
        return -1;
    }
    char *end;
    errno = 0;
    long id = strtol(out, &end, 10);
    if (errno || end == out || id <= 0 ||
        (*end && *end != ';' && *end != '\n')) {
        lt_error("%s printed no job id: '%s'", argv[0], out);
        return -1;
    }
    *job = id;
    return 0;
}

/* State of shard i's store: 1 complete, 0 to run; -1 after printing why
 * it cannot be resumed by this run. */
static int shard_state(const char *path, unsigned i, unsigned n)
{
    if (access(path, F_OK) != 0)
        return 0;
    struct lt_store *st = NULL;
    char *errmsg = NULL, *shard = NULL, *complete = NULL;
    int rc = lt_store_open(path, &st, &errmsg);
    if (rc == LT_ELOCKED) {
        lt_error("%s is in use (a shard still running?): wait for it, or "
                 "cancel it with scancel, then submit again", path);
        free(errmsg);
        return -1;
    }
    if (rc < 0) {
        lt_error("%s: %s", path, errmsg ? errmsg : lt_strerror(rc));
        free(errmsg);
        return -1;
    }
    int state = 0;
    if (lt_store_get_meta(st, "shard", &shard) == 0 &&
        lt_store_get_meta(st, "complete", &complete) == 0) {
        char want[48];
        snprintf(want, sizeof(want), "%u/%u", i, n);
        if (shard && strcmp(shard, want) != 0) {
            lt_error("%s holds shard %s, not %s: use another --dir for a "
                     "run with another number of shards", path, shard, want);
            state = -1;
        } else {
            state = complete && strcmp(complete, "1") == 0;
        }
    }
    free(shard);
    free(complete);
    lt_store_close(st);
    return state;
}

/* The options the scripts are written from: no newline in a value that
 * lands in an #SBATCH line, --sbatch-arg one option each, and neither
 * --db nor --shard among score's arguments (the scripts set them).  0,
 * or -1 after printing why. */
static int check_options(const struct lt_slurm_opts *o)
{
    const char *vals[] = {o->partition, o->time, o->dir};
    for (size_t i = 0; i < sizeof(vals) / sizeof(*vals); i++)
        if (vals[i] && strpbrk(vals[i], "\n\r")) {
            lt_error("option values may not hold a newline");
            return -1;
        }
    for (size_t i = 0; i < o->n_sbatch_args; i++)
        if (strpbrk(o->sbatch_args[i], "\n\r") ||
            o->sbatch_args[i][0] != '-') {
            lt_error("--sbatch-arg '%s': expected one sbatch option such as "
                     "--mem=4G, without a newline", o->sbatch_args[i]);
            return -1;
        }
    for (size_t i = 0; i < o->n_score_args; i++) {
        const char *a = o->score_args[i];
        if (strcmp(a, "--") == 0)
            break;
        if (strcmp(a, "--db") == 0 || strncmp(a, "--db=", 5) == 0 ||
            strcmp(a, "--shard") == 0 || strncmp(a, "--shard=", 8) == 0) {
            lt_error("%s: litmus slurm gives each shard its --shard and "
                     "--db (in --dir); leave it out", a);
            return -1;
        }
    }
    return 0;
}

/* --dir made and resolved (*dir), and the working directory (*cwd), both
 * safe to write into the scripts.  0, or -1 after printing why. */
static int resolve_dirs(const struct lt_slurm_opts *o, char **dir,
                        char **cwd)
{
    if (mkdir(o->dir, 0777) < 0 && errno != EEXIST) {
        lt_error("cannot create %s: %s", o->dir, strerror(errno));
        return -1;
    }
    *dir = realpath(o->dir, NULL);
    *cwd = getcwd(NULL, 0);
    if (!*dir || !*cwd) {
        lt_error("%s: %s", o->dir, strerror(errno));
        return -1;
    }
    if (strpbrk(*dir, "\n\r%") || strpbrk(*cwd, "\n\r")) {
        lt_error("%s: the directory's path may not hold '%%' or a newline "
                 "(Slurm expands %% in --output)", *dir);
        return -1;
    }
    return 0;
}

/* The shards that still have work (no complete store in dir), as the
 * comma list of an --array in *list.  Their number, or -1 after printing
 * why. */
static long unfinished_shards(const struct lt_slurm_opts *o, const char *dir,
                              struct lt_buf *list)
{
    long n = 0;
    for (unsigned i = 0; i < o->shards; i++) {
        char *db = xasprintf("%s/shard-%u.db", dir, i);
        int state = shard_state(db, i, o->shards);
        free(db);
        if (state < 0)
            return -1;
        if (state == 0) {
            lt_buf_printf(list, "%s%u", n ? "," : "", i);
            n++;
        }
    }
    return n;
}

/* The array job: task i runs `litmus score ... --shard i/N`. */
static void shards_script(struct lt_buf *b, const struct lt_slurm_opts *o,
                          const char *dir, const char *cwd)
{
    char *out_pat = xasprintf("%s/shard-%%a.out", dir);
    sbatch_header(b, o, "litmus-shards", out_pat);
    free(out_pat);
    if (o->cpus_per_task)
        lt_buf_printf(b, "#SBATCH --cpus-per-task=%u\n", o->cpus_per_task);
    lt_buf_puts(b, "# Written by `litmus slurm`: array task I runs shard I of "
                   "the score run\n# (docs/scale.md).  Exit 1 of a shard is "
                   "a quality gate measured on a\n# part of the mutants: it "
                   "counts as done; the merged report gates.\n");
    lt_buf_puts(b, "i=${SLURM_ARRAY_TASK_ID:?run me with sbatch "
                   "--array}\ncd ");
    sh_word(b, cwd);
    lt_buf_puts(b, " || exit 3\n");
    sh_word(b, o->exe);
    lt_buf_puts(b, " score");
    size_t k = 0;
    for (; k < o->n_score_args && strcmp(o->score_args[k], "--") != 0; k++) {
        lt_buf_puts(b, " ");
        sh_word(b, o->score_args[k]);
    }
    lt_buf_printf(b, " --shard \"$i/%u\" --db ", o->shards);
    sh_word(b, dir);
    lt_buf_puts(b, "\"/shard-$i.db\" --no-progress");
    if (!o->has_jobs)
        lt_buf_puts(b, " --jobs \"${SLURM_CPUS_PER_TASK:-1}\"");
    for (; k < o->n_score_args; k++) {
        lt_buf_puts(b, " ");
        sh_word(b, o->score_args[k]);
    }
    lt_buf_puts(b, "\nrc=$?\n[ $rc -eq 1 ] && rc=0\nexit $rc\n");
}

/* The merge job: all shards into merged.db, then the text report,
 * renamed into place once whole so that a poller never reads half. */
static void merge_script(struct lt_buf *b, const struct lt_slurm_opts *o,
                         const char *dir, const char *cwd)
{
    char *out_pat = xasprintf("%s/merge.out", dir);
    sbatch_header(b, o, "litmus-merge", out_pat);
    free(out_pat);
    lt_buf_puts(b, "# Written by `litmus slurm`: merges the shards "
                   "once every one has finished.\nset -e\ncd ");
    sh_word(b, cwd);
    lt_buf_puts(b, "\n");
    sh_word(b, o->exe);
    lt_buf_puts(b, " merge --force ");
    sh_word(b, dir);
    lt_buf_puts(b, "/merged.db");
    for (unsigned i = 0; i < o->shards; i++) {
        lt_buf_puts(b, " ");
        sh_word(b, dir);
        lt_buf_printf(b, "/shard-%u.db", i);
    }
    lt_buf_puts(b, "\n");
    sh_word(b, o->exe);
    lt_buf_puts(b, " report --db ");
    sh_word(b, dir);
    lt_buf_puts(b, "/merged.db > ");
    sh_word(b, dir);
    lt_buf_puts(b, "/report.txt.tmp || [ $? -eq 1 ]\nmv ");
    sh_word(b, dir);
    lt_buf_puts(b, "/report.txt.tmp ");
    sh_word(b, dir);
    lt_buf_puts(b, "/report.txt\n");
}

/* Submits the array job of the unfinished shards (list, n of them) and
 * the merge after it, or prints the two sbatch commands (--no-submit).
 * Returns the exit code. */
static int submit_jobs(const struct lt_slurm_opts *o, const char *dir,
                       const char *list, long n, const char *shard_sh,
                       const char *merge_sh)
{
    char *array = xasprintf("--array=%s", n ? list : "");
    if (o->no_submit) {
        if (n)
            printf("%s --parsable %s %s\n", o->sbatch, array, shard_sh);
        printf("%s --parsable %s%s\n", o->sbatch,
               n ? "--dependency=afterok:JOBID " : "", merge_sh);
        free(array);
        return LT_EXIT_OK;
    }
    long shard_job = 0, merge_job = 0;
    if (n) {
        char *argv[] = {(char *)o->sbatch, "--parsable", array,
                        (char *)shard_sh, NULL};
        if (submit(argv, &shard_job) < 0) {
            free(array);
            return LT_EXIT_ENGINE;
        }
    }
    free(array);
    char *dep = xasprintf("--dependency=afterok:%ld", shard_job);
    char *margv[] = {(char *)o->sbatch, "--parsable", dep, (char *)merge_sh,
                     NULL};
    if (!n) { /* every shard is complete: only the merge is left */
        margv[2] = (char *)merge_sh;
        margv[3] = NULL;
    }
    int src = submit(margv, &merge_job);
    free(dep);
    if (src < 0) {
        if (shard_job)
            lt_error("the shards were submitted as job %ld; cancel it "
                     "(scancel %ld) or submit %s yourself", shard_job,
                     shard_job, merge_sh);
        return LT_EXIT_ENGINE;
    }
    if (n)
        printf("submitted shards %s of %u as array job %ld\n", list,
               o->shards, shard_job);
    else
        printf("every shard of %u is complete\n", o->shards);
    printf("submitted the merge as job %ld%s\n", merge_job,
           n ? " (after the shards)" : "");
    printf("results: %s/merged.db, report: %s/report.txt\n", dir, dir);
    return LT_EXIT_OK;
}

/* See engine.h.  The steps: the options checked, --dir resolved, the
 * unfinished shards found, both scripts written, the jobs submitted. */
int lt_slurm(const struct lt_slurm_opts *o)
{
    struct lt_buf shards = LT_BUF_INIT, merge = LT_BUF_INIT;
    struct lt_buf list = LT_BUF_INIT;
    char *dir = NULL, *cwd = NULL, *shard_sh = NULL, *merge_sh = NULL;
    int code = LT_EXIT_USAGE;
    long n = -1;
    if (check_options(o) == 0 && resolve_dirs(o, &dir, &cwd) == 0)
        n = unfinished_shards(o, dir, &list);
    if (n >= 0) {
        shards_script(&shards, o, dir, cwd);
        merge_script(&merge, o, dir, cwd);
        shard_sh = xasprintf("%s/shards.sbatch", dir);
        merge_sh = xasprintf("%s/merge.sbatch", dir);
        if (write_file(shard_sh, shards.data) < 0 ||
            write_file(merge_sh, merge.data) < 0) {
            code = LT_EXIT_ENGINE;
        } else {
            /* A report from an earlier merge must not pass for this
             * one's. */
            char *old = xasprintf("%s/report.txt", dir);
            unlink(old);
            free(old);
            code = submit_jobs(o, dir, list.data ? list.data : "", n,
                               shard_sh, merge_sh);
        }
    }
    lt_buf_free(&shards);
    lt_buf_free(&merge);
    lt_buf_free(&list);
    free(shard_sh);
    free(merge_sh);
    free(dir);
    free(cwd);
    return code;
}
