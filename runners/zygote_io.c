/* The bottom of the zygote files: the state of this process (a zygote,
 * its pre-import server, a copy or a child), how it ends, and how it
 * sends frames to the engine or on a child's result pipe.  Calls no other
 * zygote_*.c file.  SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/cov.h"
#include "common/err.h"
#include "harness/wire.h"
#include "runners/frames.h"
#include "runners/zygote_internal.h"

/*** Zygote state ***/

struct lt__zygote_state lt__zygote = {
    .engine_sock = -1,
    .result_fd = -1,
    .scratch_instances = 1,
    .preimport_sock = -1,
    .collection_tmp_fd = -1,
    .cov_writable = 1,
};

/*** Exits and frames ***/

/* Contract: see zygote_internal.h (cov_writable says where the counts
 * may go). */
_Noreturn void lt__zygote_exit(int code)
{
    if (lt__zygote.cov_writable)
        lt_cov_flush();
    _exit(code);
}

/* Contract: see zygote_internal.h. */
_Noreturn void lt__zygote_die(const char *what, int code)
{
    char line[512];
    int n = snprintf(line, sizeof(line), "litmus-zygote: %s: %s\n", what,
                     lt_strerror(code));
    ssize_t ignored = write(2, line, (size_t)(n > 0 ? n : 0));
    (void)ignored;
    lt__zygote_exit(3);
}

/* Contract: see zygote_internal.h. */
void lt__send_frame(int fd, struct lt_wire_writer *w)
{
    lt_wire_finish(w);
    int rc = lt_wire_send(fd, w, NULL, 0);
    lt_wire_writer_free(w);
    if (rc < 0 && fd == lt__zygote.engine_sock)
        lt__zygote_die("engine went away", rc);
    /* A child whose pipe broke cannot report: it just ends without END,
     * which the engine never counts as a pass. */
    if (rc < 0)
        _exit(74);
}

/* Contract: see zygote_internal.h. */
void lt__send_reply(int fd, const struct lt_reply *f)
{
    struct lt_wire_writer w;
    if (lt_reply_encode(&w, f) < 0) /* a type no zygote sends: a bug */
        abort();
    lt__send_frame(fd, &w);
}

/* A fresh child whose import or collection failed before its tests ran:
 * plain pytest reports that as an error (exit status != 0), so it is a
 * kill, like a module that raises when re-executed.  After APPLIED the
 * child just ends without END, which is never a pass. */
_Noreturn void lt__fresh_abort(const char *msg)
{
    if (lt__zygote.fresh_applied)
        _exit(70);
    lt__send_reply(lt__zygote.result_fd, &(struct lt_reply){
        .type = LT_FRAME_APPLIED,
        .applied = {LT_APPLY_RAISED, lt_reply_text_of(msg, 2000)}});
    lt__send_reply(lt__zygote.result_fd,
                   &(struct lt_reply){.type = LT_FRAME_END});
    _exit(0);
}

/* Contract: see zygote_internal.h. */
void lt__send_failure(int cause, const char *msg)
{
    if (lt__zygote.fresh_child)
        lt__fresh_abort(msg);
    lt__send_reply(lt__zygote.engine_sock, &(struct lt_reply){
        .type = LT_FRAME_FAILED,
        .failed = {(uint8_t)cause, lt_reply_text_of(msg, SIZE_MAX)}});
    lt__zygote.failed_sent = 1;
}

/* Contract: see zygote_internal.h. */
void lt__send_failed(const char *msg)
{
    lt__send_failure(LT_FAIL_OTHER, msg);
}
