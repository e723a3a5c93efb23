/* The Java workers of a JVM lane (engine/core/exec.h), as pool.c is for
 * zygotes: starting a worker (runners/jvm.h), sending it a run, reading
 * what it sends as hostile input (harness/jvm_wire.h), ending it.  The
 * executor decides what each event means for its slots and tasks.
 * Internal to engine/core.  SPDX-License-Identifier: MIT */
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "engine/core/pool.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>


void lt__jworker_init(struct lt__jworker *w)
{
    memset(w, 0, sizeof(*w));
    w->to = w->from = -1;
}

/* Contract: see pool.h. */
int lt__jworker_start(struct lt__jworker *w, const struct lt_jvm_config *c,
                      char **err)
{
    lt__jworker_end(w, 1);
    int rc = lt_jvm_spawn(c, &w->pid, &w->to, &w->from, err);
    if (rc < 0) {
        lt__jworker_init(w);
        return rc;
    }
    lt_jvm_decoder_init(&w->dec);
    return 0;
}

/* Contract: see pool.h. */
int lt__jworker_end(struct lt__jworker *w, int kill_it)
{
    int status = -1;
    if (w->pid > 0) {
        if (kill_it)
            kill(w->pid, SIGKILL);
        while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    if (w->to >= 0)
        close(w->to);
    if (w->from >= 0)
        close(w->from);
    lt_jvm_decoder_free(&w->dec);
    free(w->missing);
    lt__jworker_init(w);
    return status;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Contract: see pool.h.  The worker reads every request whole before it
 * answers: a worker that stopped reading is dead. */
int lt__jworker_send(struct lt__jworker *w, const struct lt_jvm_field *f,
                     size_t n, uint64_t token)
{
    /* A nonce the program cannot guess: its answer must carry it. */
    uint64_t x = token ^ (uint64_t)(lt__now() * 1e9) ^ (uint64_t)w->pid;
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    snprintf(w->nonce, sizeof(w->nonce), "%016llx", (unsigned long long)x);
    struct lt_jvm_field *all = xcalloc(n + 2, sizeof(*all));
    all[0] = (struct lt_jvm_field){"op", "run", 3};
    all[1] = (struct lt_jvm_field){"nonce", w->nonce, strlen(w->nonce)};
    memcpy(all + 2, f, n * sizeof(*f));
    struct lt_buf b = LT_BUF_INIT;
    lt_jvm_encode(&b, all, n + 2);
    free(all);
    int rc = write_all(w->to, b.data, b.len);
    lt_buf_free(&b);
    return rc < 0 ? -EPIPE : 0;
}

/* What one message of a worker is. */
static int take(struct lt__jworker *w, struct lt_jvm_msg *m, int busy)
{
    size_t len;
    const char *op = lt_jvm_msg_get(m, "op", &len);
    if (!op)
        return LT_JW_BAD;
    if (!w->ready) {
        if (strcmp(op, "ready") != 0)
            return LT_JW_START_FAILED;
        const char *sb = lt_jvm_msg_get(m, "sandbox", &len);
        const char *why = lt_jvm_msg_get(m, "missing", &len);
        w->sandbox = sb ? (unsigned)strtoul(sb, NULL, 10) : 0;
        w->missing = why && len ? xstrndup(why, len) : NULL;
        w->ready = 1;
        return LT_JW_READY;
    }
    if (!busy || strcmp(op, "done") != 0)
        return LT_JW_BAD;
    size_t nlen;
    const char *nonce = lt_jvm_msg_get(m, "nonce", &nlen);
    if (!nonce || strlen(w->nonce) != nlen ||
        memcmp(nonce, w->nonce, nlen) != 0 ||
        !lt_jvm_msg_get(m, "compile", &len) ||
        !lt_jvm_msg_get(m, "status", &len))
        return LT_JW_BAD_ANSWER;
    return LT_JW_ANSWER;
}

/* Contract: see pool.h. */
int lt__jworker_read(struct lt__jworker *w, int busy, struct lt_jvm_msg *m)
{
    memset(m, 0, sizeof(*m));
    for (;;) {
        int rc = lt_jvm_decoder_next(&w->dec, m);
        if (rc < 0)
            return LT_JW_BAD;
        if (rc == 1) {
            int ev = take(w, m, busy);
            if (ev != LT_JW_ANSWER && ev != LT_JW_START_FAILED) {
                lt_jvm_msg_free(m);
                memset(m, 0, sizeof(*m));
            }
            return ev;
        }
        char buf[65536];
        ssize_t n = read(w->from, buf, sizeof(buf));
        if (n > 0) {
            lt_jvm_decoder_feed(&w->dec, buf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return LT_JW_NONE;
        return LT_JW_EOF;
    }
}
