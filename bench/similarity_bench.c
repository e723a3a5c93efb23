/* Batch throughput of lt_sim_compare on generated pairs of 200-line
 * Python files.
 *
 * Usage: similarity_bench [PAIRS] [--only SET] [--jsonl FILE] [--dump FILE]
 *
 * Two kinds of pairs.  Similar pairs (every set but "unrelated"): the
 * reference is a generated file and the candidate the same file with 1
 * to 5 operators or digits changed in place, so they share all but a few
 * bytes -- the best case for the incremental parse.  Unrelated pairs
 * ("all, unrelated"): candidate and reference are two different
 * generated files (same template, other names, operators and constants),
 * so each must be parsed afresh -- the general case.  No reference occurs
 * twice except in "all, 5 cands/ref".
 *
 * Prints pairs/s (per second of CPU time, and of wall time) for all
 * metrics, all but the tree edit distance, each metric alone, all metrics
 * with each reference shared by 5 candidates, and all metrics, and all
 * but the tree edit distance, on unrelated pairs (where Zhang-Shasha is
 * far slower); then where the time of "all metrics" goes, phase by
 * phase.  --only runs one set (by name).
 * --jsonl also writes the pairs in the --pairs format for timing the CLI.
 * --dump writes every field of every result, as exact hexadecimal
 * floats, for a varied set of inputs (the benchmark pairs, lines deleted,
 * duplicated and swapped, unrelated files, syntax errors, empty texts,
 * several references, Java, the word tokenizer, --dataflow-compat), so
 * that two builds can be compared byte for byte.
 *
 * Built with -DLT_BENCH_PUBLIC_ONLY it uses only the public API (no phase
 * breakdown), so the same source can time an older library
 * (bench/similarity_bench.sh with LT_BENCH_BASELINE).
 * SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/buf.h"
#include "common/xmalloc.h"
#include "engine/similarity/similarity.h"
#ifndef LT_BENCH_PUBLIC_ONLY
#include "engine/similarity/internal.h"
#endif

static uint64_t rng = 0x2545f4914f6cdd1dull;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static const char *const names[] = {"total", "count", "items", "value",
                                    "index", "result", "left", "right",
                                    "node", "queue", "acc", "limit"};
static const char *const ops[] = {"+", "-", "*", "//", "%"};
static const char *const cmps[] = {"<", "<=", ">", ">=", "==", "!="};

#define NM names[rnd(12)]

/* One function of about 20 lines. */
static void function(struct lt_buf *b, int k)
{
    lt_buf_printf(b, "def func_%d(%s, %s=%u):\n", k, NM, NM, rnd(10));
    lt_buf_printf(b, "    \"\"\"Compute step %d of the pipeline.\"\"\"\n", k);
    lt_buf_printf(b, "    %s = %s %s %u\n", NM, NM, ops[rnd(5)], rnd(100));
    lt_buf_printf(b, "    %s = []  # scratch list\n", NM);
    lt_buf_printf(b, "    for %s in range(%s):\n", NM, NM);
    lt_buf_printf(b, "        if %s %s %s:\n", NM, cmps[rnd(6)], NM);
    lt_buf_printf(b, "            %s += %s[%s] %s 1\n", NM, NM, NM, ops[rnd(5)]);
    lt_buf_printf(b, "        elif %s and not %s:\n", NM, NM);
    lt_buf_printf(b, "            %s.append(%s)\n", NM, NM);
    lt_buf_printf(b, "        else:\n");
    lt_buf_printf(b, "            %s = max(%s, %s)\n", NM, NM, NM);
    lt_buf_printf(b, "    while %s %s %u:\n", NM, cmps[rnd(6)], rnd(50));
    lt_buf_printf(b, "        %s = %s %s 2\n", NM, NM, ops[rnd(5)]);
    lt_buf_printf(b, "        if %s is None:\n", NM);
    lt_buf_printf(b, "            break\n");
    lt_buf_printf(b, "    %s = [x * 2 for x in %s if x %s %u]\n", NM, NM,
                  cmps[rnd(6)], rnd(9));
    lt_buf_printf(b, "    print(\"%s\", %s, sep=\", \")\n", NM, NM);
    lt_buf_printf(b, "    return %s %s %s\n", NM, ops[rnd(5)], NM);
    lt_buf_printf(b, "\n\n");
}

/* One Java method of about 20 lines. */
static void jmethod(struct lt_buf *b, int k)
{
    lt_buf_printf(b, "    int method%d(int %s, int[] %s) {\n", k, NM, NM);
    lt_buf_printf(b, "        // step %d of the pipeline\n", k);
    lt_buf_printf(b, "        int %s = %s %s %u;\n", NM, NM, ops[rnd(3)], rnd(100));
    lt_buf_printf(b, "        List<Integer> %s = new ArrayList<>();\n", NM);
    lt_buf_printf(b, "        for (int i = 0; i < %s; i++) {\n", NM);
    lt_buf_printf(b, "            if (%s %s %s) {\n", NM, cmps[rnd(6)], NM);
    lt_buf_printf(b, "                %s += %s[i] %s 1;\n", NM, NM, ops[rnd(3)]);
    lt_buf_printf(b, "            } else if (%s > 0 && !%s.isEmpty()) {\n", NM, NM);
    lt_buf_printf(b, "                %s.add(%s);\n", NM, NM);
    lt_buf_printf(b, "            } else {\n");
    lt_buf_printf(b, "                %s = Math.max(%s, %s);\n", NM, NM, NM);
    lt_buf_printf(b, "            }\n        }\n");
    lt_buf_printf(b, "        while (%s %s %u) {\n", NM, cmps[rnd(6)], rnd(50));
    lt_buf_printf(b, "            %s = %s %s 2;\n", NM, NM, ops[rnd(3)]);
    lt_buf_printf(b, "            %s++;\n", NM);
    lt_buf_printf(b, "        }\n");
    lt_buf_printf(b, "        for (int x : %s) { %s = x * 2; }\n", NM, NM);
    lt_buf_printf(b, "        System.out.println(\"%s\" + %s);\n", NM, NM);
    lt_buf_printf(b, "        return %s %s %s;\n    }\n\n", NM, ops[rnd(3)], NM);
}

/* Changes `edits` operators or digits of s in place, from seed. */
static void mutate(char *s, uint64_t seed, int edits)
{
    rng = seed ^ 0x9e3779b97f4a7c15ull;
    for (int e = 0; e < edits; e++) {
        size_t n = strlen(s);
        size_t at = rnd((unsigned)n);
        for (; at < n; at++)
            if (s[at] == '+' || s[at] == '<' || s[at] == '>' ||
                (s[at] >= '0' && s[at] <= '9'))
                break;
        if (at >= n)
            continue;
        s[at] = s[at] == '+' ? '-' : s[at] == '<' ? '>' : s[at] == '>' ? '<'
                                                                       : '7';
    }
}

/* A 200-line program; the candidate is the same program with a few
 * operators, names or constants changed (decided by `edits`). */
static char *program(uint64_t seed, int edits)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_puts(&b, "import math\nimport sys\n\n\n");
    for (int k = 0; k < 10; k++) {
        rng = seed * 1000003u + (uint64_t)k * 7919u + 1;
        function(&b, k);
    }
    char *s = lt_buf_steal(&b);
    mutate(s, seed, edits);
    return s;
}

static char *jprogram(uint64_t seed, int edits)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_puts(&b, "import java.util.*;\n\nclass Pipeline {\n");
    for (int k = 0; k < 9; k++) {
        rng = seed * 1000003u + (uint64_t)k * 7919u + 7;
        jmethod(&b, k);
    }
    lt_buf_puts(&b, "}\n");
    char *s = lt_buf_steal(&b);
    mutate(s, seed, edits);
    return s;
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct lt_sim *context(unsigned metrics)
{
    struct lt_sim_options o;
    lt_sim_options_init(&o);
    o.metrics = metrics;
    struct lt_sim *s;
    if (lt_sim_new(&o, &s) < 0) {
        fprintf(stderr, "similarity_bench: cannot set up\n");
        exit(3);
    }
    return s;
}

static void compare1(struct lt_sim *s, const char *cand, const char *ref,
                     struct lt_sim_result *r)
{
    const char *refs[1] = {ref};
    size_t rl[1] = {strlen(ref)};
    if (lt_sim_compare(s, cand, strlen(cand), refs, rl, 1, r) < 0) {
        fprintf(stderr, "similarity_bench: compare failed\n");
        exit(3);
    }
}

/* Every result field into a 64-bit FNV-1a hash (exact equality). */
static uint64_t hash_result(uint64_t h, const struct lt_sim_result *r)
{
    double d[] = {r->bleu, r->weighted_bleu, r->syntax_match,
                  r->dataflow_match, r->codebleu, r->meteor_p, r->meteor_r,
                  r->meteor_fmean, r->meteor, r->rouge_l_p, r->rouge_l_r,
                  r->rouge_l_f, r->ctses1, r->ctses2, r->ctses_uniform,
                  r->levenshtein, r->tree_edit};
    uint64_t z[] = {r->computed, r->dataflow_ref_edges,
                    r->levenshtein_distance, r->tree_edit_distance,
                    r->cand_tokens, r->ref_tokens,
                    (uint64_t)r->ctses1_accepted << 2 |
                        (uint64_t)r->ctses2_accepted << 1 |
                        (uint64_t)r->ctses_uniform_accepted};
    const unsigned char *p = (const unsigned char *)d;
    for (size_t i = 0; i < sizeof(d); i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    p = (const unsigned char *)z;
    for (size_t i = 0; i < sizeof(z); i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* Returns pairs/s of CPU time (one core; the build machine is shared, so
 * wall time varies with the load) and sets *wall_rate. */
static double run(unsigned metrics, char **cand, char **ref, int n,
                  uint64_t *hash, double *wall_rate, double *prof)
{
    struct lt_sim *s = context(metrics);
#ifndef LT_BENCH_PUBLIC_ONLY
    lt__sim_profile(s, prof);
#else
    (void)prof;
#endif
    double t0 = clock_s(CLOCK_MONOTONIC);
    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < n; i++) {
        struct lt_sim_result r;
        compare1(s, cand[i], ref[i], &r);
        *hash = hash_result(*hash, &r);
    }
    double dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    double dt = clock_s(CLOCK_MONOTONIC) - t0;
    lt_sim_free(s);
    *wall_rate = (double)n / dt;
    return (double)n / dc;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if (*s == '\n')
            fputs("\\n", f);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

/*** --dump: every field for varied inputs ***/

static void dump_result(FILE *f, const char *tag, int id,
                        const struct lt_sim_result *r, int rc)
{
    fprintf(f, "%s %d rc=%d computed=%u", tag, id, rc, r->computed);
    fprintf(f, " bleu=%a wbleu=%a syn=%a df=%a cb=%a dfe=%zu", r->bleu,
            r->weighted_bleu, r->syntax_match, r->dataflow_match,
            r->codebleu, r->dataflow_ref_edges);
    fprintf(f, " met=%a,%a,%a,%a", r->meteor_p, r->meteor_r, r->meteor_fmean,
            r->meteor);
    fprintf(f, " rl=%a,%a,%a", r->rouge_l_p, r->rouge_l_r, r->rouge_l_f);
    fprintf(f, " ctses=%a,%a,%a,%d%d%d", r->ctses1, r->ctses2,
            r->ctses_uniform, r->ctses1_accepted, r->ctses2_accepted,
            r->ctses_uniform_accepted);
    fprintf(f, " lev=%a,%zu ted=%a,%zu toks=%zu,%zu\n", r->levenshtein,
            r->levenshtein_distance, r->tree_edit, r->tree_edit_distance,
            r->cand_tokens, r->ref_tokens);
}

struct texts {
    char **v;
    size_t n, cap;
};

static void add(struct texts *t, char *s)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->v = xrealloc(t->v, t->cap * sizeof(char *));
    }
    t->v[t->n++] = s;
}

/* Line-level variants of s: lines deleted, duplicated, swapped; a prefix
 * cut anywhere (syntax errors). */
static char *variant(const char *s, unsigned kind, uint64_t seed)
{
    size_t n = strlen(s);
    const char *lines[1024];
    size_t lens[1024], nl = 0;
    for (const char *p = s; *p && nl < 1024;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) + 1 : strlen(p);
        lines[nl] = p;
        lens[nl++] = l;
        p += l;
    }
    rng = seed * 7 + kind + 1;
    struct lt_buf b = LT_BUF_INIT;
    size_t a = nl ? rnd((unsigned)nl) : 0, c = nl ? rnd((unsigned)nl) : 0;
    switch (kind) {
    case 0: /* delete 1-10 lines */
        for (size_t i = 0; i < nl; i++)
            if (i < a || i >= a + 1 + (seed % 10))
                lt_buf_append(&b, lines[i], lens[i]);
        break;
    case 1: /* duplicate a block */
        for (size_t i = 0; i < nl; i++) {
            lt_buf_append(&b, lines[i], lens[i]);
            if (i == a)
                for (size_t q = c; q < nl && q < c + 6; q++)
                    lt_buf_append(&b, lines[q], lens[q]);
        }
        break;
    case 2: /* swap two lines */
        for (size_t i = 0; i < nl; i++) {
            size_t q = i == a ? c : i == c ? a : i;
            lt_buf_append(&b, lines[q], lens[q]);
        }
        break;
    default: /* cut */
        lt_buf_append(&b, s, n ? rnd((unsigned)n) : 0);
        break;
    }
    if (!b.data)
        return xstrdup("");
    return lt_buf_steal(&b);
}

static void dump_config(FILE *f, const char *tag, enum lt_sim_lang lang,
                        enum lt_sim_tokens tok, bool compat,
                        const struct texts *cand, const struct texts *ref,
                        const struct texts *ref2)
{
    struct lt_sim_options o;
    lt_sim_options_init(&o);
    o.lang = lang;
    o.tokens = tok;
    o.dataflow_compat = compat;
    struct lt_sim *s;
    if (lt_sim_new(&o, &s) < 0) {
        fprintf(stderr, "similarity_bench: cannot set up\n");
        exit(3);
    }
    for (size_t i = 0; i < cand->n; i++) {
        struct lt_sim_result r;
        const char *refs[3] = {ref->v[i], ref2->v[i], cand->v[(i + 1) % cand->n]};
        size_t rl[3] = {strlen(refs[0]), strlen(refs[1]), strlen(refs[2])};
        int rc = lt_sim_compare(s, cand->v[i], strlen(cand->v[i]), refs, rl,
                                1, &r);
        dump_result(f, tag, (int)i, &r, rc);
        if (i % 4 == 0) { /* several references */
            rc = lt_sim_compare(s, cand->v[i], strlen(cand->v[i]), refs, rl,
                                3, &r);
            dump_result(f, tag, -(int)i, &r, rc);
        }
    }
    lt_sim_free(s);
    /* The one-shot helpers of the patch triage. */
    for (size_t i = 0; i < cand->n; i += 3) {
        double a = lt_sim_token_levenshtein(cand->v[i], strlen(cand->v[i]),
                                            ref->v[i], strlen(ref->v[i]), lang);
        double b = lt_sim_tree_edit(cand->v[i], strlen(cand->v[i]), ref->v[i],
                                    strlen(ref->v[i]), lang);
        fprintf(f, "%s oneshot %zu %a %a\n", tag, i, a, b);
    }
}

static void build_set(struct texts *cand, struct texts *ref,
                      struct texts *ref2, char *(*gen)(uint64_t, int), int n)
{
    for (int i = 0; i < n; i++) {
        char *r = gen((uint64_t)i + 1, 0);
        char *c = gen((uint64_t)i + 1, 1 + i % 5);
        add(ref, xstrdup(r));
        add(cand, c);
        add(ref2, variant(r, (unsigned)i % 3, (uint64_t)i));
        /* variants against the original */
        add(cand, variant(r, (unsigned)i % 4, (uint64_t)i + 100));
        add(ref, xstrdup(r));
        add(ref2, gen((uint64_t)i + 1, 2));
        /* unrelated programs */
        add(cand, gen((uint64_t)i + 1000, 0));
        add(ref, xstrdup(r));
        add(ref2, xstrdup(c));
        free(r);
    }
    /* empty texts, identical texts, small snippets */
    static const char *const small[][2] = {
        {"", ""}, {"", "x = 1\n"}, {"x = 1\n", ""}, {"x = 1\n", "x = 1\n"},
        {"a < b", "a >= b"}, {"# only a comment\n", "\"\"\"doc\"\"\"\n"},
        {"def f(:\n  pass\n", "def f():\n  pass\n"},
        {"class A { int f(int a) { int b = a + 1; return b; } }",
         "class A { int f(int a) { int b = a - 1; return b * 2; } }"},
    };
    for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
        add(cand, xstrdup(small[i][0]));
        add(ref, xstrdup(small[i][1]));
        add(ref2, xstrdup(small[i][0]));
    }
    add(cand, xstrdup(ref->v[0]));
    add(ref, xstrdup(ref->v[0]));
    add(ref2, xstrdup(cand->v[0]));
}

static void free_texts(struct texts *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i]);
    free(t->v);
}

static void dump(const char *path, int n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    struct texts pc = {0}, pr = {0}, pr2 = {0}, jc = {0}, jr = {0}, jr2 = {0};
    build_set(&pc, &pr, &pr2, program, n);
    build_set(&jc, &jr, &jr2, jprogram, n);
    dump_config(f, "py", LT_SIM_PYTHON, LT_SIM_TOKENS_CODE, false, &pc, &pr,
                &pr2);
    dump_config(f, "py-compat", LT_SIM_PYTHON, LT_SIM_TOKENS_CODE, true, &pc,
                &pr, &pr2);
    dump_config(f, "py-words", LT_SIM_PYTHON, LT_SIM_TOKENS_WORDS, false, &pc,
                &pr, &pr2);
    dump_config(f, "java", LT_SIM_JAVA, LT_SIM_TOKENS_CODE, false, &jc, &jr,
                &jr2);
    dump_config(f, "java-on-py", LT_SIM_JAVA, LT_SIM_TOKENS_CODE, false, &pc,
                &pr, &pr2);
    free_texts(&pc);
    free_texts(&pr);
    free_texts(&pr2);
    free_texts(&jc);
    free_texts(&jr);
    free_texts(&jr2);
    fclose(f);
}

int main(int argc, char **argv)
{
    int n = 500;
    const char *jsonl = NULL, *only = NULL, *dumpf = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--jsonl") == 0 && i + 1 < argc)
            jsonl = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc)
            dumpf = argv[++i];
        else
            n = atoi(argv[i]);
    }
    if (n <= 0)
        n = 500;
    if (dumpf) {
        dump(dumpf, n);
        return 0;
    }
    enum { SHARE = 5 };
    char **cand = xmalloc((size_t)n * sizeof(char *));
    char **ref = xmalloc((size_t)n * sizeof(char *));
    char **scand = xmalloc((size_t)n * sizeof(char *));
    char **sref = xmalloc((size_t)n * sizeof(char *));
    char **ucand = xmalloc((size_t)n * sizeof(char *));
    size_t lines = 0, bytes = 0;
    for (int i = 0; i < n; i++) {
        ref[i] = program((uint64_t)i + 1, 0);
        cand[i] = program((uint64_t)i + 1, 1 + i % 5);
        for (const char *p = ref[i]; *p; p++)
            lines += *p == '\n';
        bytes += strlen(ref[i]);
        /* SHARE candidates per reference, consecutive */
        int g = i / SHARE;
        sref[i] = i % SHARE ? sref[i - 1] : program((uint64_t)g + 1, 0);
        scand[i] = program((uint64_t)g + 1, 1 + i % SHARE);
        mutate(scand[i], (uint64_t)i * 31 + 5, 1 + i % 3);
        /* a file of its own: seeds n + 1 .. 2n, which no reference has */
        ucand[i] = program((uint64_t)(n + i) + 1, 1 + i % 5);
    }
    printf("pairs: %d, reference files: %.0f lines, %.0f bytes on average\n",
           n, (double)lines / n, (double)bytes / n);
    if (jsonl) {
        FILE *f = fopen(jsonl, "w");
        if (!f) {
            perror(jsonl);
            return 2;
        }
        for (int i = 0; i < n; i++) {
            fprintf(f, "{\"id\": %d, \"candidate\": ", i);
            json_string(f, cand[i]);
            fputs(", \"reference\": ", f);
            json_string(f, ref[i]);
            fputs("}\n", f);
        }
        fclose(f);
    }
    static const struct {
        const char *name;
        unsigned bits;
        int kind; /* 0 similar, 1 shared references, 2 unrelated */
    } sets[] = {
        {"all metrics", LT_SIM_M_ALL, 0},
        {"all but tree-edit", LT_SIM_M_ALL & ~LT_SIM_M_TREE_EDIT, 0},
        {"codebleu", LT_SIM_M_CODEBLEU, 0},
        {"meteor", LT_SIM_M_METEOR, 0},
        {"rouge-l", LT_SIM_M_ROUGE_L, 0},
        {"levenshtein", LT_SIM_M_LEVENSHTEIN, 0},
        {"tree-edit", LT_SIM_M_TREE_EDIT, 0},
        {"all, 5 cands/ref", LT_SIM_M_ALL, 1},
        {"all, unrelated", LT_SIM_M_ALL, 2},
        {"no tree-edit, unrel.", LT_SIM_M_ALL & ~LT_SIM_M_TREE_EDIT, 2},
    };
    uint64_t hash = 0xcbf29ce484222325ull;
    printf("similar pairs: candidate = reference with 1-5 operators or "
           "digits changed;\nunrelated: candidate and reference from "
           "different generated files\n");
    printf("%-20s %12s %12s %10s\n", "metrics", "pairs/s cpu", "pairs/s wall",
           "ms/pair");
    for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
        double wall;
        if (only && strcmp(only, sets[k].name) != 0)
            continue;
        char **c = sets[k].kind == 1 ? scand : sets[k].kind == 2 ? ucand : cand;
        double rate = run(sets[k].bits, c, sets[k].kind == 1 ? sref : ref, n,
                          &hash, &wall, NULL);
        printf("%-20s %12.1f %12.1f %10.3f\n", sets[k].name, rate, wall,
               1e3 / rate);
        fflush(stdout);
    }
#ifndef LT_BENCH_PUBLIC_ONLY
    if (!only || strcmp(only, "phases") == 0) {
        /* Where the time of "all metrics" goes (wall clock per phase, one
         * more run with the timers on). */
        double prof[LT__PH_N] = {0}, wall;
        uint64_t h2 = 0;
        run(LT_SIM_M_ALL, cand, ref, n, &h2, &wall, prof);
        double tot = 0;
        for (int p = 0; p < LT__PH_N; p++)
            tot += prof[p];
        printf("phases of \"all metrics\" (%.3f ms/pair timed):\n",
               tot / n * 1e3);
        for (int p = 0; p < LT__PH_N; p++)
            printf("  %-28s %6.1f%% %9.1f us/pair\n", lt__phase_names[p],
                   100 * prof[p] / tot, prof[p] / n * 1e6);
    }
#endif
    /* Every field of every result: equal hashes for equal results. */
    printf("result hash %016llx\n", (unsigned long long)hash);
    for (int i = 0; i < n; i++) {
        free(cand[i]);
        free(ref[i]);
        free(scand[i]);
        free(ucand[i]);
        if (i % SHARE == 0)
            free(sref[i]);
    }
    free(cand);
    free(ref);
    free(scand);
    free(sref);
    free(ucand);
    return 0;
}
