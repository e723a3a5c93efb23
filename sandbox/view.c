/* The file-system view of a runner (a zygote and its children, a Java
 * worker): a private mount namespace whose root is an empty read-only
 * tmpfs holding read-only binds of only what the tests need, a
 * size-capped tmpfs as the one writable place, and an unprivileged
 * identity; and the one way a runner enters it.  Built once per runner,
 * so a child pays nothing for it.  SPDX-License-Identifier: MIT */

#include "sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/xmalloc.h"
#include "sandbox/internal.h"

/* Host paths every Python test run reads: the system's software and
 * libraries, and the few files of /etc that Python, the C library and
 * common test suites open (time zones, certificates, name lookup, MIME
 * types).  Missing ones are skipped. */
static const char *const system_paths[] = {
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
    "/etc/localtime", "/etc/timezone", "/etc/ssl", "/etc/ca-certificates",
    "/etc/pki", "/etc/hosts", "/etc/host.conf", "/etc/nsswitch.conf",
    "/etc/resolv.conf", "/etc/gai.conf", "/etc/protocols", "/etc/services",
    "/etc/mime.types", "/etc/ld.so.cache", "/etc/ld.so.conf",
    "/etc/ld.so.conf.d", "/etc/locale.alias", "/etc/os-release",
    "/etc/debian_version", "/etc/alternatives", "/etc/python3",
    "/etc/python3.11", "/etc/matplotlibrc", "/etc/fonts",
};

/* Device nodes a test may open; bound from the host onto empty files. */
static const char *const devices[] = {
    "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
};

/* mkdir -p of `path` below `root` (both absolute; path's components are
 * created as directories). */
static int make_dirs(const char *root, const char *path, mode_t mode)
{
    char buf[PATH_MAX];
    int n = snprintf(buf, sizeof(buf), "%s%s", root, path);
    if (n < 0 || (size_t)n >= sizeof(buf))
        return -ENAMETOOLONG;
    for (char *p = buf + strlen(root) + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, mode) < 0 && errno != EEXIST)
            return -errno;
        *p = '/';
    }
    if (mkdir(buf, mode) < 0 && errno != EEXIST)
        return -errno;
    return 0;
}

/* The directories above root+path. */
static int make_parents(const char *root, const char *path)
{
    char parent[PATH_MAX];
    snprintf(parent, sizeof(parent), "%s", path);
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent)
        return 0;
    *slash = '\0';
    return make_dirs(root, parent, 0755);
}

/* An empty file at root+path (its parents made), to bind a file onto. */
static int make_file(const char *root, const char *path)
{
    int rc = make_parents(root, path);
    if (rc < 0)
        return rc;
    char full[PATH_MAX];
    snprintf(full, sizeof(full), "%s%s", root, path);
    int fd = open(full, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return errno == EEXIST ? 0 : -errno;
    close(fd);
    return 0;
}

/* Makes `path` (absolute, on the host) visible read-only at the same place
 * in the view under `root`.  A symbolic link is recreated as the same
 * link and its target made visible too (/lib -> usr/lib).  0, or a
 * negative errno; a path that does not exist is skipped (0). */
static int expose(const char *root, const char *path, int depth)
{
    struct stat sb;
    if (depth > 8 || strcmp(path, "/") == 0)
        return 0;
    if (lstat(path, &sb) < 0)
        return 0;
    if (S_ISLNK(sb.st_mode)) {
        char target[PATH_MAX];
        ssize_t n = readlink(path, target, sizeof(target) - 1);
        if (n < 0)
            return 0;
        target[n] = '\0';
        int rc = make_parents(root, path);
        if (rc < 0)
            return rc;
        char full[PATH_MAX];
        snprintf(full, sizeof(full), "%s%s", root, path);
        if (symlink(target, full) < 0 && errno != EEXIST)
            return -errno;
        char resolved[PATH_MAX];
        if (!realpath(path, resolved))
            return 0;
        return expose(root, resolved, depth + 1);
    }
    /* Already visible through an enclosing bind, or bound before. */
    char full[PATH_MAX];
    int n = snprintf(full, sizeof(full), "%s%s", root, path);
    if (n < 0 || (size_t)n >= sizeof(full))
        return -ENAMETOOLONG;
    struct stat in;
    if (stat(full, &in) == 0 && in.st_dev == sb.st_dev &&
        in.st_ino == sb.st_ino)
        return 0;
    int rc = S_ISDIR(sb.st_mode) ? make_dirs(root, path, 0755)
                                 : make_file(root, path);
    if (rc < 0)
        return rc;
    if (mount(path, full, NULL, MS_BIND | MS_REC, NULL) < 0)
        return -errno;
    /* A bind's flags change only by a remount of the bind itself. */
    if (mount(NULL, full, NULL,
              MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
              NULL) < 0)
        return -errno;
    return 0;
}

/* Makes the host's symbolic link `link` (absolute, no link above it)
 * again at the same place in the view, with the same target text, and
 * describes it; its target is made visible by the caller.  One that is
 * there already (inside a bound tree, or made before) is left as it is.
 * 0 or a negative errno; a link gone from the host is skipped (0). */
static int make_link(const char *root, const char *link, struct lt_buf *d)
{
    char target[PATH_MAX], full[PATH_MAX];
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    if (n < 0)
        return 0;
    target[n] = '\0';
    int k = snprintf(full, sizeof(full), "%s%s", root, link);
    if (k < 0 || (size_t)k >= sizeof(full))
        return -ENAMETOOLONG;
    struct stat sb;
    if (lstat(full, &sb) == 0)
        return 0;
    int rc = make_parents(root, link);
    if (rc < 0)
        return rc;
    if (symlink(target, full) < 0)
        return errno == EEXIST ? 0 : -errno;
    if (d)
        lt_buf_printf(d, "link %s -> %s\n", link, target);
    return 0;
}

static int write_text(const char *root, const char *path, const char *text)
{
    int rc = make_file(root, path);
    if (rc < 0)
        return rc;
    char full[PATH_MAX];
    snprintf(full, sizeof(full), "%s%s", root, path);
    int fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t len = strlen(text);
    ssize_t w = write(fd, text, len);
    close(fd);
    return w == (ssize_t)len ? 0 : -EIO;
}

static void describe_add(struct lt_buf *d, const char *kind, const char *p)
{
    if (d)
        lt_buf_printf(d, "%s %s\n", kind, p);
}

/* Whether uid may read and search `path` by its mode bits alone, as
 * "others" (the sandbox identity owns nothing of the project). */
static int others_can_read(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) < 0)
        return 1; /* not there: nothing to read */
    if (S_ISDIR(sb.st_mode))
        return (sb.st_mode & (S_IROTH | S_IXOTH)) == (S_IROTH | S_IXOTH);
    return (sb.st_mode & S_IROTH) != 0;
}

/* Sets err to "what: strerror(e)" and returns -e. */
static int set_err(char *err, size_t errlen, const char *what, int e)
{
    snprintf(err, errlen, "%s: %s", what, strerror(e));
    return -e;
}

/* Writes "id id 1" to a user namespace's uid_map or gid_map (file): the
 * one id mapped to itself.  0 or -errno with err set. */
static int map_own_id(const char *file, unsigned id, char *err,
                      size_t errlen)
{
    char map[64];
    snprintf(map, sizeof(map), "%u %u 1\n", id, id);
    int fd = open(file, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, map, strlen(map)) < 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return set_err(err, errlen, strrchr(file, '/') + 1, e);
    }
    close(fd);
    return 0;
}

/* A mount namespace of this process's own: root makes one directly;
 * anyone else needs a user namespace first, with only their own uid and
 * gid mapped.  Then nothing mounted here reaches the host, nor the
 * host's later mounts us.  0 or -errno with err set. */
static int own_mount_namespace(int as_root, uid_t uid, gid_t gid, char *err,
                               size_t errlen)
{
    if (as_root) {
        if (unshare(CLONE_NEWNS) < 0)
            return set_err(err, errlen, "unshare(CLONE_NEWNS)", errno);
    } else {
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
            return set_err(err, errlen, "unshare(CLONE_NEWUSER)", errno);
        int fd = open("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (write(fd, "deny", 4) < 0) { /* best effort; gid_map says */
            }
            close(fd);
        }
        int rc = map_own_id("/proc/self/uid_map", (unsigned)uid, err,
                            errlen);
        if (rc == 0)
            rc = map_own_id("/proc/self/gid_map", (unsigned)gid, err,
                            errlen);
        if (rc < 0)
            return rc;
    }
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        return set_err(err, errlen, "making mounts private", errno);
    return 0;
}

/* The view's root, an empty tmpfs over root (any directory would do as
 * a mount point; this one is ours), with the system's paths and the
 * caller's read-only paths bound in.  0 or -errno (err set where the
 * path is known). */
static int expose_paths(const char *root, const struct lt_view_opts *o,
                        struct lt_buf *d, char *err, size_t errlen)
{
    if (mount("litmus-view", root, "tmpfs", MS_NOSUID | MS_NODEV,
              "mode=0755,size=4m,nr_inodes=4096") < 0)
        return set_err(err, errlen, "mounting the view's root", errno);
    int rc;
    for (size_t i = 0; i < sizeof(system_paths) / sizeof(system_paths[0]);
         i++) {
        if ((rc = expose(root, system_paths[i], 0)) < 0)
            return set_err(err, errlen, system_paths[i], -rc);
        struct stat sb;
        if (lstat(system_paths[i], &sb) == 0)
            describe_add(d, "read", system_paths[i]);
    }
    for (size_t i = 0; i < o->n_ro_paths; i++) {
        if ((rc = expose(root, o->ro_paths[i], 0)) < 0)
            return set_err(err, errlen, o->ro_paths[i], -rc);
        struct stat sb;
        if (stat(o->ro_paths[i], &sb) == 0)
            describe_add(d, "read", o->ro_paths[i]);
    }
    /* After the binds: a link inside a bound tree is there already. */
    for (size_t i = 0; i < o->n_links; i++) {
        if ((rc = make_link(root, o->links[i], d)) < 0) {
            char what[PATH_MAX + 64];
            snprintf(what, sizeof(what), "making the link %s in the view",
                     o->links[i]);
            return set_err(err, errlen, what, -rc);
        }
    }
    return 0;
}

/* /dev: a few device nodes bound onto empty files, links to the
 * process's own descriptors, and a private /dev/shm.  0 or -errno. */
static int make_dev(const char *root, char *err, size_t errlen)
{
    int rc;
    if ((rc = make_dirs(root, "/dev", 0755)) < 0)
        return rc;
    for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++) {
        char full[PATH_MAX];
        snprintf(full, sizeof(full), "%s%s", root, devices[i]);
        if (access(devices[i], F_OK) < 0)
            continue;
        if ((rc = make_file(root, devices[i])) < 0)
            return rc;
        if (mount(devices[i], full, NULL, MS_BIND, NULL) < 0)
            return set_err(err, errlen, devices[i], errno);
    }
    static const char *const fd_links[][2] = {
        {"/proc/self/fd", "/dev/fd"},
        {"/proc/self/fd/0", "/dev/stdin"},
        {"/proc/self/fd/1", "/dev/stdout"},
        {"/proc/self/fd/2", "/dev/stderr"},
    };
    for (size_t i = 0; i < 4; i++) {
        char full[PATH_MAX];
        snprintf(full, sizeof(full), "%s%s", root, fd_links[i][1]);
        if (symlink(fd_links[i][0], full) < 0 && errno != EEXIST)
            return -errno;
    }
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/dev/shm", root);
    if ((rc = make_dirs(root, "/dev/shm", 01777)) < 0 ||
        mount("shm", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
              "mode=1777,size=1m,nr_inodes=64") < 0)
        return set_err(err, errlen, "/dev/shm", rc < 0 ? -rc : errno);
    return 0;
}

/* /proc of the host, read-only: /proc/self is what Python and test
 * suites read.  Other processes' entries stay behind ptrace's checks,
 * which an unprivileged child fails for the zygote.  0 or -errno. */
static int bind_proc(const char *root, char *err, size_t errlen)
{
    int rc;
    if ((rc = make_dirs(root, "/proc", 0555)) < 0)
        return rc;
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/proc", root);
    if (mount("/proc", path, NULL, MS_BIND | MS_REC, NULL) < 0 ||
        mount(NULL, path, NULL,
              MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV |
                  MS_NOEXEC,
              NULL) < 0)
        return set_err(err, errlen, "/proc", errno);
    return 0;
}

/* Who the tests are: a minimal passwd and group, no host accounts.
 * 0 or -errno. */
static int write_accounts(const char *root, uid_t uid, gid_t gid)
{
    char text[256];
    snprintf(text, sizeof(text),
             "root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n"
             "litmus:x:%u:%u:litmus sandbox:/nonexistent:/usr/sbin/nologin\n",
             (unsigned)uid, (unsigned)gid);
    int rc = write_text(root, "/etc/passwd", text);
    if (rc < 0)
        return rc;
    snprintf(text, sizeof(text), "root:x:0:\nlitmus:x:%u:\n", (unsigned)gid);
    return write_text(root, "/etc/group", text);
}

/* The one writable place: a size- and inode-capped tmpfs at the scratch
 * path the children's directories are made in (one per instance), owned
 * by the identity they run as.  /tmp is an empty read-only directory
 * around it.  0 or -errno. */
static int mount_scratch(const char *root, const struct lt_view_opts *o,
                         uid_t uid, gid_t gid, struct lt_buf *d, char *err,
                         size_t errlen)
{
    char opts[128];
    snprintf(opts, sizeof(opts), "mode=0700,uid=%u,gid=%u,size=%llu,"
             "nr_inodes=%llu", (unsigned)uid, (unsigned)gid,
             (unsigned long long)o->scratch_bytes,
             (unsigned long long)o->scratch_inodes);
    unsigned instances = o->scratch_instances > 1 ? o->scratch_instances : 1;
    int rc;
    for (unsigned i = 0; i < instances; i++) {
        char where[PATH_MAX], path[PATH_MAX];
        if (instances == 1)
            snprintf(where, sizeof(where), "%s", o->scratch_dir);
        else
            snprintf(where, sizeof(where), "%s/%u", o->scratch_dir, i);
        if ((rc = make_dirs(root, where, 0755)) < 0)
            return rc;
        snprintf(path, sizeof(path), "%s%s", root, where);
        if (mount("litmus-scratch", path, "tmpfs", MS_NOSUID | MS_NODEV,
                  opts) < 0)
            return set_err(err, errlen, "scratch tmpfs", errno);
    }
    if ((rc = make_dirs(root, "/tmp", 0755)) < 0)
        return rc;
    describe_add(d, "write", o->scratch_dir);
    return 0;
}

/* Switches roots (the old one is detached and gone from the view) and
 * makes the new one read-only.  0 or -errno with err set. */
static int switch_root(const char *root, char *err, size_t errlen)
{
    if (chdir(root) < 0 || syscall(SYS_pivot_root, ".", ".") < 0 ||
        umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
        return set_err(err, errlen, "pivot_root", errno);
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0)
        return set_err(err, errlen, "read-only root", errno);
    return 0;
}

/* An identity that owns nothing on the host.  Root changes to o->uid
 * (unless the project is not readable by it: then it stays root inside
 * the view, and says so); a user keeps their uid, which the read-only
 * binds already keep from changing anything outside scratch.  Adds
 * LT_SBX_IDENTITY to *got when it holds.  0 or -errno with err set. */
static int take_identity(const struct lt_view_opts *o, int as_root,
                         uid_t uid, gid_t gid, unsigned *got, char *err,
                         size_t errlen)
{
    if (!as_root) {
        *got |= LT_SBX_IDENTITY;
        return 0;
    }
    int readable = 1;
    for (size_t i = 0; i < o->n_ro_paths && readable; i++)
        readable = others_can_read(o->ro_paths[i]);
    if (!readable) {
        lt__sbx_note(LT_SBX_IDENTITY, "the project is not readable by "
                     "uid %u; the tests run as root inside the view",
                     (unsigned)o->uid);
        return 0;
    }
    if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
        setresuid(uid, uid, uid) < 0) {
        int e = errno;
        snprintf(err, errlen, "changing to uid %u: %s", (unsigned)uid,
                 strerror(e));
        return -e;
    }
    *got |= LT_SBX_IDENTITY;
    return 0;
}

/* Contract: see sandbox.h.  The steps: a mount namespace of its own, the
 * root with the read-only paths, /dev, /proc, the accounts, the scratch,
 * the switch of roots, the identity; the first that fails leaves the
 * view off, said in the notes. */
int lt_sandbox_view_enter(const struct lt_view_opts *o, unsigned *got,
                          char *err, size_t errlen, char **description)
{
    *got = 0;
    err[0] = '\0';
    struct lt_buf desc = LT_BUF_INIT;
    struct lt_buf *d = description ? &desc : NULL;
    uid_t outer_uid = getuid();
    gid_t outer_gid = getgid();
    int as_root = geteuid() == 0;
    uid_t uid = as_root ? o->uid : outer_uid;
    gid_t gid = as_root ? o->gid : outer_gid;
    const char *root = o->root_dir;

    int rc = own_mount_namespace(as_root, outer_uid, outer_gid, err, errlen);
    if (rc == 0)
        rc = expose_paths(root, o, d, err, errlen);
    if (rc == 0)
        rc = make_dev(root, err, errlen);
    if (rc == 0)
        rc = bind_proc(root, err, errlen);
    if (rc == 0)
        rc = write_accounts(root, uid, gid);
    if (rc == 0)
        rc = mount_scratch(root, o, uid, gid, d, err, errlen);
    if (rc == 0)
        rc = switch_root(root, err, errlen);
    if (rc == 0) {
        *got |= LT_SBX_FSVIEW;
        rc = take_identity(o, as_root, uid, gid, got, err, errlen);
    }
    if (rc == 0 && d)
        lt_buf_printf(d, "uid %u\n", (unsigned)getuid());
    if (rc < 0) {
        lt__sbx_note(LT_SBX_FSVIEW, "%s; the tests see the whole host file "
                     "system", err[0] ? err : strerror(-rc));
        lt__sbx_note(LT_SBX_IDENTITY, "no file-system view");
    }
    if (description)
        *description = rc == 0 && desc.len ? lt_buf_steal(&desc) : NULL;
    lt_buf_free(&desc);
    return rc;
}

/*** A runner's view ***/

/* Appends s to the array *v (n entries, room for *cap) unless it is
 * there already. */
static void add_once(char ***v, size_t *n, size_t *cap, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*v)[i], s) == 0)
            return;
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 32;
        *v = xrealloc(*v, *cap * sizeof(char *));
    }
    (*v)[(*n)++] = xstrdup(s);
}

/* Resolves the absolute path p as the kernel would, one component at a
 * time, and adds to l->links each symbolic link it meets, named by its
 * own path with no link above it (where the view can make it again).
 * realpath() gives only the end of the way; a path the interpreter keeps
 * unresolved (sys.prefix of a venv reached through a link) needs every
 * link on the way too.  Stops quietly where the path does not resolve;
 * realpath() has left it out then. */
static void note_links(struct lt_sandbox_paths *l, const char *p)
{
    char done[PATH_MAX] = ""; /* resolved so far, no links: "" is "/" */
    char rest[PATH_MAX], next[PATH_MAX], target[PATH_MAX];
    snprintf(rest, sizeof(rest), "%s", p);
    const char *r = rest;
    for (int hops = 0; hops <= 40;) {
        r += strspn(r, "/");
        size_t len = strcspn(r, "/"), dl = strlen(done);
        if (len == 0)
            return;
        if (len == 1 && r[0] == '.') {
            r += len;
            continue;
        }
        if (len == 2 && r[0] == '.' && r[1] == '.') {
            /* done has no links: its parent is its text's parent. */
            char *slash = strrchr(done, '/');
            if (slash)
                *slash = '\0';
            r += len;
            continue;
        }
        if (dl + 1 + len >= sizeof(done))
            return;
        done[dl] = '/';
        memcpy(done + dl + 1, r, len);
        done[dl + 1 + len] = '\0';
        r += len;
        struct stat sb;
        if (lstat(done, &sb) < 0)
            return;
        if (!S_ISLNK(sb.st_mode))
            continue;
        ssize_t n = readlink(done, target, sizeof(target) - 1);
        if (n <= 0)
            return;
        target[n] = '\0';
        add_once(&l->links, &l->n_links, &l->cap_links, done);
        hops++;
        /* Go on from the link's target, then what followed the link. */
        int k = snprintf(next, sizeof(next), "%s/%s", target, r);
        if (k < 0 || (size_t)k >= sizeof(next))
            return;
        memcpy(rest, next, (size_t)k + 1);
        r = rest;
        done[target[0] == '/' ? 0 : dl] = '\0';
    }
}

/* Contract: see sandbox.h. */
void lt_sandbox_paths_add(struct lt_sandbox_paths *l, const char *p)
{
    char real[PATH_MAX];
    if (!p || p[0] != '/' || !realpath(p, real))
        return;
    add_once(&l->v, &l->n, &l->cap, real);
    note_links(l, p);
}

/* Contract: see sandbox.h.  Accepts a zeroed list. */
void lt_sandbox_paths_free(struct lt_sandbox_paths *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    for (size_t i = 0; i < l->n_links; i++)
        free(l->links[i]);
    free(l->links);
    memset(l, 0, sizeof(*l));
}

/* Contract: see sandbox.h.  The order matters: the view first (a change
 * of uid in it clears PR_SET_PDEATHSIG and makes the process dumpable
 * again only where the kernel says so), then not dumpable, so that
 * nothing the runner later forks or runs reads its memory or environment
 * through /proc, whatever uid it has now; then the parent-death signal
 * armed again and the engine checked to still be the parent, as a runner
 * whose engine died in between must not go on. */
int lt_sandbox_view_enter_runner(const struct lt_view_opts *o, pid_t engine,
                                 unsigned *got, char *err, size_t errlen,
                                 char **description)
{
    int rc = lt_sandbox_view_enter(o, got, err, errlen, description);
    if (rc < 0 && (*got & LT_SBX_FSVIEW))
        return rc; /* half-built: nothing may run from here */
    int entered = rc == 0;
    if (!entered)
        *got = 0;
    prctl(PR_SET_DUMPABLE, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != engine) {
        snprintf(err, errlen, "the engine is gone");
        return -ESRCH;
    }
    return entered ? 0 : 1;
}
