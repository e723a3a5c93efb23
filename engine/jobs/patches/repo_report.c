/* `litmus patches` on repositories: its reports, rendered from the
 * stored verdicts (patch_runs): text or JSON, one CSV row per candidate,
 * and per model the report the SWE-bench harness writes (resolved,
 * unresolved, empty and error instance ids).
 * SPDX-License-Identifier: MIT */
#include "engine/jobs/patches/repo_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/core/exit.h"
#include "engine/jobs/patches/patches_internal.h"
#include "engine/jobs/patches/patches_store.h"

static const char *const verdicts[] = {"correct", "overfitting",
                                       "memorized", "invalid", "error"};
#define N_VERDICTS 5

struct rows {
    json_t *rows; /* [{instance_id, model, verdict, reason, detail,
                     evidence}] */
};

static int collect(const struct lt_patch_run *p, void *ud)
{
    struct rows *rs = ud;
    json_t *ev = json_loads(p->evidence, 0, NULL);
    json_t *row = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "instance_id",
                            p->program, "model_name_or_path", p->run_id,
                            "verdict", p->verdict, "reason", p->reason,
                            "detail", p->detail ? p->detail : "",
                            "evidence", ev ? ev : json_object());
    json_array_append_new(rs->rows, row);
    return 0;
}

static const char *rstr(const json_t *row, const char *key)
{
    const json_t *v = json_object_get(row, key);
    return json_is_string(v) ? json_string_value(v) : "";
}

static const char *harness_of(const json_t *row)
{
    return rstr(json_object_get(row, "evidence"), "harness");
}

static int write_csv(const char *path, const json_t *rows)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        lt_error("--csv %s: %s", path, strerror(errno));
        return -1;
    }
    fputs("instance_id,model_name_or_path,verdict,reason,resolved,"
          "decided_by,failing,wider_tests,wider_failing,token_similarity,"
          "applied_with,left_out,duration_ms,mutation_score,"
          "reference_mutation_score,detail\n",
          f);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        const json_t *ev = json_object_get(row, "evidence");
        const json_t *w = json_object_get(ev, "wider");
        char num[64], wt[32], wf[32], sim[32], lo[32];
        snprintf(num, sizeof(num), "%.0f",
                 json_number_value(json_object_get(ev, "duration_ms")));
        snprintf(wt, sizeof(wt), "%zu",
                 (size_t)json_integer_value(json_object_get(w, "tests")));
        snprintf(wf, sizeof(wf), "%zu",
                 json_array_size(json_object_get(w, "failing")));
        const json_t *ts = json_object_get(ev, "token_similarity");
        if (ts)
            snprintf(sim, sizeof(sim), "%.4f", json_number_value(ts));
        else
            sim[0] = '\0';
        snprintf(lo, sizeof(lo), "%zu",
                 json_array_size(json_object_get(ev, "left_out")));
        char fl[16];
        snprintf(fl, sizeof(fl), "%zu",
                 json_array_size(json_object_get(ev, "failing")));
        lt__csv_field(f, rstr(row, "instance_id"), 0);
        lt__csv_field(f, rstr(row, "model_name_or_path"), 0);
        lt__csv_field(f, rstr(row, "verdict"), 0);
        lt__csv_field(f, rstr(row, "reason"), 0);
        lt__csv_field(f, strcmp(harness_of(row), "resolved") == 0 ? "true"
                                                               : "false",
                  0);
        lt__csv_field(f, rstr(ev, "decided_by"), 0);
        lt__csv_field(f, fl, 0);
        lt__csv_field(f, wt, 0);
        lt__csv_field(f, wf, 0);
        lt__csv_field(f, sim, 0);
        lt__csv_field(f, rstr(ev, "applied_with"), 0);
        lt__csv_field(f, lo, 0);
        lt__csv_field(f, num, 0);
        const json_t *mut = json_object_get(ev, "mutation");
        for (int side = 0; side < 2; side++) {
            const json_t *sc = json_object_get(
                json_object_get(mut, side ? "reference" : "candidate"),
                "score");
            char ms[32] = "";
            if (json_is_number(sc))
                snprintf(ms, sizeof(ms), "%.4f", json_number_value(sc));
            lt__csv_field(f, ms, 0);
        }
        lt__csv_field(f, rstr(row, "detail"), 1);
    }
    if (fclose(f) != 0) {
        lt_error("--csv %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* The report the SWE-bench harness writes for one model. */
static json_t *harness_report(const json_t *rows, const char *model)
{
    json_t *sub = json_array(), *comp = json_array(), *res = json_array(),
           *unres = json_array(), *empty = json_array(), *err = json_array();
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        if (strcmp(rstr(row, "model_name_or_path"), model) != 0)
            continue;
        json_t *id = json_object_get(row, "instance_id");
        const char *h = harness_of(row);
        json_array_append(sub, id);
        if (strcmp(h, "empty") == 0) {
            json_array_append(empty, id);
        } else if (strcmp(h, "error") == 0) {
            json_array_append(err, id);
        } else {
            json_array_append(comp, id);
            json_array_append(strcmp(h, "resolved") == 0 ? res : unres, id);
        }
    }
    return json_pack(
        "{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:O, s:[], s:o, s:o, s:o, "
        "s:o, s:o, s:o, s:i}",
        "total_instances", (json_int_t)json_array_size(sub),
        "submitted_instances", (json_int_t)json_array_size(sub),
        "completed_instances", (json_int_t)json_array_size(comp),
        "resolved_instances", (json_int_t)json_array_size(res),
        "unresolved_instances", (json_int_t)json_array_size(unres),
        "empty_patch_instances", (json_int_t)json_array_size(empty),
        "error_instances", (json_int_t)json_array_size(err),
        "completed_ids", comp, "incomplete_ids", "empty_patch_ids", empty,
        "submitted_ids", sub, "resolved_ids", res, "unresolved_ids", unres,
        "error_ids", err, "completed", comp, "schema_version", 2);
}

static int write_harness(const char *dir, const json_t *rows)
{
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
        lt_error("--harness-report %s: %s", dir, strerror(errno));
        return -1;
    }
    json_t *seen = json_object();
    size_t i;
    json_t *row;
    int rc = 0;
    json_array_foreach(rows, i, row) {
        const char *model = rstr(row, "model_name_or_path");
        if (json_object_get(seen, model))
            continue;
        json_object_set_new(seen, model, json_true());
        json_t *rep = harness_report(rows, model);
        json_object_del(rep, "completed");
        char *name = xstrdup(model);
        for (char *s = name; *s; s++)
            if (*s == '/')
                *s = '_';
        char *path = xasprintf("%s/%s.litmus.json", dir, name);
        if (json_dump_file(rep, path, JSON_INDENT(2) | JSON_SORT_KEYS) < 0) {
            lt_error("--harness-report: cannot write %s", path);
            rc = -1;
        }
        free(path);
        free(name);
        json_decref(rep);
    }
    json_decref(seen);
    return rc;
}

static void write_text(FILE *out, const json_t *rows, double elapsed_s)
{
    size_t counts[N_VERDICTS] = {0}, resolved = 0;
    json_t *insts = json_object(), *models = json_object();
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        for (int k = 0; k < N_VERDICTS; k++)
            if (strcmp(rstr(row, "verdict"), verdicts[k]) == 0)
                counts[k]++;
        resolved += strcmp(harness_of(row), "resolved") == 0;
        json_object_set_new(insts, rstr(row, "instance_id"), json_true());
        json_object_set_new(models, rstr(row, "model_name_or_path"),
                            json_true());
    }
    fprintf(out, "%zu candidates of %zu instances (%zu models) in %.1f s\n",
            json_array_size(rows), json_object_size(insts),
            json_object_size(models), elapsed_s);
    fprintf(out, "  resolved (as the harness decides) %zu of %zu\n",
            resolved, json_array_size(rows));
    fprintf(out, "  correct %zu, overfitting %zu, memorized %zu, invalid "
            "%zu, error %zu\n\n",
            counts[0], counts[1], counts[2], counts[3], counts[4]);
    json_array_foreach(rows, i, row) {
        fprintf(out, "%s  %s  %s (%s)%s\n    %s\n", rstr(row, "instance_id"),
                rstr(row, "model_name_or_path"), rstr(row, "verdict"),
                rstr(row, "reason"),
                strcmp(harness_of(row), "resolved") == 0 ? "  resolved" : "",
                rstr(row, "detail"));
        const json_t *lo = json_object_get(json_object_get(row, "evidence"),
                                           "left_out");
        size_t k;
        json_t *n;
        json_array_foreach(lo, k, n)
            fprintf(out, "    left out: %s (%s)\n", rstr(n, "path"),
                    rstr(n, "kind"));
    }
    json_decref(insts);
    json_decref(models);
}

/* Contract: see repo_internal.h. */
int lt__repo_report(struct lt_store *st, const struct lt_patches_opts *o,
                    double elapsed_s, FILE *out)
{
    struct rows rs = {json_array()};
    int rc = lt_store_each_patch_run(st, collect, &rs);
    if (rc < 0) {
        json_decref(rs.rows);
        return lt__store_write_failed(st, o->run.db, rc);
    }
    int code = 0;
    size_t i;
    json_t *row;
    json_array_foreach(rs.rows, i, row) {
        const char *v = rstr(row, "verdict");
        if (strcmp(v, "error") == 0)
            code = LT_EXIT_ENGINE;
        else if ((strcmp(v, "overfitting") == 0 ||
                  /* the CI form gates a pull request: a candidate that
                   * does not apply or fails the tests fails it too */
                  (o->repo && strcmp(v, "invalid") == 0)) &&
                 code == 0)
            code = 1;
    }
    if (o->format == LT_FORMAT_JSON) {
        json_t *models = json_object();
        json_array_foreach(rs.rows, i, row) {
            const char *m = rstr(row, "model_name_or_path");
            if (!json_object_get(models, m)) {
                json_t *rep = harness_report(rs.rows, m);
                json_object_del(rep, "completed");
                json_object_set_new(models, m, rep);
            }
        }
        json_t *doc = json_pack("{s:s, s:f, s:O, s:o}", "schema",
                                LT_REPO_SCHEMA, "elapsed_s", elapsed_s,
                                "candidates", rs.rows, "harness", models);
        json_dumpf(doc, out, JSON_INDENT(2));
        fputc('\n', out);
        json_decref(doc);
    } else {
        write_text(out, rs.rows, elapsed_s);
    }
    if (o->csv && write_csv(o->csv, rs.rows) < 0)
        code = LT_EXIT_USAGE;
    if (o->harness_report && write_harness(o->harness_report, rs.rows) < 0)
        code = LT_EXIT_USAGE;
    json_decref(rs.rows);
    return code;
}
