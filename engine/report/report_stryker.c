/* The Stryker mutation-testing-report-schema (version 2) rendering of a
 * stored run, and the self-contained HTML report built on it with the
 * mutation-testing-elements web component inlined (docs/reports.md).
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/pyload.h"
#include "common/xmalloc.h"
#include "engine/report/report_internal.h"

#ifndef LT_VERSION
#define LT_VERSION "0.0.0"
#endif

/* The pinned package scripts/fetch-npm.sh puts beside the binary. */
#define ELEMENTS_REL "npm/node_modules/mutation-testing-elements/dist/" \
                     "mutation-test-elements.js"

/*** Status mapping ***/

/* Our verdict as a Stryker status.  crashed and memory are Killed (the
 * tests detected the mutant: the process died under them), so that the
 * score the elements compute, detected / valid, is litmus's own;
 * RuntimeError would leave them out of it.  equivalent is Ignored with a
 * reason; error (the engine or sandbox failed) is RuntimeError, which
 * the score leaves out as litmus does; a mutant without a result
 * (pending, or not_run when --max-time stopped the run) is Pending,
 * which the score leaves out too. */
static const char *stryker_status(enum lt_verdict v)
{
    switch (v) {
    case LT_VERDICT_KILLED:
    case LT_VERDICT_CRASHED:
    case LT_VERDICT_MEMORY:
        return "Killed";
    case LT_VERDICT_TIMEOUT:
        return "Timeout";
    case LT_VERDICT_SURVIVED:
        return "Survived";
    case LT_VERDICT_NO_COVERAGE:
        return "NoCoverage";
    case LT_VERDICT_EQUIVALENT:
        return "Ignored";
    case LT_VERDICT_INVALID:
        return "CompileError";
    case LT_VERDICT_ERROR:
        return "RuntimeError";
    default:
        return "Pending";
    }
}

/* Why the mutant has its status, or NULL.  Verdicts that Stryker's
 * vocabulary merges keep their litmus name here. */
static char *status_reason(const struct lt__rmutant *x)
{
    const char *detail = x->has_result && x->r.detail && *x->r.detail
                             ? x->r.detail
                             : NULL;
    switch (x->r.verdict) {
    case LT_VERDICT_CRASHED:
    case LT_VERDICT_MEMORY:
    case LT_VERDICT_ERROR:
        return xasprintf("%s%s%s", lt_verdict_name(x->r.verdict),
                         detail ? ": " : "", detail ? detail : "");
    case LT_VERDICT_EQUIVALENT:
        return xasprintf("equivalent: compiles to the same code as the "
                         "original, not run%s%s", detail ? "; " : "",
                         detail ? detail : "");
    case LT_VERDICT_NO_COVERAGE:
        return xstrdup(detail ? detail : "no test reaches this code");
    case LT_VERDICT_NOT_RUN:
        return xstrdup("not_run: the run's --max-time came before it");
    default:
        return detail ? xstrdup(detail) : NULL;
    }
}

/*** The report object ***/

static json_t *position(int line, int col)
{
    return json_pack("{s:i, s:i}", "line", line < 1 ? 1 : line, "column",
                     col < 1 ? 1 : col);
}

/* The test file of a pytest node id: what comes before "::". */
static char *test_file_of(const char *nodeid)
{
    const char *sep = strstr(nodeid, "::");
    return sep ? xstrndup(nodeid, (size_t)(sep - nodeid)) : xstrdup(nodeid);
}

static void add_test(json_t *test_files, json_t *seen, const char *nodeid)
{
    if (json_object_get(seen, nodeid))
        return;
    json_object_set_new(seen, nodeid, json_true());
    char *file = test_file_of(nodeid);
    json_t *tf = json_object_get(test_files, file);
    if (!tf) {
        tf = json_pack("{s:[]}", "tests");
        json_object_set_new(test_files, file, tf);
    }
    const char *sep = strstr(nodeid, "::");
    json_t *t = json_object();
    json_object_set_new(t, "id", lt__jstr(nodeid));
    json_object_set_new(t, "name", lt__jstr(sep ? sep + 2 : nodeid));
    json_array_append_new(json_object_get(tf, "tests"), t);
    free(file);
}

static json_t *mutant_json(const struct lt__rdata *d, size_t i)
{
    const struct lt__rmutant *x = &d->mutants[i];
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(x->m.id));
    json_object_set_new(o, "mutatorName", lt__jstr(x->m.op));
    json_object_set_new(o, "replacement", lt__jstr(x->m.replacement));
    json_object_set_new(
        o, "location",
        json_pack("{s:o, s:o}", "start", position(x->loc.line, x->loc.col),
                  "end", position(x->loc.end_line, x->loc.end_col)));
    json_object_set_new(o, "status",
                        json_string(stryker_status(x->r.verdict)));
    char *reason = status_reason(x);
    if (reason)
        json_object_set_new(o, "statusReason", lt__jstr(reason));
    free(reason);
    char *desc = xasprintf("%s (%s): %s -> %s", x->m.op,
                           lt_category_name(x->m.category), x->m.original,
                           *x->m.replacement ? x->m.replacement
                                             : "(removed)");
    json_object_set_new(o, "description", lt__jstr(desc));
    free(desc);
    size_t *idx = NULL;
    long n = lt__covering_tests(d, i, &idx);
    if (n >= 0) {
        json_t *cov = json_array();
        /* A mutant no test reaches is covered by none, whatever a line
         * range says (module-level code runs at import). */
        for (long k = 0; x->r.verdict != LT_VERDICT_NO_COVERAGE && k < n; k++)
            json_array_append_new(cov, lt__jstr(d->tests[idx[k]].nodeid));
        json_object_set_new(o, "coveredBy", cov);
    }
    free(idx);
    if (x->has_result && x->r.killed_by && *x->r.killed_by)
        json_object_set_new(o, "killedBy",
                            json_pack("[o]", lt__jstr(x->r.killed_by)));
    if (x->has_result) {
        json_object_set_new(o, "testsCompleted",
                            json_integer(x->r.tests_run));
        json_object_set_new(o, "duration", json_real(x->r.duration_ms));
    }
    return o;
}

/* The run's settings ("key=value" lines) as an object; keys seen twice
 * become arrays. */
static json_t *config_json(const struct lt__rdata *d)
{
    json_t *o = json_object();
    for (const char *p = d->settings; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        if (eq) {
            char *k = xstrndup(p, (size_t)(eq - p));
            char *v = xstrndup(eq + 1, n - (size_t)(eq - p) - 1);
            json_t *old = json_object_get(o, k);
            if (!old)
                json_object_set_new(o, k, lt__jstr(v));
            else if (json_is_array(old))
                json_array_append_new(old, lt__jstr(v));
            else
                json_object_set_new(o, k,
                                    json_pack("[O, o]", old, lt__jstr(v)));
            free(k);
            free(v);
        }
        p += n + (nl != NULL);
    }
    return o;
}

static double ms(double s)
{
    return s < 0 ? 0 : s * 1000.0;
}

json_t *lt__stryker_json(const struct lt__rdata *d, double fail_under)
{
    json_t *root = json_object();
    json_object_set_new(root, "schemaVersion", json_string("2"));
    /* Stryker's defaults; a --fail-under threshold becomes the low one,
     * below which the elements paint the score red. */
    int low = 60, high = 80;
    if (fail_under >= 0) {
        low = (int)(fail_under * 100.0 + 1e-9);
        if (high < low)
            high = low;
    }
    json_object_set_new(root, "thresholds",
                        json_pack("{s:i, s:i}", "high", high, "low", low));
    json_object_set_new(root, "projectRoot", lt__jstr(d->cwd));
    json_t *files = json_object();
    for (size_t f = 0; f < d->n_files; f++)
        json_object_set_new(
            files, d->files[f].display,
            json_pack("{s:s, s:o, s:[]}", "language", "python", "source",
                      lt__jstr(d->files[f].source ? d->files[f].source : ""),
                      "mutants"));
    json_t *test_files = json_object(), *seen = json_object();
    for (size_t t = 0; t < d->n_tests; t++)
        add_test(test_files, seen, d->tests[t].nodeid);
    for (size_t i = 0; i < d->n_mutants; i++) {
        const struct lt__rmutant *x = &d->mutants[i];
        json_t *f = json_object_get(files, d->files[x->file].display);
        json_array_append_new(json_object_get(f, "mutants"),
                              mutant_json(d, i));
        /* Every killing test must be defined for the elements. */
        if (x->has_result && x->r.killed_by && *x->r.killed_by)
            add_test(test_files, seen, x->r.killed_by);
    }
    json_decref(seen);
    json_object_set_new(root, "files", files);
    json_object_set_new(root, "testFiles", test_files);
    json_object_set_new(root, "performance",
                        json_pack("{s:f, s:f, s:f}", "setup", ms(d->setup_s),
                                  "initialRun", ms(d->baseline_s),
                                  "mutation", ms(d->mutants_s)));
    json_object_set_new(root, "framework",
                        json_pack("{s:s, s:s}", "name", "litmus", "version",
                                  LT_VERSION));
    json_object_set_new(root, "config", config_json(d));
    return root;
}

int lt__write_stryker(const struct lt__rdata *d, double fail_under, FILE *out)
{
    json_t *root = lt__stryker_json(d, fail_under);
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
    if (rc < 0) {
        lt_error("cannot write the Stryker report");
        return -EIO;
    }
    return 0;
}

/*** HTML ***/

/* The default mutation-test-elements.js: beside the litmus binary, where
 * scripts/fetch-npm.sh puts it (build/npm), else where `make install`
 * puts it (PREFIX/share/litmus/npm for PREFIX/bin/litmus); the first
 * when neither is there.  Caller frees. */
static char *default_elements_js(void)
{
    char *js = lt_self_file(ELEMENTS_REL, "../share/litmus/" ELEMENTS_REL);
    if (js)
        return js;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
        return xstrdup(ELEMENTS_REL);
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    return xasprintf("%s/%s", self, ELEMENTS_REL);
}

/* Reads path's sibling file `rel` relative to the js's directory. */
static int read_beside(const char *js, const char *rel, char **out,
                       size_t *len)
{
    char *dir = xstrdup(js);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    char *p = slash ? xasprintf("%s/%s", dir, rel) : xstrdup(rel);
    int rc = lt_read_file(p, out, len);
    free(p);
    free(dir);
    return rc;
}

/* Case-insensitive search for needle in the first n bytes of s. */
static int contains_ci(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (strncasecmp(s + i, needle, k) == 0)
            return 1;
    return 0;
}

/* Writes the whole buffer or fails. */
static int put(FILE *f, const char *s, size_t n)
{
    return fwrite(s, 1, n, f) == n ? 0 : -1;
}

int lt__write_html(const struct lt__rdata *d, double fail_under,
                   const struct lt_report_opts *ro)
{
    char *js_path = ro->elements_js ? xstrdup(ro->elements_js)
                                    : default_elements_js();
    char *js = NULL, *license = NULL, *pkg = NULL, *report = NULL;
    char *tmp = NULL;
    size_t js_len = 0, license_len = 0, pkg_len = 0;
    FILE *f = NULL;
    int rc = lt_read_file(js_path, &js, &js_len);
    if (rc < 0) {
        lt_error("%s: %s; the HTML report inlines it: fetch it with "
                 "`scripts/fetch-npm.sh` (npm package "
                 "mutation-testing-elements 3.9.0 into build/npm; `make "
                 "install` copies it to PREFIX/share/litmus/npm), or give "
                 "--elements-js FILE", js_path, lt_strerror(rc));
        goto out;
    }
    rc = read_beside(js_path, "../LICENSE", &license, &license_len);
    if (rc < 0)
        rc = read_beside(js_path, "LICENSE", &license, &license_len);
    if (rc < 0) {
        lt_error("%s: no LICENSE beside it (in the package); the report "
                 "keeps it: fetch the package with `scripts/fetch-npm.sh`",
                 js_path);
        goto out;
    }
    /* The script is inlined as is: text that would end or re-open a
     * script element would break the page, so refuse it. */
    if (memchr(js, '\0', js_len) || contains_ci(js, js_len, "</script") ||
        contains_ci(js, js_len, "<script")) {
        lt_error("%s: holds a script tag and cannot be inlined; use the "
                 "pinned mutation-testing-elements 3.9.0", js_path);
        rc = LT_EUSAGE;
        goto out;
    }
    const char *version = "unknown";
    json_t *pj = NULL;
    if (read_beside(js_path, "../package.json", &pkg, &pkg_len) == 0 &&
        (pj = json_loadb(pkg, pkg_len, 0, NULL)) &&
        json_is_string(json_object_get(pj, "version")))
        version = json_string_value(json_object_get(pj, "version"));

    json_t *root = lt__stryker_json(d, fail_under);
    report = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    tmp = xasprintf("%s.tmp", ro->html);
    f = fopen(tmp, "w");
    if (!f) {
        rc = -errno;
        lt_error("%s: %s", tmp, lt_strerror(rc));
        json_decref(pj);
        goto out;
    }
    struct lt_buf h = LT_BUF_INIT;
    lt_buf_puts(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                    "<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, "
                    "initial-scale=1\">\n"
                    "<title>litmus mutation report</title>\n<script>\n");
    lt_buf_printf(&h, "/*! mutation-testing-elements %s, "
                      "dist/mutation-test-elements.js, inlined by litmus "
                      "%s.  Its license follows.\n\n", version, LT_VERSION);
    json_decref(pj);
    /* The license inside a comment: a "*" "/" in it would end the
     * comment early. */
    for (size_t i = 0; i < license_len; i++) {
        if (license[i] == '*' && i + 1 < license_len && license[i + 1] == '/')
            lt_buf_puts(&h, "* /"), i++;
        else
            lt_buf_append(&h, &license[i], 1);
    }
    lt_buf_puts(&h, "\n*/\n");
    int w = put(f, h.data, h.len);
    lt_buf_free(&h);
    w |= put(f, js, js_len);
    lt_buf_puts(&h, "\n</script>\n</head>\n<body>\n"
                    "<mutation-test-report-app title-postfix=\"litmus\">"
                    "</mutation-test-report-app>\n<script>\n"
                    "document.querySelector('mutation-test-report-app')"
                    ".report = ");
    /* '<' only occurs inside JSON strings, where \u003c means the same
     * and cannot close the script element. */
    for (const char *p = report; *p; p++) {
        if (*p == '<')
            lt_buf_puts(&h, "\\u003c");
        else
            lt_buf_append(&h, p, 1);
    }
    lt_buf_puts(&h, ";\n</script>\n</body>\n</html>\n");
    w |= put(f, h.data, h.len);
    lt_buf_free(&h);
    if (fclose(f) != 0 || w) {
        f = NULL;
        rc = -EIO;
        lt_error("%s: cannot write the HTML report", tmp);
        unlink(tmp);
        goto out;
    }
    f = NULL;
    if (rename(tmp, ro->html) != 0) {
        rc = -errno;
        lt_error("%s: %s", ro->html, lt_strerror(rc));
        unlink(tmp);
        goto out;
    }
    fprintf(stderr, "litmus: wrote the HTML report to %s\n", ro->html);
    rc = 0;
out:
    if (f)
        fclose(f);
    free(tmp);
    free(report);
    free(pkg);
    free(license);
    free(js);
    free(js_path);
    return rc < 0 ? rc : 0;
}
