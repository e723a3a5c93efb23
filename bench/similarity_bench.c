/* Batch throughput of lt_sim_compare on generated pairs of 200-line
 * Python files (a reference and a candidate with a few small edits).
 * Usage: similarity_bench [PAIRS] [--jsonl FILE]: prints pairs/s (per
 * second of CPU time, and of wall time) for all metrics and for each
 * metric alone; --jsonl also writes the pairs in the
 * --pairs format for timing the CLI.  SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/buf.h"
#include "common/xmalloc.h"
#include "engine/similarity/similarity.h"

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
    return s;
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Returns pairs/s of CPU time (one core; the build machine is shared, so
 * wall time varies with the load) and sets *wall_rate. */
static double run(unsigned metrics, char **cand, char **ref, int n,
                  double *checksum, double *wall_rate)
{
    struct lt_sim_options o;
    lt_sim_options_init(&o);
    o.metrics = metrics;
    struct lt_sim *s;
    if (lt_sim_new(&o, &s) < 0) {
        fprintf(stderr, "similarity_bench: cannot set up\n");
        exit(3);
    }
    double t0 = clock_s(CLOCK_MONOTONIC);
    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < n; i++) {
        struct lt_sim_result r;
        const char *refs[1] = {ref[i]};
        size_t rl[1] = {strlen(ref[i])};
        if (lt_sim_compare(s, cand[i], strlen(cand[i]), refs, rl, 1, &r) < 0) {
            fprintf(stderr, "similarity_bench: compare failed\n");
            exit(3);
        }
        *checksum += r.codebleu + r.meteor + r.rouge_l_f + r.levenshtein +
                     r.tree_edit;
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

int main(int argc, char **argv)
{
    int n = 500;
    const char *jsonl = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--jsonl") == 0 && i + 1 < argc)
            jsonl = argv[++i];
        else
            n = atoi(argv[i]);
    }
    if (n <= 0)
        n = 500;
    char **cand = xmalloc((size_t)n * sizeof(char *));
    char **ref = xmalloc((size_t)n * sizeof(char *));
    size_t lines = 0, bytes = 0;
    for (int i = 0; i < n; i++) {
        ref[i] = program((uint64_t)i + 1, 0);
        cand[i] = program((uint64_t)i + 1, 1 + i % 5);
        for (const char *p = ref[i]; *p; p++)
            lines += *p == '\n';
        bytes += strlen(ref[i]);
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
    } sets[] = {
        {"all metrics", LT_SIM_M_ALL},
        {"all but tree-edit", LT_SIM_M_ALL & ~LT_SIM_M_TREE_EDIT},
        {"codebleu", LT_SIM_M_CODEBLEU},
        {"meteor", LT_SIM_M_METEOR},
        {"rouge-l", LT_SIM_M_ROUGE_L},
        {"levenshtein", LT_SIM_M_LEVENSHTEIN},
        {"tree-edit", LT_SIM_M_TREE_EDIT},
    };
    double checksum = 0;
    printf("%-20s %12s %12s\n", "metrics", "pairs/s cpu", "pairs/s wall");
    for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
        double wall;
        double rate = run(sets[k].bits, cand, ref, n, &checksum, &wall);
        printf("%-20s %12.1f %12.1f  (%d pairs)\n", sets[k].name, rate, wall,
               n);
    }
    /* Every metric value summed: equal checksums for equal results. */
    printf("checksum %a\n", checksum);
    for (int i = 0; i < n; i++) {
        free(cand[i]);
        free(ref[i]);
    }
    free(cand);
    free(ref);
    return 0;
}
