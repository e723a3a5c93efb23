/* `litmus patches` on repositories (docs/patches.md, "Repository
 * candidates"): a candidate is a diff on a project at a commit.  Each
 * instance gets a worktree (base + test patch) and one lane of zygotes
 * there, with the pytest of its environment, the test patch's files and
 * the wider suite collected once; every run is a forked child with the
 * diff's files put in place (LT_RUN_FILES), untrusted and sandboxed.
 * Runs: the base (the empty diff), the reference fix, the wider suite on
 * the reference (with coverage), then each distinct candidate diff.
 * Verdicts: resolved as the SWE-bench harness decides it (FAIL_TO_PASS
 * and PASS_TO_PASS), then the wider suite against the reference, then
 * similarity to the reference.  SPDX-License-Identifier: MIT */
#include "engine/engine.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "engine/core/exe.h"
#include "engine/core/exit.h"
#include "engine/core/pyenv.h"
#include "engine/jobs/patches/patches_internal.h"
#include "engine/jobs/patches/patches_store.h"
#include "engine/jobs/patches/repo_internal.h"
#include "operators/operators.h"
#include "sandbox/sandbox.h"

#ifdef LT_HAVE_SIMILARITY
#include "engine/similarity/similarity.h"
#endif

#define SETUP_TIMEOUT 900.0   /* s for a base or reference run */
#define WIDER_FACTOR 6.0      /* the wider run's CPU s: this x --wider-budget, */
#define WIDER_MIN 60.0        /* ... and at least this */
#define ZYGOTE_TIMEOUT 600.0  /* s for a zygote to import and collect */
#define BATCH_WRITES 32
#define MAX_LISTED 50         /* test ids listed in a verdict's evidence */
#define DIFF_TIMEOUT 300.0    /* s of wall time for a differential job */
#define CALL_CONST 0.25       /* s added to a differential call's limit */
#define MAX_EXTRA (7u << 20)  /* a RUN frame holds at most 8 MiB */

/* Run flags: every run is of a diff's files, untrusted (the reference and
 * the base alike: one path, one set of walls), in process mode (the
 * tests may start processes, which see the diff's files). */
#define RF_RUN (LT_RUN_UNTRUSTED | LT_RUN_PROCESSES | LT_RUN_FILES)
#define RF_CAND (RF_RUN | LT_RUN_GUARD_EACH | LT_RUN_CHECK_EQ)

/* R_CONFIRM: the reference's files run on a candidate's very list of
 * tests, when the candidate fails wider-suite tests the reference passed
 * in its own wider run (kept in the candidate's result, as a merged
 * shard keeps it). */
enum rkind { R_BASE, R_REF, R_WIDER, R_CAND, R_DIFF, R_MUT, R_PROBE,
             R_CONFIRM };

struct rtask {
    struct lt_task task;
    enum rkind kind;
    struct rinst *in;
    struct rover *ov;
    size_t mut;               /* R_MUT: its entry in the layer's sample */
    int side, round;          /* R_PROBE: 0 the reference's files, 1 the
                                 candidate's; the first or second round */
    int waited;               /* ran again: its first run met the
                                 wall-clock limit within its CPU budget */
};

#define WAITED_WALL 4.0       /* the wall-clock limit of such a second run,
                                 times the first's */

#define MUT_RUN_S 0.05        /* s a mutant's child costs besides its tests */
#define PROBE_TESTS_MAX 30.0  /* CPU s of the instance's tests, at most, for
                                 the probe layer */
#define PROBE_CPU 20.0        /* CPU s a probe run may add (runners/probe.py
                                 spends at most 10 s of wall time) */

/*** Small helpers ***/

static const char *jstr(const json_t *o, const char *key)
{
    const json_t *v = o ? json_object_get(o, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static double jnum(const json_t *o, const char *key, double dflt)
{
    const json_t *v = o ? json_object_get(o, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : dflt;
}

/* The status of node id in a run's evidence: "passed", "failed",
 * "skipped", or "missing" (not reported: not collected, or the run ended
 * before it). */
static const char *status_of(const json_t *res, const char *id)
{
    const char *s = jstr(json_object_get(res, "status"), id);
    return s ? s : "missing";
}

/* The harness's rules (SWE-bench grading): a test passes when it PASSED
 * or XFAILed; it fails when it FAILED, ERRORed or is missing; a skip is
 * neither (pytest reports an xfail as a skip here: neither fails). */
static int failed(const char *st)
{
    return strcmp(st, "failed") == 0 || strcmp(st, "missing") == 0;
}

/*** The store ***/

static void store_layer(struct repo_run *r, struct rinst *in,
                        const char *sha, const char *layer, json_t *v)
{
    if (lt_exec_write(&r->ex) < 0)
        return;
    char *s = json_dumps(v, JSON_COMPACT);
    int rc = s ? lt_store_put_candidate_result(r->st, in->key, sha, layer, s)
               : LT_EUSAGE;
    free(s);
    lt_exec_wrote(&r->ex, rc);
}

static json_t *load_layer(struct repo_run *r, struct rinst *in,
                          const char *sha, const char *layer)
{
    char *s = NULL;
    if (lt_store_get_candidate_result(r->st, in->key, sha, layer, &s) < 0 ||
        !s)
        return NULL;
    json_t *v = json_loads(s, 0, NULL);
    free(s);
    return v;
}

/* The store's layer of a diff's run: the base's, the reference's and the
 * candidates' apart (a candidate may be the reference's very diff). */
static const char *layer_of(const struct rover *ov)
{
    return ov->is_base ? "base" : ov->is_ref ? "ref" : "repo";
}

/* The layer of a diff's mutation state: apart from its runs', so that
 * shards that each ran the reference's mutants merge into one row. */
static const char *mut_layer_of(const struct rover *ov)
{
    return ov->is_ref ? "ref_mut" : "mut";
}

/*** An instance's tests ***/

/* The file part of a node id, as a heap string. */
static char *id_file(const char *id)
{
    const char *sep = strstr(id, "::");
    return xstrndup(id, sep ? (size_t)(sep - id) : strlen(id));
}

/* Whether array a holds a value equal to v. */
static int array_holds(const json_t *a, const json_t *v)
{
    size_t i;
    const json_t *w;
    json_array_foreach(a, i, w) {
        if (json_equal(w, v))
            return 1;
    }
    return 0;
}

/* Whether node id names the test want (--tests in the CI form) or a
 * test under it: a class or module prefix, or the test with parameters. */
static int names_node(const char *want, const char *id)
{
    size_t wl = strlen(want);
    return strncmp(id, want, wl) == 0 &&
           (!id[wl] || strncmp(id + wl, "::", 2) == 0 || id[wl] == '[');
}

/* The instance's test ids matched to the collected node ids:
 * {"f2p": {id: [node ids]}, "p2p": {...}, "main": [...], "wider": [...]},
 * stored under the "map" layer so that a run resumed from the store
 * decides without a zygote. */
static json_t *build_map(struct rinst *in, const struct lt_suite *suite)
{
    json_t *map = json_object();
    const struct strv *lists[2] = {&in->f2p, &in->p2p};
    static const char *const names[2] = {"f2p", "p2p"};
    for (int l = 0; l < 2; l++) {
        json_t *o = json_object();
        for (size_t i = 0; i < lists[l]->n; i++) {
            uint32_t *idx = NULL;
            size_t n = 0;
            lt__rt_match_id(in, suite->test_ids, suite->n_tests,
                            lists[l]->v[i], &idx, &n);
            json_t *a = json_array();
            for (size_t k = 0; k < n; k++)
                json_array_append_new(a, json_string(suite->test_ids[idx[k]]));
            json_object_set_new(o, lists[l]->v[i], a);
            free(idx);
        }
        json_object_set_new(map, names[l], o);
    }
    json_t *main_ids = json_array(), *wider = json_array();
    for (size_t i = 0; i < suite->n_tests; i++) {
        char *file = id_file(suite->test_ids[i]);
        if (lt__strv_has(&in->test_files, file))
            json_array_append_new(main_ids, json_string(suite->test_ids[i]));
        else if (lt__strv_has(&in->wider_files, file))
            json_array_append_new(wider, json_string(suite->test_ids[i]));
        free(file);
    }
    /* The node ids --tests names (the CI form): a test, or every test
     * under a class or module prefix. */
    for (size_t i = 0; i < in->named.n; i++) {
        const char *want = in->named.v[i];
        size_t found = 0;
        for (size_t t = 0; t < suite->n_tests; t++) {
            const char *id = suite->test_ids[t];
            if (!names_node(want, id))
                continue;
            found++;
            json_t *v = json_string(id);
            if (!array_holds(main_ids, v))
                json_array_append(main_ids, v);
            json_decref(v);
        }
        if (!found)
            lt_warn("--tests %s: no such test collected", want);
    }
    /* Listed tests outside the test patch's files run with them. */
    for (int l = 0; l < 2; l++) {
        const char *k;
        json_t *a;
        json_object_foreach(json_object_get(map, names[l]), k, a) {
            size_t i;
            json_t *v;
            json_array_foreach(a, i, v) {
                if (!array_holds(main_ids, v))
                    json_array_append(main_ids, v);
            }
        }
    }
    /* A listed test in a wider-suite file runs once, as a main test. */
    json_t *rest = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(wider, i, v) {
        if (!array_holds(main_ids, v))
            json_array_append(rest, v);
    }
    json_decref(wider);
    if (in->ci && !(in->patch && *in->patch)) {
        /* Without a reference, a main test that fails at the base is
         * meant to pass only when the tests' diff adds or changes it (or
         * --tests names it): another one fails for a reason of its own
         * (a test that needs the network), which no candidate is asked
         * to mend. */
        size_t n = json_array_size(main_ids);
        char **ids = xcalloc(n + 1, sizeof(char *));
        json_array_foreach(main_ids, i, v)
            ids[i] = (char *)json_string_value(v);
        unsigned char *touched = xcalloc(n + 1, 1);
        lt__rt_touched_tests(in, in->test_patch ? in->test_patch : "", ids,
                             n, touched);
        json_t *t = json_array();
        for (size_t k = 0; k < n; k++) {
            int named = 0;
            for (size_t m = 0; m < in->named.n && !named; m++)
                named = names_node(in->named.v[m], ids[k]);
            if (touched[k] || named)
                json_array_append_new(t, json_string(ids[k]));
        }
        free(touched);
        free(ids);
        json_object_set_new(map, "touched", t);
    }
    json_object_set_new(map, "main", main_ids);
    json_object_set_new(map, "wider", rest);
    return map;
}

/* Indices (in the suite) of the node ids of array ids. */
static uint32_t *indices_of(const struct lt_suite *suite, const json_t *ids,
                            size_t *n)
{
    uint32_t *out = xcalloc(json_array_size(ids) + 1, sizeof(uint32_t));
    *n = 0;
    size_t i;
    const json_t *v;
    json_array_foreach(ids, i, v) {
        for (size_t t = 0; t < suite->n_tests; t++)
            if (strcmp(suite->test_ids[t], json_string_value(v)) == 0) {
                out[(*n)++] = (uint32_t)t;
                break;
            }
    }
    return out;
}

/* Indices of the main tests for a probe run: the FAIL_TO_PASS tests
 * first (the calls that show the fix, observed before the probes'
 * budget runs out on the tests of the rest of their files), the
 * instance's and those computed here (here_f2p: node ids; the CI form's
 * only list), then the others in their order. */
static uint32_t *probe_order(const struct lt_suite *suite,
                             const json_t *map, const json_t *here_f2p,
                             size_t *n)
{
    size_t n_main = 0;
    uint32_t *main_idx = indices_of(suite, json_object_get(map, "main"),
                                    &n_main);
    uint32_t *out = xcalloc(n_main + 1, sizeof(uint32_t));
    char *first = xcalloc(suite->n_tests + 1, 1);
    *n = 0;
    const char *id;
    json_t *ids;
    json_t *lists = json_array();
    json_object_foreach(json_object_get(map, "f2p"), id, ids)
        json_array_append(lists, ids);
    if (here_f2p)
        json_array_append(lists, (json_t *)here_f2p);
    size_t l;
    json_array_foreach(lists, l, ids) {
        size_t m = 0;
        uint32_t *idx = indices_of(suite, ids, &m);
        for (size_t i = 0; i < m; i++)
            for (size_t k = 0; k < n_main; k++)
                if (main_idx[k] == idx[i] && !first[idx[i]]) {
                    first[idx[i]] = 1;
                    out[(*n)++] = idx[i];
                }
        free(idx);
    }
    json_decref(lists);
    for (size_t k = 0; k < n_main; k++)
        if (!first[main_idx[k]])
            out[(*n)++] = main_idx[k];
    free(first);
    free(main_idx);
    return out;
}

/*** Evidence of a run ***/

static const char *outcome_name(int out)
{
    switch (out) {
    case LT_TEST_PASSED:
        return "passed";
    case LT_TEST_SKIPPED:
        return "skipped";
    default:
        return "failed";
    }
}

/* What a run showed: every reported test's status, why it ended early
 * (when it did), how applying went, its times; coverage: the tests that
 * executed a line of a changed file. */
static json_t *run_evidence(const struct lt_suite *suite,
                            const struct lt_run_report *j,
                            int coverage)
{
    double ms = ((j->exited_at > 0 ? j->exited_at : lt__now()) -
                 j->started_at) * 1000.0;
    json_t *o = json_object();
    json_t *st = json_object(), *cpu = json_object();
    double cpu_total = 0;
    for (size_t k = 0; j->seen && k < j->n_tests; k++) {
        uint32_t t = j->tests[k];
        if (!j->seen[t] || t >= suite->n_tests)
            continue;
        json_object_set_new(st, suite->test_ids[t],
                            json_string(outcome_name(j->test_outcome[t])));
        double c = j->test_cpu_ns[t] / 1e6;
        cpu_total += c;
        json_object_set_new(cpu, suite->test_ids[t],
                            json_real(round(c * 1000) / 1000));
    }
    json_object_set_new(o, "status", st);
    json_object_set_new(o, "cpu_ms", cpu);
    json_object_set_new(o, "cpu_ms_total", json_real(cpu_total));
    json_object_set_new(o, "duration_ms", json_real(ms));
    json_t *end = lt__pe_run_end(suite, j, ms);
    json_object_set_new(o, "end", end ? end : json_null());
    if (j->apply_text)
        json_object_set_new(o, "applied", json_string(j->apply_text));
    if (j->fail_test >= 0 && (size_t)j->fail_test < suite->n_tests &&
        j->fail_text) {
        json_t *ft = json_string(j->fail_text);
        json_object_set_new(o, "first_failure",
                            json_pack("{s:s, s:o}", "test",
                                      suite->test_ids[j->fail_test], "text",
                                      ft ? ft : json_string("?")));
    }
    if (j->n_calls) {
        json_t *calls = json_array();
        for (size_t i = 0; i < j->n_calls; i++)
            json_array_append_new(calls, json_string(j->calls[i]));
        json_object_set_new(o, "calls", calls);
    }
    if (coverage) {
        json_t *cov = json_array();
        for (size_t k = 0; j->cov && k < j->n_tests; k++) {
            uint32_t t = j->tests[k];
            if (t < j->n_cov && j->cov[t].n)
                json_array_append_new(cov, json_string(suite->test_ids[t]));
        }
        json_object_set_new(o, "covered", cov);
    }
    return o;
}

/*** Decisions ***/

/* The tests of a list (the instance's f2p or p2p, through the map) that
 * the reference does not pass here: the environment's, not the
 * candidate's; they are left out of both decisions. */
static int ref_fails(const json_t *ref, const char *node)
{
    return ref && failed(status_of(ref, node));
}

/* Checks the instance's list `name` on run res: appends failing node ids
 * to fails, the ids dropped because the reference fails them to
 * dropped.  Returns the number of listed tests that count. */
static size_t check_list(const json_t *map, const char *name,
                         const json_t *res, const json_t *ref, json_t *fails,
                         json_t *dropped)
{
    size_t counted = 0;
    const char *id;
    json_t *nodes;
    json_object_foreach(json_object_get(map, name), id, nodes) {
        if (json_array_size(nodes) == 0) {
            /* Not collected here: missing, which fails, as the harness
             * would count it, unless the reference misses it too. */
            if (ref) {
                json_array_append_new(dropped, json_string(id));
                continue;
            }
            counted++;
            json_array_append_new(fails, json_string(id));
            continue;
        }
        size_t i;
        json_t *n;
        json_array_foreach(nodes, i, n) {
            const char *node = json_string_value(n);
            if (ref_fails(ref, node)) {
                json_array_append_new(dropped, json_string(node));
                continue;
            }
            counted++;
            if (failed(status_of(res, node)))
                json_array_append_new(fails, json_string(node));
        }
    }
    return counted;
}

/* The lists computed again here, from the base and the reference:
 * fail-to-pass and pass-to-pass among the main tests; the differences
 * from the instance's lists are reported.  Without a reference (the CI
 * form may have none) every main test is meant to pass: those failing
 * at the base are fail-to-pass, when the tests' diff adds or changes
 * them (the map's "touched"; every one when the map has none). */
static json_t *recompute(const json_t *map, const json_t *base,
                         const json_t *ref)
{
    json_t *f2p = json_array(), *p2p = json_array();
    const json_t *touched = json_object_get(map, "touched");
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(map, "main"), i, v) {
        const char *node = json_string_value(v);
        const char *b = status_of(base, node);
        if (ref ? strcmp(status_of(ref, node), "passed") != 0
                : strcmp(b, "passed") != 0 &&
                      (!failed(b) || (touched && !array_holds(touched, v))))
            continue;
        json_array_append_new(strcmp(b, "passed") == 0 ? p2p : f2p,
                              json_string(node));
    }
    return json_pack("{s:o, s:o}", "f2p", f2p, "p2p", p2p);
}

/* Node ids of a list of the map, flattened. */
static json_t *flat(const json_t *map, const char *name)
{
    json_t *out = json_array();
    const char *id;
    json_t *nodes;
    json_object_foreach(json_object_get(map, name), id, nodes) {
        size_t i;
        json_t *n;
        json_array_foreach(nodes, i, n)
            json_array_append(out, n);
    }
    return out;
}

static int in_array(const json_t *a, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v)
        if (strcmp(json_string_value(v), s) == 0)
            return 1;
    return 0;
}

/* Ids of a that are not in b (at most MAX_LISTED). */
static json_t *minus(const json_t *a, const json_t *b)
{
    json_t *out = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v)
        if (!in_array(b, json_string_value(v)) &&
            json_array_size(out) < MAX_LISTED)
            json_array_append(out, v);
    return out;
}

/* The comparison of the instance's lists with those computed here. */
static json_t *lists_report(const json_t *map, const json_t *re)
{
    json_t *f = flat(map, "f2p"), *p = flat(map, "p2p");
    json_t *o = json_pack(
        "{s:i, s:i, s:i, s:i, s:o, s:o, s:o, s:o}", "f2p_instance",
        (json_int_t)json_object_size(json_object_get(map, "f2p")),
        "p2p_instance",
        (json_int_t)json_object_size(json_object_get(map, "p2p")),
        "f2p_here", (json_int_t)json_array_size(json_object_get(re, "f2p")),
        "p2p_here", (json_int_t)json_array_size(json_object_get(re, "p2p")),
        "f2p_only_instance", minus(f, json_object_get(re, "f2p")),
        "f2p_only_here", minus(json_object_get(re, "f2p"), f),
        "p2p_only_instance", minus(p, json_object_get(re, "p2p")),
        "p2p_only_here", minus(json_object_get(re, "p2p"), p));
    json_decref(f);
    json_decref(p);
    return o;
}

/* The text of path among a diff's files, or NULL. */
#define DIFF_FILES_MAX 4   /* package files of a fix compared together */

/* The lines a unified diff adds or removes in the file at rel. */
static size_t changed_lines(const char *diff, const char *rel)
{
    size_t n = 0, len = strlen(rel);
    int in_file = 0;
    for (const char *l = diff; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t ll = e ? (size_t)(e - l) : strlen(l);
        if (ll >= 6 && strncmp(l, "+++ ", 4) == 0)
            in_file = ll - 6 == len && strncmp(l + 6, rel, len) == 0;
        else if (in_file && ll > 0 && (l[0] == '+' || l[0] == '-') &&
                 strncmp(l, "--- ", 4) != 0)
            n++;
        l = e ? e + 1 : NULL;
    }
    return n;
}

/* Differential execution compares the package module the reference
 * changes most (by lines), a Python module of the base tree; the other
 * modules it changes (at most DIFF_FILES_MAX in all) are loaded beside
 * it on each side, so that the compared file sees its own side's. */
static void choose_diff_files(struct rinst *in)
{
    size_t n = json_array_size(in->ref_ov ? in->ref_ov->files : NULL);
    if (n == 0 || n > DIFF_FILES_MAX)
        return;
    json_t *mods = json_array();
    size_t best = 0, best_lines = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *pair = json_array_get(in->ref_ov->files, i);
        const char *abs = json_string_value(json_array_get(pair, 0));
        struct stat sb;
        char *mod = lt__rt_module_of(abs + strlen(in->tree) + 1);
        if (!mod || !json_is_string(json_array_get(pair, 1)) ||
            stat(abs, &sb) != 0) {
            /* A new or deleted module: the sides cannot be told apart by
             * loading the base's others. */
            free(mod);
            json_decref(mods);
            return;
        }
        size_t lines = changed_lines(in->patch, abs + strlen(in->tree) + 1);
        if (json_array_size(mods) == 0 || lines > best_lines) {
            best = json_array_size(mods);
            best_lines = lines;
        }
        json_array_append_new(mods, json_pack("[s,s]", abs, mod));
        free(mod);
    }
    json_t *primary = json_array_get(mods, best);
    in->diff_path = xstrdup(json_string_value(json_array_get(primary, 0)));
    in->diff_module = xstrdup(json_string_value(json_array_get(primary, 1)));
    json_array_remove(mods, best);
    in->diff_also = mods;
}

/* The [path, text or null] entry of ov's files for path, or NULL. */
static const json_t *file_entry(const struct rover *ov, const char *path)
{
    size_t i;
    json_t *pair;
    json_array_foreach(ov ? ov->files : NULL, i, pair)
        if (strcmp(json_string_value(json_array_get(pair, 0)), path) == 0)
            return pair;
    return NULL;
}

static const char *file_text(const struct rover *ov, const char *path)
{
    return json_string_value(json_array_get(file_entry(ov, path), 1));
}

/* A side's text of a loaded file: the diff's, else the base tree's
 * (NULL when it cannot be read; with deleted, NULL and *deleted set when
 * the diff deletes it).  The caller frees it. */
static char *text_or_base(const struct rover *ov, const char *path,
                          int *deleted)
{
    const json_t *e = file_entry(ov, path);
    const char *t = json_string_value(json_array_get(e, 1));
    if (t)
        return xstrdup(t);
    if (deleted && e) {
        *deleted = 1;
        return NULL;
    }
    char *base = NULL;
    size_t len = 0;
    return lt_read_file(path, &base, &len) == 0 ? base : NULL;
}

/* Whether candidate ov leaves the file at path as the reference has it.
 * The reference changes every file compared, so a candidate that leaves
 * one at the base's text differs there (no need to read it). */
static int same_text(const struct rinst *in, const struct rover *ov,
                     const char *path)
{
    const char *mine = file_text(ov, path), *ref = file_text(in->ref_ov,
                                                             path);
    return mine && ref && strcmp(mine, ref) == 0;
}

/* Whether candidate ov is compared with the reference by differential
 * execution: both change the one package file alone, differently; its
 * run completed and no main test that passes with the reference fails
 * with it (a candidate that fails is decided by its tests). */
/* Whether a resolved candidate is one the reference can be compared
 * with at all: both ran their tests and none of the instance's tests
 * that pass with the reference fails with it. */
static int main_holds(const struct rinst *in, const struct rover *ov,
                      const json_t *map)
{
    if (!in->ref_ov || !in->ref_ov->result || !ov->result ||
        !json_is_null(json_object_get(ov->result, "end")))
        return 0;
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(map, "main"), i, t) {
        const char *node = json_string_value(t);
        if (strcmp(status_of(in->ref_ov->result, node), "passed") == 0 &&
            failed(status_of(ov->result, node)))
            return 0;
    }
    return 1;
}

static int comparable(const struct rinst *in, const struct rover *ov,
                      const json_t *map)
{
    return in->diff_path && main_holds(in, ov, map);
}

/* The wider tests candidate run res ran (the choice depends on measured
 * times: another run's, a merged shard's, may differ). */
static const json_t *wider_ran(const json_t *res, const json_t *map)
{
    const json_t *chosen = json_object_get(res, "wider_ran");
    return chosen ? chosen : json_object_get(map, "wider_chosen");
}

/* The reference's run on candidate run res's very list of tests, when
 * it completed (an error says nothing of the tests). */
static const json_t *confirm_of(const json_t *res)
{
    const json_t *c = json_object_get(res, "wider_confirm");
    const char *st = c ? jstr(json_object_get(c, "end"), "status") : NULL;
    return c && !(st && strcmp(st, "error") == 0) ? c : NULL;
}

/* The wider-suite tests of chosen that pass in the reference's wider run
 * and fail in candidate run res (at most MAX_LISTED); with confirm, only
 * those that pass there too.  The wider run has the wider tests alone,
 * the candidate's has the instance's tests before them: a test that
 * depends on what ran before it (a registry the instance's tests fill)
 * fails after them on either side, and is no witness.  *both counts
 * those. */
static json_t *wider_witnesses(const json_t *wider, const json_t *res,
                               const json_t *chosen, const json_t *confirm,
                               size_t *both)
{
    json_t *witness = json_array();
    size_t i;
    json_t *t;
    if (both)
        *both = 0;
    json_array_foreach(chosen, i, t) {
        const char *node = json_string_value(t);
        if (strcmp(status_of(wider, node), "passed") != 0 ||
            !failed(status_of(res, node)))
            continue;
        if (confirm && strcmp(status_of(confirm, node), "passed") != 0) {
            if (both)
                (*both)++;
            continue;
        }
        if (json_array_size(witness) < MAX_LISTED)
            json_array_append(witness, t);
    }
    return witness;
}

/* Whether candidate ov's wider-suite witnesses wait for the reference's
 * run on the same list. */
static int confirm_wanted(const struct rinst *in, const struct rover *ov,
                          const json_t *map)
{
    if (!main_holds(in, ov, map))
        return 0;
    if (json_object_get(ov->result, "wider_confirm"))
        return 0; /* run (an error too: not asked again) */
    json_t *w = wider_witnesses(json_object_get(in->ref_ov->result, "wider"),
                                ov->result, wider_ran(ov->result, map), NULL,
                                NULL);
    int want = json_array_size(w) > 0;
    json_decref(w);
    return want;
}

/* Whether path is one of the files the reference changes that the
 * differential child loads (the compared one and its others). */
static int reference_file(const struct rinst *in, const char *path)
{
    int known = strcmp(path, in->diff_path) == 0;
    size_t k;
    json_t *a;
    json_array_foreach(in->diff_also, k, a)
        known |= strcmp(path, json_string_value(json_array_get(a, 0))) == 0;
    return known;
}

/* Whether candidate ov changes a loaded file away from the reference's
 * text. */
static int differs_in_reference_files(const struct rinst *in,
                                      const struct rover *ov)
{
    int differs = !same_text(in, ov, in->diff_path);
    size_t i;
    json_t *a;
    json_array_foreach(in->diff_also, i, a)
        differs |= !same_text(in, ov, json_string_value(json_array_get(a, 0)));
    return differs;
}

static int diff_eligible(const struct rinst *in, const struct rover *ov,
                         const json_t *map)
{
    if (!comparable(in, ov, map))
        return 0;
    /* Every file the candidate changes is loaded in the differential
     * child (the compared one and the reference's others), and one of
     * them differs from the reference's. */
    size_t i;
    json_t *t;
    json_array_foreach(ov->files, i, t)
        if (!reference_file(in, json_string_value(json_array_get(t, 0))))
            return 0;
    return differs_in_reference_files(in, ov);
}

/* The module name of entry t of a candidate's files ([path, text]) when
 * it is a package module the candidate changes (not deletes) and the
 * reference leaves alone, else NULL.  The caller frees it. */
static char *candidate_only_module(const struct rinst *in, const json_t *t)
{
    const char *abs = json_string_value(json_array_get(t, 0));
    size_t tl = strlen(in->tree);
    if (!abs || !json_is_string(json_array_get(t, 1)) ||
        reference_file(in, abs) || strncmp(abs, in->tree, tl) != 0 ||
        abs[tl] != '/')
        return NULL;
    return lt__rt_module_of(abs + tl + 1);
}

/* [[module, path, base text, candidate's text]] of the package modules
 * that candidate ov changes and the reference leaves alone (an existing
 * module, changed, not deleted): the probes observe their functions too,
 * the reference's run having the base's. */
static json_t *candidate_only_files(const struct rinst *in,
                                    const struct rover *ov)
{
    json_t *out = json_array();
    size_t i;
    json_t *t;
    json_array_foreach(ov->files, i, t) {
        char *mod = candidate_only_module(in, t);
        const char *abs = json_string_value(json_array_get(t, 0));
        const char *mine = json_string_value(json_array_get(t, 1));
        char *base = NULL;
        size_t len = 0;
        if (mod && lt_read_file(abs, &base, &len) == 0 &&
            strcmp(base, mine) != 0)
            json_array_append_new(out, json_pack("[s,s,s,s]", mod, abs, base,
                                                 mine));
        free(base);
        free(mod);
    }
    return out;
}

/* Whether the probes can compare candidate ov with the reference: it
 * changes a file the reference changes away from the reference's text,
 * or a module the reference leaves alone (which differential execution,
 * loading only the reference's files, cannot judge).  Asked at every
 * step of the instance: no file is read. */
static int probe_eligible(const struct rinst *in, const struct rover *ov,
                          const json_t *map)
{
    if (!comparable(in, ov, map))
        return 0;
    if (differs_in_reference_files(in, ov))
        return 1;
    size_t i;
    json_t *t;
    json_array_foreach(ov->files, i, t) {
        char *mod = candidate_only_module(in, t);
        int found = mod != NULL;
        free(mod);
        if (found)
            return 1;
    }
    return 0;
}

struct rverdict {
    const char *verdict, *reason;
    char *detail;
    json_t *ev;
    int resolved;             /* the harness's decision */
};

/* A layer that compares the candidate with the reference (differential
 * execution, the probes) and found a witness: the candidate is
 * overfitting; 1 when so. */
static int differs_by(const json_t *layer, struct rverdict *v, json_t *ev)
{
    const char *st = jstr(layer, "status");
    if (!st || strcmp(st, "witness") != 0)
        return 0;
    v->verdict = "overfitting";
    v->reason = "differs_from_reference";
    v->detail = xasprintf("resolved, but differs from the reference fix: %s",
                          jstr(layer, "detail") ? jstr(layer, "detail") : "");
    json_object_set(ev, "witness", json_object_get(layer, "witness"));
    return 1;
}

/* Whether every test of ids passes in res (lists computed here). */
static size_t count_fails(const json_t *ids, const json_t *res, json_t *out)
{
    size_t n = 0;
    size_t i;
    json_t *v;
    json_array_foreach(ids, i, v)
        if (failed(status_of(res, json_string_value(v)))) {
            n++;
            if (out && json_array_size(out) < MAX_LISTED)
                json_array_append(out, v);
        }
    return n;
}

/* The verdict of candidate c from its run and its instance's runs. */
static void decide(const struct repo_run *r, const struct rcand *c,
                   const json_t *map, struct rverdict *v)
{
    const struct lt_patches_opts *o = r->o;
    const struct rinst *in = c->inst;
    const struct rover *ov = c->ov;
    const json_t *base = in->base_ov->result;
    const json_t *ref = in->ref_ov ? in->ref_ov->result : NULL;
    /* The wider run: the reference's, else (the CI form without one)
     * the base's. */
    const json_t *wider = json_object_get(ref ? ref : base, "wider");
    json_t *ev = v->ev = json_object();
    v->resolved = 0;
    v->detail = NULL;
    json_object_set_new(ev, "instance_id", json_string(in->id));
    json_object_set_new(ev, "applied_with",
                        ov->how ? json_string(ov->how) : json_null());
    json_object_set_new(ev, "changed", json_incref(ov->changed));
    if (json_array_size(ov->notes) || json_array_size(c->dropped)) {
        json_t *lo = json_deep_copy(ov->notes);
        json_array_extend(lo, c->dropped);
        json_object_set_new(ev, "left_out", lo);
    }
    if (!ov->applied) {
        v->verdict = "invalid";
        v->reason = "does_not_apply";
        v->detail = xasprintf("the diff does not apply at %.12s: %s",
                              in->base, ov->apply_error);
        return;
    }
    /* A pull request that only adds or changes tests: its tests decide
     * on the code as it is, the base's run. */
    int tests_only = ov->empty && c->tests_only && base;
    if (ov->empty && !tests_only) {
        v->verdict = "invalid";
        v->reason = "empty_patch";
        v->detail = xstrdup("the diff is empty");
        return;
    }
    const json_t *res = tests_only ? base : ov->result;
    const json_t *end = json_object_get(res, "end");
    json_object_set_new(ev, "duration_ms",
                        json_real(jnum(res, "duration_ms", 0)));
    if (json_is_object(end)) {
        const char *st = jstr(end, "status");
        json_object_set(ev, "end", (json_t *)end);
        if (st && strcmp(st, "error") == 0) {
            v->verdict = "error";
            v->reason = "engine_error";
            v->detail = xstrdup(jstr(end, "detail") ? jstr(end, "detail")
                                                    : "");
            return;
        }
        if (st && (strcmp(st, "syntax") == 0 || strcmp(st, "tamper") == 0 ||
                   strcmp(st, "import_error") == 0)) {
            v->verdict = "invalid";
            v->reason = st;
            v->detail = xstrdup(jstr(end, "detail") ? jstr(end, "detail")
                                                    : "");
            return;
        }
    }
    /* Resolved: the instance's lists, less what the reference fails
     * here. */
    json_t *fails = json_array(), *dropped = json_array();
    size_t f2p_counted = check_list(map, "f2p", res, ref, fails, dropped);
    size_t counted = f2p_counted + check_list(map, "p2p", res, ref, fails,
                                              dropped);
    json_t *re = recompute(map, base, ref);
    json_t *re_fails = json_array();
    size_t re_n = count_fails(json_object_get(re, "f2p"), res, re_fails) +
                  count_fails(json_object_get(re, "p2p"), res, re_fails);
    /* The harness decides by the instance's lists, an empty FAIL_TO_PASS
     * too (then PASS_TO_PASS alone decides). */
    size_t n_f2p = json_object_size(json_object_get(map, "f2p"));
    int by_instance =
        !in->ci && (n_f2p || json_object_size(json_object_get(map, "p2p")));
    /* Lists computed here decide when a test fails at the base and
     * passes with the fix; without a reference, when the main tests all
     * pass (a change whose tests already passed is still checked). */
    v->resolved = by_instance
                      ? json_array_size(fails) == 0
                      : re_n == 0 &&
                            (json_array_size(json_object_get(re, "f2p")) ||
                             (!ref && json_array_size(
                                          json_object_get(re, "p2p"))));
    json_object_set_new(ev, "resolved", json_boolean(v->resolved));
    json_object_set_new(ev, "resolved_here_lists", json_boolean(re_n == 0));
    json_object_set_new(
        ev, "decided_by",
        json_string(by_instance ? (json_array_size(dropped)
                                       ? "instance lists, less the tests the "
                                         "reference fails here"
                                       : "instance lists")
                                : "lists computed here"));
    if (json_array_size(dropped))
        json_object_set_new(ev, "dropped_tests", json_incref(dropped));
    json_object_set_new(ev, "failing",
                        json_incref(by_instance ? fails : re_fails));
    json_object_set_new(ev, "tests_counted",
                        json_integer((json_int_t)(by_instance ? counted
                                                              : 0)));
    json_decref(re);
    if (by_instance && n_f2p && f2p_counted == 0) {
        /* The reference fails (or misses) every FAIL_TO_PASS test here:
         * this environment cannot run the instance's tests, and nothing
         * here says whether a candidate resolves it. */
        const json_t *ff = json_object_get(ref, "first_failure");
        const char *first = ff && jstr(ff, "test")
                                ? jstr(ff, "test")
                                : json_string_value(json_array_get(dropped, 0));
        const char *why = ff && jstr(ff, "text") ? jstr(ff, "text")
                          : first            ? status_of(ref, first)
                                             : NULL;
        v->resolved = 0;
        json_object_set_new(ev, "resolved", json_false());
        v->verdict = "error";
        v->reason = "environment";
        v->detail = xasprintf(
            "the reference fix fails every FAIL_TO_PASS test here (first "
            "%s: %s): this environment does not run the instance's tests",
            first ? first : "?", why && *why ? why : "not collected");
        json_decref(dropped);
        json_decref(fails);
        json_decref(re_fails);
        return;
    }
    json_decref(dropped);
    json_t *fl = by_instance ? fails : re_fails;
    if (!v->resolved) {
        v->verdict = "invalid";
        const char *st = json_is_object(end) ? jstr(end, "status") : NULL;
        /* The run ended early (its own status is the reason) rather than
         * with failing tests. */
        int cut = st && (strcmp(st, "timeout") == 0 ||
                         strcmp(st, "crash") == 0);
        v->reason = cut ? st : "fails_tests";
        const char *first = json_array_size(fl)
                                ? json_string_value(json_array_get(fl, 0))
                                : "?";
        const json_t *ff = json_object_get(res, "first_failure");
        const char *why = ff && jstr(ff, "test") &&
                                  strcmp(jstr(ff, "test"), first) == 0
                              ? jstr(ff, "text")
                              : status_of(res, first);
        v->detail = cut ? xstrdup(jstr(end, "detail") ? jstr(end, "detail")
                                                    : st)
                    : !json_array_size(fl)
                        ? xstrdup(ref ? "no test fails at the base and "
                                        "passes with the reference here: "
                                        "no test decides"
                                      : "no test ran")
                        : xasprintf("%zu listed test(s) fail; first %s: %s",
                                    json_array_size(fl), first,
                                    why ? why : "failed");
        json_decref(fails);
        json_decref(re_fails);
        return;
    }
    json_decref(fails);
    json_decref(re_fails);
    if (tests_only) {
        v->verdict = "correct";
        v->reason = "passes";
        v->detail = xstrdup("changes only tests, which pass on the code as "
                            "it is");
        return;
    }
    /* The wider suite: a test that passes on the reference and fails on
     * the candidate is a witness. */
    const json_t *chosen = wider_ran(res, map);
    const json_t *confirm = confirm_of(res);
    size_t on_both = 0;
    json_t *witness = wider_witnesses(wider, res, chosen, confirm, &on_both);
    json_t *wev = json_pack("{s:i, s:O}", "tests",
                            (json_int_t)json_array_size(chosen), "failing",
                            witness);
    if (on_both)
        /* They fail on the reference too after the instance's tests. */
        json_object_set_new(wev, "failing_on_reference_too",
                            json_integer((json_int_t)on_both));
    const char *wst = jstr(json_object_get(wider, "end"), "status");
    if (wst && strcmp(wst, "timeout") == 0)
        /* The wider run stopped at its budget: the choice is among the
         * tests it reached. */
        json_object_set_new(wev, "searched_until_budget",
                            json_integer((json_int_t)json_object_size(
                                json_object_get(wider, "status"))));
    json_object_set_new(ev, "wider", wev);
    if (json_array_size(witness)) {
        const char *first = json_string_value(json_array_get(witness, 0));
        const json_t *ff = json_object_get(res, "first_failure");
        const char *why = ff && jstr(ff, "test") &&
                                  strcmp(jstr(ff, "test"), first) == 0
                              ? jstr(ff, "text")
                              : status_of(res, first);
        if (!ref) {
            /* No reference: the suite covering the changed files is
             * PASS_TO_PASS, and a test of it that passed at the base
             * fails. */
            v->resolved = 0;
            json_object_set_new(ev, "resolved", json_false());
            v->verdict = "invalid";
            v->reason = "fails_tests";
            v->detail = xasprintf("%zu test(s) of the suite that covers the "
                                  "changed files pass at the base and fail; "
                                  "first %s: %s",
                                  json_array_size(witness), first,
                                  why ? why : "failed");
            json_decref(witness);
            return;
        }
        v->verdict = "overfitting";
        v->reason = "fails_wider_suite";
        v->detail = xasprintf("resolved, but %zu test(s) of the wider suite "
                              "that pass with the reference fix fail; "
                              "first %s: %s",
                              json_array_size(witness), first,
                              why ? why : "failed");
        json_object_set_new(ev, "witness",
                            json_pack("{s:s, s:s, s:s}", "test", first,
                                      "reference", "passed", "candidate",
                                      why ? why : "failed"));
        json_decref(witness);
        return;
    }
    json_decref(witness);
    /* Differential execution of the tests' calls into the changed file,
     * and of inputs derived from them, on the reference and the
     * candidate. */
    const json_t *diff = json_object_get(res, "diff");
    if (diff) {
        json_object_set(ev, "differential", (json_t *)diff);
        const char *ds = jstr(diff, "status");
        if (differs_by(diff, v, ev))
            return;
        if (ds && strcmp(ds, "tamper") == 0) {
            v->verdict = "invalid";
            v->reason = "tamper";
            v->detail = xstrdup(jstr(diff, "detail") ? jstr(diff, "detail")
                                                     : "");
            return;
        }
    }
    /* The probes: the changed functions where the tests call them, on
     * the tests' inputs and on inputs one change away. */
    const json_t *probe = json_object_get(res, "probe");
    if (probe) {
        json_object_set(ev, "probe", (json_t *)probe);
        if (differs_by(probe, v, ev))
            return;
    }
#ifdef LT_HAVE_SIMILARITY
    if (in->ref_ov && in->ref_ov->diff_lines) {
        const char *a = ov->diff_lines, *b = in->ref_ov->diff_lines;
        double tok = lt_sim_token_levenshtein(a, strlen(a), b, strlen(b),
                                              LT_SIM_PYTHON);
        if (tok >= 0) {
            json_object_set_new(ev, "token_similarity",
                                json_real(round(tok * 1e6) / 1e6));
            if (tok >= o->sim_threshold) {
                v->verdict = "memorized";
                v->reason = "identical_to_reference";
                v->detail = xasprintf("resolved; its changed lines are %.1f%% "
                                      "alike the reference fix's",
                                      100 * tok);
                return;
            }
        }
    }
#else
    (void)o;
#endif
    v->verdict = "correct";
    v->reason = "passes";
    /* The mutation layer: how well the instance's tests pin the lines
     * each diff adds (evidence and a note; never a verdict of its own). */
    json_t *mut = lt__rm_summary(ov->mut);
    char *mtext = xstrdup("");
    if (mut) {
        json_t *rm = in->ref_ov ? lt__rm_summary(in->ref_ov->mut) : NULL;
        if (json_is_number(json_object_get(mut, "score"))) {
            free(mtext);
            mtext = xasprintf(
                "; its tests kill %lld of %lld mutants of its changed lines",
                json_integer_value(json_object_get(mut, "killed")),
                json_integer_value(json_object_get(mut, "killed")) +
                    json_integer_value(json_object_get(mut, "survived")));
            if (json_is_number(json_object_get(rm, "score"))) {
                char *both = xasprintf(
                    "%s (the reference's: %lld of %lld)", mtext,
                    json_integer_value(json_object_get(rm, "killed")),
                    json_integer_value(json_object_get(rm, "killed")) +
                        json_integer_value(json_object_get(rm, "survived")));
                free(mtext);
                mtext = both;
            }
        }
        json_t *mo = json_pack("{s:o}", "candidate", mut);
        if (rm)
            json_object_set_new(mo, "reference", rm);
        json_object_set_new(ev, "mutation", mo);
    }
    const char *ds = diff ? jstr(diff, "status") : NULL;
    char *dtext = !diff ? xstrdup("")
                  : ds && strcmp(ds, "same") == 0
                      ? xasprintf(" and on %.0f inputs of differential "
                                  "execution",
                                  jnum(diff, "compared", 0))
                      : xasprintf(" (differential execution %s)",
                                  ds ? ds : "inconclusive");
    const char *ps = probe ? jstr(probe, "status") : NULL;
    char *ptext = ps && strcmp(ps, "same") == 0
                      ? xasprintf(", on %.0f probed calls in its tests",
                                  jnum(probe, "compared", 0))
                      : xstrdup("");
    v->detail = ref ? xasprintf("resolved; agrees with the reference fix "
                                "on %zu wider-suite test(s)%s%s%s",
                                json_array_size(chosen), ptext, dtext, mtext)
                    : xasprintf("resolved; passes %zu test(s) of the suite "
                                "that covers the changed files, as the base "
                                "does (no reference fix to compare "
                                "with)%s",
                                json_array_size(chosen), mtext);
    free(ptext);
    free(dtext);
    free(mtext);
}

/*** Tasks ***/

static const struct lt_task_ops task_ops;

/* mut: an R_MUT task's entry; side, round: an R_PROBE task's. */
static void submit_task(struct repo_run *r, struct rinst *in,
                        enum rkind kind, struct rover *ov, size_t mut,
                        int side, int round)
{
    struct rtask *k = xcalloc(1, sizeof(*k));
    k->task.ops = &task_ops;
    k->task.lane = in->lane;
    k->task.owner = k;
    k->kind = kind;
    k->in = in;
    k->ov = ov;
    k->mut = mut;
    k->side = side;
    k->round = round;
    if (kind == R_MUT)
        ov->mut_queued++;
    else if (kind == R_PROBE)
        ov->probe_queued++;
    else if (kind == R_CONFIRM)
        ov->confirm_queued = 1;
    else
        ov->queued = 1;
    in->pending++;
    r->n_runs++;
    lt_exec_submit(&r->ex, &k->task);
}

static void submit(struct repo_run *r, struct rinst *in, enum rkind kind,
                   struct rover *ov)
{
    submit_task(r, in, kind, ov, 0, 0, 0);
}

/* The map of an instance, loaded or built. */
static json_t *inst_map(struct repo_run *r, struct rinst *in)
{
    return load_layer(r, in, "map", "map");
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The lines of the changed files each covered test of wider run j ran,
 * as {node id: {path in the tree: "a-b,c,..."}}: what a candidate's
 * choice of wider tests is made from (choose_wider). */
static json_t *lines_run(const struct rinst *in, const struct lt_suite *suite,
                         const struct lt_run_report *j)
{
    json_t *out = json_object();
    size_t tl = strlen(in->tree);
    for (size_t k = 0; j->cov && k < j->n_tests; k++) {
        uint32_t t = j->tests[k];
        if (t >= j->n_cov || !j->cov[t].n || t >= suite->n_tests)
            continue;
        size_t n = j->cov[t].n;
        uint64_t *keys = xcalloc(n, sizeof(uint64_t));
        for (size_t i = 0; i < n; i++)
            keys[i] = (uint64_t)j->cov[t].pairs[2 * i] << 32 |
                      j->cov[t].pairs[2 * i + 1];
        qsort(keys, n, sizeof(uint64_t), cmp_u64);
        json_t *files = json_object();
        for (size_t i = 0; i < n;) {
            uint32_t subject = (uint32_t)(keys[i] >> 32);
            const char *path = subject < in->n_subjects
                                   ? in->subjects[subject].path : NULL;
            struct lt_buf b = LT_BUF_INIT;
            for (; i < n && (uint32_t)(keys[i] >> 32) == subject;) {
                uint32_t first = (uint32_t)keys[i], last = first;
                while (++i < n && (uint32_t)(keys[i] >> 32) == subject &&
                       (uint32_t)keys[i] <= last + 1)
                    last = (uint32_t)keys[i];
                lt_buf_printf(&b, b.len ? ",%u" : "%u", first);
                if (last != first)
                    lt_buf_printf(&b, "-%u", last);
            }
            char *ranges = lt_buf_steal(&b);
            if (ranges && path && strncmp(path, in->tree, tl) == 0 &&
                path[tl] == '/')
                json_object_set_new(files, path + tl + 1, json_string(ranges));
            free(ranges);
        }
        free(keys);
        json_object_set_new(out, suite->test_ids[t], files);
    }
    return out;
}

/* Whether a line of ranges ("a-b,c,...", as lines_run writes them) falls
 * in one of spans ([first, last, first, last, ...]). */
static int ranges_meet(const char *ranges, const json_t *spans)
{
    for (const char *p = ranges; p && *p;) {
        char *e;
        unsigned long a = strtoul(p, &e, 10), b = a;
        if (*e == '-')
            b = strtoul(e + 1, &e, 10);
        for (size_t i = 0; i + 1 < json_array_size(spans); i += 2) {
            json_int_t first = json_integer_value(json_array_get(spans, i));
            json_int_t last = json_integer_value(json_array_get(spans, i + 1));
            if ((json_int_t)a <= last && (json_int_t)b >= first)
                return 1;
        }
        p = *e == ',' ? e + 1 : NULL;
    }
    return 0;
}

/* The wider tests a candidate repeats: those of the wider suite that
 * pass in the setup run (the reference's, the base's without one) and
 * execute a line of a changed file, or, with spans ({path in the tree:
 * [first, last, ...]}, see differing_spans), a line of a function the
 * candidate changes against that run (any other test runs the same code
 * with either), cheapest first, within --wider-budget CPU seconds of the
 * setup's time. */
static json_t *choose_wider(const struct repo_run *r, const json_t *wider,
                            const json_t *spans)
{
    json_t *cov = json_object_get(wider, "covered");
    const json_t *lines = json_object_get(wider, "lines");
    if (!lines)
        spans = NULL; /* a wider run stored before lines were kept */
    size_t n = json_array_size(cov);
    double *cost = xcalloc(n + 1, sizeof(double));
    size_t *order = xcalloc(n + 1, sizeof(size_t));
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const char *node = json_string_value(json_array_get(cov, i));
        if (strcmp(status_of(wider, node), "passed") != 0)
            continue;
        if (spans) {
            const json_t *ran = json_object_get(lines, node);
            const char *path;
            json_t *sp;
            int meets = 0;
            json_object_foreach((json_t *)spans, path, sp)
                if (!meets)
                    meets = ranges_meet(jstr(ran, path), sp);
            if (!meets)
                continue;
        }
        cost[m] = jnum(json_object_get(wider, "cpu_ms"), node, 0);
        order[m++] = i;
    }
    /* Insertion sort by cost: a few thousand at most. */
    for (size_t i = 1; i < m; i++)
        for (size_t k = i; k > 0 && cost[k] < cost[k - 1]; k--) {
            double c = cost[k];
            cost[k] = cost[k - 1];
            cost[k - 1] = c;
            size_t t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    json_t *out = json_array();
    double spent = 0;
    for (size_t i = 0; i < m; i++) {
        if (spent + cost[i] > r->o->wider_budget * 1000.0)
            break;
        spent += cost[i];
        json_array_append(out, json_array_get(cov, order[i]));
    }
    free(cost);
    free(order);
    return out;
}

/* Where candidate ov's code can differ from setup's (the run whose wider
 * tests it repeats): {path in the tree: [first, last, ...]}, the lines of
 * setup's functions that either diff leaves otherwise; NULL when anything
 * may differ (a file that is not a module both texts compile, a module or
 * class body, a file outside the tree). */
static json_t *differing_spans(const struct rinst *in,
                               const struct rover *setup,
                               const struct rover *ov)
{
    json_t *out = json_object();
    size_t tl = strlen(in->tree);
    const struct rover *sides[2] = {setup, ov};
    for (int s = 0; s < 2 && out; s++) {
        size_t i;
        json_t *pair;
        json_array_foreach(sides[s]->files, i, pair) {
            const char *abs = json_string_value(json_array_get(pair, 0));
            size_t al = strlen(abs);
            if (strncmp(abs, in->tree, tl) != 0 || abs[tl] != '/') {
                json_decref(out);
                out = NULL;
                break;
            }
            if (json_object_get(out, abs + tl + 1))
                continue;
            int gone = 0;
            char *a = text_or_base(setup, abs, &gone),
                 *b = text_or_base(ov, abs, &gone);
            long *spans = NULL;
            size_t n = 0;
            int known = !gone && a && b && strcmp(a, b) == 0;
            if (!known && !gone && a && b && al > 3 &&
                strcmp(abs + al - 3, ".py") == 0)
                known = lt_changed_spans(abs, a, b, &spans, &n) == 1;
            free(a);
            free(b);
            if (!known) {
                free(spans);
                json_decref(out);
                out = NULL;
                break;
            }
            json_t *arr = json_array();
            for (size_t k = 0; k < 2 * n; k++)
                json_array_append_new(arr, json_integer(spans[k]));
            free(spans);
            json_object_set_new(out, abs + tl + 1, arr);
        }
    }
    return out;
}

/* Candidate ov's wider tests (a new reference): those whose lines meet
 * what it changes against the setup run, else the instance's choice by
 * changed file. */
static json_t *candidate_wider(const struct repo_run *r,
                               const struct rinst *in, const struct rover *ov,
                               const json_t *map)
{
    const struct rover *setup = in->ref_ov ? in->ref_ov : in->base_ov;
    json_t *spans = differing_spans(in, setup, ov);
    json_t *out = spans ? choose_wider(r, json_object_get(setup->result,
                                                          "wider"),
                                       spans)
                        : json_incref(json_object_get(map, "wider_chosen"));
    json_decref(spans);
    return out ? out : json_array();
}

/* Candidate ov's wider tests, chosen once (a retried run repeats the
 * same); a borrowed reference. */
static const json_t *candidate_choice(const struct repo_run *r,
                                      const struct rinst *in,
                                      struct rover *ov, const json_t *map)
{
    if (!ov->wider_choice)
        ov->wider_choice = candidate_wider(r, in, ov, map);
    return ov->wider_choice;
}

/*** The mutation layer ***/

/* Whether candidate ov's mutation layer is wanted: with --mutation, once
 * its other layers leave it correct (an overfitting or invalid one is
 * decided without it). */
/*** The probe layer (repo_probe.c compares) ***/

static json_t *also_files(const struct rinst *in, const struct rover *ov);

/* Whether ov's probe layer is still to come: a resolved candidate that
 * differential execution would judge too. */
static int probe_wanted(const struct repo_run *r, const struct rinst *in,
                        const struct rover *ov, const json_t *map)
{
    return r->o->probes && ov->result &&
           !json_object_get(ov->result, "probe") &&
           probe_eligible(in, ov, map);
}

/* What the probes observe: each file the reference changes (the compared
 * one and its others) and each module only the candidate changes, with
 * both texts. */
static json_t *probe_spec(const struct rinst *in, const struct rover *ov)
{
    json_t *spec = json_array();
    char *mine = text_or_base(ov, in->diff_path, NULL);
    json_array_append_new(
        spec, json_pack("{s:s, s:s, s:s, s:s}", "module", in->diff_module,
                        "path", in->diff_path, "reference",
                        file_text(in->ref_ov, in->diff_path), "candidate",
                        mine ? mine : file_text(in->ref_ov, in->diff_path)));
    free(mine);
    json_t *also = also_files(in, ov);
    size_t i;
    json_t *a;
    json_t *only = candidate_only_files(in, ov);
    json_array_extend(also, only);
    json_decref(only);
    json_array_foreach(also, i, a)
        json_array_append_new(
            spec, json_pack("{s:O, s:O, s:O, s:O}", "module",
                            json_array_get(a, 0), "path", json_array_get(a, 1),
                            "reference", json_array_get(a, 2), "candidate",
                            json_array_get(a, 3)));
    json_decref(also);
    return spec;
}

static void submit_probe(struct repo_run *r, struct rinst *in,
                         struct rover *ov, int side, int round)
{
    submit_task(r, in, R_PROBE, ov, 0, side, round);
}

static void probe_set(struct repo_run *r, struct rinst *in, struct rover *ov,
                      json_t *layer)
{
    json_object_set_new(layer, "duration_ms",
                        json_real(round(ov->probe_ms * 1000) / 1000));
    json_object_set_new(ov->result, "probe", layer);
    store_layer(r, in, ov->sha, layer_of(ov), ov->result);
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++) {
            json_decref(ov->probe_recs[i][k]);
            ov->probe_recs[i][k] = NULL;
        }
    json_decref(ov->probe_first);
    json_decref(ov->wider_choice);
    ov->probe_first = NULL;
}

/* Queues the probe runs ov's layer lacks, or, with both runs of a round
 * in, compares them: a difference in the first round asks for a second. */
static void probe_advance(struct repo_run *r, struct rinst *in,
                          struct rover *ov)
{
    if (ov->probe_queued)
        return;
    double tests_s = jnum(in->ref_ov->result, "cpu_ms_total", 0) / 1000;
    if (tests_s > PROBE_TESTS_MAX) {
        /* Two to four more runs of tests this slow would cost more than
         * every other layer together. */
        char *why = xasprintf("the instance's tests take %.0f CPU s with "
                              "the reference (probes: at most %.0f)",
                              tests_s, PROBE_TESTS_MAX);
        probe_set(r, in, ov,
                  json_pack("{s:s, s:s}", "status", "skipped", "detail", why));
        free(why);
        return;
    }
    int round = ov->probe_first ? 1 : 0;
    json_t **recs[2] = {&ov->probe_recs[0][round], &ov->probe_recs[1][round]};
    if (!*recs[0] || !*recs[1]) {
        for (int side = 0; side < 2; side++)
            if (!*recs[side])
                submit_probe(r, in, ov, side, round);
        return;
    }
    const struct lt_suite *suite = lt_exec_lane_suite(in->lane);
    if (!round) {
        json_t *first = lt__rp_compare(*recs[0], *recs[1]);
        if (strcmp(jstr(first, "status"), "differs") == 0) {
            ov->probe_first = first;
            submit_probe(r, in, ov, 0, 1);
            submit_probe(r, in, ov, 1, 1);
            return;
        }
        probe_set(r, in, ov, first);
        return;
    }
    probe_set(r, in, ov,
              lt__rp_confirm(ov->probe_first, ov->probe_recs[0][0],
                             ov->probe_recs[1][0], ov->probe_recs[0][1],
                             ov->probe_recs[1][1], suite->test_ids,
                             suite->n_tests));
}

/* A probe run's records: the CALL frames that are JSON objects. */
static json_t *probe_records(const struct lt_run_report *j)
{
    json_t *out = json_array();
    for (size_t i = 0; i < j->n_calls; i++) {
        if (j->calls[i][0] != '{')
            continue;
        json_t *rec = json_loads(j->calls[i], 0, NULL);
        if (json_is_object(rec))
            json_array_append_new(out, rec);
        else
            json_decref(rec);
    }
    return out;
}

static int wants_mutation(const struct repo_run *r, struct rinst *in,
                          struct rover *ov, const json_t *map)
{
    if (!r->o->mutation || !ov->result || !ov->applied || ov->empty ||
        (!json_object_get(ov->result, "diff") && diff_eligible(in, ov, map)) ||
        probe_wanted(r, in, ov, map))
        return 0;
    struct rcand c = {.inst = in, .ov = ov};
    struct rverdict v = {0};
    decide(r, &c, map, &v);
    int want = strcmp(v.verdict, "correct") == 0;
    free(v.detail);
    json_decref(v.ev);
    return want;
}

/* Whether ov's mutation layer has every run it needs. */
static int mutation_done(const struct repo_run *r, const struct rover *ov)
{
    const json_t *st = ov->mut;
    return st && json_number_value(json_object_get(st, "budget")) ==
                     r->o->mutation_budget &&
           lt__rm_done(st);
}

/* Plans ov's mutants (once per --mutation-budget) and queues the runs
 * its sample still lacks. */
static void mutation_advance(struct repo_run *r, struct rinst *in,
                             struct rover *ov)
{
    if (ov->mut_queued || !ov->result)
        return;
    json_t *st = ov->mut;
    if (!st || json_number_value(json_object_get(st, "budget")) !=
                   r->o->mutation_budget) {
        /* A mutant costs at most what the instance's tests cost the
         * reference (a killed one stops at its first failing test). */
        const json_t *setup = in->ref_ov ? in->ref_ov->result
                                         : in->base_ov->result;
        double per = jnum(setup, "cpu_ms_total", 0) / 1000.0 + MUT_RUN_S;
        st = lt__rm_plan(ov->files, in->tree, ov->diff ? ov->diff : "", per,
                         r->o->mutation_budget);
        json_decref(ov->mut);
        ov->mut = st;
        store_layer(r, in, ov->sha, mut_layer_of(ov), st);
    }
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(st, "sample"), i, m)
        if (json_is_null(json_object_get(m, "status")))
            submit_task(r, in, R_MUT, ov, i, 0, 0);
}

/* A mutant's run: the diff's files with the mutant in place, the
 * instance's tests (FAIL_TO_PASS first, the likeliest to fail), up to
 * the first failure. */
static int prepare_mutant(struct repo_run *r, struct rtask *k,
                          struct lt_launch *la)
{
    struct rinst *in = k->in;
    const struct lt_suite *suite = lt_exec_lane_suite(in->lane);
    const json_t *entry = json_array_get(
        json_object_get(k->ov->mut, "sample"),
        k->mut);
    json_t *files = entry ? lt__rm_files(k->ov->files, entry) : NULL;
    if (!files)
        return LT_EUSAGE;
    json_t *map = inst_map(r, in);
    json_t *order = json_array();
    const char *id;
    json_t *nodes;
    json_object_foreach(json_object_get(map, "f2p"), id, nodes) {
        size_t i;
        json_t *v;
        json_array_foreach(nodes, i, v)
            if (!in_array(order, json_string_value(v)))
                json_array_append(order, v);
    }
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(map, "main"), i, v)
        if (!in_array(order, json_string_value(v)))
            json_array_append(order, v);
    json_decref(map);
    size_t n = 0;
    uint32_t *idx = indices_of(suite, order, &n);
    json_decref(order);
    lt_run_spec_alloc(&la->spec, suite->n_tests, 0);
    la->spec.n_files = in->n_subjects ? in->n_subjects : 1;
    la->spec.tests = idx;
    la->spec.n_tests = n;
    json_t *unpin = json_array();
    for (size_t u = 0; u < in->unpin.n; u++)
        json_array_append_new(unpin, json_string(in->unpin.v[u]));
    json_t *extra = json_pack("{s:o, s:o}", "files", files, "unpin", unpin);
    la->owned[1] = json_dumps(extra, JSON_COMPACT);
    json_decref(extra);
    if (!la->owned[1] || strlen(la->owned[1]) > MAX_EXTRA)
        return LT_EUSAGE;
    struct lt_run_request *req = &la->req;
    req->mode = LT_RUN_MUTANT;
    req->subject = 0;
    req->start = req->end = 0;
    req->replacement = "";
    req->extra = la->owned[1];
    req->flags = k->ov->is_ref ? RF_RUN : RF_CAND;
    req->stop_first = 1;
    req->memory_bytes = (uint64_t)r->o->run.memory_mb << 20;
    const json_t *setup = in->ref_ov ? in->ref_ov->result
                                     : in->base_ov->result;
    /* A mutant that loops is killed by its timeout: the reference's time
     * on these tests, scaled, without --timeout's floor. */
    double cpu = r->o->run.timeout_factor * jnum(setup, "cpu_ms_total", 0) /
                     1000.0 +
                 r->o->run.timeout_const + 1.0;
    req->cpu_seconds = lt__cpu_limit_for(cpu);
    la->spec.cpu_budget_ns = cpu * 1e9;
    la->wall = (3 * cpu + 5) * (k->waited ? WAITED_WALL : 1);
    return 0;
}

/* A mutant's outcome from its run's evidence: killed (a test failed, or
 * the run ended in a timeout, a crash or an import error), survived
 * (every test passed), or error (the run says nothing of the tests). */
static const char *mutant_outcome(const json_t *ev)
{
    /* A failing test first: the run stopped there, which its end says
     * too (the tests after it never ran). */
    const char *key;
    json_t *v;
    size_t ran = 0;
    json_object_foreach(json_object_get(ev, "status"), key, v) {
        if (failed(json_string_value(v)))
            return "killed";
        ran++;
    }
    const char *st = jstr(json_object_get(ev, "end"), "status");
    if (st && (strcmp(st, "timeout") == 0 || strcmp(st, "crash") == 0 ||
               strcmp(st, "import_error") == 0))
        return "killed";
    return !st && ran ? "survived" : "error";
}

/* Records the outcome of mutant k->mut of k->ov. */
static void mutant_set(struct repo_run *r, struct rtask *k,
                       const char *status, const char *by, double ms)
{
    json_t *entry = json_array_get(
        json_object_get(k->ov->mut, "sample"),
        k->mut);
    if (entry) {
        json_object_set_new(entry, "status", json_string(status));
        if (by)
            json_object_set_new(entry, "by", json_string(by));
        json_object_set_new(entry, "duration_ms", json_real(round(ms)));
    }
    if (!k->ov->mut_queued || --k->ov->mut_queued == 0)
        store_layer(r, k->in, k->ov->sha, mut_layer_of(k->ov), k->ov->mut);
}

/* Queues what an instance can run now: the base, reference and wider
 * runs first, the candidates once those are known. */
static void advance(struct repo_run *r, struct rinst *in)
{
    if (!in->have_tests || in->done)
        return;
    struct rover *setup = in->ref_ov ? in->ref_ov : in->base_ov;
    if (!in->base_ov->result && !in->base_ov->queued)
        submit(r, in, R_BASE, in->base_ov);
    if (in->ref_ov && !in->ref_ov->result && !in->ref_ov->queued)
        submit(r, in, R_REF, in->ref_ov);
    if (!in->base_ov->result || (in->ref_ov && !in->ref_ov->result))
        return;
    if (!json_object_get(setup->result, "wider")) {
        if (in->n_wider && !setup->queued)
            submit(r, in, R_WIDER, setup);
        else if (!in->n_wider)
            json_object_set_new(setup->result, "wider", json_object());
        if (!json_object_get(setup->result, "wider"))
            return;
    }
    json_t *map = inst_map(r, in);
    if (map && !json_object_get(map, "wider_chosen")) {
        json_object_set_new(map, "wider_chosen",
                            choose_wider(r,
                                         json_object_get(setup->result,
                                                         "wider"),
                                         NULL));
        store_layer(r, in, "map", "map", map);
    }
    if (!in->set_up) {
        in->set_up = 1;
        r->set_up++;
    }
    for (size_t i = 0; i < in->n_ovs; i++) {
        struct rover *ov = in->ovs[i];
        if (ov->queued || !ov->applied || ov->empty)
            continue;
        if (!ov->result) {
            submit(r, in, R_CAND, ov);
            continue;
        }
        if (!ov->confirm_queued && confirm_wanted(in, ov, map))
            submit(r, in, R_CONFIRM, ov);
        if (probe_wanted(r, in, ov, map))
            probe_advance(r, in, ov);
        /* Compared now, or still under way. */
        int probing = probe_wanted(r, in, ov, map);
        if (!json_object_get(ov->result, "diff") &&
            diff_eligible(in, ov, map))
            submit(r, in, R_DIFF, ov);
        else if (!probing && wants_mutation(r, in, ov, map)) {
            mutation_advance(r, in, ov);
            if (in->ref_ov)
                mutation_advance(r, in, in->ref_ov);
        }
    }
    json_decref(map);
}

/* [[module, path, reference's text, candidate's text]] of the
 * reference's other changed modules; the candidate's is the base's where
 * it leaves the file alone. */
static json_t *also_files(const struct rinst *in, const struct rover *ov)
{
    json_t *out = json_array();
    size_t i;
    json_t *a;
    json_array_foreach(in->diff_also, i, a) {
        const char *path = json_string_value(json_array_get(a, 0));
        char *mine = text_or_base(ov, path, NULL);
        if (mine)
            json_array_append_new(
                out, json_pack("[s,s,s,s]",
                               json_string_value(json_array_get(a, 1)), path,
                               file_text(in->ref_ov, path), mine));
        free(mine);
    }
    return out;
}

/* A differential job (runners/calls.py, diff_main): the reference's and
 * the candidate's text of the changed file loaded side by side in the
 * child, called on the inputs the tests passed (captured in the
 * reference run) and on inputs derived from them.  0, or LT_EUSAGE when
 * it is too large to send. */
static int prepare_diff(struct repo_run *r, struct rtask *k,
                        struct lt_launch *la)
{
    const struct lt_patches_opts *o = r->o;
    struct rinst *in = k->in;
    const json_t *ref = in->ref_ov->result;
    double max_ms = 0;
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(ref, "cpu_ms"), key, v)
        if (json_number_value(v) > max_ms)
            max_ms = json_number_value(v);
    double call_timeout = CALL_CONST + o->run.timeout_factor * max_ms / 1000;
    json_t *calls = json_object_get(ref, "calls");
    json_t *origins = json_array();
    for (size_t i = 0; i < json_array_size(calls); i++)
        json_array_append_new(origins, json_string("test"));
    char *mine = text_or_base(k->ov, in->diff_path, NULL);
    json_t *job = json_pack(
        "{s:s, s:b, s:s, s:s, s:s, s:s, s:O, s:o, s:[], s:b, s:f, s:f, "
        "s:f, s:f, s:f, s:i}",
        "kind", "diff", "package", 1, "module", in->diff_module, "path", in->diff_path,
        "reference", file_text(in->ref_ov, in->diff_path), "candidate",
        mine ? mine : file_text(in->ref_ov, in->diff_path), "captured",
        calls ? calls : json_array(), "captured_origin", origins, "inputs",
        "derive", 1, "call_timeout", call_timeout, "timeout_factor",
        o->run.timeout_factor, "timeout_const", o->run.timeout_const,
        "candidate_test_ms", max_ms, "budget", o->diff_budget, "max_inputs",
        20000);
    free(mine);
    if (job && in->diff_also)
        json_object_set_new(job, "also", also_files(in, k->ov));
    char *extra = job ? json_dumps(job, JSON_COMPACT) : NULL;
    json_decref(job);
    la->owned[1] = extra;
    if (!extra || strlen(extra) > MAX_EXTRA)
        return LT_EUSAGE;
    lt_run_spec_alloc(&la->spec, lt_exec_lane_suite(in->lane)->n_tests, 0);
    la->spec.n_files = in->n_subjects ? in->n_subjects : 1;
    la->spec.tests = xcalloc(1, sizeof(uint32_t));
    la->req.mode = LT_RUN_CALLS;
    la->req.subject = 0;
    la->req.start = la->req.end = 0;
    la->req.replacement = "";
    la->req.extra = extra;
    la->req.flags = LT_RUN_UNTRUSTED | LT_RUN_CHECK_EQ;
    la->req.memory_bytes = (uint64_t)o->run.memory_mb << 20;
    la->req.cpu_seconds = lt__cpu_limit_for(DIFF_TIMEOUT);
    la->wall = DIFF_TIMEOUT;
    return 0;
}

static int task_prepare(struct lt_exec *ex, struct lt_task *xt,
                        struct lt_launch *la)
{
    struct repo_run *r = ex->owner;
    struct rtask *k = xt->owner;
    struct rinst *in = k->in;
    const struct lt_suite *suite = lt_exec_lane_suite(in->lane);
    struct lt_run_request *req = &la->req;
    int wider = k->kind == R_WIDER;
    if (k->kind == R_DIFF)
        return prepare_diff(r, k, la);
    if (k->kind == R_MUT)
        return prepare_mutant(r, k, la);
    /* The tests: the main ones, the wider suite's (all of them, with
     * coverage, in the wider run; the chosen ones for a candidate). */
    json_t *map = inst_map(r, in);
    size_t n_main = 0, n_w = 0;
    /* A probe run: the main tests alone, FAIL_TO_PASS first, with the
     * files of its side. */
    int probe = k->kind == R_PROBE;
    json_t *here = probe && in->base_ov->result
                       ? recompute(map, in->base_ov->result,
                                   in->ref_ov ? in->ref_ov->result : NULL)
                       : NULL;
    uint32_t *main_idx = wider ? xcalloc(1, sizeof(uint32_t))
                         : probe
                             ? probe_order(suite, map,
                                           json_object_get(here, "f2p"),
                                           &n_main)
                             : indices_of(suite, json_object_get(map, "main"),
                                          &n_main);
    json_decref(here);
    const struct rover *side =
        (probe && !k->side) || k->kind == R_CONFIRM ? in->ref_ov : k->ov;
    uint32_t *w_idx =
        wider ? indices_of(suite, json_object_get(map, "wider"), &n_w)
        : k->kind == R_CAND
            ? indices_of(suite, candidate_choice(r, in, k->ov, map), &n_w)
        : k->kind == R_CONFIRM
            ? indices_of(suite, wider_ran(k->ov->result, map), &n_w)
                            : xcalloc(1, sizeof(uint32_t));
    json_decref(map);
    lt_run_spec_alloc(&la->spec, suite->n_tests, wider);
    la->spec.n_files = in->n_subjects ? in->n_subjects : 1;
    la->spec.tests = xcalloc(n_main + n_w + 1, sizeof(uint32_t));
    memcpy(la->spec.tests, main_idx, n_main * sizeof(uint32_t));
    memcpy(la->spec.tests + n_main, w_idx, n_w * sizeof(uint32_t));
    la->spec.n_tests = n_main + n_w;
    free(main_idx);
    free(w_idx);
    json_t *unpin = json_array();
    for (size_t i = 0; i < in->unpin.n; i++)
        json_array_append_new(unpin, json_string(in->unpin.v[i]));
    json_t *extra = json_pack("{s:O, s:o}", "files", side->files, "unpin",
                              unpin);
    if (probe)
        json_object_set_new(extra, "probe", probe_spec(in, k->ov));
    la->owned[1] = json_dumps(extra, JSON_COMPACT);
    json_decref(extra);
    if (!la->owned[1] || strlen(la->owned[1]) > MAX_EXTRA)
        return LT_EUSAGE;
    req->mode = LT_RUN_MUTANT;
    req->subject = 0;
    req->start = req->end = 0;
    req->replacement = "";
    req->extra = la->owned[1];
    req->flags = k->kind == R_CAND || k->kind == R_CONFIRM ? RF_CAND : RF_RUN;
    if (wider)
        req->flags |= LT_RUN_COVERAGE;
    /* The reference run records the tests' calls into the changed file,
     * the inputs of differential execution. */
    if (k->kind == R_REF)
        lt_debug("instance %s: the reference run captures calls into %s",
                 in->id, in->diff_subject >= 0 ? in->diff_path : "nothing");
    if (k->kind == R_REF && in->diff_subject >= 0) {
        req->flags |= LT_RUN_CAPTURE;
        req->subject = (uint32_t)in->diff_subject;
    }
    req->memory_bytes = (uint64_t)r->o->run.memory_mb << 20;
    double cpu = SETUP_TIMEOUT, wall = SETUP_TIMEOUT;
    if (k->kind == R_CAND || k->kind == R_CONFIRM || probe) {
        const json_t *setup = in->ref_ov ? in->ref_ov->result
                                         : in->base_ov->result;
        double ref_ms = jnum(setup, "cpu_ms_total", 0) +
                        jnum(json_object_get(setup, "wider"), "cpu_ms_total",
                             0) * (n_w ? 1 : 0);
        /* A right fix slower than the reference must still finish, as
         * the harness's half hour would let it: at least --timeout. */
        cpu = r->o->run.timeout_factor * ref_ms / 1000.0 +
              r->o->run.timeout_const + 1.0;
        if (cpu < r->o->timeout)
            cpu = r->o->timeout;
        if (probe)
            cpu += PROBE_CPU; /* the probes' own calls */
        wall = 3 * cpu + 5;
    }
    if (wider) {
        /* The wider run only looks for tests to repeat, within
         * --wider-budget: a large suite (hundreds of a project's test
         * files import the changed module) stops at its own budget, and
         * the tests it reached, nearest files first, are the choice. */
        cpu = WIDER_FACTOR * r->o->wider_budget;
        if (cpu < WIDER_MIN)
            cpu = WIDER_MIN;
        wall = 2 * cpu + 30;
    }
    req->cpu_seconds = lt__cpu_limit_for(cpu);
    la->spec.cpu_budget_ns = cpu * 1e9;
    la->wall = wall * (k->waited ? WAITED_WALL : 1);
    return 0;
}

/* Candidates decided, with what is under way: before the first verdict
 * an instance's base, reference and wider-suite runs (a large project's
 * take minutes) are the only sign of progress. */
static void progress_show(struct repo_run *r, int force)
{
    lt__progress_show(&r->prog, force, r->decided, r->n_cands,
                      "%zu/%zu instances set up, %zu of %zu runs done",
                      r->set_up, r->n_insts, r->runs_done, r->n_runs);
}

/* Counts the candidates decided by the result of ov. */
static void count_decided(struct repo_run *r, const struct rover *ov)
{
    for (size_t i = 0; i < r->n_cands; i++)
        if (r->cands[i].ov == ov)
            r->decided++;
}

#define MAX_UNPIN 16

/* The pinned entry a tamper status of a setup run names ("replaced
 * sys.excepthook"), added to the instance's list; 1 when added. */
static int unpin_from(struct rinst *in, const json_t *ev)
{
    const char *d = jstr(json_object_get(ev, "end"), "detail");
    const char *name = NULL;
    if (d && strncmp(d, "replaced ", 9) == 0)
        name = d + 9;
    else if (d && strncmp(d, "deleted ", 8) == 0)
        name = d + 8;
    if (!name || !*name || strpbrk(name, " \t\n") || !strchr(name, '.') ||
        lt__strv_has(&in->unpin, name) || in->unpin.n >= MAX_UNPIN)
        return 0;
    lt_debug("instance %s: its tests replace %s: not guarded", in->id, name);
    lt__strv_push(&in->unpin, name);
    return 1;
}

/* Keeps the reference's run on candidate ov's list of tests, ev, in
 * ov's result. */
static void set_confirm(struct repo_run *r, struct rinst *in,
                        struct rover *ov, json_t *ev)
{
    ov->confirm_queued = 0;
    json_object_set_new(ov->result, "wider_confirm", ev);
    store_layer(r, in, ov->sha, layer_of(ov), ov->result);
}

/* Runs task xt again (a run counted once more in the progress). */
static void retry_run(struct repo_run *r, struct lt_exec *ex,
                      struct lt_task *xt)
{
    r->n_runs++;
    lt_exec_retry(ex, xt);
}

static void task_finished(struct lt_exec *ex, struct lt_task *xt,
                          const struct lt_run_report *j)
{
    struct repo_run *r = ex->owner;
    struct rtask *k = xt->owner;
    struct rinst *in = k->in;
    r->runs_done++;
    if (k->kind == R_DIFF) {
        json_t *dv = lt__pe_diff(j, 0);
        const char *ds = jstr(dv, "status");
        /* A crash of the child is confirmed by a second run: under the
         * memory limit, an input that costs the candidate more memory
         * (a list where the reference streams) can end in SIGSEGV at a
         * stack growth, which says nothing of its results. */
        const char *exc = jstr(json_object_get(json_object_get(dv,
                                                               "witness"),
                                               "candidate"),
                               "exception");
        int crashed = exc && strcmp(exc, "crash") == 0;
        if (crashed && j->output.len) {
            /* The child's stack at the crash (faulthandler's). */
            char *out = xstrndup(j->output.data, j->output.len);
            lt_debug("instance %s: differential run crashed:\n%s", in->id,
                     out);
            free(out);
        }
        if (ds && (strcmp(ds, "error") == 0 || crashed) && !xt->retried) {
            json_decref(dv);
            retry_run(r, ex, xt);
            return;
        }
        in->pending--;
        k->ov->queued = 0;
        if (ds && strcmp(ds, "error") == 0 && j->output.len) {
            /* The runner's own failure (a traceback): its last line says
             * what, for the user and for us. */
            char *out = xstrndup(j->output.data, j->output.len);
            lt_debug("instance %s: differential run output:\n%s", in->id,
                     out);
            char *e = out + strlen(out);
            while (e > out && (e[-1] == '\n' || e[-1] == ' '))
                *--e = '\0';
            char *last = strrchr(out, '\n');
            char *d = xasprintf("%s: %s", jstr(dv, "detail"),
                                last ? last + 1 : out);
            json_t *t = json_string(d);
            if (t)
                json_object_set_new(dv, "detail", t);
            free(d);
            free(out);
        }
        json_object_set_new(k->ov->result, "diff", dv);
        store_layer(r, in, k->ov->sha, layer_of(k->ov), k->ov->result);
        free(k);
        advance(r, in);
        return;
    }
    json_t *ev = run_evidence(lt_exec_lane_suite(in->lane), j,
                              k->kind == R_WIDER);
    if (k->kind == R_WIDER)
        json_object_set_new(ev, "lines",
                            lines_run(in, lt_exec_lane_suite(in->lane), j));
    const char *st = jstr(json_object_get(ev, "end"), "status");
    if (st && strcmp(st, "error") == 0 && !xt->retried) {
        json_decref(ev);
        retry_run(r, ex, xt);
        return;
    }
    /* A run stopped at the wall-clock limit within its CPU budget may only
     * have waited for a CPU (a loaded machine): it runs once more with a
     * longer one.  A loop uses CPU and ends at its CPU budget either way;
     * a sleep or a blocked read ends at the longer limit. */
    int by_cpu = j->cpu_over || j->test_over_ns > 0 ||
                 (WIFSIGNALED(j->wait_status) &&
                  WTERMSIG(j->wait_status) == SIGXCPU);
    if (st && strcmp(st, "timeout") == 0 && !by_cpu && !k->waited &&
        k->kind != R_BASE && k->kind != R_REF) {
        json_decref(ev);
        k->waited = 1;
        retry_run(r, ex, xt);
        return;
    }
    if (k->kind == R_CONFIRM) {
        in->pending--;
        set_confirm(r, in, k->ov, ev);
        free(k);
        advance(r, in);
        return;
    }
    if (k->kind == R_PROBE) {
        in->pending--;
        k->ov->probe_queued--;
        json_t **slot = &k->ov->probe_recs[k->side][k->round];
        json_decref(*slot);
        *slot = probe_records(j);
        k->ov->probe_ms += jnum(ev, "duration_ms", 0);
        json_decref(ev);
        free(k);
        advance(r, in);
        return;
    }
    if (k->kind == R_MUT) {
        const json_t *ff = json_object_get(ev, "first_failure");
        in->pending--;
        mutant_set(r, k, mutant_outcome(ev), ff ? jstr(ff, "test") : st,
                   jnum(ev, "duration_ms", 0));
        json_decref(ev);
        free(k);
        advance(r, in);
        return;
    }
    /* The instance's own tests replaced a pinned entry with no candidate
     * (the base) or with the reference in place: the guards let go of it
     * in every run of the instance, and the run is made again. */
    if (k->kind != R_CAND && st && strcmp(st, "tamper") == 0 &&
        unpin_from(in, ev)) {
        json_decref(ev);
        in->pending--;
        k->ov->queued = 0;
        free(k);
        advance(r, in);
        return;
    }
    if (k->kind != R_CAND) {
        json_t *un = json_array();
        for (size_t i = 0; i < in->unpin.n; i++)
            json_array_append_new(un, json_string(in->unpin.v[i]));
        json_object_set_new(ev, "unpin", un);
    }
    in->pending--;
    k->ov->queued = 0;
    if (k->kind == R_WIDER) {
        json_object_set_new(k->ov->result, "wider", ev);
        store_layer(r, in, k->ov->sha, layer_of(k->ov), k->ov->result);
    } else {
        if ((k->kind == R_BASE || k->kind == R_REF) && st &&
            strcmp(st, "error") == 0) {
            lt_error("instance %s: the %s run failed: %s", in->id,
                     k->kind == R_BASE ? "base" : "reference",
                     jstr(json_object_get(ev, "end"), "detail"));
            lt_exec_fail(ex, LT_EXIT_ENGINE);
        }
        if (k->kind == R_REF && st && strcmp(st, "syntax") == 0) {
            lt_error("instance %s: the reference fix does not compile: %s",
                     in->id, jstr(json_object_get(ev, "end"), "detail"));
            lt_exec_fail(ex, LT_EXIT_USAGE);
        }
        if (k->kind == R_CAND)
            json_object_set(ev, "wider_ran", k->ov->wider_choice);
        k->ov->result = ev;
        store_layer(r, in, k->ov->sha, layer_of(k->ov), ev);
        if (k->kind == R_CAND)
            count_decided(r, k->ov);
    }
    free(k);
    advance(r, in);
}

static void task_lost(struct lt_exec *ex, struct lt_task *xt,
                      const char *why)
{
    struct repo_run *r = ex->owner;
    struct rtask *k = xt->owner;
    struct rinst *in = k->in;
    in->pending--;
    r->runs_done++;
    if (k->kind == R_MUT) {
        mutant_set(r, k, "error", why, 0);
        free(k);
        return;
    }
    if (k->kind == R_PROBE) {
        k->ov->probe_queued--;
        if (!json_object_get(k->ov->result, "probe"))
            probe_set(r, in, k->ov,
                      json_pack("{s:s, s:s}", "status", "error", "detail",
                                why));
        free(k);
        return;
    }
    if (k->kind == R_CONFIRM) {
        set_confirm(r, in, k->ov,
                    json_pack("{s:{}, s:{s:s, s:s, s:f}}", "status", "end",
                              "status", "error", "detail", why,
                              "duration_ms", 0.0));
        free(k);
        return;
    }
    k->ov->queued = 0;
    if (k->kind == R_DIFF) {
        json_object_set_new(k->ov->result, "diff",
                            json_pack("{s:s, s:s, s:f}", "status", "error",
                                      "detail", why, "duration_ms", 0.0));
        store_layer(r, in, k->ov->sha, layer_of(k->ov), k->ov->result);
    } else if (k->kind == R_CAND) {
        k->ov->result = json_pack("{s:{}, s:{s:s, s:s, s:f}}", "status",
                                  "end", "status", "error", "detail", why,
                                  "duration_ms", 0.0);
        store_layer(r, in, k->ov->sha, layer_of(k->ov), k->ov->result);
        count_decided(r, k->ov);
    } else {
        lt_error("instance %s: the %s run: %s", in->id,
                 k->kind == R_BASE ? "base" : k->kind == R_REF ? "reference"
                                                               : "wider",
                 why);
        lt_exec_fail(ex, LT_EXIT_ENGINE);
    }
    free(k);
}

static const struct lt_task_ops task_ops = {
    .prepare = task_prepare, .finished = task_finished, .lost = task_lost};

/*** The lanes ***/

static int inst_ready(struct lt_exec *ex, struct lt_lane *l, int first,
                      char **why)
{
    struct repo_run *r = ex->owner;
    struct rinst *in = lt_exec_lane_owner(l);
    (void)why;
    if (!first)
        return 0;
    json_t *map = inst_map(r, in);
    if (!map) {
        map = build_map(in, lt_exec_lane_suite(l));
        if (json_array_size(json_object_get(map, "main")) == 0 &&
            json_array_size(json_object_get(map, "wider")) == 0) {
            lt_error("instance %s: no test collected from %s", in->id,
                     in->test_files.n ? in->test_files.v[0] : "the tree");
            json_decref(map);
            lt_exec_fail(ex, LT_EXIT_USAGE);
            return -1;
        }
        store_layer(r, in, "map", "map", map);
    }
    in->n_wider = json_array_size(json_object_get(map, "wider"));
    json_decref(map);
    in->have_tests = 1;
    advance(r, in);
    return 0;
}

static int open_lane(struct repo_run *r, struct rinst *in);
static void inst_key(const struct repo_run *r, struct rinst *in);

/* The instance's zygote could not collect its tests.  When the wider
 * suite was part of them (a test folder of examples whose conftest
 * imports what is not installed), the instance is judged without it, in
 * a lane of its own, and a warning says so; else the run stops. */
static void inst_start_failed(struct lt_exec *ex, struct lt_lane *l, int rc,
                              const char *msg)
{
    struct repo_run *r = ex->owner;
    struct rinst *in = lt_exec_lane_owner(l);
    if (rc == LT_ENOTESTS && !in->narrowed && in->wider_files.n) {
        lt_warn("instance %s: the wider suite cannot be collected here (%s): "
                "judged without it", in->id, msg);
        lt_exec_lane_fail(ex, l, msg);
        in->narrowed = 1;
        lt__strv_free(&in->wider_files);
        inst_key(r, in);
        struct rover *all[2] = {in->base_ov, in->ref_ov};
        for (size_t i = 0; i < 2 + in->n_ovs; i++) {
            struct rover *ov = i < 2 ? all[i] : in->ovs[i - 2];
            if (ov && !ov->result && ov->applied && (!ov->empty || i == 0))
                ov->result = load_layer(r, in, ov->sha, layer_of(ov));
        }
        if (open_lane(r, in) == 0)
            return;
    }
    lt_error("instance %s: the tests cannot be collected in %s: %s", in->id,
             in->tree, msg);
    lt_exec_fail(ex, LT_EXIT_USAGE);
}

static size_t inst_work(const struct lt_lane *l)
{
    const struct rinst *in = lt_exec_lane_owner(l);
    if (in->done)
        return 0;
    size_t q = lt_exec_queued(l);
    return in->have_tests ? q : in->n_ovs + 2;
}

/* A zygote of the instance started (t NULL), or task t's child did:
 * LITMUS_RUN_LOG, the tests' record of what a run started. */
static void inst_started(struct lt_exec *ex, struct lt_lane *l,
                         struct lt_task *t)
{
    struct repo_run *r = ex->owner;
    struct rinst *in = lt_exec_lane_owner(l);
    if (!r->run_log)
        return;
    static const char *const kinds[] = {
        [R_BASE] = "base",       [R_REF] = "reference",
        [R_WIDER] = "wider",     [R_CAND] = "candidate",
        [R_DIFF] = "differential", [R_MUT] = "mutant",
        [R_PROBE] = "probe",     [R_CONFIRM] = "confirm"};
    const struct rtask *k = t ? t->owner : NULL;
    fprintf(r->run_log, "%s %s%s%.12s\n", in->id, k ? kinds[k->kind] : "zygote",
            k ? " " : "", k ? k->ov->sha : "");
    fflush(r->run_log);
}

static const struct lt_lane_ops lane_ops = {
    .ready = inst_ready, .start_failed = inst_start_failed,
    .work = inst_work, .started = inst_started};

/* Whether instance in has everything it needs to decide. */
static int inst_complete(struct repo_run *r, struct rinst *in)
{
    json_t *map = inst_map(r, in);
    int ok = map && json_object_get(map, "wider_chosen") &&
             in->base_ov->result && (!in->ref_ov || in->ref_ov->result);
    for (size_t i = 0; ok && i < in->n_ovs; i++) {
        struct rover *ov = in->ovs[i];
        ok = !ov->applied || ov->empty ||
             (ov->result && (json_object_get(ov->result, "diff") ||
                             !diff_eligible(in, ov, map)) &&
              !probe_wanted(r, in, ov, map) && !confirm_wanted(in, ov, map));
        if (ok && ov->applied && !ov->empty &&
            wants_mutation(r, in, ov, map))
            ok = mutation_done(r, ov) &&
                 (!in->ref_ov || mutation_done(r, in->ref_ov));
    }
    json_decref(map);
    return ok;
}

/* The instance's lane: pytest on the test patch's files and the wider
 * suite's, with the user's arguments.  0, or -1 after an error printed. */
static int open_lane(struct repo_run *r, struct rinst *in)
{
    const struct lt_patches_opts *o = r->o;
    struct strv args = {0};
    for (int w = 0; w < 2; w++) {
        const struct strv *files = w ? &in->wider_files : &in->test_files;
        for (size_t i = 0; i < files->n; i++) {
            size_t n = strlen(files->v[i]);
            char *abs = xasprintf("%s/%s", in->tree, files->v[i]);
            struct stat sb;
            /* A package's __init__.py named to pytest collects the whole
             * package again: never an argument. */
            const char *slash = strrchr(files->v[i], '/');
            int init = strcmp(slash ? slash + 1 : files->v[i],
                              "__init__.py") == 0;
            if (n > 3 && strcmp(files->v[i] + n - 3, ".py") == 0 && !init &&
                stat(abs, &sb) == 0 && !lt__strv_has(&args, files->v[i]))
                lt__strv_push(&args, files->v[i]);
            free(abs);
        }
    }
    for (int l = 0; l < 3; l++) {
        const struct strv *ids = l == 2 ? &in->named : l ? &in->p2p
                                                         : &in->f2p;
        for (size_t i = 0; i < ids->n; i++) {
            char *file = lt__rt_id_file(in, ids->v[i]);
            if (!file)
                continue;
            char *abs = xasprintf("%s/%s", in->tree, file);
            struct stat sb;
            if (stat(abs, &sb) == 0 && !lt__strv_has(&args, file))
                lt__strv_push(&args, file);
            free(abs);
            free(file);
        }
    }
    if (!args.n) {
        lt_error("instance %s: no test file to run (the test patch adds "
                 "none and no test imports the changed files)", in->id);
        lt__strv_free(&args);
        return -1;
    }
    /* A wider-suite file that cannot be collected here (an old test of
     * another Python) must not stop the instance: its tests are simply
     * not there; a listed test missing for it fails as the harness's
     * would. */
    if (in->wider_files.n)
        lt__strv_push(&args, "--continue-on-collection-errors");
    if (in->runner == LT_TEST_RUNNER_DJANGO)
        lt__strv_push(&args, "--settings=test_sqlite"); /* the harness's */
    for (size_t i = 0; i < o->n_pytest_args; i++)
        lt__strv_push(&args, o->pytest_args[i]);
    lt__strv_free(&in->args[1]);
    in->args[1] = in->args[0];
    in->args[0] = args;
    in->cfg = (struct lt_runner_config){
        .exe = lt__engine_exe(), .cwd = in->tree,
        .scratch_base = r->scratch, .pytest_args = in->args[0].v,
        .n_pytest_args = in->args[0].n, .subjects = in->subjects,
        .n_subjects = in->n_subjects, .debug = o->debug,
        .python = in->python, .libpython = in->libpython,
        .path_prefix = in->path_prefix,
        .preload_generator = in->diff_subject >= 0, .runner = in->runner};
    in->lane = lt_exec_lane(&r->ex, &in->cfg, &lane_ops, in);
    lt_exec_lane_set_start_timeout(in->lane, ZYGOTE_TIMEOUT);
    return 0;
}

/* An instance's subjects (the package files any of its diffs change)
 * and interpreter, then its lane.  0, or -1 after an error printed. */
static int inst_lane(struct repo_run *r, struct rinst *in)
{
    struct strv paths = {0};
    struct rover *all[2] = {in->ref_ov, NULL};
    for (size_t i = 0; i < in->n_ovs + 1; i++) {
        const struct rover *ov = i == 0 ? all[0] : in->ovs[i - 1];
        size_t k;
        json_t *pair;
        json_array_foreach(ov ? ov->files : NULL, k, pair) {
            const char *p = json_string_value(json_array_get(pair, 0));
            size_t n = strlen(p);
            struct stat sb;
            if (n > 3 && strcmp(p + n - 3, ".py") == 0 &&
                stat(p, &sb) == 0 && !lt__strv_has(&paths, p))
                lt__strv_push(&paths, p);
        }
    }
    in->subjects = xcalloc(paths.n + 1, sizeof(*in->subjects));
    for (size_t i = 0; i < paths.n; i++) {
        char *src = NULL;
        size_t len = 0;
        if (lt_read_file(paths.v[i], &src, &len) < 0)
            continue;
        in->subjects[in->n_subjects++] =
            (struct lt_subject){xstrdup(paths.v[i]), src, len};
    }
    in->diff_subject = -1;
    for (size_t i = 0; in->diff_path && i < in->n_subjects; i++)
        if (strcmp(in->subjects[i].path, in->diff_path) == 0)
            in->diff_subject = (int)i;
    struct lt_pyenv env = {0};
    char *perr = NULL;
    int rc = lt_pyenv_resolve(in->python, in->tree, paths.v, paths.n, 1,
                              &env, &perr);
    lt__strv_free(&paths);
    if (rc < 0) {
        lt_error("instance %s: %s", in->id, perr ? perr : lt_strerror(rc));
        free(perr);
        lt_pyenv_clear(&env);
        return -1;
    }
    free(in->python);
    in->python = xstrdup(env.python);
    char *libpython = xstrdup(env.libpython);
    in->path_prefix = env.path_prefix ? xstrdup(env.path_prefix) : NULL;
    lt_pyenv_clear(&env);
    in->libpython = libpython;
    return open_lane(r, in);
}

/*** Planning: worktrees, diffs, the store ***/

static struct rover *rover_new(void)
{
    return xcalloc(1, sizeof(struct rover));
}

static void rover_free(struct rover *ov)
{
    if (!ov)
        return;
    free(ov->apply_error);
    json_decref(ov->files);
    json_decref(ov->notes);
    json_decref(ov->changed);
    json_decref(ov->result);
    json_decref(ov->mut);
    json_decref(ov->probe_first);
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++)
            json_decref(ov->probe_recs[i][k]);
    free(ov->diff_lines);
    free(ov);
}

/* The instance's fingerprint: what its runs depend on. */
static void inst_key(const struct repo_run *r, struct rinst *in)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_printf(&b, "%s\n%s\n%s\n%s\n%s\n%s\n", LT_REPO_SCHEMA, in->id,
                  in->base, in->test_patch ? in->test_patch : "",
                  in->patch ? in->patch : "", in->python ? in->python : "");
    for (size_t i = 0; i < in->f2p.n; i++)
        lt_buf_printf(&b, "f %s\n", in->f2p.v[i]);
    for (size_t i = 0; i < in->p2p.n; i++)
        lt_buf_printf(&b, "p %s\n", in->p2p.v[i]);
    for (size_t i = 0; i < in->wider_files.n; i++)
        lt_buf_printf(&b, "w %s\n", in->wider_files.v[i]);
    for (size_t i = 0; i < in->test_files.n; i++)
        lt_buf_printf(&b, "t %s\n", in->test_files.v[i]);
    for (size_t i = 0; i < in->named.n; i++)
        lt_buf_printf(&b, "n %s\n", in->named.v[i]);
    if (in->ref_home)
        lt_buf_printf(&b, "home: %s\n", in->home_patch);
    for (size_t i = 0; i < r->o->n_pytest_args; i++)
        lt_buf_printf(&b, "a %s\n", r->o->pytest_args[i]);
    lt_buf_printf(&b, "%g %g %g %g %lu\n", r->o->wider_budget,
                  r->o->diff_budget,
                  r->o->run.timeout_factor, r->o->run.timeout_const,
                  (unsigned long)r->o->run.memory_mb);
    char sha[65];
    lt_sha256_hex(b.data, b.len, sha);
    memcpy(in->key, sha, 16);
    in->key[16] = '\0';
    lt_buf_free(&b);
}

/* Worktree, diffs and stored results of one instance. */
static int plan_inst(struct repo_run *r, struct rinst *in)
{
    lt__rt_diff_paths(in->test_patch ? in->test_patch : "", &in->test_files);
    if (lt__rt_worktree(r, in) < 0)
        return -1;
    /* The fix the tests may need: the reference's, else (the CI form
     * without one) the first candidate's, whose tests these are. */
    in->home_patch = in->patch && *in->patch ? in->patch : in->ci_first;
    if (!in->ref_home && lt__rt_tests_need_fix(in)) {
        /* The test patch imports what only the fix defines: at the base
         * its test files cannot even be collected.  The tests are
         * collected with the fix in place, and every run puts its own
         * files in (the base's run the base's texts, whose missing names
         * fail the tests that use them, as the harness's import error
         * fails them). */
        in->ref_home = 1;
        fprintf(stderr, "litmus: note: instance %s: the tests import what "
                "only the %s defines: collected with it in place\n", in->id,
                in->home_patch == in->patch ? "reference fix"
                                            : "first candidate");
        if (lt__rt_worktree(r, in) < 0)
            return -1;
    }
    in->runner = lt__rt_test_runner(in->tree);
    in->base_ov = rover_new();
    in->base_ov->is_base = 1;
    if (lt__rt_apply(r, in, "", in->base_ov) < 0)
        return -1;
    lt_sha256_hex("", 0, in->base_ov->sha);
    if (in->patch && *in->patch) {
        in->ref_ov = rover_new();
        in->ref_ov->is_ref = 1;
        lt_sha256_hex(in->patch, strlen(in->patch), in->ref_ov->sha);
        if (lt__rt_apply(r, in, in->patch, in->ref_ov) < 0)
            return -1;
        if (!in->ref_ov->applied) {
            lt_error("%s: instance %s: field 'patch': the reference fix does "
                     "not apply at %.12s: %s", in->where, in->id, in->base,
                     in->ref_ov->apply_error);
            return -2;
        }
    }
    choose_diff_files(in);
    in->ovs = xcalloc(in->n_cands + 1, sizeof(*in->ovs));
    struct strv changed = {0};
    if (in->ref_ov)
        lt__rt_diff_paths(in->patch, &changed);
    for (size_t i = 0; i < r->n_cands; i++) {
        struct rcand *c = &r->cands[i];
        if (c->inst != in)
            continue;
        char sha[65];
        lt_sha256_hex(c->patch, c->len, sha);
        for (size_t k = 0; k < in->n_ovs && !c->ov; k++)
            if (strcmp(in->ovs[k]->sha, sha) == 0)
                c->ov = in->ovs[k];
        if (c->ov)
            continue;
        struct rover *ov = c->ov = in->ovs[in->n_ovs++] = rover_new();
        memcpy(ov->sha, sha, 65);
        if (lt__rt_apply(r, in, c->patch, ov) < 0)
            return -1;
        size_t k;
        json_t *pair;
        json_array_foreach(ov->files, k, pair) {
            const char *abs = json_string_value(json_array_get(pair, 0));
            const char *rel = abs + strlen(in->tree) + 1;
            if (!lt__strv_has(&changed, rel))
                lt__strv_push(&changed, rel);
        }
    }
    if (in->ref_home && !in->ref_ov && in->ci_first) {
        /* The first candidate's files, whichever shard it is dealt to. */
        in->home_ov = rover_new();
        if (lt__rt_apply(r, in, in->ci_first, in->home_ov) < 0)
            return -1;
    }
    /* With the fix in the worktree, every other run puts in the base's
     * texts of the fix's files it leaves alone. */
    lt__rt_home_files(in, in->base_ov);
    for (size_t i = 0; i < in->n_ovs; i++)
        if (in->ovs[i]->applied && !in->ovs[i]->empty)
            lt__rt_home_files(in, in->ovs[i]);
    /* Only the package files count for the wider suite. */
    struct strv pkg = {0};
    for (size_t i = 0; i < changed.n; i++)
        if (!lt__rt_protected(in, changed.v[i]))
            lt__strv_push(&pkg, changed.v[i]);
    lt__rt_wider_files(in, &pkg, &in->wider_files);
    lt__strv_free(&pkg);
    lt__strv_free(&changed);
    inst_key(r, in);
    return 0;
}

static int load_results(struct repo_run *r, struct rinst *in)
{
    in->base_ov->result = load_layer(r, in, in->base_ov->sha, "base");
    if (in->ref_ov)
        in->ref_ov->result = load_layer(r, in, in->ref_ov->sha, "ref");
    for (int w = 0; w < 4; w++) {
        const struct rover *ov = w % 2 ? in->ref_ov : in->base_ov;
        const json_t *res = ov ? ov->result : NULL;
        if (w >= 2)
            res = json_object_get(res, "wider");
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(res, "unpin"), i, v)
            if (json_is_string(v) &&
                !lt__strv_has(&in->unpin, json_string_value(v)))
                lt__strv_push(&in->unpin, json_string_value(v));
    }
    if (in->ref_ov)
        in->ref_ov->mut = load_layer(r, in, in->ref_ov->sha, "ref_mut");
    for (size_t i = 0; i < in->n_ovs; i++)
        if (in->ovs[i]->applied && !in->ovs[i]->empty) {
            in->ovs[i]->result = load_layer(r, in, in->ovs[i]->sha, "repo");
            in->ovs[i]->mut = load_layer(r, in, in->ovs[i]->sha, "mut");
        }
    for (size_t i = 0; i < r->n_cands; i++)
        if (r->cands[i].inst == in &&
            (r->cands[i].ov->result || !r->cands[i].ov->applied ||
             r->cands[i].ov->empty))
            r->decided++;
    return 0;
}

static int mkdir_p(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) < 0 && errno != EEXIST) {
            free(p);
            return -errno;
        }
        *s = '/';
    }
    int rc = mkdir(p, 0755) < 0 && errno != EEXIST ? -errno : 0;
    free(p);
    return rc;
}

static int open_store(struct repo_run *r)
{
    return lt__patches_store_open(r->o->run.db, LT_REPO_SCHEMA, r->shard,
                                  r->plan, &r->st);
}

/* Stores every candidate's verdict (patch_runs), the rows every report
 * is rendered from. */
static int store_verdicts(struct repo_run *r)
{
    int rc = lt_store_begin(r->st);
    for (size_t i = 0; rc == 0 && i < r->n_cands; i++) {
        struct rcand *c = &r->cands[i];
        json_t *map = inst_map(r, c->inst);
        struct rverdict v = {0};
        if (!map || (!c->ov->result && c->ov->applied && !c->ov->empty)) {
            v.verdict = "error";
            v.reason = "engine_error";
            v.detail = xstrdup("the candidate was not run");
            v.ev = json_object();
        } else {
            decide(r, c, map, &v);
        }
        json_decref(map);
        json_object_set_new(v.ev, "model_name_or_path",
                            json_string(c->model));
        json_object_set_new(v.ev, "harness",
                            json_string(!c->ov->applied ? "error"
                                        : c->ov->empty  ? "empty"
                                        : v.resolved    ? "resolved"
                                        : strcmp(v.verdict, "error") == 0
                                            ? "error"
                                            : "unresolved"));
        char *evs = json_dumps(v.ev, JSON_COMPACT);
        struct lt_patch_run pr = {
            .seq = c->seq, .program = c->inst->id, .run_id = c->model,
            .unit = c->inst->key, .text_sha = c->ov->sha,
            .verdict = v.verdict, .reason = v.reason,
            .detail = v.detail ? v.detail : "", .evidence = evs,
            .duration_ms = jnum(v.ev, "duration_ms", 0)};
        rc = lt_store_put_patch_run(r->st, &pr);
        free(evs);
        free(v.detail);
        json_decref(v.ev);
    }
    if (rc == 0)
        rc = lt_store_commit(r->st);
    else
        lt_store_rollback(r->st);
    if (rc < 0)
        return lt__store_write_failed(r->st, r->o->run.db, rc);
    return 0;
}

/* Per-instance checks once its runs are known: the base must not be
 * resolved, the lists computed here are compared with the instance's. */
static void instance_notes(struct repo_run *r)
{
    for (size_t i = 0; i < r->n_insts; i++) {
        struct rinst *in = r->insts[i];
        if (!in->n_cands || !in->base_ov || !in->base_ov->result)
            continue;
        json_t *map = inst_map(r, in);
        if (!map)
            continue;
        json_t *re = recompute(map, in->base_ov->result,
                               in->ref_ov ? in->ref_ov->result : NULL);
        json_t *rep = lists_report(map, re);
        if (lt_store_begin(r->st) == 0) {
            char *s = json_dumps(rep, JSON_COMPACT);
            if (lt_store_put_candidate_result(r->st, in->key, "lists",
                                              "lists", s) == 0)
                lt_store_commit(r->st);
            else
                lt_store_rollback(r->st);
            free(s);
        }
        if (!in->ci && json_array_size(json_object_get(re, "f2p")) == 0)
            lt_warn("instance %s: no FAIL_TO_PASS test fails at the base "
                    "and passes with the reference here", in->id);
        json_decref(rep);
        json_decref(re);
        json_decref(map);
    }
}

static size_t settle(struct lt_exec *ex)
{
    struct repo_run *r = ex->owner;
    size_t waiting = 0;
    for (size_t i = 0; i < r->n_insts; i++) {
        struct rinst *in = r->insts[i];
        if (!in->lane || in->done)
            continue;
        if (!in->have_tests) {
            waiting++;
            continue;
        }
        if (in->pending == 0 && lt_exec_queued(in->lane) == 0) {
            in->done = 1;
            lt_exec_trim(ex, in->lane, 0);
        }
    }
    return waiting;
}

static void run_progress(struct lt_exec *ex, int force)
{
    struct repo_run *r = ex->owner;
    if (force)
        lt_exec_commit(ex, 1);
    progress_show(r, force);
}

static void run_free(struct repo_run *r)
{
    if (r->run_log)
        fclose(r->run_log);
    lt_exec_close(&r->ex);
    for (size_t i = 0; i < r->n_insts; i++) {
        struct rinst *in = r->insts[i];
        if (!in)
            continue;
        rover_free(in->base_ov);
        rover_free(in->ref_ov);
        rover_free(in->home_ov);
        for (size_t k = 0; k < in->n_ovs; k++)
            rover_free(in->ovs[k]);
        lt__ri_inst_free(in);
    }
    free(r->insts);
    for (size_t i = 0; i < r->n_cands; i++) {
        free(r->cands[i].instance_id);
        free(r->cands[i].model);
        free(r->cands[i].patch);
        json_decref(r->cands[i].dropped);
    }
    free(r->cands);
    if (r->scratch) {
        lt_sandbox_scratch_remove(r->scratch);
        free(r->scratch);
    }
    free(r->trees);
    free(r->plan);
    lt_store_close(r->st);
}

/* Contract: see engine.h. */
int lt_patches_repo(const struct lt_patches_opts *o)
{
    struct repo_run r;
    memset(&r, 0, sizeof(r));
    r.o = o;
    r.t_start = lt__now();
    lt_exec_init(&r.ex, o->run.jobs);
    r.ex.owner = &r;
    int code = 0;
    if (lt__ri_read(&r) < 0 || lt__ri_shard(&r) < 0) {
        code = LT_EXIT_USAGE;
        goto out;
    }
    r.trees = o->worktrees ? xstrdup(o->worktrees)
                           : xasprintf("%s.trees", o->run.db);
    int rc = mkdir_p(r.trees);
    if (rc < 0) {
        lt_error("--worktrees %s: %s", r.trees, lt_strerror(rc));
        code = LT_EXIT_USAGE;
        goto out;
    }
    char *abs = realpath(r.trees, NULL);
    free(r.trees);
    r.trees = abs;
    for (size_t i = 0; i < r.n_insts; i++) {
        if (!r.insts[i]->n_cands)
            continue;
        rc = plan_inst(&r, r.insts[i]);
        if (rc < 0) {
            code = rc == -2 ? LT_EXIT_USAGE : LT_EXIT_USAGE;
            goto out;
        }
    }
    code = open_store(&r);
    if (code)
        goto out;
    int need = 0;
    for (size_t i = 0; i < r.n_insts; i++) {
        struct rinst *in = r.insts[i];
        if (!in->n_cands)
            continue;
        load_results(&r, in);
        in->done = inst_complete(&r, in);
        need |= !in->done;
    }
    if (need) {
        r.scratch = lt_sandbox_scratch_new(NULL);
        if (!r.scratch) {
            lt_error("cannot create a scratch directory: %s",
                     strerror(errno));
            code = LT_EXIT_ENGINE;
            goto out;
        }
        for (size_t i = 0; i < r.n_insts; i++)
            if (r.insts[i]->n_cands && !r.insts[i]->done &&
                inst_lane(&r, r.insts[i]) < 0) {
                code = LT_EXIT_USAGE;
                goto out;
            }
        const char *log_path = getenv("LITMUS_RUN_LOG");
        r.run_log = log_path && *log_path ? fopen(log_path, "a") : NULL;
        lt__progress_init(&r.prog, o->run.progress, "patches");
        r.ex.st = r.st;
        r.ex.db = o->run.db;
        r.ex.batch = BATCH_WRITES;
        r.ex.idle = settle;
        r.ex.progress = run_progress;
        code = lt_exec_run(&r.ex);
        if (code)
            goto out;
    }
    instance_notes(&r);
    code = store_verdicts(&r);
    if (code == 0)
        code = lt__repo_report(r.st, o, lt__now() - r.t_start, stdout);
    if (code == 0 || code == 1) {
        /* Every candidate has a verdict: `litmus merge` may take it. */
        int rc2 = lt_store_set_meta(r.st, lt_patches_shard_store.complete_key,
                                    "1");
        if (rc2 < 0)
            code = lt__store_write_failed(r.st, o->run.db, rc2);
    }
out:
    run_free(&r);
    return code;
}
