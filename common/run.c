/* Running a helper program and capturing its output (run.h).
 * SPDX-License-Identifier: MIT */
#include "common/run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/cov.h"

/* In the child: its standard streams and folder; 0, or the exit status
 * that says what failed (126: the input or the folder, 127: the pipes). */
static int child_setup(int out, int err, const char *cwd,
                       const char *stdin_path)
{
    if (dup2(out, 1) < 0 || dup2(err, 2) < 0)
        return 127;
    int in = stdin_path ? open(stdin_path, O_RDONLY) : -1;
    if (stdin_path && in < 0)
        return 126;
    if (in < 0)
        close(0); /* no input: reads see the end at once */
    else if (in > 0 && (dup2(in, 0) < 0 || close(in) < 0))
        return 127;
    if (cwd && chdir(cwd) < 0)
        return 126;
    setenv("GIT_PAGER", "cat", 1);
    setenv("GIT_TERMINAL_PROMPT", "0", 1);
    setenv("LC_ALL", "C", 1);
    return 0;
}

/* Contract: see run.h.  Both pipes are read together (poll), so that a
 * program that fills one while we wait on the other cannot stall. */
int lt_run_capture(char *const argv[], const char *cwd,
                   const char *stdin_path, size_t cap, char **out,
                   char **err)
{
    int po[2] = {-1, -1}, pe[2] = {-1, -1};
    int rc = 0;
    pid_t pid = -1;
    struct lt_buf b[2] = {LT_BUF_INIT, LT_BUF_INIT};
    if (out)
        *out = NULL;
    if (err)
        *err = NULL;
    if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0 ||
        (pid = fork()) < 0) {
        rc = -errno;
        goto done;
    }
    if (pid == 0) {
        int code = child_setup(po[1], pe[1], cwd, stdin_path);
        lt_cov_flush(); /* exec drops the child's counts (coverage builds) */
        if (code == 0)
            execvp(argv[0], argv);
        _exit(code ? code : 127);
    }
    close(po[1]);
    close(pe[1]);
    po[1] = pe[1] = -1;
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    char chunk[65536];
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        fds[0].revents = fds[1].revents = 0;
        if (poll(fds, 2, -1) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !fds[i].revents)
                continue;
            ssize_t r = read(fds[i].fd, chunk, sizeof(chunk));
            if (r <= 0 && !(r < 0 && errno == EINTR)) {
                fds[i].fd = -1;
                continue;
            }
            size_t room = b[i].len < cap ? cap - b[i].len : 0;
            if (r > 0)
                lt_buf_append(&b[i], chunk,
                              (size_t)r < room ? (size_t)r : room);
        }
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            rc = -errno;
            goto done;
        }
    rc = WIFEXITED(status) ? WEXITSTATUS(status)
                           : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    lt_buf_puts(&b[0], "");
    lt_buf_puts(&b[1], "");
    if (out)
        *out = lt_buf_steal(&b[0]);
    if (err)
        *err = lt_buf_steal(&b[1]);
done:
    for (int i = 0; i < 2; i++) {
        if (po[i] >= 0)
            close(po[i]);
        if (pe[i] >= 0)
            close(pe[i]);
    }
    lt_buf_free(&b[0]);
    lt_buf_free(&b[1]);
    return rc;
}
