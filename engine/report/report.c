/* Reports rendered from the store: the one load of a run every format
 * renders, the score summary (text or litmus JSON), one mutant's diff and
 * verdict (`litmus show`), and `litmus report`.  The other formats live
 * in report_stryker.c and report_ci.c (docs/reports.md).
 * SPDX-License-Identifier: MIT */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/report/report.h"
#include "engine/report/report_internal.h"
#include "sandbox/sandbox.h"

/*** Text and litmus JSON ***/

static json_t *mutant_json(const struct lt__rdata *d, size_t i)
{
    const struct lt__rmutant *x = &d->mutants[i];
    const struct lt_mutant *m = &x->m;
    const struct lt_result *r = x->has_result ? &x->r : NULL;
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(m->id));
    json_object_set_new(o, "file", lt__jstr(d->files[x->file].display));
    json_object_set_new(o, "line", json_integer(m->line));
    /* 1-based columns, as in the text report and Stryker's. */
    json_object_set_new(o, "col", json_integer(m->col + 1));
    json_object_set_new(o, "end_line", json_integer(m->end_line));
    json_object_set_new(o, "end_col", json_integer(m->end_col + 1));
    json_object_set_new(o, "operator", lt__jstr(m->op));
    json_object_set_new(o, "category",
                        json_string(lt_category_name(m->category)));
    json_object_set_new(o, "original", lt__jstr(m->original));
    json_object_set_new(o, "replacement", lt__jstr(m->replacement));
    json_object_set_new(o, "status",
                        json_string(lt_verdict_name(x->r.verdict)));
    json_object_set_new(o, "killed_by",
                        r && r->killed_by ? lt__jstr(r->killed_by)
                                          : json_null());
    json_object_set_new(o, "duration_ms",
                        r ? json_real(r->duration_ms) : json_null());
    if (r && r->detail && *r->detail)
        json_object_set_new(o, "detail", lt__jstr(r->detail));
    return o;
}

static json_t *summary_json(const struct lt_summary *s, int duplicates)
{
    json_t *o = json_object();
    json_object_set_new(o, "mutants", json_integer(s->total));
    for (int v = LT_VERDICT_KILLED; v < LT_VERDICT__COUNT; v++)
        json_object_set_new(o, lt_verdict_name((enum lt_verdict)v),
                            json_integer(s->counts[v]));
    double score = lt_summary_score(s);
    json_object_set_new(o, "score", score < 0 ? json_null()
                                              : json_real(score));
    if (s->counts[LT_VERDICT_PENDING])
        json_object_set_new(o, "pending",
                            json_integer(s->counts[LT_VERDICT_PENDING]));
    /* Mutants that compiled to the same code as another and shared its
     * run (their verdicts are counted above too). */
    json_object_set_new(o, "duplicates", json_integer(duplicates));
    return o;
}

static void write_json(const struct lt__rdata *d, FILE *out)
{
    json_t *root = json_object();
    json_object_set_new(root, "schema", json_string("litmus.score/2"));
    json_object_set_new(root, "summary", summary_json(&d->sum, d->duplicates));
    json_t *mutants = json_array();
    for (size_t i = 0; i < d->n_mutants; i++)
        json_array_append_new(mutants, mutant_json(d, i));
    json_object_set_new(root, "mutants", mutants);
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fprintf(out, "%s\n", text);
    free(text);
    json_decref(root);
}

static void write_text(const struct lt__rdata *d, FILE *out)
{
    const struct lt_summary *s = &d->sum;
    double score = lt_summary_score(s);
    fprintf(out, "%d mutants in %zu file%s\n", s->total, d->n_files,
            d->n_files == 1 ? "" : "s");
    fprintf(out, "  killed %d, timeout %d, crashed %d, memory %d, "
                 "survived %d, no_coverage %d, equivalent %d, "
                 "invalid %d, error %d",
            s->counts[LT_VERDICT_KILLED], s->counts[LT_VERDICT_TIMEOUT],
            s->counts[LT_VERDICT_CRASHED], s->counts[LT_VERDICT_MEMORY],
            s->counts[LT_VERDICT_SURVIVED], s->counts[LT_VERDICT_NO_COVERAGE],
            s->counts[LT_VERDICT_EQUIVALENT], s->counts[LT_VERDICT_INVALID],
            s->counts[LT_VERDICT_ERROR]);
    if (s->counts[LT_VERDICT_PENDING])
        fprintf(out, ", not run yet %d", s->counts[LT_VERDICT_PENDING]);
    if (s->counts[LT_VERDICT_NOT_RUN])
        fprintf(out, ", not_run %d", s->counts[LT_VERDICT_NOT_RUN]);
    fputc('\n', out);
    if (s->counts[LT_VERDICT_NOT_RUN])
        fprintf(out, "  not_run: %d mutants --max-time left no time for, "
                     "left out of the score; the same command runs them\n",
                s->counts[LT_VERDICT_NOT_RUN]);
    if (d->duplicates || s->counts[LT_VERDICT_EQUIVALENT])
        fprintf(out, "  not run: %d equivalent to the original, %d "
                     "duplicates of another mutant (verdict shared)\n",
                s->counts[LT_VERDICT_EQUIVALENT], d->duplicates);
    int detected = s->counts[LT_VERDICT_KILLED] +
                   s->counts[LT_VERDICT_TIMEOUT] +
                   s->counts[LT_VERDICT_CRASHED] + s->counts[LT_VERDICT_MEMORY];
    int valid = detected + s->counts[LT_VERDICT_SURVIVED] +
                s->counts[LT_VERDICT_NO_COVERAGE];
    if (score >= 0 && s->counts[LT_VERDICT_NOT_RUN])
        fprintf(out, "mutation score: %.1f%% (%d detected of %d valid; "
                     "%d not_run not counted)\n",
                score * 100.0, detected, valid,
                s->counts[LT_VERDICT_NOT_RUN]);
    else if (score >= 0)
        fprintf(out, "mutation score: %.1f%% (%d detected of %d valid)\n",
                score * 100.0, detected, valid);
    else
        fprintf(out, "mutation score: n/a (no valid mutant)\n");
    int n_survivors = 0;
    for (size_t i = 0; i < d->n_mutants; i++)
        n_survivors += lt__is_survivor(d->mutants[i].r.verdict);
    if (!n_survivors)
        return;
    fprintf(out, "\nsurviving mutants (%d):\n", n_survivors);
    for (size_t i = 0; i < d->n_mutants; i++) {
        const struct lt__rmutant *x = &d->mutants[i];
        if (!lt__is_survivor(x->r.verdict))
            continue;
        char *orig = lt__one_line(x->m.original, 40);
        char *repl = lt__one_line(x->m.replacement, 40);
        fprintf(out, "  %s  %s:%d:%d  %-12s %s -> %s%s\n", x->m.id,
                d->files[x->file].display, x->m.line, x->m.col + 1, x->m.op,
                orig, *repl ? repl : "(removed)",
                x->r.verdict == LT_VERDICT_NO_COVERAGE ? "  [no coverage]"
                                                      : "");
        free(orig);
        free(repl);
    }
    fprintf(out, "\n`litmus show ID` prints a mutant's diff.\n");
}

int lt_format_parse(const char *name, enum lt_format *f)
{
    static const char *const names[] = {"text", "json", "stryker",
                                        "junit", "sarif", "github"};
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
        if (strcmp(name, names[i]) == 0) {
            *f = (enum lt_format)i;
            return 0;
        }
    return -1;
}

int lt_junit_policy_parse(const char *name, enum lt_junit_policy *p)
{
    static const char *const names[] = {"ignore", "skipped", "error",
                                        "failure"};
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
        if (strcmp(name, names[i]) == 0) {
            *p = (enum lt_junit_policy)(LT_JUNIT_IGNORE + (int)i);
            return 0;
        }
    return -1;
}

/* Contract: see report.h. */
int lt__report_score(struct lt_store *st, enum lt_format format,
                     double fail_under, FILE *out,
                     const struct lt_report_opts *ro)
{
    static const struct lt_report_opts none;
    if (!ro)
        ro = &none;
    struct lt__rdata d;
    int rc = lt__rdata_load(st, &d);
    if (rc < 0) {
        lt_error("cannot read the results: %s", lt_strerror(rc));
        lt__rdata_free(&d);
        return LT_EXIT_ENGINE;
    }
    double score = lt_summary_score(&d.sum);
    int exit_code = LT_EXIT_OK;
    /* The HTML report first: when its prerequisites are missing, the
     * error is all that is printed. */
    if (ro->html && lt__write_html(&d, fail_under, ro) < 0) {
        lt__rdata_free(&d);
        return LT_EXIT_USAGE;
    }
    if (fail_under >= 0 && (score < 0 || score + 1e-12 < fail_under))
        exit_code = LT_EXIT_GATE;
    switch (format) {
    case LT_FORMAT_TEXT:
        write_text(&d, out);
        if (exit_code == 1)
            fprintf(out, "score %.1f%% is below --fail-under %.1f%%\n",
                    score < 0 ? 0.0 : score * 100.0, fail_under * 100.0);
        break;
    case LT_FORMAT_JSON:
        write_json(&d, out);
        break;
    case LT_FORMAT_STRYKER:
        rc = lt__write_stryker(&d, fail_under, out);
        break;
    case LT_FORMAT_JUNIT:
        rc = lt__write_junit(&d, ro, out);
        break;
    case LT_FORMAT_SARIF:
        rc = lt__write_sarif(&d, out);
        break;
    case LT_FORMAT_GITHUB:
        rc = lt__write_github(&d, out);
        break;
    }
    if (format != LT_FORMAT_TEXT && exit_code == 1)
        lt_error("score %.1f%% is below --fail-under %.1f%%",
                 score < 0 ? 0.0 : score * 100.0, fail_under * 100.0);
    if (rc < 0)
        exit_code = LT_EXIT_ENGINE;
    if (exit_code < 2 && ro->survivors_out &&
        lt__survivors_write(&d, ro->survivors_out, ro->reason) != 0)
        exit_code = LT_EXIT_USAGE;
    if (exit_code < 2 && ro->survivors_in) {
        int g = lt__survivors_gate(&d, ro->survivors_in);
        if (g > exit_code)
            exit_code = g;
    }
    lt__rdata_free(&d);
    return exit_code;
}

static void mutant_free_fields(struct lt_mutant *m)
{
    lt_mutant_clear(m);
}

int lt_show(const char *db, const char *id, enum lt_format format)
{
    struct lt_store *st = NULL;
    char *errmsg = NULL;
    if (access(db, F_OK) != 0) {
        lt_error("%s: no such database; run `litmus score` first", db);
        return LT_EXIT_USAGE;
    }
    int rc = lt_store_open(db, &st, &errmsg);
    if (rc < 0) {
        lt_error("%s: %s", db, errmsg ? errmsg : lt_strerror(rc));
        free(errmsg);
        return LT_EXIT_USAGE;
    }
    struct lt_mutant m;
    struct lt_result r;
    memset(&m, 0, sizeof(m));
    memset(&r, 0, sizeof(r));
    int has = 0;
    rc = lt_store_get_mutant(st, id, &m, &r, &has);
    if (rc < 0) {
        lt_error("%s: %s", id,
                 rc == LT_EUSAGE ? "ambiguous id prefix; give more characters"
                 : rc == LT_ENOTFOUND ? "no such mutant in the database"
                                      : lt_strerror(rc));
        lt_store_close(st);
        return LT_EXIT_USAGE;
    }
    char *src = NULL;
    size_t len = 0;
    rc = lt_store_get_file(st, m.file, &src, &len);
    char *cwd = getcwd(NULL, 0);
    const char *name = lt__display_path(m.file, cwd);
    char *diff = rc == 0 ? lt__mutant_diff(&m, src, len, name)
                         : xstrdup("(source not stored)\n");
    const char *verdict = has ? lt_verdict_name(r.verdict)
                          : lt_store_budget_stopped(st)
                              ? lt_verdict_name(LT_VERDICT_NOT_RUN)
                              : "pending";
    char *telemetry = NULL;
    if (lt_store_get_telemetry(st, m.id, &telemetry) < 0)
        telemetry = NULL;
    if (format == LT_FORMAT_JSON) {
        json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:s, s:s, s:s, s:s, "
                              "s:s, s:s}",
                              "id", m.id, "file", name, "line", m.line,
                              "col", m.col + 1, "operator", m.op, "category",
                              lt_category_name(m.category), "original",
                              m.original, "replacement", m.replacement,
                              "status", verdict, "diff", diff);
        json_object_set_new(o, "killed_by", has && r.killed_by
                                                ? json_string(r.killed_by)
                                                : json_null());
        json_object_set_new(o, "detail", has && r.detail
                                             ? json_string(r.detail)
                                             : json_null());
        json_object_set_new(o, "duration_ms",
                            has ? json_real(r.duration_ms) : json_null());
        json_object_set_new(o, "telemetry", telemetry ? json_string(telemetry)
                                                      : json_null());
        char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        printf("%s\n", text);
        free(text);
        json_decref(o);
    } else {
        printf("mutant %s  %s:%d:%d  %s (%s)\n", m.id, name, m.line,
               m.col + 1, m.op, lt_category_name(m.category));
        printf("verdict: %s", verdict);
        if (has && r.killed_by)
            printf(", killed by %s", r.killed_by);
        if (has)
            printf(" (%.1f ms)", r.duration_ms);
        printf("\n");
        if (has && r.detail && *r.detail)
            printf("detail: %s\n", r.detail);
        if (telemetry)
            printf("telemetry: %s\n", telemetry);
        printf("\n%s", diff);
    }
    free(telemetry);
    free(diff);
    free(cwd);
    free(src);
    mutant_free_fields(&m);
    lt_result_clear(&r);
    lt_store_close(st);
    return 0;
}

/* One line of the throughput table. */
static void throughput_line(FILE *out, const char *who, double wall,
                            double cpu, long tasks)
{
    fprintf(out, "  %-12s wall %9.2f s  CPU %9.2f s  %7ld tasks", who, wall,
            cpu, tasks);
    if (wall > 0)
        fprintf(out, "  %8.1f tasks/s", (double)tasks / wall);
    if (cpu > 0)
        fprintf(out, "  %8.1f tasks/CPU-s", (double)tasks / cpu);
    fputc('\n', out);
}

/* The run's throughput, for sizing a cluster allocation (docs/scale.md):
 * one line per shard of a merged store, then the totals (wall: the
 * longest shard, as they run side by side; CPU and tasks: the sums).
 * Nothing for a store written before these figures were kept. */
static void write_throughput(struct lt_store *st, FILE *out)
{
    double wall = lt__meta_seconds(st, "run_wall_s");
    double cpu = lt__meta_seconds(st, "run_cpu_s");
    double tasks = lt__meta_seconds(st, "run_tasks");
    char *shards = NULL;
    if (wall < 0 || cpu < 0 || tasks < 0)
        return;
    fprintf(out, "\nthroughput:\n");
    if (lt_store_get_meta(st, "shards", &shards) == 0 && shards) {
        for (char *line = strtok(shards, "\n"); line;
             line = strtok(NULL, "\n")) {
            char who[48];
            double w, c;
            long t;
            if (sscanf(line, "%31s %lf %lf %ld", who + 6, &w, &c, &t) != 4)
                continue;
            memcpy(who, "shard ", 6);
            throughput_line(out, who, w, c, t);
        }
    }
    free(shards);
    char *shard = NULL;
    if (lt_store_get_meta(st, "shard", &shard) == 0 && shard) {
        char who[48];
        snprintf(who, sizeof(who), "shard %s", shard);
        throughput_line(out, who, wall, cpu, (long)tasks);
    } else {
        throughput_line(out, "total", wall, cpu, (long)tasks);
    }
    free(shard);
}

/* One line of the text report's refused-call summary (--telemetry). */
static int print_refusal(const char *op, const char *syscall,
                         long long total, long long mutants, void *ud)
{
    int *first = ud;
    if (*first)
        printf("\nrefused system calls by operator (--telemetry):\n");
    *first = 0;
    printf("  %-24s %-16s x%lld in %lld mutant%s\n", op ? op : "?",
           syscall ? syscall : "?", total, mutants, mutants == 1 ? "" : "s");
    return 0;
}

int lt_report(const char *db, enum lt_format format,
              const struct lt_report_opts *ro)
{
    struct lt_store *st = NULL;
    char *errmsg = NULL;
    if (access(db, F_OK) != 0) {
        lt_error("%s: no such database; run `litmus score` first", db);
        return LT_EXIT_USAGE;
    }
    int rc = lt_store_open(db, &st, &errmsg);
    if (rc < 0) {
        lt_error("%s: %s", db, errmsg ? errmsg : lt_strerror(rc));
        free(errmsg);
        return LT_EXIT_USAGE;
    }
    int code = lt__report_score(st, format, -1, stdout, ro);
    if (format == LT_FORMAT_TEXT) {
        int first = 1;
        lt_store_each_refusal(st, print_refusal, &first);
    }
    if (format == LT_FORMAT_TEXT && code != 2 && code != 3)
        write_throughput(st, stdout);
    lt_store_close(st);
    return code;
}
