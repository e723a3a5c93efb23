/* The operators' functions that need the interpreter live in
 * litmus-python.so, which is loaded into the user's libpython at run time
 * (common/pyload.h): these are their names on the engine's side.  Each
 * starts the interpreter first (the chosen one, else the default), so a
 * caller never has to.  SPDX-License-Identifier: MIT */
#include "operators/operators.h"

#include "common/err.h"
#include "common/pyload.h"

/* The module's function `name`, declared like ours, in a static pointer
 * `fn`; when the interpreter cannot be had, `fail` is returned. */
#define FORWARD(name, fail)                                                  \
    static __typeof__(name) *fn;                                             \
    if (!fn && (lt_operators_init() < 0 ||                                   \
                !(fn = (__typeof__(name) *)lt_python_sym(#name))))           \
    return fail

/* For the functions that free what the module made: without the module
 * loaded there is nothing of its to free. */
#define FORWARD_CLEAR(name)                                                  \
    static __typeof__(name) *fn;                                             \
    if (!fn && (!lt_python_loaded() ||                                       \
                !(fn = (__typeof__(name) *)lt_python_sym(#name))))           \
    return

int lt_operators_init(void)
{
    static int rc = 1; /* 1: not tried yet */
    if (rc <= 0)
        return rc;
    int (*start)(const char *) =
        (int (*)(const char *))lt_python_sym("lt_operators_start");
    rc = start ? start(lt_python_exe()) : LT_EPYTHON;
    return rc;
}

int lt_operators_generate(const char *file, const char *source, size_t len,
                          const char *opset, struct lt_mutant_list *out,
                          char **errmsg)
{
    FORWARD(lt_operators_generate, LT_EPYTHON);
    return fn(file, source, len, opset, out, errmsg);
}

int lt_dataset_call(const char *name, const char *args, char **out,
                    size_t *out_len, char **errmsg)
{
    FORWARD(lt_dataset_call, LT_EPYTHON);
    return fn(name, args, out, out_len, errmsg);
}

int lt_analyse(const char *path, const char *source, size_t len,
               const struct lt_change *changes, size_t n,
               struct lt_change_analysis *out)
{
    FORWARD(lt_analyse, LT_EPYTHON);
    return fn(path, source, len, changes, n, out);
}

int lt_analyse_swaps(const char *path, const char *source, size_t len,
                     const struct lt_change *changes, size_t n,
                     struct lt_change_analysis *out, size_t *swap_budget)
{
    FORWARD(lt_analyse_swaps, LT_EPYTHON);
    return fn(path, source, len, changes, n, out, swap_budget);
}

int lt_code_fingerprint(const char *path, const char *source, size_t len,
                        char out[17])
{
    FORWARD(lt_code_fingerprint, LT_EPYTHON);
    return fn(path, source, len, out);
}

int lt_changed_spans(const char *path, const char *source, const char *other,
                     long **spans, size_t *n)
{
    *spans = NULL;
    *n = 0;
    FORWARD(lt_changed_spans, LT_EPYTHON);
    return fn(path, source, other, spans, n);
}

int lt_code_import_digest(const char *path, const char *source, size_t len,
                          const long *lines, size_t n_lines,
                          const char *funcs, struct lt_import_digest *out)
{
    FORWARD(lt_code_import_digest, LT_EPYTHON);
    return fn(path, source, len, lines, n_lines, funcs, out);
}

void lt_import_digest_clear(struct lt_import_digest *d)
{
    FORWARD_CLEAR(lt_import_digest_clear);
    fn(d);
}

int lt_rebind_payload(const char *path, const char *source, size_t len,
                      const struct lt_mutant *m, uint8_t **out,
                      size_t *out_len)
{
    FORWARD(lt_rebind_payload, LT_EPYTHON);
    return fn(path, source, len, m, out, out_len);
}

int lt_readers_scan(const char *root, char *const *subjects,
                    size_t n_subjects, struct lt_readers_index **out)
{
    FORWARD(lt_readers_scan, LT_EPYTHON);
    return fn(root, subjects, n_subjects, out);
}

int lt_readers_for(struct lt_readers_index *ix, size_t subject, int line,
                   int end_line, struct lt_readers *out)
{
    FORWARD(lt_readers_for, LT_EPYTHON);
    return fn(ix, subject, line, end_line, out);
}

void lt_readers_clear(struct lt_readers *r)
{
    FORWARD_CLEAR(lt_readers_clear);
    fn(r);
}

void lt_readers_index_free(struct lt_readers_index *ix)
{
    FORWARD_CLEAR(lt_readers_index_free);
    fn(ix);
}
