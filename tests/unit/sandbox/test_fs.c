/* Filesystem confinement (Landlock) and scratch directory handling.
 * SPDX-License-Identifier: MIT */
#include "helpers.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xmalloc.h"

struct fs_arg {
    char outside[4096]; /* a directory outside scratch */
    char tmpfile[4096]; /* a path in /tmp that must stay absent */
};

static int c_fs(struct child_ctx *ctx)
{
    struct fs_arg *a = ctx->arg;
    char p[4200];

    /* Outside scratch: no creating, writing, truncating, removing,
     * renaming or linking. */
    snprintf(p, sizeof(p), "%s/new", a->outside);
    CHECK_ERRNO(open(p, O_WRONLY | O_CREAT, 0600), EACCES);
    CHECK_ERRNO(open(a->tmpfile, O_WRONLY | O_CREAT, 0600), EACCES);
    snprintf(p, sizeof(p), "%s/keep", a->outside);
    CHECK_ERRNO(open(p, O_WRONLY), EACCES);
    CHECK_ERRNO(open(p, O_RDONLY | O_TRUNC), EACCES);
    CHECK_ERRNO(truncate(p, 0), EACCES);
    CHECK_ERRNO(unlink(p), EACCES);
    /* A hard link into scratch would make the file writable there. */
    CHECK(link(p, "stolen") == -1, "link from outside into scratch worked");
    CHECK(rename(p, "stolen") == -1, "rename from outside worked");
    snprintf(p, sizeof(p), "%s/dir", a->outside);
    CHECK_ERRNO(mkdir(p, 0700), EACCES);
    snprintf(p, sizeof(p), "%s/sym", a->outside);
    CHECK_ERRNO(symlink("/", p), EACCES);
    CHECK_ERRNO(mkfifo("/tmp/litmus-fifo-escape", 0600), EACCES);

    /* Reading is allowed (documented in docs/threat-model.md). */
    snprintf(p, sizeof(p), "%s/keep", a->outside);
    int fd = open(p, O_RDONLY);
    CHECK(fd >= 0, "read outside: %s", strerror(errno));
    char buf[16] = {0};
    CHECK(read(fd, buf, sizeof(buf)) == 4 && !memcmp(buf, "orig", 4));
    close(fd);

    /* Inside scratch everything works. */
    fd = open("f", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0, "create in scratch: %s", strerror(errno));
    CHECK(write(fd, "data", 4) == 4);
    CHECK(ftruncate(fd, 2) == 0, "%s", strerror(errno));
    close(fd);
    CHECK(mkdir("d", 0700) == 0, "%s", strerror(errno));
    CHECK(rename("f", "d/g") == 0, "%s", strerror(errno));
    CHECK(symlink("g", "d/s") == 0, "%s", strerror(errno));
    CHECK(link("d/g", "h") == 0, "%s", strerror(errno));
    CHECK(unlink("h") == 0 && unlink("d/s") == 0 && unlink("d/g") == 0);
    CHECK(rmdir("d") == 0);

    /* Device nodes Python uses. */
    fd = open("/dev/null", O_WRONLY);
    CHECK(fd >= 0 && write(fd, "x", 1) == 1, "/dev/null: %s",
          strerror(errno));
    close(fd);
    fd = open("/dev/urandom", O_RDONLY);
    CHECK(fd >= 0 && read(fd, buf, 8) == 8, "/dev/urandom: %s",
          strerror(errno));
    close(fd);
    return 0;
}

/* Landlock: files outside scratch cannot be created, written, truncated,
 * removed, linked or renamed into scratch; they can be read; scratch and
 * /dev/null work.  The parent checks nothing changed. */
static void t_fs(void **state)
{
    (void)state;
    require_features(LT_SBX_LANDLOCK);
    struct lt_sandbox_opts o;
    test_opts(&o);
    char *outside = lt_sandbox_scratch_new(NULL);
    assert_non_null(outside);
    struct fs_arg a;
    snprintf(a.outside, sizeof(a.outside), "%s", outside);
    snprintf(a.tmpfile, sizeof(a.tmpfile), "/tmp/litmus-escape-%d",
             (int)getpid());
    char *keep = xasprintf("%s/keep", outside);
    FILE *f = fopen(keep, "w");
    assert_non_null(f);
    fputs("orig", f);
    fclose(f);

    run_ok(&o, c_fs, &a);

    struct stat st;
    char *created = xasprintf("%s/new", outside);
    assert_int_equal(stat(created, &st), -1);
    assert_int_equal(stat(a.tmpfile, &st), -1);
    assert_int_equal(stat("/tmp/litmus-fifo-escape", &st), -1);
    assert_int_equal(stat(keep, &st), 0);
    assert_int_equal(st.st_size, 4);
    free(created);
    free(keep);
    assert_int_equal(lt_sandbox_scratch_remove(outside), 0);
    free(outside);
    test_scratch_done(&o);
}

struct ro_arg {
    char allowed[4096], hidden[4096];
};

static int c_ro_paths(struct child_ctx *ctx)
{
    struct ro_arg *a = ctx->arg;
    int fd = open(a->allowed, O_RDONLY);
    CHECK(fd >= 0, "%s: %s", a->allowed, strerror(errno));
    close(fd);
    CHECK_ERRNO(open(a->hidden, O_RDONLY), EACCES);
    CHECK_ERRNO(open("/etc/hostname", O_RDONLY), EACCES);
    return 0;
}

/* With explicit ro_paths, only those trees (plus scratch and the device
 * nodes) can be read. */
static void t_ro_paths(void **state)
{
    (void)state;
    require_features(LT_SBX_LANDLOCK);
    struct lt_sandbox_opts o;
    test_opts(&o);
    char *dir1 = lt_sandbox_scratch_new(NULL);
    char *dir2 = lt_sandbox_scratch_new(NULL);
    struct ro_arg a;
    snprintf(a.allowed, sizeof(a.allowed), "%s/a", dir1);
    snprintf(a.hidden, sizeof(a.hidden), "%s/b", dir2);
    fclose(fopen(a.allowed, "w"));
    fclose(fopen(a.hidden, "w"));
    const char *ro[] = {dir1, "/nonexistent-litmus-path", NULL};
    o.ro_paths = ro;
    run_ok(&o, c_ro_paths, &a);
    assert_int_equal(lt_sandbox_scratch_remove(dir1), 0);
    assert_int_equal(lt_sandbox_scratch_remove(dir2), 0);
    free(dir1);
    free(dir2);
    test_scratch_done(&o);
}

/*** Scratch directories ***/

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* scratch_new makes a private 0700 directory; scratch_remove deletes a
 * hostile tree (deep nesting, a mode-000 directory, fifos, symlinks to
 * outside files and directories) without touching anything outside. */
static void t_scratch(void **state)
{
    (void)state;
    char *s = lt_sandbox_scratch_new(NULL);
    char *out = lt_sandbox_scratch_new(NULL);
    assert_non_null(s);
    assert_non_null(out);
    struct stat st;
    assert_int_equal(stat(s, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0700);

    char *victim = xasprintf("%s/victim", out);
    write_file(victim, "keep me");
    char *p = xasprintf("%s/link-dir", s);
    assert_int_equal(symlink(out, p), 0);
    free(p);
    p = xasprintf("%s/link-file", s);
    assert_int_equal(symlink(victim, p), 0);
    free(p);
    p = xasprintf("%s/fifo", s);
    assert_int_equal(mkfifo(p, 0600), 0);
    free(p);
    p = xasprintf("%s/locked", s);
    assert_int_equal(mkdir(p, 0700), 0);
    char *q = xasprintf("%s/inner", p);
    write_file(q, "x");
    free(q);
    assert_int_equal(chmod(p, 0), 0);
    free(p);

    /* Thousands of files among subdirectories that hold files too (a
     * test filled its scratch): every one goes, in passes over the
     * directory's entries. */
    p = xasprintf("%s/many", s);
    assert_int_equal(mkdir(p, 0700), 0);
    int many = open(p, O_RDONLY | O_DIRECTORY);
    assert_true(many >= 0);
    free(p);
    for (int i = 0; i < 5000; i++) {
        char n[32];
        int f;
        if (i % 1000 == 500) {
            snprintf(n, sizeof(n), "sub%d", i);
            assert_int_equal(mkdirat(many, n, 0700), 0);
            int sub = openat(many, n, O_RDONLY | O_DIRECTORY);
            assert_true(sub >= 0);
            f = openat(sub, "file", O_WRONLY | O_CREAT, 0600);
            assert_true(f >= 0);
            close(f);
            close(sub);
            continue;
        }
        snprintf(n, sizeof(n), "f%d", i);
        f = openat(many, n, O_WRONLY | O_CREAT, 0600);
        assert_true(f >= 0);
        close(f);
    }
    close(many);

    /* 1000 levels: no recursion, no fd per level. */
    int fd = open(s, O_RDONLY | O_DIRECTORY);
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(mkdirat(fd, "d", 0700), 0);
        int sub = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        assert_true(sub >= 0);
        if (i % 250 == 0) {
            int f = openat(sub, "file", O_WRONLY | O_CREAT, 0600);
            close(f);
            assert_int_equal(symlinkat(out, sub, "up"), 0);
        }
        close(fd);
        fd = sub;
    }
    close(fd);

    assert_int_equal(lt_sandbox_scratch_remove(s), 0);
    assert_int_equal(stat(s, &st), -1);
    assert_int_equal(stat(victim, &st), 0);
    assert_int_equal(st.st_size, 7);

    /* A symlink as the scratch path itself is refused, not followed. */
    char *sl = xasprintf("%s-link", s);
    assert_int_equal(symlink(out, sl), 0);
    assert_true(lt_sandbox_scratch_remove(sl) < 0);
    assert_int_equal(stat(victim, &st), 0);
    unlink(sl);
    free(sl);

    assert_int_equal(lt_sandbox_scratch_remove(out), 0);
    free(victim);
    free(s);
    free(out);
}

/* lt_sandbox_scratch_copy: a tree copied with its files' contents and
 * modes, its folders and its links as links (never followed); a fifo
 * left out; over its budget, -EFBIG. */
static void t_scratch_copy(void **state)
{
    (void)state;
    char *from = lt_sandbox_scratch_new(NULL);
    char *base = lt_sandbox_scratch_new(NULL);
    assert_non_null(from);
    assert_non_null(base);
    char *p = xasprintf("%s/sub", from);
    assert_int_equal(mkdir(p, 0750), 0);
    free(p);
    p = xasprintf("%s/sub/note.txt", from);
    int fd = open(p, O_WRONLY | O_CREAT, 0640);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "hello", 5), 5);
    close(fd);
    free(p);
    p = xasprintf("%s/link", from);
    assert_int_equal(symlink("/etc/passwd", p), 0);
    free(p);
    p = xasprintf("%s/pipe", from);
    assert_int_equal(mkfifo(p, 0600), 0);
    free(p);

    char *to = xasprintf("%s/copy", base);
    assert_int_equal(lt_sandbox_scratch_copy(from, to, 1 << 20, 100), 0);
    struct stat st;
    p = xasprintf("%s/sub/note.txt", to);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 5);
    assert_int_equal(st.st_mode & 0777, 0640);
    free(p);
    p = xasprintf("%s/sub", to);
    assert_int_equal(stat(p, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    free(p);
    char target[64] = {0};
    p = xasprintf("%s/link", to);
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(readlink(p, target, sizeof(target) - 1), 11);
    assert_string_equal(target, "/etc/passwd");
    free(p);
    p = xasprintf("%s/pipe", to);
    assert_int_equal(lstat(p, &st), -1);
    free(p);

    /* Over its budget of bytes, or of entries. */
    char *small = xasprintf("%s/small", base);
    assert_int_equal(lt_sandbox_scratch_copy(from, small, 4, 100), -EFBIG);
    char *few = xasprintf("%s/few", base);
    assert_int_equal(lt_sandbox_scratch_copy(from, few, 1 << 20, 1), -EFBIG);
    /* A destination that exists is not copied over. */
    assert_true(lt_sandbox_scratch_copy(from, to, 1 << 20, 100) < 0);

    assert_int_equal(lt_sandbox_scratch_remove(from), 0);
    assert_int_equal(lt_sandbox_scratch_remove(base), 0);
    free(from);
    free(base);
    free(to);
    free(small);
    free(few);
}

const struct CMUnitTest fs_tests[] = {
    cmocka_unit_test(t_fs),
    cmocka_unit_test(t_ro_paths),
    cmocka_unit_test(t_scratch),
    cmocka_unit_test(t_scratch_copy),
};
const size_t fs_ntests = sizeof(fs_tests) / sizeof(fs_tests[0]);
