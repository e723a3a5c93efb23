/* `litmus similarity`: its option table and help; engine/similarity reads
 * the options' values (lt_sim_set_*) and runs the command.
 * SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <stdio.h>

#include "common/cliopt.h"
#include "engine/similarity/similarity.h"

enum {
    OPT_METRIC = OPT_OWN, OPT_LANG, OPT_TOKENS, OPT_FORMAT, OPT_PAIRS,
    OPT_WEIGHTS, OPT_COMPAT, OPT_DUMP,
};

static const char usage_similarity[] =
    "usage: litmus similarity [options] CANDIDATE REFERENCE\n"
    "       litmus similarity [options] --pairs FILE.jsonl\n"
    "\n"
    "Scores how similar a candidate text is to a reference.\n"
    "\n";

static const char usage_similarity_end[] =
    "\n"
    "CTSES1 = 0.5 CodeBLEU + 0.3 METEOR + 0.2 ROUGE-L, CTSES2 = 0.4/0.3/0.3,\n"
    "uniform = 1/3 each; accepted when >= 0.5.  Levenshtein and tree edit\n"
    "are 1 - distance / larger size.  Definitions and deviations from the\n"
    "reference implementations: docs/similarity.md.\n"
    "\n"
    "Exit status: 0 done, 2 usage or input error, 3 engine error.\n";

/* The .set of a row whose value engine/similarity's reader F takes (and,
 * when it refuses it, says why: LT__OPT_SAYS_WHY). */
#define SIM_SET(name, f)                                                   \
    static int name(const struct lt__opt *e, void *opts, const char *s,    \
                    const char **want)                                     \
    {                                                                      \
        (void)e, (void)want;                                               \
        return f(opts, s);                                                 \
    }
SIM_SET(set_metrics, lt_sim_set_metrics)
SIM_SET(set_lang, lt_sim_set_lang)
SIM_SET(set_tokens, lt_sim_set_tokens)
SIM_SET(set_format, lt_sim_set_format)
SIM_SET(set_weights, lt_sim_set_weights)
#undef SIM_SET

#define S struct lt_sim_command
#define SIM_VALUE(f) .kind = LT__OPT_CUSTOM, .flags = LT__OPT_SAYS_WHY, .set = f
/* The options of `litmus similarity`, in the order of the help. */
const struct lt__opt lt__similarity_options[] = {
    {.name = "metric", .code = OPT_METRIC, SIM_VALUE(set_metrics),
     .arg = "NAME", LT__FIELD(S, metrics),
     .help = "metric to compute; repeat or comma-separate:\n"
             "codebleu, meteor, rouge-l, ctses, levenshtein,\n"
             "tree-edit, all (default: all)"},
    {.name = "lang", .code = OPT_LANG, SIM_VALUE(set_lang), .arg = "LANG",
     LT__FIELD(S, sim.lang),
     .help = "python (default) or java: tokenizer, grammar\n"
             "and CodeBLEU keywords"},
    {.name = "tokens", .code = OPT_TOKENS, SIM_VALUE(set_tokens),
     .arg = "MODE", LT__FIELD(S, sim.tokens),
     .help = "code (default): language tokens, comments and\n"
             "whitespace dropped, operators kept;\n"
             "words: rouge_score's tokenizer (lowercase,\n"
             "split on non-alphanumerics), for comparison\n"
             "with published numbers"},
    {.name = "format", .code = OPT_FORMAT, SIM_VALUE(set_format),
     .arg = "FMT", LT__FIELD(S, json),
     .help = "text (default) or json (one object per pair)"},
    {.name = "pairs", .code = OPT_PAIRS, .kind = LT__OPT_STRING,
     .arg = "FILE", LT__FIELD(S, pairs),
     .help = "JSON Lines, one {\"id\", \"candidate\",\n"
             "\"reference\"} per line; reference may be a list\n"
             "of texts (METEOR, ROUGE-L, Levenshtein and tree\n"
             "edit take the best; BLEU uses all, as the\n"
             "reference implementation does); - for stdin"},
    {.name = "codebleu-weights", .code = OPT_WEIGHTS,
     SIM_VALUE(set_weights), .label = "--codebleu-weights A,B,C,D\n",
     LT__FIELD(S, sim.codebleu_weights),
     .help = "weights of BLEU, weighted n-gram, syntax and\n"
             "data-flow match (default 0.25 each)"},
    {.name = "dataflow-compat", .code = OPT_COMPAT, .kind = LT__OPT_FLAG,
     .lo = 1, LT__FIELD(S, dataflow_compat),
     .help = "count any zero data-flow score as 1, as the\n"
             "reference implementation does (default: only\n"
             "when the reference has no data-flow edge)"},
    {.name = "dump-tokens", .code = OPT_DUMP, .kind = LT__OPT_STRING,
     .arg = "FILE", LT__FIELD(S, dump),
     .help = "print the tokens of FILE, one per line"},
    {LT__HELP_ROW},
    {.name = NULL},
};
#undef SIM_VALUE
#undef S

/* Contract: see cli.h. */
void lt__similarity_help(FILE *f)
{
    fputs(usage_similarity, f);
    /* The layout this help has always had: long options at two columns,
     * descriptions from the 22nd. */
    lt__opt_help_at(f, lt__similarity_options, -1, 2, 22);
    fputs(usage_similarity_end, f);
}

/* `litmus similarity ...` with argv[0] = "similarity": the options by
 * the table, then engine/similarity runs on the operands. */
int lt__cmd_similarity(int argc, char **argv)
{
    struct lt_sim_command o;
    lt_sim_command_init(&o);
    struct lt__opt_parser p;
    int c, code = LT_CLI_USAGE;
    lt__opt_start(&p, lt__similarity_options, "", -1, argc, argv, &o);
    while ((c = lt__opt_next(&p)) > 0) {
        lt__similarity_help(stdout); /* only --help is the command's */
        code = 0;
        goto out;
    }
    if (c == 0)
        code = lt_sim_command_run(&o, argc - optind, argv + optind);
out:
    lt__opt_end(&p);
    return code;
}
