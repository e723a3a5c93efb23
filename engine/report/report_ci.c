/* Reports for CI: JUnit XML, SARIF 2.1.0, GitHub workflow annotations,
 * and the survivor baseline behind --fail-on-new-survivors
 * (docs/reports.md).  SPDX-License-Identifier: MIT */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/report/report_internal.h"

#ifndef LT_VERSION
#define LT_VERSION "0.0.0"
#endif

#define BASELINE_SCHEMA "litmus.survivors/1"

/* "op: original -> replacement" for messages (caller frees). */
static char *change_text(const struct lt__rmutant *x)
{
    char *o = lt__one_line(x->m.original, 60);
    char *r = lt__one_line(x->m.replacement, 60);
    char *t = xasprintf("%s: `%s` -> %s%s%s", x->m.op, o, *r ? "`" : "",
                        *r ? r : "(removed)", *r ? "`" : "");
    free(o);
    free(r);
    return t;
}

/*** JUnit XML ***/

/* Text for XML 1.0: markup characters escaped, control characters it
 * cannot carry replaced by U+FFFD, invalid UTF-8 too. */
static void xml_text(struct lt_buf *b, const char *s)
{
    char *c = lt__utf8_clean(s ? s : "");
    for (const char *p = c; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        switch (ch) {
        case '<':
            lt_buf_puts(b, "&lt;");
            break;
        case '>':
            lt_buf_puts(b, "&gt;");
            break;
        case '&':
            lt_buf_puts(b, "&amp;");
            break;
        case '"':
            lt_buf_puts(b, "&quot;");
            break;
        case '\n':
        case '\t':
            lt_buf_append(b, p, 1);
            break;
        default:
            if (ch < 0x20)
                lt_buf_puts(b, "\xef\xbf\xbd");
            else
                lt_buf_append(b, p, 1);
        }
    }
    free(c);
}

/* In attributes, newlines and tabs would be normalised away: escape them. */
static void xml_attr(struct lt_buf *b, const char *s)
{
    struct lt_buf t = LT_BUF_INIT;
    xml_text(&t, s);
    for (size_t i = 0; i < t.len; i++) {
        if (t.data[i] == '\n')
            lt_buf_puts(b, "&#10;");
        else if (t.data[i] == '\t')
            lt_buf_puts(b, "&#9;");
        else
            lt_buf_append(b, &t.data[i], 1);
    }
    lt_buf_free(&t);
}

static enum lt_junit_policy policy_of(enum lt_verdict v,
                                      const struct lt_report_opts *ro)
{
    switch (v) {
    case LT_VERDICT_SURVIVED:
        return LT_JUNIT_FAILURE;
    case LT_VERDICT_NO_COVERAGE:
        return ro->junit_no_coverage ? ro->junit_no_coverage
                                     : LT_JUNIT_FAILURE;
    case LT_VERDICT_TIMEOUT:
        return ro->junit_timeout ? ro->junit_timeout : LT_JUNIT_IGNORE;
    case LT_VERDICT_EQUIVALENT:
    case LT_VERDICT_INVALID:
    case LT_VERDICT_PENDING:
    case LT_VERDICT_NOT_RUN:
        return LT_JUNIT_SKIPPED;
    case LT_VERDICT_ERROR:
        return LT_JUNIT_ERROR;
    default:
        return LT_JUNIT_IGNORE; /* killed, crashed, memory: detected */
    }
}

/* The classname of a mutant's testcase: its file as a dotted path. */
static char *classname(const char *path)
{
    size_t n = strlen(path);
    if (n > 3 && strcmp(path + n - 3, ".py") == 0)
        n -= 3;
    char *c = xstrndup(path, n);
    for (char *p = c; *p; p++)
        if (*p == '/')
            *p = '.';
    return c;
}

int lt__write_junit(const struct lt__rdata *d, const struct lt_report_opts *ro,
                    FILE *out)
{
    static const struct lt_report_opts none;
    if (!ro)
        ro = &none;
    int failures = 0, errors = 0, skipped = 0;
    double total_s = 0;
    struct lt_buf cases = LT_BUF_INIT;
    for (size_t i = 0; i < d->n_mutants; i++) {
        const struct lt__rmutant *x = &d->mutants[i];
        const char *file = d->files[x->file].display;
        enum lt_verdict v = x->r.verdict;
        double t = x->has_result ? x->r.duration_ms / 1000.0 : 0;
        total_s += t;
        char *cls = classname(file);
        char *change = change_text(x);
        char *name = xasprintf("%s %d:%d %s", x->m.id, x->loc.line,
                               x->loc.col, change);
        lt_buf_puts(&cases, "    <testcase classname=\"");
        xml_attr(&cases, cls);
        lt_buf_puts(&cases, "\" name=\"");
        xml_attr(&cases, name);
        lt_buf_puts(&cases, "\" file=\"");
        xml_attr(&cases, file);
        lt_buf_printf(&cases, "\" line=\"%d\" time=\"%.3f\"", x->loc.line, t);
        free(cls);
        free(name);
        enum lt_junit_policy pol = policy_of(v, ro);
        if (pol == LT_JUNIT_IGNORE) {
            lt_buf_puts(&cases, "/>\n");
            free(change);
            continue;
        }
        const char *detail = x->has_result && x->r.detail ? x->r.detail : "";
        char *msg = xasprintf("%s: %s%s%s", lt_verdict_name(v), change,
                              *detail ? "; " : "", detail);
        free(change);
        const char *tag = pol == LT_JUNIT_SKIPPED ? "skipped"
                          : pol == LT_JUNIT_ERROR ? "error"
                                                  : "failure";
        failures += pol == LT_JUNIT_FAILURE;
        errors += pol == LT_JUNIT_ERROR;
        skipped += pol == LT_JUNIT_SKIPPED;
        lt_buf_printf(&cases, ">\n      <%s message=\"", tag);
        xml_attr(&cases, msg);
        free(msg);
        if (pol == LT_JUNIT_SKIPPED) {
            lt_buf_puts(&cases, "\"/>\n    </testcase>\n");
            continue;
        }
        lt_buf_printf(&cases, "\" type=\"%s\">", lt_verdict_name(v));
        char *diff = lt__rmutant_diff(d, i);
        xml_text(&cases, diff);
        free(diff);
        lt_buf_printf(&cases, "</%s>\n    </testcase>\n", tag);
    }
    double score = lt_summary_score(&d->sum);
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out, "<testsuites name=\"litmus\" tests=\"%zu\" failures=\"%d\" "
                 "errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
            d->n_mutants, failures, errors, skipped, total_s);
    fprintf(out, "  <testsuite name=\"litmus mutation testing\" "
                 "tests=\"%zu\" failures=\"%d\" errors=\"%d\" "
                 "skipped=\"%d\" time=\"%.3f\">\n",
            d->n_mutants, failures, errors, skipped, total_s);
    fprintf(out, "    <properties>\n");
    if (score >= 0)
        fprintf(out, "      <property name=\"mutation_score\" "
                     "value=\"%.4f\"/>\n", score);
    for (int v = LT_VERDICT_KILLED; v < LT_VERDICT__COUNT; v++)
        fprintf(out, "      <property name=\"%s\" value=\"%d\"/>\n",
                lt_verdict_name((enum lt_verdict)v), d->sum.counts[v]);
    fprintf(out, "    </properties>\n");
    if (cases.len)
        fwrite(cases.data, 1, cases.len, out);
    fprintf(out, "  </testsuite>\n</testsuites>\n");
    lt_buf_free(&cases);
    return ferror(out) ? -EIO : 0;
}

/*** SARIF 2.1.0 ***/

struct rule {
    enum lt_verdict verdict;
    const char *name, *text, *level;
};

/* A rule per verdict kind; results are reported for the two that say the
 * tests missed something. */
static const struct rule rules[] = {
    {LT_VERDICT_SURVIVED, "SurvivingMutant",
     "A mutant survived: every test that reaches the changed code passed.",
     "warning"},
    {LT_VERDICT_NO_COVERAGE, "UncoveredMutant",
     "No test reaches the code of this mutant.", "note"},
    {LT_VERDICT_KILLED, "KilledMutant", "A test failed on the mutant.",
     "none"},
    {LT_VERDICT_TIMEOUT, "TimedOutMutant",
     "The tests ran past their limit on the mutant (counted as detected).",
     "none"},
    {LT_VERDICT_CRASHED, "CrashedMutant",
     "The tests' process died by a signal on the mutant (detected).", "none"},
    {LT_VERDICT_MEMORY, "MemoryMutant",
     "The mutant exhausted the memory limit (detected).", "none"},
    {LT_VERDICT_EQUIVALENT, "EquivalentMutant",
     "The mutant compiles to the same code as the original: not run.",
     "none"},
    {LT_VERDICT_INVALID, "InvalidMutant", "The mutant does not compile.",
     "none"},
    {LT_VERDICT_ERROR, "EngineError",
     "The engine or the sandbox failed on this mutant (never a kill).",
     "none"},
};

/* A relative path as a URI reference: unreserved bytes and '/' kept,
 * the rest percent-encoded. */
static char *uri_path(const char *p)
{
    struct lt_buf b = LT_BUF_INIT;
    for (; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9') || strchr("-._~/", c))
            lt_buf_append(&b, p, 1);
        else
            lt_buf_printf(&b, "%%%02X", c);
    }
    return b.data ? lt_buf_steal(&b) : xstrdup("");
}

int lt__write_sarif(const struct lt__rdata *d, FILE *out)
{
    json_t *jrules = json_array();
    for (size_t k = 0; k < sizeof(rules) / sizeof(*rules); k++) {
        char *id = xasprintf("litmus/%s", lt_verdict_name(rules[k].verdict));
        json_array_append_new(
            jrules,
            json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s}}", "id", id,
                      "name", rules[k].name, "shortDescription", "text",
                      rules[k].text, "fullDescription", "text", rules[k].text,
                      "defaultConfiguration", "level", rules[k].level));
        free(id);
    }
    json_t *results = json_array();
    for (size_t i = 0; i < d->n_mutants; i++) {
        const struct lt__rmutant *x = &d->mutants[i];
        size_t k = 0;
        if (x->r.verdict == LT_VERDICT_SURVIVED)
            k = 0;
        else if (x->r.verdict == LT_VERDICT_NO_COVERAGE)
            k = 1;
        else
            continue;
        const struct lt__rfile *f = &d->files[x->file];
        char *change = change_text(x);
        char *msg = xasprintf(
            "%s mutant %s (%s). `litmus show %s` prints its diff.",
            k == 0 ? "Surviving" : "Uncovered", x->m.id, change, x->m.id);
        free(change);
        json_t *art;
        if (f->repo_path) {
            char *u = uri_path(f->repo_path);
            art = json_pack("{s:s, s:s}", "uri", u, "uriBaseId", "SRCROOT");
            free(u);
        } else {
            char *u = uri_path(f->path);
            char *fu = xasprintf("file://%s", u);
            art = json_pack("{s:s}", "uri", fu);
            free(fu);
            free(u);
        }
        json_t *region = json_pack(
            "{s:i, s:i, s:i, s:i}", "startLine", x->loc.line, "startColumn",
            x->loc.col, "endLine", x->loc.end_line, "endColumn",
            x->loc.end_col);
        json_object_set_new(region, "snippet",
                            json_pack("{s:o}", "text",
                                      lt__jstr(x->m.original)));
        char *rule_id = xasprintf("litmus/%s",
                                  lt_verdict_name(rules[k].verdict));
        json_t *res = json_pack(
            "{s:s, s:i, s:s, s:{s:o}, s:[{s:{s:o, s:o}}], s:{s:s}}",
            "ruleId", rule_id, "ruleIndex", (int)k, "level", rules[k].level,
            "message", "text", lt__jstr(msg), "locations", "physicalLocation",
            "artifactLocation", art, "region", region, "partialFingerprints",
            "litmusMutantId/v1", x->m.id);
        json_object_set_new(
            res, "properties",
            json_pack("{s:s, s:s, s:o, s:o}", "mutantId", x->m.id,
                      "operator", x->m.op, "original", lt__jstr(x->m.original),
                      "replacement", lt__jstr(x->m.replacement)));
        json_array_append_new(results, res);
        free(rule_id);
        free(msg);
    }
    json_t *counts = json_object();
    for (int v = LT_VERDICT_KILLED; v < LT_VERDICT__COUNT; v++)
        json_object_set_new(counts, lt_verdict_name((enum lt_verdict)v),
                            json_integer(d->sum.counts[v]));
    double score = lt_summary_score(&d->sum);
    json_t *run = json_pack(
        "{s:{s:{s:s, s:s, s:s, s:o}}, s:s, s:o}", "tool", "driver", "name",
        "litmus", "version", LT_VERSION, "semanticVersion", LT_VERSION,
        "rules", jrules, "columnKind", "utf16CodeUnits", "results", results);
    char *root_uri = uri_path(d->repo_root);
    char *base = xasprintf("file://%s/", root_uri);
    json_object_set_new(run, "originalUriBaseIds",
                        json_pack("{s:{s:s}}", "SRCROOT", "uri", base));
    free(base);
    free(root_uri);
    json_object_set_new(run, "properties",
                        json_pack("{s:o, s:o}", "verdicts", counts,
                                  "mutationScore",
                                  score < 0 ? json_null() : json_real(score)));
    json_t *root = json_pack(
        "{s:s, s:s, s:[o]}", "$schema",
        "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
        "runs", run);
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
    return rc < 0 ? -EIO : 0;
}

/*** GitHub workflow annotations ***/

/* The escaping of workflow commands: % CR LF in the message, plus : and
 * , in property values. */
static void gh_escape(struct lt_buf *b, const char *s, int property)
{
    for (; *s; s++) {
        if (*s == '%')
            lt_buf_puts(b, "%25");
        else if (*s == '\r')
            lt_buf_puts(b, "%0D");
        else if (*s == '\n')
            lt_buf_puts(b, "%0A");
        else if (property && *s == ':')
            lt_buf_puts(b, "%3A");
        else if (property && *s == ',')
            lt_buf_puts(b, "%2C");
        else
            lt_buf_append(b, s, 1);
    }
}

int lt__write_github(const struct lt__rdata *d, FILE *out)
{
    struct lt_buf b = LT_BUF_INIT;
    for (size_t i = 0; i < d->n_mutants; i++) {
        const struct lt__rmutant *x = &d->mutants[i];
        int survived = x->r.verdict == LT_VERDICT_SURVIVED;
        if (!survived && x->r.verdict != LT_VERDICT_NO_COVERAGE)
            continue;
        const struct lt__rfile *f = &d->files[x->file];
        lt_buf_printf(&b, "::%s file=", survived ? "warning" : "notice");
        gh_escape(&b, f->repo_path ? f->repo_path : f->path, 1);
        lt_buf_printf(&b, ",line=%d,endLine=%d,col=%d,endColumn=%d,title=",
                      x->loc.line, x->loc.end_line, x->loc.col,
                      x->loc.end_col);
        char *title = xasprintf("%s mutant %s",
                                survived ? "Surviving" : "Uncovered", x->m.id);
        gh_escape(&b, title, 1);
        free(title);
        lt_buf_puts(&b, "::");
        char *change = change_text(x);
        char *diff = lt__rmutant_diff(d, i);
        char *msg = xasprintf("%s %s. `litmus show %s` prints it.\n%s",
                              change,
                              survived ? "survived: every test reaching it "
                                         "passed"
                                       : "is reached by no test",
                              x->m.id, diff);
        gh_escape(&b, msg, 0);
        lt_buf_puts(&b, "\n");
        free(msg);
        free(diff);
        free(change);
    }
    double score = lt_summary_score(&d->sum);
    if (score >= 0)
        lt_buf_printf(&b, "::notice title=litmus::mutation score %.1f%% "
                          "(%d survived, %d not covered, of %d mutants)\n",
                      score * 100.0, d->sum.counts[LT_VERDICT_SURVIVED],
                      d->sum.counts[LT_VERDICT_NO_COVERAGE], d->sum.total);
    else
        lt_buf_printf(&b, "::notice title=litmus::mutation score n/a (no "
                          "valid mutant of %d)\n", d->sum.total);
    fwrite(b.data, 1, b.len, out);
    lt_buf_free(&b);
    return ferror(out) ? -EIO : 0;
}

/*** Survivor baseline ***/

static int is_id(const char *s)
{
    if (strlen(s) != 16)
        return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return 0;
    return 1;
}

/* Loads a baseline into *reasons, an object id -> reason.  0, or 2 after
 * printing why. */
static int load_baseline(const char *path, json_t **reasons)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    *reasons = NULL;
    if (!root) {
        lt_error("%s:%d: %s", path, err.line, err.text);
        return LT_EXIT_USAGE;
    }
    const char *schema = json_string_value(json_object_get(root, "schema"));
    json_t *list = json_object_get(root, "survivors");
    if (!schema || strcmp(schema, BASELINE_SCHEMA) != 0 ||
        !json_is_array(list)) {
        lt_error("%s: not a survivor baseline (want {\"schema\": \"%s\", "
                 "\"survivors\": [...]}; docs/reports.md)", path,
                 BASELINE_SCHEMA);
        json_decref(root);
        return LT_EXIT_USAGE;
    }
    json_t *out = json_object();
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        const char *id = json_string_value(json_object_get(e, "id"));
        const char *reason = json_string_value(json_object_get(e, "reason"));
        if (!id || !is_id(id)) {
            lt_error("%s: survivors[%zu]: \"id\" must be a mutant id (16 "
                     "hex digits)", path, i);
            goto bad;
        }
        if (!reason || !*reason) {
            lt_error("%s: survivors[%zu] (%s): a survivor is accepted with "
                     "a \"reason\"", path, i, id);
            goto bad;
        }
        json_object_set_new(out, id, json_string(reason));
    }
    json_decref(root);
    *reasons = out;
    return 0;
bad:
    json_decref(out);
    json_decref(root);
    return LT_EXIT_USAGE;
}

int lt__survivors_gate(const struct lt__rdata *d, const char *path)
{
    json_t *accepted = NULL;
    int rc = load_baseline(path, &accepted);
    if (rc)
        return rc;
    int n_new = 0, n_kept = 0;
    struct lt_buf b = LT_BUF_INIT;
    for (size_t i = 0; i < d->n_mutants; i++) {
        const struct lt__rmutant *x = &d->mutants[i];
        if (!lt__is_survivor(x->r.verdict))
            continue;
        if (json_object_get(accepted, x->m.id)) {
            n_kept++;
            continue;
        }
        n_new++;
        char *change = change_text(x);
        lt_buf_printf(&b, "  %s  %s:%d:%d  %s%s\n", x->m.id,
                      d->files[x->file].display, x->loc.line, x->loc.col,
                      change,
                      x->r.verdict == LT_VERDICT_NO_COVERAGE
                          ? "  [no coverage]"
                          : "");
        free(change);
    }
    size_t n_accepted = json_object_size(accepted);
    if (n_new) {
        fprintf(stderr, "litmus: %d survivor%s not in the baseline %s:\n%s",
                n_new, n_new == 1 ? "" : "s", path, b.data);
        fprintf(stderr, "litmus: kill them with a test, or accept them "
                        "with a reason in %s (docs/reports.md)\n", path);
    } else {
        fprintf(stderr, "litmus: every survivor (%d) is in the baseline "
                        "%s\n", n_kept, path);
    }
    if (n_accepted > (size_t)n_kept)
        fprintf(stderr, "litmus: %zu accepted survivor%s of %s no longer "
                        "survive%s (--write-survivors drops them)\n",
                n_accepted - (size_t)n_kept,
                n_accepted - (size_t)n_kept == 1 ? "" : "s", path,
                n_accepted - (size_t)n_kept == 1 ? "s" : "");
    lt_buf_free(&b);
    json_decref(accepted);
    return n_new ? 1 : 0;
}

int lt__survivors_write(const struct lt__rdata *d, const char *path,
                        const char *reason)
{
    json_t *old = NULL;
    if (access(path, F_OK) == 0 && load_baseline(path, &old) != 0)
        return LT_EXIT_USAGE;
    if (!reason)
        reason = "accepted when the baseline was written; not reviewed";
    json_t *list = json_array();
    for (size_t i = 0; i < d->n_mutants; i++) {
        const struct lt__rmutant *x = &d->mutants[i];
        if (!lt__is_survivor(x->r.verdict))
            continue;
        const struct lt__rfile *f = &d->files[x->file];
        json_t *kept = old ? json_object_get(old, x->m.id) : NULL;
        json_t *why = kept ? json_incref(kept) : json_string(reason);
        const char *rel = f->repo_path ? f->repo_path : f->display;
        json_t *e = json_pack("{s:s, s:o, s:o, s:i, s:i, s:o, s:o, s:o, s:s}",
                              "id", x->m.id, "reason", why, "file",
                              lt__jstr(rel),
                              "line", x->loc.line, "column", x->loc.col,
                              "operator", lt__jstr(x->m.op), "original",
                              lt__jstr(x->m.original), "replacement",
                              lt__jstr(x->m.replacement), "verdict",
                              lt_verdict_name(x->r.verdict));
        json_array_append_new(list, e);
    }
    json_decref(old);
    json_t *root = json_pack("{s:s, s:o}", "schema", BASELINE_SCHEMA,
                             "survivors", list);
    char *tmp = xasprintf("%s.tmp", path);
    int rc = json_dump_file(root, tmp, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    size_t n = json_array_size(list);
    json_decref(root);
    if (rc != 0 || rename(tmp, path) != 0) {
        lt_error("%s: cannot write the survivor baseline: %s", path,
                 strerror(errno));
        unlink(tmp);
        free(tmp);
        return LT_EXIT_USAGE;
    }
    free(tmp);
    fprintf(stderr, "litmus: wrote %zu survivor%s to %s\n", n,
            n == 1 ? "" : "s", path);
    return 0;
}
