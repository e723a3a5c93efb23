/* The INIT and RUN codecs and the reply decoder of runners/frames.h:
 * bytes in, structs out, nothing else.  SPDX-License-Identifier: MIT */
#include "runners/frames.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/pyload.h"
#include "common/xmalloc.h"

/*** INIT ***/

/* Contract: see frames.h.  Zero settings become the defaults here, so a
 * zygote never sees a zero uid or scratch size. */
void lt_init_frame_encode(struct lt_wire_writer *w,
                          const struct lt_runner_config *cfg)
{
    lt_wire_writer_init(w, LT_FRAME_INIT);
    lt_wire_put_cstr(w, cfg->cwd);
    lt_wire_put_cstr(w, cfg->scratch_base);
    lt_wire_put_u8(w, (uint8_t)(cfg->debug != 0));
    lt_wire_put_u8(w, (uint8_t)((cfg->bare ? LT_INIT_BARE : 0) |
                                (cfg->preload_generator ? LT_INIT_PRELOAD
                                                        : 0) |
                                (cfg->runner & LT_INIT_RUNNER_MASK)
                                    << LT_INIT_RUNNER_SHIFT));
    lt_wire_put_cstr(w, cfg->python ? cfg->python : LT_PYTHON_DEFAULT);
    lt_wire_put_cstr(w, cfg->path_prefix ? cfg->path_prefix : "");
    lt_wire_put_u8(w, (uint8_t)(cfg->no_view != 0));
    lt_wire_put_u32(w, cfg->sandbox_uid ? cfg->sandbox_uid
                                        : LT_RUNNER_SANDBOX_UID);
    lt_wire_put_u32(w, cfg->scratch_mb ? cfg->scratch_mb
                                       : LT_RUNNER_SCRATCH_MB);
    lt_wire_put_u32(w, (uint32_t)cfg->n_allow_read);
    for (size_t i = 0; i < cfg->n_allow_read; i++)
        lt_wire_put_cstr(w, cfg->allow_read[i]);
    lt_wire_put_u32(w, (uint32_t)cfg->n_pytest_args);
    for (size_t i = 0; i < cfg->n_pytest_args; i++)
        lt_wire_put_cstr(w, cfg->pytest_args[i]);
    lt_wire_put_u32(w, (uint32_t)cfg->n_subjects);
    for (size_t i = 0; i < cfg->n_subjects; i++) {
        lt_wire_put_cstr(w, cfg->subjects[i].path);
        lt_wire_put_str(w, cfg->subjects[i].source, cfg->subjects[i].len);
    }
    lt_wire_finish(w);
}

/* A u32 count followed by that many strings, as heap copies (an entry
 * that cannot be read is NULL and marks r bad).  NULL when the count is
 * unreadable or over max. */
static char **get_strings(struct lt_wire_reader *r, uint32_t max,
                          uint32_t *n)
{
    *n = lt_wire_get_u32(r);
    if (r->bad || *n > max) {
        r->bad = 1;
        *n = 0;
        return NULL;
    }
    char **list = xcalloc(*n + 1, sizeof(char *));
    for (uint32_t i = 0; i < *n; i++)
        list[i] = lt_wire_get_strdup(r);
    return list;
}

/* Contract: see frames.h. */
int lt_init_frame_decode(const uint8_t *payload, size_t len,
                         struct lt_init_frame *f)
{
    memset(f, 0, sizeof(*f));
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, payload, len);
    f->cwd = lt_wire_get_strdup(&r);
    f->scratch_base = lt_wire_get_strdup(&r);
    f->debug = lt_wire_get_u8(&r);
    f->flags = lt_wire_get_u8(&r);
    f->python = lt_wire_get_strdup(&r);
    f->path_prefix = lt_wire_get_strdup(&r);
    f->no_view = lt_wire_get_u8(&r);
    f->sandbox_uid = lt_wire_get_u32(&r);
    f->scratch_mb = lt_wire_get_u32(&r);
    if (r.bad || f->sandbox_uid == 0)
        return LT_EPROTO;
    f->allow_read = get_strings(&r, LT_INIT_MAX_ALLOW_READ,
                                &f->n_allow_read);
    if (!r.bad)
        f->args = get_strings(&r, LT_INIT_MAX_ARGS, &f->n_args);
    if (r.bad)
        return LT_EPROTO;
    uint32_t nsub = lt_wire_get_u32(&r);
    if (r.bad || nsub > LT_INIT_MAX_SUBJECTS)
        return LT_EPROTO;
    f->n_subjects = nsub;
    f->paths = xcalloc(nsub + 1, sizeof(char *));
    f->sources = xcalloc(nsub + 1, sizeof(char *));
    f->source_lens = xcalloc(nsub + 1, sizeof(size_t));
    for (uint32_t i = 0; i < nsub; i++) {
        f->paths[i] = lt_wire_get_strdup(&r);
        f->sources[i] = lt_wire_get_str(&r, &f->source_lens[i]);
    }
    if (lt_wire_reader_done(&r) < 0 || !f->cwd || !f->scratch_base ||
        !f->python || f->python[0] != '/' || !f->path_prefix)
        return LT_EPROTO;
    return 0;
}

static void free_strings(char **list, uint32_t n)
{
    for (uint32_t i = 0; list && i < n; i++)
        free(list[i]);
    free(list);
}

void lt_init_frame_free(struct lt_init_frame *f)
{
    free(f->cwd);
    free(f->scratch_base);
    free(f->python);
    free(f->path_prefix);
    free_strings(f->allow_read, f->n_allow_read);
    free_strings(f->args, f->n_args);
    free_strings(f->paths, f->n_subjects);
    free(f->sources);
    free(f->source_lens);
    memset(f, 0, sizeof(*f));
}

/*** RUN ***/

void lt_run_frame_encode(struct lt_wire_writer *w,
                         const struct lt_run_request *req)
{
    lt_wire_writer_init(w, LT_FRAME_RUN);
    lt_wire_put_u64(w, req->token);
    lt_wire_put_u8(w, (uint8_t)req->mode);
    lt_wire_put_u32(w, req->subject);
    lt_wire_put_u64(w, req->start);
    lt_wire_put_u64(w, req->end);
    lt_wire_put_cstr(w, req->replacement);
    lt_wire_put_u32(w, (uint32_t)req->n_tests);
    for (size_t i = 0; i < req->n_tests; i++)
        lt_wire_put_u32(w, req->tests[i]);
    lt_wire_put_u8(w, (uint8_t)(req->stop_first != 0));
    lt_wire_put_u64(w, req->cpu_seconds);
    lt_wire_put_u64(w, req->memory_bytes);
    lt_wire_put_u32(w, req->flags);
    lt_wire_put_cstr(w, req->extra ? req->extra : "");
    lt_wire_put_str(w, req->swap ? (const char *)req->swap : "",
                    req->swap ? req->swap_len : 0);
    lt_wire_finish(w);
}

/* Contract: see frames.h. */
int lt_run_frame_decode(const uint8_t *payload, size_t len,
                        struct lt_run_frame *q)
{
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, payload, len);
    q->token = lt_wire_get_u64(&r);
    q->mode = lt_wire_get_u8(&r);
    q->subject = lt_wire_get_u32(&r);
    q->start = lt_wire_get_u64(&r);
    q->end = lt_wire_get_u64(&r);
    q->repl = lt_wire_get_str(&r, &q->repl_len);
    q->n_tests = lt_wire_get_u32(&r);
    if (r.bad || q->n_tests > r.left / 4)
        return LT_EPROTO;
    q->tests = r.p;
    for (uint32_t i = 0; i < q->n_tests; i++)
        (void)lt_wire_get_u32(&r);
    q->stop_first = lt_wire_get_u8(&r);
    q->cpu_seconds = lt_wire_get_u64(&r);
    q->memory_bytes = lt_wire_get_u64(&r);
    q->flags = lt_wire_get_u32(&r);
    q->extra = lt_wire_get_str(&r, &q->extra_len);
    q->swap = lt_wire_get_str(&r, &q->swap_len);
    return lt_wire_reader_done(&r) < 0 ? LT_EPROTO : 0;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

uint32_t lt_run_frame_test(const struct lt_run_frame *q, uint32_t i)
{
    return le32(q->tests + 4 * (size_t)i);
}

/*** Replies ***/

/* A string field; s is NULL when it could not be read or holds a NUL,
 * which marks r bad as lt_wire_get_strdup() does. */
static struct lt_reply_text get_text(struct lt_wire_reader *r)
{
    struct lt_reply_text t;
    t.s = lt_wire_get_str(r, &t.len);
    if (r->bad || memchr(t.s, '\0', t.len)) {
        r->bad = 1;
        t.s = NULL;
        t.len = 0;
    }
    return t;
}

/* A u32 count of (subject, line) pairs and the pairs; the count must fit
 * in what is left, else r is marked bad and the list left empty. */
static struct lt_line_pairs get_pairs(struct lt_wire_reader *r)
{
    struct lt_line_pairs p = {NULL, 0};
    uint32_t n = lt_wire_get_u32(r);
    if (r->bad || n > r->left / 8) {
        r->bad = 1;
        return p;
    }
    p.raw = r->p;
    p.n = n;
    for (uint32_t k = 0; k < 2 * n; k++)
        (void)lt_wire_get_u32(r);
    return p;
}

/* READY after its features: the ids must all be readable strings. */
static void get_ids(struct lt_wire_reader *r, struct lt_reply *f)
{
    f->ready.n_ids = lt_wire_get_u32(r);
    if (r->bad || f->ready.n_ids > LT_READY_MAX_TEST_IDS) {
        r->bad = 1;
        return;
    }
    f->ready.ids = *r;
    f->fields_read = 1;
    /* Each string takes at least 4 bytes, so a short payload stops the
     * walk long before a hostile count could. */
    for (uint32_t i = 0; i < f->ready.n_ids && !r->bad; i++)
        (void)get_text(r);
}

/* The fields of a reply on a child's result pipe; 0, or -1 for a type
 * no child sends. */
static int get_child_reply(struct lt_wire_reader *r, struct lt_reply *f)
{
    switch (f->type) {
    case LT_FRAME_APPLIED:
        f->applied.status = lt_wire_get_u8(r);
        f->applied.text = get_text(r);
        return 0;
    case LT_FRAME_SANDBOXED:
        f->sandboxed.features = lt_wire_get_u32(r);
        return 0;
    case LT_FRAME_WORKER:
        f->worker.pid = lt_wire_get_u32(r);
        return 0;
    case LT_FRAME_NEEDS:
        f->needs.test = lt_wire_get_u32(r);
        f->needs.bits = lt_wire_get_u8(r);
        return 0;
    case LT_FRAME_TEST_START:
        f->test_start.test = lt_wire_get_u32(r);
        return 0;
    case LT_FRAME_TEST_RESULT:
        f->test_result.test = lt_wire_get_u32(r);
        f->test_result.outcome = lt_wire_get_u8(r);
        f->test_result.ns = lt_wire_get_u64(r);
        f->test_result.cpu_ns = lt_wire_get_u64(r);
        f->test_result.text = get_text(r);
        return 0;
    case LT_FRAME_COVERAGE:
        f->coverage.test = lt_wire_get_u32(r);
        f->coverage.line_events = lt_wire_get_u64(r);
        f->coverage.lines = get_pairs(r);
        return 0;
    case LT_FRAME_END:
        return 0;
    case LT_FRAME_TAMPER:
        f->tamper = get_text(r);
        return 0;
    case LT_FRAME_CALL:
        f->call = get_text(r);
        return 0;
    case LT_FRAME_RECORD:
        f->record = get_text(r);
        return 0;
    case LT_FRAME_PROBE:
        f->probe.index = lt_wire_get_u32(r);
        f->probe.phase = lt_wire_get_u8(r);
        return 0;
    default:
        return -1;
    }
}

/* The fields of a reply on a zygote's socket (READY aside); 0, or -1
 * for a type no zygote sends. */
static int get_zygote_reply(struct lt_wire_reader *r, struct lt_reply *f)
{
    switch (f->type) {
    case LT_FRAME_FAILED:
        f->failed.cause = lt_wire_get_u8(r);
        f->failed.text = get_text(r);
        return 0;
    case LT_FRAME_STARTED:
        f->started.token = lt_wire_get_u64(r);
        f->started.pid = lt_wire_get_u32(r);
        f->started.err = lt_wire_get_u32(r);
        return 0;
    case LT_FRAME_EXITED:
        f->exited.token = lt_wire_get_u64(r);
        f->exited.status = lt_wire_get_u32(r);
        f->exited.maxrss_kb = lt_wire_get_u64(r);
        f->exited.utime_us = lt_wire_get_u64(r);
        f->exited.stime_us = lt_wire_get_u64(r);
        f->exited.wall_ns = lt_wire_get_u64(r);
        f->exited.minflt = lt_wire_get_u64(r);
        f->exited.majflt = lt_wire_get_u64(r);
        return 0;
    case LT_FRAME_CLONED:
        f->cloned.pid = lt_wire_get_u32(r);
        return 0;
    case LT_FRAME_VIEW:
        f->view.features = lt_wire_get_u32(r);
        f->view.missing = get_text(r);
        f->view.desc = get_text(r);
        return 0;
    case LT_FRAME_IMPORT_LINES:
        f->import_lines.ns = lt_wire_get_u64(r);
        f->import_lines.lines = get_pairs(r);
        return 0;
    default:
        return -1;
    }
}

/* Contract: see frames.h. */
int lt_reply_decode(int type, const uint8_t *payload, size_t len,
                    struct lt_reply *f)
{
    memset(f, 0, sizeof(*f));
    f->type = type;
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, payload, len);
    if (type == LT_FRAME_READY) {
        f->ready.features = lt_wire_get_u32(&r);
        get_ids(&r, f); /* sets fields_read itself */
        return lt_wire_reader_done(&r);
    }
    if (get_child_reply(&r, f) < 0 && get_zygote_reply(&r, f) < 0)
        return LT_EPROTO;
    f->fields_read = !r.bad;
    return lt_wire_reader_done(&r);
}

void lt_line_pairs_get(const struct lt_line_pairs *p, uint32_t k,
                       uint32_t *subject, uint32_t *line)
{
    *subject = le32(p->raw + 8 * (size_t)k);
    *line = le32(p->raw + 8 * (size_t)k + 4);
}

static void put_text(struct lt_wire_writer *w, struct lt_reply_text t)
{
    lt_wire_put_str(w, t.s ? t.s : "", t.s ? t.len : 0);
}

static void put_pairs(struct lt_wire_writer *w, const struct lt_line_pairs *l)
{
    lt_wire_put_u32(w, l->n);
    for (uint32_t k = 0; k < l->n; k++) {
        uint32_t subject, line;
        lt_line_pairs_get(l, k, &subject, &line);
        lt_wire_put_u32(w, subject);
        lt_wire_put_u32(w, line);
    }
}

/* Contract: see frames.h. */
struct lt_reply_text lt_reply_text_of(const char *s, size_t cap)
{
    return (struct lt_reply_text){s, s ? strnlen(s, cap) : 0};
}

/* Contract: see frames.h. */
int lt_reply_encode(struct lt_wire_writer *w, const struct lt_reply *f)
{
    lt_wire_writer_init(w, (enum lt_frame_type)f->type);
    switch (f->type) {
    case LT_FRAME_APPLIED:
        lt_wire_put_u8(w, f->applied.status);
        put_text(w, f->applied.text);
        return 0;
    case LT_FRAME_SANDBOXED:
        lt_wire_put_u32(w, f->sandboxed.features);
        return 0;
    case LT_FRAME_WORKER:
        lt_wire_put_u32(w, f->worker.pid);
        return 0;
    case LT_FRAME_NEEDS:
        lt_wire_put_u32(w, f->needs.test);
        lt_wire_put_u8(w, f->needs.bits);
        return 0;
    case LT_FRAME_TEST_START:
        lt_wire_put_u32(w, f->test_start.test);
        return 0;
    case LT_FRAME_TEST_RESULT:
        lt_wire_put_u32(w, f->test_result.test);
        lt_wire_put_u8(w, f->test_result.outcome);
        lt_wire_put_u64(w, f->test_result.ns);
        lt_wire_put_u64(w, f->test_result.cpu_ns);
        put_text(w, f->test_result.text);
        return 0;
    case LT_FRAME_COVERAGE:
        lt_wire_put_u32(w, f->coverage.test);
        lt_wire_put_u64(w, f->coverage.line_events);
        put_pairs(w, &f->coverage.lines);
        return 0;
    case LT_FRAME_END:
        return 0;
    case LT_FRAME_TAMPER:
        put_text(w, f->tamper);
        return 0;
    case LT_FRAME_CALL:
        put_text(w, f->call);
        return 0;
    case LT_FRAME_RECORD:
        put_text(w, f->record);
        return 0;
    case LT_FRAME_FAILED:
        lt_wire_put_u8(w, f->failed.cause);
        put_text(w, f->failed.text);
        return 0;
    case LT_FRAME_PROBE:
        lt_wire_put_u32(w, f->probe.index);
        lt_wire_put_u8(w, f->probe.phase);
        return 0;
    case LT_FRAME_STARTED:
        lt_wire_put_u64(w, f->started.token);
        lt_wire_put_u32(w, f->started.pid);
        lt_wire_put_u32(w, f->started.err);
        return 0;
    case LT_FRAME_EXITED:
        lt_wire_put_u64(w, f->exited.token);
        lt_wire_put_u32(w, f->exited.status);
        lt_wire_put_u64(w, f->exited.maxrss_kb);
        lt_wire_put_u64(w, f->exited.utime_us);
        lt_wire_put_u64(w, f->exited.stime_us);
        lt_wire_put_u64(w, f->exited.wall_ns);
        lt_wire_put_u64(w, f->exited.minflt);
        lt_wire_put_u64(w, f->exited.majflt);
        return 0;
    case LT_FRAME_CLONED:
        lt_wire_put_u32(w, f->cloned.pid);
        return 0;
    case LT_FRAME_VIEW:
        lt_wire_put_u32(w, f->view.features);
        put_text(w, f->view.missing);
        put_text(w, f->view.desc);
        return 0;
    case LT_FRAME_IMPORT_LINES:
        lt_wire_put_u64(w, f->import_lines.ns);
        put_pairs(w, &f->import_lines.lines);
        return 0;
    case LT_FRAME_READY: {
        /* The ids as a decoder left them: read from a copy of its reader. */
        struct lt_wire_reader ids = f->ready.ids;
        lt_wire_put_u32(w, f->ready.features);
        lt_wire_put_u32(w, f->ready.n_ids);
        for (uint32_t i = 0; i < f->ready.n_ids; i++) {
            char *id = lt_wire_get_strdup(&ids);
            if (!id)
                return LT_EPROTO;
            lt_wire_put_cstr(w, id);
            free(id);
        }
        return lt_wire_reader_done(&ids) < 0 ? LT_EPROTO : 0;
    }
    default:
        return LT_EPROTO;
    }
}
