/* Similarity of a candidate text to one or more references: CodeBLEU and
 * its four parts, METEOR, ROUGE-L, the CTSES blends, token Levenshtein and
 * tree edit distance.  Definitions and deviations: docs/similarity.md.
 * SPDX-License-Identifier: MIT */
#ifndef LT_SIMILARITY_H
#define LT_SIMILARITY_H

#include <stdbool.h>
#include <stddef.h>

enum lt_sim_lang { LT_SIM_PYTHON = 0, LT_SIM_JAVA = 1 };

/* Code tokens (CPython tokenize boundaries, or the Java lexer) or the
 * rouge_score word tokenizer (lowercase, split on non-alphanumerics). */
enum lt_sim_tokens { LT_SIM_TOKENS_CODE = 0, LT_SIM_TOKENS_WORDS = 1 };

/* Metric selection bits. CTSES needs CodeBLEU, METEOR and ROUGE-L and
 * computes them when asked for. */
enum {
    LT_SIM_M_CODEBLEU = 1u << 0,
    LT_SIM_M_METEOR = 1u << 1,
    LT_SIM_M_ROUGE_L = 1u << 2,
    LT_SIM_M_CTSES = 1u << 3,
    LT_SIM_M_LEVENSHTEIN = 1u << 4,
    LT_SIM_M_TREE_EDIT = 1u << 5,
    LT_SIM_M_ALL = (1u << 6) - 1,
};

struct lt_sim_options {
    enum lt_sim_lang lang;       /* LT_SIM_PYTHON */
    enum lt_sim_tokens tokens;   /* LT_SIM_TOKENS_CODE */
    unsigned metrics;            /* LT_SIM_M_ALL */
    /* BLEU, weighted n-gram, syntax, data-flow: 0.25 each. */
    double codebleu_weights[4];
    /* false: a data-flow score counts as 1 only when the references have
     * no data-flow edge; true: every zero counts as 1, as the reference
     * implementation's `dataflow_match_score or 1` does. */
    bool dataflow_compat;
};

void lt_sim_options_init(struct lt_sim_options *o);

/* Every metric value; a field is valid when its bit is in `computed`.
 * Values are in [0, 1] except the raw distances. */
struct lt_sim_result {
    unsigned computed;
    /* CodeBLEU and its parts. */
    double bleu, weighted_bleu, syntax_match, dataflow_match, codebleu;
    size_t dataflow_ref_edges; /* 0: dataflow_match counted as 1 */
    /* METEOR: the best reference's precision, recall, Fmean and score. */
    double meteor_p, meteor_r, meteor_fmean, meteor;
    /* ROUGE-L of the best reference (by F1). */
    double rouge_l_p, rouge_l_r, rouge_l_f;
    /* CTSES1 (0.5, 0.3, 0.2), CTSES2 (0.4, 0.3, 0.3), uniform, over
     * (CodeBLEU, METEOR, ROUGE-L F1); accepted when >= 0.5. */
    double ctses1, ctses2, ctses_uniform;
    bool ctses1_accepted, ctses2_accepted, ctses_uniform_accepted;
    /* Best over references: 1 - d / max(|a|, |b|) and d itself. */
    double levenshtein;
    size_t levenshtein_distance;
    double tree_edit;
    size_t tree_edit_distance;
    size_t cand_tokens, ref_tokens; /* token counts (first reference) */
};

/* A comparison context: keeps parsers, the token dictionary, scratch
 * memory and the last few texts it prepared (tokens, trees) between
 * pairs, so a batch pays for them once and a text met again (a shared
 * reference) is not parsed again.  Not thread-safe; use one per thread. */
struct lt_sim;

int lt_sim_new(const struct lt_sim_options *o, struct lt_sim **out);
void lt_sim_free(struct lt_sim *s); /* accepts NULL */

/* Compares `cand` with the references `refs[0..nrefs)` (nrefs >= 1; texts
 * need not be NUL-terminated) and fills *res.  Returns 0, LT_EUSAGE for
 * nrefs == 0, or LT_EINTERNAL when a parser fails. */
int lt_sim_compare(struct lt_sim *s, const char *cand, size_t clen,
                   const char *const *refs, const size_t *rlens, size_t nrefs,
                   struct lt_sim_result *res);

/* One-shot helpers for the patch triage.  Code tokens of `lang`;
 * 1 - d / max(|a|, |b|), 1 when both are empty; a negative value (an
 * LT_E* code) only if the parser cannot be set up. */
double lt_sim_token_levenshtein(const char *a, size_t alen, const char *b,
                                size_t blen, enum lt_sim_lang lang);
/* Zhang-Shasha, unit costs, on the named-node syntax tree (labelling in
 * docs/similarity.md); 1 - d / max(|T1|, |T2|). */
double lt_sim_tree_edit(const char *a, size_t alen, const char *b,
                        size_t blen, enum lt_sim_lang lang);

/* Tokens of `text` as the metrics see them, one per line, into a
 * malloc'd string the caller frees (for checking the tokenizer). */
char *lt_sim_dump_tokens(const char *text, size_t len, enum lt_sim_lang lang,
                         enum lt_sim_tokens mode);

/*** `litmus similarity` ***/

/* What the command is asked: the fields its options fill.  The options
 * themselves (names, help, getopt) are rows of engine/cli's table; their
 * values are read by the lt_sim_set_*() below. */
struct lt_sim_command {
    struct lt_sim_options sim; /* --lang, --tokens, --codebleu-weights */
    unsigned metrics;          /* --metric, each adding; 0: sim.metrics */
    int json;                  /* --format: 0 text, 1 json */
    int dataflow_compat;       /* --dataflow-compat */
    const char *pairs;         /* --pairs FILE (- for stdin) */
    const char *dump;          /* --dump-tokens FILE */
};

void lt_sim_command_init(struct lt_sim_command *c);

/* The values of the options: each reads S into its field of C and
 * returns 0, or prints the usage error ("unknown metric 'S'", through
 * common/cliopt.h) and returns -1.  --metric takes names comma-separated
 * and adds to what an earlier --metric chose. */
int lt_sim_set_metrics(struct lt_sim_command *c, const char *s);
int lt_sim_set_lang(struct lt_sim_command *c, const char *s);
int lt_sim_set_tokens(struct lt_sim_command *c, const char *s);
int lt_sim_set_format(struct lt_sim_command *c, const char *s);
int lt_sim_set_weights(struct lt_sim_command *c, const char *s);

/* Runs `litmus similarity` as C asks on its operands ARGS[0..NARGS) (the
 * two files, or none with --pairs or --dump-tokens).  Returns the exit
 * status: 0, 2 for usage or input errors, 3 for engine errors. */
int lt_sim_command_run(const struct lt_sim_command *c, int nargs,
                       char **args);

#endif
