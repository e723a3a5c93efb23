/* The tests that can observe a mutant of module-level or import-time
 * code.  Per-test coverage cannot tell who depends on a line that ran
 * once, at import, before any test: such a mutant used to run every
 * test.  The operators' readers index (operators/readers.py) names the
 * code that reads what the mutated statement binds; the tests that
 * executed a line of that code, or live in a test module that reads it,
 * are the ones that can see the change.  Every other test passes on the
 * mutant as on the original code, so running it decides nothing.  When
 * that cannot be known (the index answers all, a reader ran at import
 * itself, the runner is not pytest) the mutant runs every test as
 * before.  The mutant's child still imports and collects afresh, so a
 * mutant that breaks the import is still killed.
 * SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/buf.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/jobs/score/score_internal.h"
#include "operators/operators.h"

/* The test time (wide mutants x the suite's time) below which the index
 * is not worth reading the tree for. */
#define READERS_WORTH_MS 3000.0

/* 1 when a line of the mutant ran while the tests were imported and
 * collected: every test depends on it, and swapping code after the
 * import would miss what it did then, so it runs on a fresh import. */
int lt__baseline_at_import(const struct baseline *b, const struct lt_mutant *m,
                           size_t file)
{
    for (int l = m->line; b->at_import && l <= m->end_line; l++)
        if (l >= 0 && (size_t)l <= b->n_lines[file] && b->at_import[file][l])
            return 1;
    return 0;
}

static int cmp_narrow(const void *a, const void *b)
{
    const struct narrow *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return (x->end_line > y->end_line) - (x->end_line < y->end_line);
}

static const struct narrow *find_narrow(const struct baseline *b,
                                        size_t file, int line, int end_line)
{
    if (!b->n_narrow)
        return NULL;
    struct narrow probe = {.file = file, .line = line, .end_line = end_line};
    return bsearch(&probe, b->narrow, b->n_narrow, sizeof(*b->narrow),
                   cmp_narrow);
}

const unsigned char *lt__baseline_narrow(const struct baseline *b,
                                         size_t file, int line, int end_line)
{
    const struct narrow *hit = find_narrow(b, file, line, end_line);
    return hit ? hit->mark : NULL;
}

/* The file of a pytest node id ("tests/test_x.py::test_y[1]"), made
 * absolute against cwd, or NULL. */
static char *nodeid_file(const char *cwd, const char *id)
{
    const char *sep = strstr(id, "::");
    if (!sep || sep == id)
        return NULL;
    char *rel = xstrndup(id, (size_t)(sep - id));
    char *abs = rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", cwd, rel);
    free(rel);
    char *real = realpath(abs, NULL);
    free(abs);
    return real;
}

/* pytest's default names of test modules; any other file that holds
 * tests (doctests of a module, text files) may read anything. */
static int test_module_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    return (strncmp(base, "test_", 5) == 0 && n > 8 &&
            strcmp(base + n - 3, ".py") == 0) ||
           (n > 8 && strcmp(base + n - 8, "_test.py") == 0);
}

/* The text of the files tests live in, read once each. */
struct test_texts {
    char **path, **text; /* text NULL: unreadable */
    size_t n;
};

static const char *test_text(struct test_texts *tt, const char *path)
{
    for (size_t i = 0; i < tt->n; i++)
        if (strcmp(tt->path[i], path) == 0)
            return tt->text[i];
    tt->path = xrealloc(tt->path, (tt->n + 1) * sizeof(char *));
    tt->text = xrealloc(tt->text, (tt->n + 1) * sizeof(char *));
    size_t len = 0;
    tt->path[tt->n] = xstrdup(path);
    tt->text[tt->n] = NULL;
    if (lt_read_file(path, &tt->text[tt->n], &len) < 0)
        tt->text[tt->n] = NULL;
    return tt->text[tt->n++];
}

/* 1 when a test outside the test modules, in the file at path (a
 * doctest), may read one of the names: it runs in the globals of its
 * module, which may be the mutated one, and reads others only by
 * naming them in its text. */
static int doctest_reads(struct test_texts *tt, const char *path,
                         const char *mutated, const struct lt_readers *rd)
{
    if (strcmp(path, mutated) == 0)
        return 1;
    const char *text = test_text(tt, path);
    if (!text)
        return 1;
    for (size_t k = 0; k < rd->n_names; k++)
        if (strstr(text, rd->names[k]))
            return 1;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 when the test with pytest node id `id`, in the test module at the
 * absolute path tfile, is one of the answer's skip list: "PATH::QUAL"
 * with QUAL the id's part after the file, up to its first '[' (the
 * parameters), made of identifiers joined by "::" only.  Any other id
 * (a doctest's, one with another shape) is never skipped. */
static int skipped(const struct lt_readers *rd, const char *tfile,
                   const char *id)
{
    if (!rd->n_skip)
        return 0;
    const char *rest = strstr(id, "::");
    if (!rest)
        return 0;
    rest += 2;
    size_t len = strcspn(rest, "[");
    if (!len)
        return 0;
    for (size_t k = 0; k < len; k++) {
        char c = rest[k];
        if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9'))
            continue;
        if (c == ':' && k + 1 < len && rest[k + 1] == ':') {
            k++;
            continue;
        }
        return 0;
    }
    char *key = xasprintf("%s::%.*s", tfile, (int)len, rest);
    int hit = bsearch(&key, rd->skip, rd->n_skip, sizeof(*rd->skip),
                      cmp_str) != NULL;
    free(key);
    return hit;
}

/* Marks the tests that can observe the answer r for mutant m of file
 * `mutated`; 0, or -1 when they cannot be known (every test then
 * runs). */
static int mark_readers(const struct score_run *r, const struct lt_readers *rd,
                        const struct lt_mutant *m, size_t file,
                        char **test_files, struct test_texts *tt,
                        unsigned char *mark)
{
    const char *mutated = r->plan.files[file].path;
    const struct baseline *b = &r->base;
    const struct lt_suite *suite = r->suite;
    size_t nt = suite->n_tests;
    for (size_t s = 0; s < rd->n_spans; s++) {
        const struct lt_reader_span *sp = &rd->spans[s];
        if (sp->subject >= b->n_files || sp->first < 1)
            return -1;
        /* The body of the mutated function itself, which ran at import
         * (that is why it is asked about): the tests that call it. */
        int own = sp->subject == file && sp->first <= m->line &&
                  m->end_line <= sp->last;
        for (int l = sp->first; l <= sp->last; l++) {
            if ((size_t)l > b->n_lines[sp->subject])
                break;
            /* A reader that ran at import read the name before any test:
             * what it made of it is out of this answer's sight.  (A span
             * starts at the body; a one-line def's body shares the def's
             * line, which runs at import: such a reader counts as ran.) */
            if (b->at_import[sp->subject][l] && !own && !sp->followed)
                return -1;
            const struct line_tests *lt = &b->by_line[sp->subject][l];
            for (size_t k = 0; k < lt->n; k++)
                mark[lt->tests[k]] = 1;
        }
    }
    for (size_t i = 0; i < nt; i++) {
        const char *tfile = test_files[i];
        /* Tests whose file is not known, and tests whose own processes
         * ran untraced, can read anything. */
        if (!tfile || (b->needs[i] & LT_NEEDS_UNTRACED)) {
            mark[i] = 1;
            continue;
        }
        if (!test_module_name(tfile)) {
            mark[i] = (unsigned char)doctest_reads(tt, tfile, mutated, rd);
            continue;
        }
        for (size_t k = 0; k < rd->n_test_files && !mark[i]; k++)
            mark[i] = strcmp(rd->test_files[k], tfile) == 0 &&
                      !skipped(rd, tfile, suite->test_ids[i]);
    }
    return 0;
}

/* Every queued mutant of the statement at [line, end_line] of file that
 * only rebinds names no import-time code reads: its statement, executed
 * again in the imported module, is its payload, and it needs no fresh
 * import.  A structural change that a swap of functions cannot place
 * had no payload before. */
static void rebind_all(struct score_run *r, size_t file, int line,
                       int end_line)
{
    const struct lt_plan *plan = &r->plan;
    for (size_t q = 0; q < r->n_queue; q++) {
        size_t i = r->queue[q];
        const struct lt_mutant *m = &plan->mutants.items[i];
        if (plan->mutant_file[i] != file || m->line != line ||
            m->end_line != end_line)
            continue;
        uint8_t *payload = NULL;
        size_t len = 0;
        if (lt_rebind_payload(plan->files[file].path, plan->files[file].source,
                              plan->files[file].len, m, &payload, &len) < 0 ||
            !payload)
            continue;
        free(r->mp[i].a.swap);
        r->mp[i].a.swap = payload;
        r->mp[i].a.swap_len = len;
        r->mp[i].rebind = 1;
    }
}

void lt__baseline_readers(struct score_run *r)
{
    const struct lt_score_opts *o = r->o;
    const struct lt_plan *plan = &r->plan;
    struct baseline *b = &r->base;
    const struct lt_suite *suite = r->suite;
    if (r->runner != LT_TEST_RUNNER_PYTEST || o->full_matrix)
        return;
    /* Only the queued wide mutants ask; none, no scan. */
    size_t wide = 0;
    for (size_t q = 0; q < r->n_queue; q++) {
        size_t i = r->queue[q];
        wide += r->mp[i].a.structural ||
                lt__baseline_at_import(b, &plan->mutants.items[i],
                                       plan->mutant_file[i]);
    }
    /* Reading the tree costs about a second on a large one; a mutant
     * that runs every test of a quick suite costs less.  Worth it only
     * when the wide mutants' runs of every test would cost more. */
    double suite_ms = 0;
    for (size_t i = 0; i < suite->n_tests; i++)
        if (b->runnable[i])
            suite_ms += b->wall_ms[i];
    if (!wide || (double)wide * suite_ms < READERS_WORTH_MS) {
        if (wide)
            lt_debug("readers: %zu wide mutants of a %.0f ms suite: every "
                     "test, no index", wide, suite_ms);
        return;
    }
    char **subjects = xcalloc(plan->n_files + 1, sizeof(char *));
    for (size_t f = 0; f < plan->n_files; f++)
        subjects[f] = plan->files[f].path;
    struct lt_readers_index *ix = NULL;
    int rc = lt_readers_scan(r->cwd ? r->cwd : ".", subjects, plan->n_files,
                             &ix);
    free(subjects);
    if (rc < 0) {
        lt_debug("readers: no index (%s): import-time mutants run every "
                 "test", lt_strerror(rc));
        return;
    }
    char **test_files = xcalloc(suite->n_tests + 1, sizeof(char *));
    for (size_t i = 0; i < suite->n_tests; i++)
        test_files[i] = nodeid_file(r->cwd ? r->cwd : ".",
                                    suite->test_ids[i]);
    struct test_texts tt = {0};
    b->narrow = xcalloc(wide + 1, sizeof(*b->narrow));
    size_t narrowed = 0, all = 0;
    for (size_t q = 0; q < r->n_queue; q++) {
        size_t i = r->queue[q];
        const struct lt_mutant *m = &plan->mutants.items[i];
        size_t file = plan->mutant_file[i];
        if (!r->mp[i].a.structural && !lt__baseline_at_import(b, m, file))
            continue;
        if (find_narrow(b, file, m->line, m->end_line))
            continue; /* asked already */
        struct lt_readers rd;
        memset(&rd, 0, sizeof(rd));
        unsigned char *mark = xcalloc(suite->n_tests + 1, 1);
        if (lt_readers_for(ix, file, m->line, m->end_line, &rd) < 0 ||
            rd.all ||
            mark_readers(r, &rd, m, file, test_files, &tt, mark) < 0) {
            lt_debug("readers: %s:%d: every test (%s)",
                     plan->files[file].path, m->line,
                     rd.all && rd.why ? rd.why : "a reader ran at import");
            free(mark);
            mark = NULL; /* kept as asked: every test */
            all++;
        } else {
            narrowed++;
            size_t n_marked = 0, n_runnable = 0;
            for (size_t t = 0; t < suite->n_tests; t++) {
                n_runnable += b->runnable[t] != 0;
                n_marked += mark[t] && b->runnable[t];
            }
            lt_debug("readers: %s:%d: %zu of %zu tests (%zu spans, %zu "
                     "test modules)", plan->files[file].path, m->line,
                     n_marked, n_runnable, rd.n_spans, rd.n_test_files);
            if (rd.rebind)
                rebind_all(r, file, m->line, m->end_line);
        }
        b->narrow[b->n_narrow++] = (struct narrow){
            .file = file, .line = m->line, .end_line = m->end_line,
            .mark = mark};
        qsort(b->narrow, b->n_narrow, sizeof(*b->narrow), cmp_narrow);
        lt_readers_clear(&rd);
    }
    for (size_t i = 0; i < suite->n_tests; i++)
        free(test_files[i]);
    free(test_files);
    for (size_t i = 0; i < tt.n; i++) {
        free(tt.path[i]);
        free(tt.text[i]);
    }
    free(tt.path);
    free(tt.text);
    lt_readers_index_free(ix);
    lt_debug("readers: %zu statements narrowed, %zu run every test",
             narrowed, all);
}
