/* The wire format between litmus, its zygotes and their children:
 * length-prefixed frames of typed fields.  Everything read from a zygote
 * or a child is hostile input: capped, bounds-checked, rejected rather
 * than repaired.  SPDX-License-Identifier: MIT */
#ifndef LT_HARNESS_WIRE_H
#define LT_HARNESS_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/framebuf.h"
#include "lt_py_constants.h" /* generated: the Python's own values */

/* A frame is: u32 little-endian length N of what follows, u8 type, then
 * N-1 bytes of payload.  Payload fields are u8, u32, u64 (little-endian)
 * and strings (u32 length + bytes, no NUL). */
#define LT_WIRE_MAX_FRAME (8u << 20) /* control frames (sources, lists) */
#define LT_WIRE_MAX_CHILD_FRAME (64u << 10) /* anything a child may send */
#define LT_WIRE_MAX_FDS 4

enum lt_frame_type {
    /* litmus -> zygote */
    LT_FRAME_INIT = 1,       /* settings, subject files and their sources */
    LT_FRAME_RUN = 2,        /* run one job; carries result and output fds */
    LT_FRAME_QUIT = 3,
    LT_FRAME_CLONE = 4,      /* an idle ready zygote forks a copy of
                                itself (u32 scratch instance); carries
                                the copy's socket to litmus.  Also from
                                a zygote to its pre-import server. */
    /* zygote -> litmus */
    LT_FRAME_READY = 10,     /* collected test ids */
    LT_FRAME_FAILED = 11,    /* collection or start-up failed: u8 cause
                                (enum lt_fail_cause), message */
    LT_FRAME_STARTED = 12,   /* child pid */
    LT_FRAME_EXITED = 13,    /* wait status and resource usage */
    LT_FRAME_CLONED = 16,    /* a copy's first frame: u32 its pid; it is
                                ready (its tests are its origin's) */
    LT_FRAME_VIEW = 15,      /* before READY: the file-system view (u32
                                features, why it is missing or "", the
                                view's description) */
    LT_FRAME_IMPORT_LINES = 14, /* before READY: subject lines executed
                                   while the subjects and the tests were
                                   imported and collected */
    /* child -> litmus, on the result pipe */
    LT_FRAME_APPLIED = 20,   /* how applying the mutant went */
    LT_FRAME_SANDBOXED = 21, /* sandbox features in force */
    LT_FRAME_TEST_START = 22,
    LT_FRAME_TEST_RESULT = 23,
    LT_FRAME_END = 24,       /* every selected test ran; clean end */
    LT_FRAME_COVERAGE = 25,  /* baseline: lines one test executed */
    LT_FRAME_TAMPER = 26,    /* untrusted run: a guard fired; what */
    LT_FRAME_CALL = 27,      /* a captured call into the subject (base64) */
    LT_FRAME_PROBE = 28,     /* u32 input index, u8 phase: about to call */
    LT_FRAME_RECORD = 29,    /* one JSON record of a call evaluation */
    LT_FRAME_NEEDS = 30,     /* baseline, before a TEST_RESULT: u32 test,
                                u8 LT_NEEDS_* bits: what the test used
                                that only process mode allows */
    LT_FRAME_WORKER = 31,    /* process mode, first: u32 host pid of the
                                worker that runs the tests (a child of
                                the child), whose CPU counts */
};

/* What a test needed (LT_FRAME_NEEDS). */
enum lt_test_needs {
    LT_NEEDS_PROCESSES = 1, /* it started a process */
    LT_NEEDS_NETWORK = 2,   /* it opened a non-unix socket or connected */
    LT_NEEDS_UNTRACED = 4,  /* subject code may have run in a process of
                               its own whose lines were not traced (a
                               fork, an isolated interpreter, one that
                               ended without reporting) */
    LT_NEEDS_LINE_TRACER = 8, /* not the test's but the process's: its
                                 lines came from the line tracer, as
                                 sys.monitoring (3.12 on) refused litmus
                                 its tool id; sent once per process */
};

/* Outcome of one test in a child. */
enum lt_test_outcome {
    LT_TEST_PASSED = 0,
    LT_TEST_FAILED = 1,
    LT_TEST_SKIPPED = 2,
    LT_TEST_MEMORY = 3, /* failed with MemoryError */
};

/* How applying a mutant went (LT_FRAME_APPLIED), as runners/shim.py
 * reports it. */
enum lt_apply_status {
    LT_APPLY_OK = LT_PY_SHIM_APPLY_OK,
    LT_APPLY_INVALID = LT_PY_SHIM_APPLY_INVALID, /* does not compile */
    LT_APPLY_RAISED = LT_PY_SHIM_APPLY_RAISED,   /* module-level code raised
                                                    on re-execution */
    LT_APPLY_EQUIVALENT = LT_PY_SHIM_APPLY_EQUIVALENT, /* the original's
                                                          code objects */
};

/* Why a zygote could not start or collect (LT_FRAME_FAILED), as
 * runners/shim.py tells it: the engine's choices follow it, the message
 * says it to the user. */
enum lt_fail_cause {
    LT_FAIL_OTHER = LT_PY_SHIM_FAIL_OTHER,
    /* pytest could not collect a suite that looks like unittest's (no
     * pytest settings; the files that failed import unittest): the
     * unittest runner may collect it (score's automatic runner). */
    LT_FAIL_UNITTEST_SUITE = LT_PY_SHIM_FAIL_UNITTEST_SUITE,
    /* A module the tests, their plugins or pytest need cannot be
     * imported in the interpreter's environment: the message names the
     * module, the interpreter and where it was looked for. */
    LT_FAIL_IMPORT = LT_PY_SHIM_FAIL_IMPORT,
};

/*** Encoding ***/

struct lt_wire_writer {
    uint8_t *data;
    size_t len, cap;
};

void lt_wire_writer_init(struct lt_wire_writer *w, enum lt_frame_type type);
void lt_wire_put_u8(struct lt_wire_writer *w, uint8_t v);
void lt_wire_put_u32(struct lt_wire_writer *w, uint32_t v);
void lt_wire_put_u64(struct lt_wire_writer *w, uint64_t v);
void lt_wire_put_str(struct lt_wire_writer *w, const char *s, size_t n);
void lt_wire_put_cstr(struct lt_wire_writer *w, const char *s);
/* Raw bytes, no length prefix: a payload relayed as it came. */
void lt_wire_put_bytes(struct lt_wire_writer *w, const void *p, size_t n);
/* Patches the length prefix; the frame is data[0..len). */
void lt_wire_finish(struct lt_wire_writer *w);
void lt_wire_writer_free(struct lt_wire_writer *w);

/* Writes a finished frame, retrying on EINTR and short writes; fds, if
 * any, travel as SCM_RIGHTS with the first byte.  0 or -errno. */
int lt_wire_send(int fd, const struct lt_wire_writer *w, const int *fds,
                 int nfds);

/*** Decoding ***/

struct lt_wire_reader {
    const uint8_t *p;
    size_t left;
    int bad; /* set by any read past the end; all later reads give 0 */
};

void lt_wire_reader_init(struct lt_wire_reader *r, const void *payload,
                         size_t len);
uint8_t lt_wire_get_u8(struct lt_wire_reader *r);
uint32_t lt_wire_get_u32(struct lt_wire_reader *r);
uint64_t lt_wire_get_u64(struct lt_wire_reader *r);
/* Points into the payload (not NUL-terminated); *n gets the length. */
const char *lt_wire_get_str(struct lt_wire_reader *r, size_t *n);
/* Heap copy, NUL-terminated; NULL if bad.  Strings with NUL are bad. */
char *lt_wire_get_strdup(struct lt_wire_reader *r);
/* 0 if every read was in bounds and the payload is used up exactly. */
int lt_wire_reader_done(const struct lt_wire_reader *r);

/* Blocking receive of one frame of at most `max` bytes from a trusted-ish
 * peer (a zygote).  *payload (caller frees) and *len get the payload; up
 * to LT_WIRE_MAX_FDS received fds go to fds[] with their count in *nfds
 * (pass NULL to refuse fds: any received are closed).  Returns the frame
 * type (> 0), 0 on clean EOF before a frame, or a negative code. */
int lt_wire_recv(int fd, size_t max, uint8_t **payload, size_t *len,
                 int *fds, int *nfds);

/* Incremental decoder for a non-blocking, hostile stream (a child's result
 * pipe): feed what read() returned, then pop whole frames. */
struct lt_wire_decoder {
    struct lt_framebuf in; /* start: past the frame last popped */
    size_t max;            /* largest accepted frame */
};

void lt_wire_decoder_init(struct lt_wire_decoder *d, size_t max);
void lt_wire_decoder_feed(struct lt_wire_decoder *d, const void *p, size_t n);
/* 1 and a frame (payload points into the decoder, valid until the next
 * feed), 0 when no whole frame is buffered, LT_EPROTO when the
 * stream is malformed (oversized or zero-length frame). */
int lt_wire_decoder_pop(struct lt_wire_decoder *d, int *type,
                        const uint8_t **payload, size_t *len);
void lt_wire_decoder_free(struct lt_wire_decoder *d);

#endif
