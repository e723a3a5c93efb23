/* Per-run scratch directories: creation with mkdtemp, and removal that
 * walks the tree through directory fds and never follows a symlink, so a
 * hostile child cannot make us delete anything outside its scratch.
 * SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "sandbox/sandbox.h"

/* Contract: see sandbox.h.  mkdtemp() creates the directory with mode
 * 0700; the explicit chmod only guards against an odd umask-free
 * implementation.  Returns a path the caller frees. */
char *lt_sandbox_scratch_new(const char *base)
{
    if (!base || !*base) {
        base = getenv("TMPDIR");
        if (!base || !*base)
            base = "/tmp";
    }
    char *path = xasprintf("%s/litmus-XXXXXX", base);
    if (!mkdtemp(path)) {
        int e = errno;
        free(path);
        errno = e;
        return NULL;
    }
    if (chmod(path, 0700) < 0) {
        int e = errno;
        rmdir(path);
        free(path);
        errno = e;
        return NULL;
    }
    return path;
}

/* Removes what directory `dirfd` holds but its subdirectories (files,
 * symlinks, sockets, fifos), in passes over its entries, each pass one
 * readdir stream: reading the directory again from its start for every
 * file made a scratch that a test filled with 16384 files cost seconds
 * of system time.  An entry removed during a pass may hide others from
 * it, so passes go on until one finds nothing.  1 with `name` set to a
 * subdirectory met (to descend into), 0 once the directory is empty, or
 * -errno. */
static int clear_files(int dirfd, char *name, size_t size)
{
    for (;;) {
        int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
        if (fd < 0)
            return -errno;
        DIR *d = fdopendir(fd);
        if (!d) {
            int e = errno;
            close(fd);
            return -e;
        }
        rewinddir(d); /* the dup shares its offset with earlier passes */
        int seen = 0, rc = 0;
        struct dirent *de;
        errno = 0;
        while ((de = readdir(d))) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            seen = 1;
            if (unlinkat(dirfd, de->d_name, 0) == 0) {
                errno = 0;
                continue;
            }
            if (errno != EISDIR && errno != EPERM) {
                rc = -errno;
                break;
            }
            snprintf(name, size, "%s", de->d_name);
            rc = 1;
            break;
        }
        if (rc == 0 && errno)
            rc = -errno; /* readdir failed */
        closedir(d);
        if (rc != 0 || !seen)
            return rc;
    }
}

/* Opens subdirectory `name` of `dirfd` without following a symlink.  A
 * child may have removed our search permission; as owner we restore it. */
static int open_subdir(int dirfd, const char *name)
{
    int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    int fd = openat(dirfd, name, flags);
    if (fd < 0 && errno == EACCES) {
        struct stat st;
        if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISDIR(st.st_mode) && fchmodat(dirfd, name, 0700, 0) == 0)
            fd = openat(dirfd, name, flags);
    }
    return fd < 0 ? -errno : fd;
}

/* Empties the tree below `rootfd` without recursion, so a hostile depth
 * costs neither stack nor one fd per level: descend into the first
 * subdirectory met, and climb back through ".." once a directory is empty,
 * removing it by the name remembered on the way down.  The child that
 * owned the tree is dead, so nothing renames directories under us. */
static int empty_tree(int rootfd)
{
    char name[256];
    char **stack = NULL;
    size_t depth = 0, cap = 0;
    int cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
    int rc = cur < 0 ? -errno : 0;

    while (rc == 0) {
        int found = clear_files(cur, name, sizeof(name));
        if (found < 0) {
            rc = found;
            break;
        }
        if (found) {
            int sub = open_subdir(cur, name);
            if (sub < 0) {
                rc = sub;
                break;
            }
            if (depth == cap) {
                cap = cap ? 2 * cap : 16;
                stack = xrealloc(stack, cap * sizeof(*stack));
            }
            stack[depth++] = xstrdup(name);
            close(cur);
            cur = sub;
            continue;
        }
        if (depth == 0)
            break; /* the root is empty */
        int up = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (up < 0) {
            rc = -errno;
            break;
        }
        close(cur);
        cur = up;
        char *dir = stack[--depth];
        if (unlinkat(cur, dir, AT_REMOVEDIR) < 0)
            rc = -errno;
        free(dir);
    }
    while (depth)
        free(stack[--depth]);
    free(stack);
    if (cur >= 0)
        close(cur);
    return rc;
}

/* Contract: see sandbox.h.  `path` itself must be a real directory, not a
 * symlink; everything below it is removed, symlinks as links. */
int lt_sandbox_scratch_remove(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = empty_tree(fd);
    close(fd);
    if (rc == 0 && rmdir(path) < 0)
        rc = -errno;
    return rc;
}

/* What copy_tree may still copy. */
struct copy_budget {
    unsigned long long bytes;
    unsigned entries;
};

static int copy_file(int from_dir, int to_dir, const char *name,
                     const struct stat *sb, struct copy_budget *left)
{
    if ((unsigned long long)sb->st_size > left->bytes)
        return -EFBIG;
    left->bytes -= (unsigned long long)sb->st_size;
    int in = openat(from_dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0)
        return -errno;
    int out = openat(to_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                     sb->st_mode & 0777);
    if (out < 0) {
        int e = -errno;
        close(in);
        return e;
    }
    char buf[65536];
    int rc = 0;
    for (;;) {
        ssize_t n = read(in, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -errno : 0;
            break;
        }
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(out, buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0) {
                rc = -errno;
                break;
            }
            off += w;
        }
        if (rc < 0)
            break;
    }
    close(in);
    close(out);
    return rc;
}

/* Copies the entries of directory from_dir into to_dir (both fds);
 * symlinks as links, never followed. */
static int copy_tree(int from_dir, int to_dir, int depth,
                     struct copy_budget *left)
{
    if (depth > 32)
        return -ELOOP;
    int fd = dup(from_dir);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return -errno;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (left->entries == 0) {
            rc = -EFBIG;
            break;
        }
        left->entries--;
        struct stat sb;
        if (fstatat(from_dir, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
            rc = -errno;
        } else if (S_ISDIR(sb.st_mode)) {
            int sub = openat(from_dir, e->d_name,
                             O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            int made = mkdirat(to_dir, e->d_name, sb.st_mode & 0777);
            int dst = made == 0 ? openat(to_dir, e->d_name,
                                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                             O_CLOEXEC)
                                : -1;
            rc = sub < 0 || dst < 0 ? -errno
                                    : copy_tree(sub, dst, depth + 1, left);
            if (sub >= 0)
                close(sub);
            if (dst >= 0)
                close(dst);
        } else if (S_ISLNK(sb.st_mode)) {
            char target[PATH_MAX];
            ssize_t n = readlinkat(from_dir, e->d_name, target,
                                   sizeof(target) - 1);
            if (n < 0) {
                rc = -errno;
            } else {
                target[n] = '\0';
                if (symlinkat(target, to_dir, e->d_name) < 0)
                    rc = -errno;
            }
        } else if (S_ISREG(sb.st_mode)) {
            rc = copy_file(from_dir, to_dir, e->d_name, &sb, left);
        } /* sockets, fifos, devices: not copied */
    }
    closedir(d);
    return rc;
}

/* Contract: see sandbox.h. */
int lt_sandbox_scratch_copy(const char *from, const char *to,
                            unsigned long long max_bytes, unsigned max_entries)
{
    int src = open(from, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (src < 0)
        return -errno;
    if (mkdir(to, 0700) < 0) {
        int e = -errno;
        close(src);
        return e;
    }
    int dst = open(to, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int rc = dst < 0 ? -errno : 0;
    struct copy_budget left = {max_bytes, max_entries};
    if (rc == 0)
        rc = copy_tree(src, dst, 0, &left);
    close(src);
    if (dst >= 0)
        close(dst);
    return rc;
}
