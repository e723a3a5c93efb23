/* The frames litmus and a zygote exchange, as structs: INIT and RUN
 * (engine -> zygote) encoded and decoded, and every reply (zygote or
 * child -> engine) decoded.  Pure functions, no I/O: both ends and the
 * fuzzer call the same ones.  SPDX-License-Identifier: MIT */
#ifndef LT_RUNNERS_FRAMES_H
#define LT_RUNNERS_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "harness/wire.h"
#include "runners/runner.h"

/* Caps on what a zygote accepts in INIT, and the engine in READY. */
#define LT_INIT_MAX_ALLOW_READ 10000u
#define LT_INIT_MAX_ARGS 10000u
#define LT_INIT_MAX_SUBJECTS 100000u
#define LT_READY_MAX_TEST_IDS 1000000u

/*** INIT ***/

/* INIT's flags, handed to the shim's main() (runners/shim.py, through
 * the generated litmus_constants): a bare zygote (call evaluation, no
 * tests), the differential input generator preloaded, and the test
 * runner (enum lt_test_runner) in bits 2-3. */
enum lt_init_flags {
    LT_INIT_BARE = 1,
    LT_INIT_PRELOAD = 2,
    LT_INIT_RUNNER_SHIFT = 2,
    LT_INIT_RUNNER_MASK = 3,
};

/* A decoded INIT frame.  The strings are heap copies; a subject's
 * source points into the payload, which must outlive it. */
struct lt_init_frame {
    char *cwd, *scratch_base, *python, *path_prefix;
    int debug;
    int flags;        /* enum lt_init_flags */
    int no_view;
    uint32_t sandbox_uid, scratch_mb;
    char **allow_read;
    uint32_t n_allow_read;
    char **args;      /* the pytest arguments */
    uint32_t n_args;
    char **paths;     /* the subjects' paths ... */
    const char **sources; /* ... their sources (not NUL-terminated) ... */
    size_t *source_lens;  /* ... and the sources' lengths */
    uint32_t n_subjects;
};

/* Writes the INIT frame for cfg into w (initialised here, finished). */
void lt_init_frame_encode(struct lt_wire_writer *w,
                          const struct lt_runner_config *cfg);
/* Decodes an INIT payload into *f: 0, or LT_EPROTO for a payload that is
 * short, long, over a cap, or lacks a required field (an absolute
 * python, a non-zero sandbox uid).  Either way lt_init_frame_free()
 * releases what *f holds. */
int lt_init_frame_decode(const uint8_t *payload, size_t len,
                         struct lt_init_frame *f);
void lt_init_frame_free(struct lt_init_frame *f);

/*** RUN ***/

/* A decoded RUN frame; strings and test indices point into its payload. */
struct lt_run_frame {
    uint64_t token;
    int mode;
    uint32_t subject;
    uint64_t start, end;
    const char *repl;
    size_t repl_len;
    uint32_t n_tests;
    const uint8_t *tests; /* n_tests little-endian u32: lt_run_frame_test */
    int stop_first;
    uint64_t cpu_seconds, memory_bytes;
    uint32_t flags;
    const char *extra, *swap;
    size_t extra_len, swap_len;
};

/* Writes the RUN frame for req into w (initialised here, finished). */
void lt_run_frame_encode(struct lt_wire_writer *w,
                         const struct lt_run_request *req);
/* Decodes a RUN payload (from the engine, or relayed by a zygote to its
 * pre-import server): 0 or LT_EPROTO. */
int lt_run_frame_decode(const uint8_t *payload, size_t len,
                        struct lt_run_frame *q);
/* The i-th test index of a decoded RUN (i < q->n_tests). */
uint32_t lt_run_frame_test(const struct lt_run_frame *q, uint32_t i);

/*** Replies: zygote or child -> engine ***/

/* A string field: NULL when it could not be read. */
struct lt_reply_text {
    const char *s; /* into the payload, not NUL-terminated, none inside */
    size_t len;
};

/* (subject, line) pairs of COVERAGE and IMPORT_LINES, as sent. */
struct lt_line_pairs {
    const uint8_t *raw; /* n pairs of two little-endian u32 */
    uint32_t n;
};

/* A decoded reply.  A malformed frame still has its fields read as far
 * as the payload goes (the rest 0 or NULL), because the engine acts on
 * some of them before it refuses the frame: which, is its business. */
struct lt_reply {
    int type;          /* enum lt_frame_type */
    int fields_read;   /* 1: every field was read; 0: the payload ran
                          out or a string held a NUL first.  For
                          COVERAGE, IMPORT_LINES and READY: the fields
                          before the list, and a count the payload can
                          hold (READY: and within LT_READY_MAX_TEST_IDS) */
    union {
        struct { uint8_t status; struct lt_reply_text text; } applied;
        struct { uint32_t features; } sandboxed;
        struct { uint32_t pid; } worker;
        struct { uint32_t test; uint8_t bits; } needs;
        struct { uint32_t test; } test_start;
        struct {
            uint32_t test;
            uint8_t outcome;
            uint64_t ns, cpu_ns;
            struct lt_reply_text text;
        } test_result;
        struct {
            uint32_t test;
            uint64_t line_events;
            struct lt_line_pairs lines;
        } coverage;
        struct lt_reply_text tamper, call, record;
        struct {
            uint8_t cause; /* enum lt_fail_cause */
            struct lt_reply_text text;
        } failed;
        struct { uint32_t index; uint8_t phase; } probe;
        struct { uint64_t token; uint32_t pid, err; } started;
        struct {
            uint64_t token;
            uint32_t status;
            uint64_t maxrss_kb, utime_us, stime_us, wall_ns, minflt,
                majflt;
        } exited;
        struct { uint32_t pid; } cloned;
        struct {
            uint32_t features;
            struct lt_reply_text missing, desc;
        } view;
        struct { uint64_t ns; struct lt_line_pairs lines; } import_lines;
        struct {
            uint32_t features, n_ids;
            struct lt_wire_reader ids; /* positioned at the n_ids ids */
        } ready;
    };
};

/* Decodes the payload of a reply of `type` into *f.  0 when the payload
 * holds exactly that frame's fields; LT_EPROTO when it is short, long,
 * or of a type no zygote or child sends.  READY's ids are checked too,
 * yet left for the caller to read from f->ready.ids. */
int lt_reply_decode(int type, const uint8_t *payload, size_t len,
                    struct lt_reply *f);
/* Encodes *f as the frame it describes into w (initialised here; the
 * caller finishes and frees it): the one encoder of every reply, which a
 * zygote and a child send and the fuzzer checks the decoder against.
 * COVERAGE, IMPORT_LINES and READY take their lists in decoded form (raw
 * pairs, a reader at the ids); a zygote streams those lists itself.  0,
 * or LT_EPROTO for a type no zygote or child sends, or READY ids that do
 * not read. */
int lt_reply_encode(struct lt_wire_writer *w, const struct lt_reply *f);
/* A text field from a C string, at most cap bytes of it (NULL: none). */
struct lt_reply_text lt_reply_text_of(const char *s, size_t cap);
/* The k-th pair of a decoded list (k < p->n). */
void lt_line_pairs_get(const struct lt_line_pairs *p, uint32_t k,
                       uint32_t *subject, uint32_t *line);

#endif
