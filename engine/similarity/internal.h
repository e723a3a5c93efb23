/* Pieces shared by the similarity sources; not part of the public API.
 * SPDX-License-Identifier: MIT */
#ifndef LT_SIMILARITY_INTERNAL_H
#define LT_SIMILARITY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/similarity/similarity.h"

/*** Token dictionary: every distinct token string gets a small id ***/

struct lt__dict;

struct lt__dict *lt__dict_new(void);
void lt__dict_free(struct lt__dict *d);
uint32_t lt__dict_intern(struct lt__dict *d, const char *s, size_t n);
const char *lt__dict_str(const struct lt__dict *d, uint32_t id, size_t *n);
size_t lt__dict_size(const struct lt__dict *d);
/* Id of the lowercased token, and of the Porter stem of that. */
uint32_t lt__dict_lower(struct lt__dict *d, uint32_t id);
uint32_t lt__dict_stem(struct lt__dict *d, uint32_t id);
/* CodeBLEU keyword of `lang` (weight 1.0 rather than 0.2). */
bool lt__dict_keyword(struct lt__dict *d, uint32_t id, enum lt_sim_lang lang);

struct lt__toks {
    uint32_t *v;
    size_t n, cap;
};

void lt__toks_push(struct lt__toks *t, uint32_t id);

/* Appends the tokens of text to *out (which it does not clear). */
void lt__tokenize(struct lt__dict *d, const char *text, size_t len,
                  enum lt_sim_lang lang, enum lt_sim_tokens mode,
                  struct lt__toks *out);

/* Porter (1980) stemmer on a lowercase ASCII word, in place; returns the
 * new length.  Words with other bytes are left alone. */
size_t lt__porter_stem(char *w, size_t n);

/*** Sequence metrics (metrics.c) ***/

/* Scratch memory reused between pairs. */
struct lt__scratch {
    uint64_t *bits;
    size_t bits_cap;
    uint32_t *slot; /* per token id: index into the bit-vector table */
    uint32_t *stamp;
    size_t slot_cap;
    uint32_t epoch;
    uint32_t *u32a, *u32b;
    size_t u32a_cap, u32b_cap;
    void *table;
    size_t table_cap;
    uint32_t *ng; /* n-gram ids and counts */
    size_t ng_cap;
    uint32_t ng_gen; /* generation of the n-gram table's slots */
};

void lt__scratch_free(struct lt__scratch *s);

/* CodeBLEU's two n-gram scores, from one pass over the n-grams:
 * *bleu, the reference BLEU (n = 1..4, clipped counts, brevity penalty
 * from the closest reference length, Chen-Cherry method1 smoothing,
 * epsilon 0.1), and *weighted, the reference weighted n-gram match (see
 * docs/similarity.md).  refs are pointers: they need not be adjacent. */
void lt__ngram_scores(struct lt__scratch *sc, struct lt__dict *d,
                      enum lt_sim_lang lang, const struct lt__toks *hyp,
                      const struct lt__toks *const *refs, size_t nrefs,
                      double *bleu, double *weighted);
size_t lt__lcs(struct lt__scratch *sc, size_t nids, const uint32_t *a,
               size_t an, const uint32_t *b, size_t bn);
size_t lt__levenshtein(struct lt__scratch *sc, size_t nids, const uint32_t *a,
                       size_t an, const uint32_t *b, size_t bn);
/* METEOR of hyp against one reference; fills p, r, fmean. */
double lt__meteor(struct lt__scratch *sc, struct lt__dict *d,
                  const struct lt__toks *hyp, const struct lt__toks *ref,
                  double *p, double *r, double *fmean);

/*** Text differences (textdiff.c) ***/

/* The lines of a text: where each starts (start[n] is the length), a key
 * per line (a hash of its bytes and length), and the keys' low halves
 * sorted. */
struct lt__lines {
    uint64_t *key;
    uint32_t *sorted, *start;
    size_t n;
};

void lt__lines_init(struct lt__lines *l, const char *text, size_t len);
void lt__lines_free(struct lt__lines *l);
/* Lines two texts have in common, as multisets (a bound for the diff). */
size_t lt__lines_common(const struct lt__lines *a, const struct lt__lines *b);

/* Bytes [old_start, old_start + old_len) of the old text become bytes
 * [new_start, new_start + new_len) of the new one. */
struct lt__hunk {
    uint32_t old_start, old_len, new_start, new_len;
};

struct lt__hunks {
    struct lt__hunk *v;
    size_t n, cap;
};

long lt__text_diff(const struct lt__lines *la, const char *a, size_t alen,
                   const struct lt__lines *lb, const char *b, size_t blen,
                   long maxd, struct lt__hunks *h);

/*** Syntax trees (tree.c, dfg.c) ***/

/* A tree-sitter tree flattened into an array in pre-order: every visible
 * node (named or anonymous); hidden nodes are dissolved, as in
 * py-tree-sitter's `children`. */
enum { LT__NONE = UINT32_MAX };

struct lt__node {
    uint32_t start, end;          /* byte offsets */
    uint32_t parent, first, next; /* LT__NONE when absent */
    uint32_t nchild;
    uint32_t tok;                 /* token index (data flow), or LT__NONE */
    uint16_t sym, field;
    uint8_t named, missing, flags;
};

/* lt__node.flags */
enum {
    LT__N_COMMENT = 1u << 0,  /* a comment node */
    LT__N_STRLEAF = 1u << 1,  /* a string the data flow takes as a leaf */
    LT__N_DROPPED = 1u << 2,  /* comment or Python string statement */
};

struct lt__flat {
    struct lt__node *n;
    size_t count;
    const char *text;
    size_t len;
    const void *language; /* const TSLanguage * */
};

const char *lt__flat_type(const struct lt__flat *f, uint32_t i);

struct lt__tree; /* one parsed text, with what the metrics need from it */
struct lt__trees; /* parsers and the subtree dictionary */

/* What lt__tree_derive should prepare. */
enum {
    LT__TREE_SYNTAX = 1u << 0,
    LT__TREE_DFG = 1u << 1,
    LT__TREE_TED = 1u << 2,
};

struct lt__trees *lt__trees_new(enum lt_sim_lang lang);
void lt__trees_free(struct lt__trees *t);
/* Forgets the subtree dictionary when it has grown large (between pairs,
 * to bound memory); true when it did, which invalidates the subtree ids
 * of every tree parsed before. */
bool lt__trees_trim(struct lt__trees *t);
/* A base for an incremental parse: the tree of text, whose lines are
 * lines, and the hunks that turn text into the text to parse; the time
 * the incremental parse may take before a fresh one replaces it
 * (microseconds; 0: no limit). */
struct lt__base {
    const struct lt__tree *tree;
    const char *text;
    const struct lt__lines *lines;
    const struct lt__hunks *hunks;
    uint64_t budget_us;
};
/* Parses text (tree-sitter's parse alone), afresh or, with base,
 * incrementally (see tree.c); the tree it returns is the same either way.
 * NULL when the parser fails (not for syntax errors).  prof: NULL, or the
 * phase timers (LT__PH_*) to add to. */
struct lt__tree *lt__tree_parse_text(struct lt__trees *t, const char *text,
                                     size_t len, const struct lt__base *base,
                                     double *prof);
/* The second half: what the metrics need (what: LT__TREE_*) from the
 * parse of tr, whose text is text (the same as given to the parse). */
void lt__tree_derive(struct lt__trees *t, struct lt__dict *d,
                     struct lt__tree *tr, const char *text, size_t len,
                     unsigned what, double *prof);
/* Whether tree-sitter found a syntax error; whether tr was parsed
 * incrementally (from a base; for tests and the benchmark). */
bool lt__tree_has_error(const struct lt__tree *tr);
bool lt__tree_incremental(const struct lt__tree *tr);
/* The tree-sitter tree of tr (const TSTree *), for tests. */
const void *lt__tree_ts(const struct lt__tree *tr);
void lt__tree_free(struct lt__tree *tr);
/* Reference subtrees (s-expressions, leaves excluded) found in cand. */
void lt__syntax_match(const struct lt__tree *cand, const struct lt__tree *ref,
                      size_t *match, size_t *total);
/* Normalised data-flow edges of ref found in cand (multiset). */
void lt__dataflow_match(const struct lt__tree *cand,
                        const struct lt__tree *ref, size_t *match,
                        size_t *total);
/* Zhang-Shasha distance; SIZE_MAX when the trees are too large.  sc:
 * scratch memory; the labels are dictionary ids below nids. */
size_t lt__tree_edit(const struct lt__tree *a, const struct lt__tree *b,
                     struct lt__scratch *sc, size_t nids);
size_t lt__tree_size(const struct lt__tree *tr);
/* Zhang-Shasha on post-order labels and leftmost leaves: the banded exact
 * algorithm, or (reference = true) the plain one; for tests. */
size_t lt__ted_arrays(const uint32_t *lab1, const uint32_t *lml1, size_t n1,
                      const uint32_t *lab2, const uint32_t *lml2, size_t n2,
                      bool reference);
/* For tests: the banded pass alone, with half-width k (>= 1): the
 * distance when it is <= k, otherwise an upper bound or SIZE_MAX. */
size_t lt__ted_band(const uint32_t *lab1, const uint32_t *lml1, size_t n1,
                    const uint32_t *lab2, const uint32_t *lml2, size_t n2,
                    size_t k);

/* Normalised data-flow edges: names renamed var_0, var_1, ... by first
 * appearance, parents before the variable. */
struct lt__dfg_edge {
    uint32_t var;
    uint32_t rel; /* 0 comesFrom, 1 computedFrom */
    uint32_t npar;
    uint32_t *par;
};

struct lt__dfg {
    struct lt__dfg_edge *e;
    size_t n;
    uint32_t *pool;
};

/* What the tree code needs to know about the grammar's symbols, computed
 * once per parser (tree.c): classes by type name, the data-flow rule of
 * each symbol, field ids. */
enum {
    LT__C_COMMENT = 1u << 0,   /* comment, line_comment, block_comment */
    LT__C_STRLEAF = 1u << 1,   /* string, string_literal, character_literal */
    LT__C_PUNCT = 1u << 2,     /* ( ) [ ] { } , ; : . " ' ` */
    LT__C_EXPRSTMT = 1u << 3,  /* expression_statement */
    LT__C_STRING = 1u << 4,    /* string, concatenated_string */
    LT__C_COMMA = 1u << 5,     /* , */
    LT__C_IDENT = 1u << 6,     /* identifier */
    LT__C_ELIFELSE = 1u << 7,  /* elif_clause, else_clause */
    LT__C_BLOCK = 1u << 8,     /* block */
    LT__C_LOCALVAR = 1u << 9,  /* local_variable_declaration */
    LT__C_HASELSE = 1u << 10,  /* the type name contains "else" */
};

struct lt__langinfo {
    const void *language; /* const TSLanguage * */
    enum lt_sim_lang lang;
    size_t nsyms;
    uint16_t *cls;     /* per symbol: LT__C_* */
    uint8_t *kind;     /* per symbol: data-flow rule (dfg.c) */
    uint16_t *namelen; /* per symbol: strlen of the type name */
    uint32_t *name_id; /* per symbol: dict id of the type name */
    bool have_name_ids;
    uint16_t f_name, f_value, f_left, f_right, f_body;
};

/* Class bits of node symbol sym (0 for ERROR and the other built-ins). */
static inline unsigned lt__cls(const struct lt__langinfo *li, uint16_t sym)
{
    return sym < li->nsyms ? li->cls[sym] : 0;
}

/* Reusable memory of the data-flow builder. */
struct lt__dfg_ws;
void lt__dfg_ws_free(struct lt__dfg_ws *ws);

/* Fills the per-symbol data-flow rules of li (dfg.c). */
void lt__dfg_kinds(struct lt__langinfo *li);

/* Builds the reference implementation's data flow of a flattened tree
 * (dfg.c); d interns the token texts; *ws is created on first use. */
void lt__dfg_build(struct lt__dfg *out, const struct lt__flat *f,
                   struct lt__langinfo *li, struct lt__dict *d,
                   struct lt__dfg_ws **ws);
void lt__dfg_free(struct lt__dfg *g);
/* The order of lt__dfg.e: relation, variable, then the parent list. */
int lt__dfg_edge_cmp(const struct lt__dfg_edge *a,
                     const struct lt__dfg_edge *b);

/*** Phase timers, for bench/similarity_bench.c ***/

enum lt__phase {
    LT__PH_TOKENIZE, /* code tokens, and the text cache */
    LT__PH_DIFF,     /* line diff for an incremental parse */
    LT__PH_PARSE,    /* ts_parser_parse_string and ts_tree_delete */
    LT__PH_FLATTEN,  /* copying the tree-sitter tree */
    LT__PH_SUBTREES, /* syntax match: subtree ids */
    LT__PH_DFG,      /* data flow: the rules */
    LT__PH_TEDPREP,  /* tree edit: labels, post-order */
    LT__PH_BLEU,     /* BLEU and weighted n-gram match */
    LT__PH_SYNTAX,   /* syntax match */
    LT__PH_DATAFLOW, /* data-flow match */
    LT__PH_METEOR,
    LT__PH_ROUGE,
    LT__PH_LEV,
    LT__PH_TED,   /* Zhang-Shasha */
    LT__PH_OTHER, /* freeing, the rest of lt_sim_compare */
    LT__PH_N
};

extern const char *const lt__phase_names[LT__PH_N];

/* From now on every lt_sim_compare of s adds the seconds (monotonic
 * clock) it spends in each phase to acc[LT__PH_N]; NULL stops it. */
void lt__sim_profile(struct lt_sim *s, double *acc);

/* Whether s may parse a text incrementally from a similar one (true by
 * default); off, every text is parsed afresh.  For tests and the
 * benchmark: the results are the same either way. */
void lt__sim_incremental(struct lt_sim *s, bool on);

/* The monotonic clock, in seconds. */
double lt__sim_now(void);

/* Adds the time since *t to prof[phase] and sets *t to now; nothing when
 * prof is NULL. */
void lt__sim_lap(double *prof, enum lt__phase phase, double *t);

#endif
