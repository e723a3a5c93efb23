/* The engine's side of a zygote: starting one with a scrubbed
 * environment and its INIT frame, and sending it RUN, QUIT and CLONE.
 * Runs in litmus, with two exceptions: lt_zygote_main is what a new
 * zygote process of a sanitizer build (`litmus __zygote`) runs before it
 * loads libpython and litmus-python.so, and a zygote asks its own
 * pre-import server for a copy with lt_zygote_send_clone, as the engine
 * asks the zygote (zygote_preimport.c), so litmus-python.so links this
 * file too.
 * SPDX-License-Identifier: MIT */
#include "runners/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/pyload.h"
#include "common/xmalloc.h"
#include "harness/wire.h"
#include "runners/frames.h"

/* Whether the variable `entry` ("NAME=value") goes to the zygote: what
 * Python, pytest and the tests' locale need, and what --pass-env names.
 * Everything else (CI tokens, cloud keys) stays with litmus: the tests,
 * mutants and candidate patches never see it. */
static int env_passes(const char *entry, const struct lt_runner_config *cfg)
{
    static const char *const names[] = {"PATH", "HOME", "TMPDIR", "LANG",
                                        "LANGUAGE", "TZ", "VIRTUAL_ENV"};
    static const char *const prefixes[] = {"LC_", "PYTHON", "PYTEST_"};
    size_t len = strcspn(entry, "=");
    if (entry[len] != '=')
        return 0;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strlen(names[i]) == len && strncmp(entry, names[i], len) == 0)
            return 1;
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (strncmp(entry, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    for (size_t i = 0; i < cfg->n_pass_env; i++)
        if (strlen(cfg->pass_env[i]) == len &&
            strncmp(entry, cfg->pass_env[i], len) == 0)
            return 1;
    return 0;
}

/* How a new zygote runs Python: in the interpreter's own executable, with
 * litmus-python.so loaded as the extension module _litmus_zygote, so that
 * the tests run at that interpreter's own speed (Debian's python3 is a
 * static build, about 10-15% faster than its libpython).  A sanitizer
 * build re-executes litmus instead, which loads libpython (lt_zygote_main):
 * a sanitized module cannot go into an interpreter built without the
 * sanitizer. */
#if defined(__SANITIZE_ADDRESS__)
#define ZYGOTE_IN_INTERPRETER 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZYGOTE_IN_INTERPRETER 0
#endif
#endif
#ifndef ZYGOTE_IN_INTERPRETER
#define ZYGOTE_IN_INTERPRETER 1
#endif

/* What `python -c` runs: creates the module from the file in argv[1]
 * (binding no name in __main__) and serves on fd 3. */
static const char boot_py[] =
    "__import__('_imp').create_dynamic(type('spec', (), {'name': "
    "'_litmus_zygote', 'origin': __import__('sys').argv[1]})).serve(3)";

/* The zygote's environment: a NULL-terminated array of pointers into
 * environ and into *owned (both arrays the caller frees with
 * free_owned).  in_interpreter: the interpreter starts from this
 * environment itself, so the user's PYTHON* variables go under
 * LT_PYTHON_SAVED_PREFIX and LT_PYTHON_SETTINGS are added (pyload.h).
 * The processes the tests start import from the same places as the
 * tests: the engine's path prefix (PYTHONPATH's entries made absolute,
 * and an src/ root it added), when there is one, is their PYTHONPATH
 * (without the interpreter, the zygote sets it itself). */
static const char *const python_settings[][2] = LT_PYTHON_SETTINGS;
#define N_PYTHON_SETTINGS (sizeof(python_settings) / sizeof(python_settings[0]))

static char **zygote_env(const struct lt_runner_config *cfg,
                         int in_interpreter, char ***owned)
{
    extern char **environ;
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = xcalloc(n + N_PYTHON_SETTINGS + 2, sizeof(char *));
    *owned = xcalloc(n + N_PYTHON_SETTINGS + 2, sizeof(char *));
    size_t k = 0, o = 0;
    int prefix = in_interpreter && cfg->path_prefix && cfg->path_prefix[0];
    if (prefix)
        env[k++] = (*owned)[o++] = xasprintf(
            "%sPYTHONPATH=%s", LT_PYTHON_SAVED_PREFIX, cfg->path_prefix);
    for (size_t i = 0; i < n; i++) {
        if (!env_passes(environ[i], cfg) ||
            (prefix && strncmp(environ[i], "PYTHONPATH=", 11) == 0))
            continue;
        if (in_interpreter && strncmp(environ[i], "PYTHON", 6) == 0)
            env[k++] = (*owned)[o++] =
                xasprintf("%s%s", LT_PYTHON_SAVED_PREFIX, environ[i]);
        else
            env[k++] = environ[i];
    }
    for (size_t i = 0; in_interpreter && i < N_PYTHON_SETTINGS; i++)
        env[k++] = (*owned)[o++] = xasprintf("%s=%s", python_settings[i][0],
                                             python_settings[i][1]);
    return env;
}

static void free_owned(char **env, char **owned)
{
    for (size_t i = 0; owned[i]; i++)
        free(owned[i]);
    free(owned);
    free(env);
}

/* Contract: see runner.h.  The zygote's end of the socketpair becomes fd 3
 * of the new process; everything else of ours is close-on-exec. */
int lt_zygote_spawn(const struct lt_runner_config *cfg, pid_t *pid,
                    int *sock)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return -errno;
    const char *python = cfg->python ? cfg->python : LT_PYTHON_DEFAULT;
    /* Without the module, litmus's own start says what is missing. */
    char *module = ZYGOTE_IN_INTERPRETER ? lt_python_module_path() : NULL;
    char **owned;
    char **env = zygote_env(cfg, module != NULL, &owned);
    pid_t p = fork();
    if (p < 0) {
        int rc = -errno;
        free_owned(env, owned);
        free(module);
        close(sv[0]);
        close(sv[1]);
        return rc;
    }
    if (p == 0) {
        /* dup2 onto itself would keep close-on-exec: clear it by hand. */
        if (sv[1] == 3 ? fcntl(3, F_SETFD, 0) < 0 : dup2(sv[1], 3) < 0)
            _exit(127);
        if (module) {
            /* argv[0] is the interpreter as named (a venv's bin/python),
             * from which it finds its prefix and the venv. */
            char *argv[] = {(char *)python, "-c", (char *)boot_py, module,
                            NULL};
            execve(python, argv, env);
        } else {
            /* The interpreter and its libpython: the new process loads
             * that one before anything else. */
            char *argv[] = {"litmus-zygote", "__zygote", "3", (char *)python,
                            (char *)(cfg->libpython ? cfg->libpython
                                                    : lt_python_lib()),
                            NULL};
            execve(cfg->exe, argv, env);
        }
        _exit(127);
    }
    free_owned(env, owned);
    free(module);
    close(sv[1]);

    struct lt_wire_writer w;
    lt_init_frame_encode(&w, cfg);
    int rc = lt_wire_send(sv[0], &w, NULL, 0);
    lt_wire_writer_free(&w);
    if (rc < 0) {
        close(sv[0]);
        kill(p, SIGKILL);
        waitpid(p, NULL, 0);
        return rc;
    }
    *pid = p;
    *sock = sv[0];
    return 0;
}

int lt_zygote_send_run(int sock, const struct lt_run_request *req,
                       int result_fd, int output_fd)
{
    struct lt_wire_writer w;
    lt_run_frame_encode(&w, req);
    int fds[2] = {result_fd, output_fd};
    int rc = lt_wire_send(sock, &w, fds, 2);
    lt_wire_writer_free(&w);
    return rc;
}

int lt_zygote_send_quit(int sock)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_QUIT);
    lt_wire_finish(&w);
    int rc = lt_wire_send(sock, &w, NULL, 0);
    lt_wire_writer_free(&w);
    return rc;
}

/* Contract: see runner.h. */
int lt_zygote_send_clone(int sock, uint32_t instance, int *clone_sock)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return -errno;
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_CLONE);
    lt_wire_put_u32(&w, instance);
    lt_wire_finish(&w);
    int rc = lt_wire_send(sock, &w, &sv[1], 1);
    lt_wire_writer_free(&w);
    close(sv[1]);
    if (rc < 0) {
        close(sv[0]);
        return rc;
    }
    *clone_sock = sv[0];
    return 0;
}

/* Contract: see runner.h.  The zygote itself is litmus-python.so's, in
 * the interpreter named: this loads both and hands over. */
_Noreturn void lt_zygote_main(int sock, const char *python,
                              const char *libpython)
{
    char *err = NULL;
    void (*zygote_main)(int) = NULL;
    if (lt_python_use(python, libpython, &err) == 0)
        zygote_main = (void (*)(int))lt_python_sym("lt_py_zygote_main");
    if (zygote_main)
        zygote_main(sock);
    /* What the engine reports as the zygote's failure to start. */
    struct lt_wire_writer w;
    lt_reply_encode(&w, &(struct lt_reply){
        .type = LT_FRAME_FAILED,
        .failed = {LT_FAIL_OTHER,
                   lt_reply_text_of(err ? err : "litmus-python.so did not "
                                    "start the zygote", SIZE_MAX)}});
    lt_wire_send(sock, &w, NULL, 0);
    lt_wire_writer_free(&w);
    free(err);
    _exit(3);
}
