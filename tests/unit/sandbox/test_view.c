/* A runner's view: the path list every runner builds its view from, and
 * lt_sandbox_view_enter_runner(), the one way a zygote or a Java worker
 * enters it (not dumpable, parent-death signal armed again, the engine
 * checked to be the parent).  SPDX-License-Identifier: MIT */
#include "helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void t_paths(void **state)
{
    (void)state;
    char *dir = lt_sandbox_scratch_new(NULL);
    assert_non_null(dir);
    char real[PATH_MAX];
    assert_non_null(realpath(dir, real));
    char *sub = NULL, *link = NULL;
    assert_true(asprintf(&sub, "%s/sub", dir) > 0);
    assert_true(asprintf(&link, "%s/link", dir) > 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(symlink(sub, link), 0);
    struct lt_sandbox_paths l = {0};
    lt_sandbox_paths_add(&l, dir);
    lt_sandbox_paths_add(&l, sub);
    lt_sandbox_paths_add(&l, link);     /* the same as sub */
    lt_sandbox_paths_add(&l, dir);      /* again */
    lt_sandbox_paths_add(&l, NULL);
    lt_sandbox_paths_add(&l, "relative/path");
    lt_sandbox_paths_add(&l, "/no/such/path/here");
    assert_int_equal(l.n, 2);
    assert_string_equal(l.v[0], real);
    char want[PATH_MAX + 8];
    snprintf(want, sizeof(want), "%s/sub", real);
    assert_string_equal(l.v[1], want);
    for (int i = 0; i < 40; i++) /* past the first allocation */
        lt_sandbox_paths_add(&l, i % 2 ? sub : dir);
    assert_int_equal(l.n, 2);
    /* The one link on the way to sub, named by its real place. */
    assert_int_equal(l.n_links, 1);
    char want_link[PATH_MAX + 8];
    snprintf(want_link, sizeof(want_link), "%s/link", real);
    assert_string_equal(l.links[0], want_link);
    lt_sandbox_paths_free(&l);
    assert_null(l.v);
    assert_int_equal(l.n, 0);
    lt_sandbox_paths_free(&l); /* a zeroed list */
    assert_int_equal(lt_sandbox_scratch_remove(dir), 0);
    free(sub);
    free(link);
    free(dir);
}

/* A path through a chain of links (a venv's .venv -> current ->
 * env-1, one relative, with `..` after them): every link on the way is
 * noted, in the order met, by its real place; the real path once. */
static void t_paths_links(void **state)
{
    (void)state;
    char *dir = lt_sandbox_scratch_new(NULL);
    assert_non_null(dir);
    char real[PATH_MAX];
    assert_non_null(realpath(dir, real));
    char p[4][PATH_MAX + 32];
    snprintf(p[0], sizeof(p[0]), "%s/env-1", real);
    assert_int_equal(mkdir(p[0], 0700), 0);
    snprintf(p[1], sizeof(p[1]), "%s/env-1/lib", real);
    assert_int_equal(mkdir(p[1], 0700), 0);
    snprintf(p[2], sizeof(p[2]), "%s/current", real);
    assert_int_equal(symlink("env-1", p[2]), 0);
    snprintf(p[3], sizeof(p[3]), "%s/.venv", real);
    assert_int_equal(symlink(p[2], p[3]), 0);

    struct lt_sandbox_paths l = {0};
    char named[PATH_MAX * 2];
    snprintf(named, sizeof(named), "%s/.venv/lib/../lib", real);
    lt_sandbox_paths_add(&l, named);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.v[0], p[1]);
    assert_int_equal(l.n_links, 2);
    assert_string_equal(l.links[0], p[3]);
    assert_string_equal(l.links[1], p[2]);
    lt_sandbox_paths_add(&l, named); /* each once */
    assert_int_equal(l.n_links, 2);
    lt_sandbox_paths_free(&l);
    assert_null(l.links);
    assert_int_equal(l.n_links, 0);
    assert_int_equal(lt_sandbox_scratch_remove(dir), 0);
    free(dir);
}

/* In a forked child: enters a view of nothing but the system's paths
 * with `engine` as the parent to check; exits with the return code's
 * class (0, 1, 2 for -ESRCH, 3 other) plus 8 when the process is not
 * dumpable afterwards and 16 when its parent-death signal is SIGKILL. */
static int view_child(const char *scratch, pid_t engine, char *err,
                      size_t errlen)
{
    prctl(PR_SET_PDEATHSIG, 0);
    struct lt_view_opts vo = {
        .root_dir = scratch, .scratch_dir = scratch,
        .scratch_bytes = 1u << 20, .scratch_inodes = 64,
        .scratch_instances = 1, .uid = 65534, .gid = 65534};
    unsigned got = 0;
    int rc = lt_sandbox_view_enter_runner(&vo, engine, &got, err, errlen,
                                          NULL);
    int code = rc == 0 ? 0 : rc == 1 ? 1 : rc == -ESRCH ? 2 : 3;
    if (rc == 0 && !(got & LT_SBX_FSVIEW))
        code = 3;
    if (rc == 1 && got != 0)
        code = 3;
    int sig = 0;
    prctl(PR_GET_PDEATHSIG, &sig);
    return code | (prctl(PR_GET_DUMPABLE) == 0 ? 8 : 0) |
           (sig == SIGKILL ? 16 : 0);
}

/* Runs view_child in a child of this process; engine 0: the child's
 * real parent (this process).  Its exit code. */
static int run_view_child(pid_t engine, char *err, size_t errlen)
{
    char *scratch = lt_sandbox_scratch_new(NULL);
    assert_non_null(scratch);
    int p[2];
    assert_int_equal(pipe(p), 0);
    fflush(NULL);
    pid_t me = getpid();
    pid_t c = fork();
    assert_true(c >= 0);
    if (c == 0) {
        close(p[0]);
        char e[256] = "";
        int code = view_child(scratch, engine ? engine : me, e, sizeof(e));
        ssize_t ignored = write(p[1], e, strlen(e));
        (void)ignored;
        _exit(code);
    }
    close(p[1]);
    int st = 0;
    assert_int_equal(waitpid(c, &st, 0), c);
    ssize_t n = read(p[0], err, errlen - 1);
    err[n > 0 ? n : 0] = '\0';
    close(p[0]);
    lt_sandbox_scratch_remove(scratch);
    free(scratch);
    if (!WIFEXITED(st))
        fail_msg("the child ended with status 0x%x", st);
    return WEXITSTATUS(st);
}

static void t_runner_view(void **state)
{
    (void)state;
    char err[256];
    int code = run_view_child(0, err, sizeof(err));
    /* Not dumpable and the death signal armed, whatever the view. */
    if ((code & 24) != 24)
        fail_msg("exit code %d: dumpable or no death signal (%s)", code,
                 err);
    if ((code & 7) == 1) {
        skip_or_fail("no file-system view here: %s", err);
        return;
    }
    if ((code & 7) != 0)
        fail_msg("exit code %d, want a view in force (%s)", code, err);
}

static void t_runner_view_engine_gone(void **state)
{
    (void)state;
    char err[256];
    /* pid 1 is never this test's process: as for a runner whose engine
     * died and which was reparented. */
    int code = run_view_child(1, err, sizeof(err));
    if ((code & 7) == 3)
        fail_msg("exit code %d: the view failed half-built (%s)", code, err);
    assert_int_equal(code & 7, 2);
    assert_string_equal(err, "the engine is gone");
    assert_int_equal(code & 24, 24);
}

/* In a forked child: a view of `lib` (the real place of a venv's lib,
 * holding a file `mod.py`) and the links on the way to it through
 * `named` (proj/.venv -> current -> env-1).  Exits 0 when the file
 * reads through the links in the view and its sibling `secret` beside
 * env-1 does not; 1 with no view here; 2 when the view failed; 3 or 4
 * when a check failed. */
static int links_child(const char *scratch, const char *named,
                       const char *secret, char *err, size_t errlen)
{
    struct lt_sandbox_paths l = {0};
    lt_sandbox_paths_add(&l, named);
    struct lt_view_opts vo = {
        .root_dir = scratch, .scratch_dir = scratch,
        .ro_paths = (const char *const *)l.v, .n_ro_paths = l.n,
        .links = (const char *const *)l.links, .n_links = l.n_links,
        .scratch_bytes = 1u << 20, .scratch_inodes = 64,
        .scratch_instances = 1, .uid = 65534, .gid = 65534};
    unsigned got = 0;
    char *desc = NULL;
    int rc = lt_sandbox_view_enter(&vo, &got, err, errlen, &desc);
    if (rc < 0)
        return got & LT_SBX_FSVIEW ? 2 : 1;
    char file[PATH_MAX * 3];
    snprintf(file, sizeof(file), "%s/mod.py", named);
    if (access(file, R_OK) != 0) {
        snprintf(err, errlen, "%.300s: %s; view: %.500s", file,
                 strerror(errno), desc ? desc : "");
        return 3;
    }
    if (access(secret, F_OK) == 0 || !desc || !strstr(desc, "link ")) {
        snprintf(err, errlen, "%.300s visible, or no link in %.500s",
                 secret, desc ? desc : "");
        return 4;
    }
    return 0;
}

static void t_view_links(void **state)
{
    (void)state;
    char *base = lt_sandbox_scratch_new(NULL);
    char *scratch = lt_sandbox_scratch_new(NULL);
    assert_non_null(base);
    assert_non_null(scratch);
    char real[PATH_MAX], p[6][PATH_MAX + 32];
    assert_non_null(realpath(base, real));
    const char *const dirs[] = {"env-1", "env-1/lib", "proj"};
    for (int i = 0; i < 3; i++) {
        snprintf(p[i], sizeof(p[i]), "%s/%s", real, dirs[i]);
        assert_int_equal(mkdir(p[i], 0755), 0);
        assert_int_equal(chmod(p[i], 0755), 0);
    }
    snprintf(p[3], sizeof(p[3]), "%s/env-1/lib/mod.py", real);
    snprintf(p[4], sizeof(p[4]), "%s/secret", real);
    for (int i = 3; i < 5; i++) {
        int fd = open(p[i], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        assert_true(fd >= 0);
        close(fd);
    }
    snprintf(p[5], sizeof(p[5]), "%s/current", real);
    assert_int_equal(symlink("env-1", p[5]), 0);
    char venv[PATH_MAX + 16], named[PATH_MAX * 2];
    snprintf(venv, sizeof(venv), "%s/proj/.venv", real);
    assert_int_equal(symlink(p[5], venv), 0);
    snprintf(named, sizeof(named), "%s/lib", venv);

    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    fflush(NULL);
    pid_t c = fork();
    assert_true(c >= 0);
    if (c == 0) {
        close(pipefd[0]);
        char e[1024] = "";
        int code = links_child(scratch, named, p[4], e, sizeof(e));
        ssize_t ignored = write(pipefd[1], e, strlen(e));
        (void)ignored;
        _exit(code);
    }
    close(pipefd[1]);
    int st = 0;
    assert_int_equal(waitpid(c, &st, 0), c);
    char err[1024];
    ssize_t n = read(pipefd[0], err, sizeof(err) - 1);
    err[n > 0 ? n : 0] = '\0';
    close(pipefd[0]);
    lt_sandbox_scratch_remove(scratch);
    lt_sandbox_scratch_remove(base);
    free(scratch);
    free(base);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) == 1) {
        skip_or_fail("no file-system view here: %s", err);
        return;
    }
    if (WEXITSTATUS(st) != 0)
        fail_msg("exit code %d: %s", WEXITSTATUS(st), err);
}

const struct CMUnitTest view_tests[] = {
    cmocka_unit_test(t_paths),
    cmocka_unit_test(t_paths_links),
    cmocka_unit_test(t_view_links),
    cmocka_unit_test(t_runner_view),
    cmocka_unit_test(t_runner_view_engine_gone),
};
const size_t view_ntests = sizeof(view_tests) / sizeof(view_tests[0]);
