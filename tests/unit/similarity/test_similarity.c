/* Unit tests of engine/similarity: every metric on small pairs worked by
 * hand (the working is in the comments), empty and identical inputs,
 * operator-only differences, the bit-parallel kernels against plain
 * dynamic programming, and the syntax match against tree-sitter's own
 * s-expressions.  SPDX-License-Identifier: MIT */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <tree_sitter/api.h>

#include "common/err.h"
#include "engine/similarity/internal.h"
#include "engine/similarity/similarity.h"

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_java(void);

#define NEAR(actual, expected)                                               \
    do {                                                                     \
        double a_ = (actual), e_ = (expected);                               \
        if (!(fabs(a_ - e_) < 1e-6)) {                                       \
            print_error("%s = %.9f, expected %.9f\n", #actual, a_, e_);      \
            fail();                                                          \
        }                                                                    \
    } while (0)

static struct lt_sim_result cmp(const char *cand, const char *ref,
                                enum lt_sim_lang lang, enum lt_sim_tokens tk)
{
    struct lt_sim_options o;
    lt_sim_options_init(&o);
    o.lang = lang;
    o.tokens = tk;
    struct lt_sim *s = NULL;
    assert_int_equal(lt_sim_new(&o, &s), 0);
    struct lt_sim_result r;
    const char *refs[1] = {ref};
    size_t rl[1] = {strlen(ref)};
    assert_int_equal(lt_sim_compare(s, cand, strlen(cand), refs, rl, 1, &r), 0);
    lt_sim_free(s);
    assert_int_equal(r.computed, LT_SIM_M_ALL);
    return r;
}

static struct lt_sim_result py(const char *cand, const char *ref)
{
    return cmp(cand, ref, LT_SIM_PYTHON, LT_SIM_TOKENS_CODE);
}

/*** Tokenizers ***/

static void tokens_are(const char *text, enum lt_sim_lang lang,
                       enum lt_sim_tokens mode, const char *expected)
{
    char *got = lt_sim_dump_tokens(text, strlen(text), lang, mode);
    for (char *p = got; *p; p++)
        if (*p == '\n')
            *p = '|';
    if (strcmp(got, expected) != 0) {
        print_error("tokens of '%s': got '%s', expected '%s'\n", text, got,
                    expected);
        free(got);
        fail();
    }
    free(got);
}

static void test_tokenizers(void **state)
{
    (void)state;
    /* Python: operators kept whole, comments and layout dropped, strings
     * with prefixes and numbers as tokenize.py cuts them. */
    tokens_are("a < b", LT_SIM_PYTHON, LT_SIM_TOKENS_CODE, "a|<|b|");
    tokens_are("a >= b  # c\n", LT_SIM_PYTHON, LT_SIM_TOKENS_CODE, "a|>=|b|");
    tokens_are("x **= 0x_1f + 1.5e-3j - .5 ... 1if", LT_SIM_PYTHON,
               LT_SIM_TOKENS_CODE, "x|**=|0x_1f|+|1.5e-3j|-|.5|...|1|if|");
    tokens_are("s = rb'a\\'b' + f\"{x}\" + '''t\nu'''", LT_SIM_PYTHON,
               LT_SIM_TOKENS_CODE, "s|=|rb'a\\'b'|+|f\"{x}\"|+|'''t|u'''|");
    tokens_are("def f(a) -> int:\n    return a\n", LT_SIM_PYTHON,
               LT_SIM_TOKENS_CODE, "def|f|(|a|)|->|int|:|return|a|");
    tokens_are("x = 1 \\\n  + $", LT_SIM_PYTHON, LT_SIM_TOKENS_CODE,
               "x|=|1|+|$|");
    /* Java: >>>=, ::, text blocks, char literals, comments. */
    tokens_are("a >>>= b::c; // x\n/* y */ char c = '\\n';", LT_SIM_JAVA,
               LT_SIM_TOKENS_CODE, "a|>>>=|b|::|c|;|char|c|=|'\\n'|;|");
    tokens_are("long n = 0x1FL + 1_000 + 3.5e2f;", LT_SIM_JAVA,
               LT_SIM_TOKENS_CODE, "long|n|=|0x1FL|+|1_000|+|3.5e2f|;|");
    /* rouge_score: lowercase, operators gone. */
    tokens_are("If a >= B_2: return", LT_SIM_PYTHON, LT_SIM_TOKENS_WORDS,
               "if|a|b|2|return|");
}

/*** ROUGE-L ***/

static void test_rouge_l(void **state)
{
    (void)state;
    /* [x = a + b] vs [x = b + a]: after "x =", LCS([a + b], [b + a]) is 1,
     * so LCS = 3; P = R = 3/5; F1 = 0.6. */
    struct lt_sim_result r = py("x = a + b", "x = b + a");
    NEAR(r.rouge_l_p, 0.6);
    NEAR(r.rouge_l_r, 0.6);
    NEAR(r.rouge_l_f, 0.6);
    /* [x = 1] vs [x = 1 y = 2]: LCS 3, P = 1, R = 1/2, F1 = 2/3. */
    r = py("x = 1", "x = 1\ny = 2");
    NEAR(r.rouge_l_p, 1.0);
    NEAR(r.rouge_l_r, 0.5);
    NEAR(r.rouge_l_f, 2.0 / 3.0);
    /* Empty side: 0 by definition. */
    r = py("", "x = 1");
    NEAR(r.rouge_l_f, 0.0);
    r = py("", "");
    NEAR(r.rouge_l_f, 0.0);
    /* Operator-only difference: [a < b] vs [a >= b], LCS 2, F1 = 2/3 with
     * code tokens; the word tokenizer sees [a b] twice: 1. */
    r = py("a < b", "a >= b");
    NEAR(r.rouge_l_f, 2.0 / 3.0);
    r = cmp("a < b", "a >= b", LT_SIM_PYTHON, LT_SIM_TOKENS_WORDS);
    NEAR(r.rouge_l_f, 1.0);
}

/*** METEOR ***/

static void test_meteor(void **state)
{
    (void)state;
    /* [a = b + c] vs [a = c + b]: every word matches (m = 5, P = R = 1,
     * Fmean = PR / (0.9P + 0.1R) = 1).  Alignment from the last
     * hypothesis word to the last free reference word: (0,0) (1,1) (2,4)
     * (3,3) (4,2): 4 chunks.  Penalty 0.5 (4/5)^3 = 0.256; 0.744. */
    struct lt_sim_result r = py("a = b + c", "a = c + b");
    NEAR(r.meteor_p, 1.0);
    NEAR(r.meteor_r, 1.0);
    NEAR(r.meteor_fmean, 1.0);
    NEAR(r.meteor, 0.744);
    /* Stems: [running tests] vs [run test] have no exact match; Porter
     * gives run, test for both; 1 chunk of 2: penalty 0.5 (1/2)^3 =
     * 0.0625, score 0.9375. */
    r = cmp("running tests", "run test", LT_SIM_PYTHON, LT_SIM_TOKENS_WORDS);
    NEAR(r.meteor, 0.9375);
    /* Identical 5 tokens: one chunk, 1 - 0.5 (1/5)^3 = 0.996. */
    r = py("x = a + b", "x = a + b");
    NEAR(r.meteor, 0.996);
    /* [x = 1] vs [x = 1 y = 2]: m = 3, P = 1, R = 1/2, Fmean =
     * 0.5 / (0.9 + 0.05) = 0.526315789; the exact pass gives x-x, =-= (the
     * last "=" is ref 4), 1-1: (0,0) (1,4) (2,2): 3 chunks, penalty 0.5,
     * score 0.263157895. */
    r = py("x = 1", "x = 1\ny = 2");
    NEAR(r.meteor_fmean, 0.5 / 0.95);
    NEAR(r.meteor, 0.5 * 0.5 / 0.95);
    r = py("", "x");
    NEAR(r.meteor, 0.0);
    /* Case is folded, as NLTK does: [A] vs [a] is one exact match. */
    r = py("A", "a");
    NEAR(r.meteor, 0.5);
}

static void test_meteor_multi_ref(void **state)
{
    (void)state;
    /* The best reference wins: [a = c + b] gives 0.744 (above), [a = b + c]
     * gives 0.996. */
    struct lt_sim_options o;
    lt_sim_options_init(&o);
    o.metrics = LT_SIM_M_METEOR | LT_SIM_M_ROUGE_L;
    struct lt_sim *s;
    assert_int_equal(lt_sim_new(&o, &s), 0);
    const char *refs[2] = {"a = c + b", "a = b + c"};
    size_t rl[2] = {9, 9};
    struct lt_sim_result r;
    assert_int_equal(lt_sim_compare(s, "a = b + c", 9, refs, rl, 2, &r), 0);
    NEAR(r.meteor, 0.996);
    NEAR(r.rouge_l_f, 1.0);
    assert_int_equal(lt_sim_compare(s, "a", 1, refs, rl, 0, &r), LT_EUSAGE);
    lt_sim_free(s);
}

static void test_porter(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"caresses", "caress"}, {"ponies", "poni"},     {"cats", "cat"},
        {"feed", "feed"},       {"agreed", "agre"},     {"plastered", "plaster"},
        {"motoring", "motor"},  {"sing", "sing"},       {"conflated", "conflat"},
        {"hopping", "hop"},     {"falling", "fall"},    {"filing", "file"},
        {"happy", "happi"},     {"relational", "relat"}, {"generalization", "gener"},
        {"hopeful", "hope"},    {"goodness", "good"},   {"adjustment", "adjust"},
        {"probate", "probat"},  {"controll", "control"}, {"is", "is"},
    };
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        char w[64];
        strcpy(w, pairs[i][0]);
        size_t n = lt__porter_stem(w, strlen(w));
        w[n] = '\0';
        if (strcmp(w, pairs[i][1]) != 0) {
            print_error("stem(%s) = %s, expected %s\n", pairs[i][0], w,
                        pairs[i][1]);
            fail();
        }
    }
}

/*** CodeBLEU ***/

static void test_bleu(void **state)
{
    (void)state;
    /* [x = a + b] vs [x = b + a], 5 tokens each, bp = 1.
     * p1 = 5/5; p2: (x =) only, 1/4; p3: none of 3, smoothed 0.1/3;
     * p4: none of 2, 0.1/2.  BLEU = (1 * 1/4 * 0.1/3 * 0.05)^(1/4)
     * = 0.000416667^(1/4) = 0.142872.  No keywords: every weight 0.2,
     * weighted p1 = (5 * 0.2) / max(1, 5 * 0.2) = 1 and the recall-based
     * p2..p4 equal the precisions here, so weighted = BLEU. */
    struct lt_sim_result r = py("x = a + b", "x = b + a");
    double b = pow(1.0 * 0.25 * (0.1 / 3) * 0.05, 0.25);
    NEAR(r.bleu, b);
    NEAR(r.weighted_bleu, b);
    /* [return a < b] vs [return a >= b]: BLEU p1 = 3/4, p2 = 1/3,
     * p3 = 0.1/2, p4 = 0.1/1, bp = 1: (0.75/3 * 0.005)^(1/4) = 0.188030.
     * Weighted: "return" weighs 1, the rest 0.2; p1 = (1 + 0.2 + 0.2) /
     * (1 + 0.2 * 3) = 0.875, p2 = 1/3, p3 = 0.1/2, p4 = 0.1/1, and the
     * reference's brevity penalty compares with length 2: 1.
     * (0.875/3 * 0.005)^(1/4) = 0.195418. */
    r = py("return a < b", "return a >= b");
    NEAR(r.bleu, pow(0.75 / 3 * 0.005, 0.25));
    NEAR(r.weighted_bleu, pow(0.875 / 3 * 0.005, 0.25));
    /* Empty candidate: 0. */
    r = py("", "x = 1");
    NEAR(r.bleu, 0.0);
    NEAR(r.weighted_bleu, 0.0);
}

static void test_codebleu(void **state)
{
    (void)state;
    /* cand [x = 1], ref [x = 1 y = 2].
     * BLEU: p1 = 3/3, p2 = 2/2, p3 = 1/1, p4 = 0.1/1 (no 4-gram: the
     * denominator is max(1, 0)); bp = exp(1 - 6/3) = e^-1:
     * 0.367879 * 0.1^(1/4) = 0.206873.
     * Weighted (recall over the reference): p1 = 3 * 0.2 / (6 * 0.2) =
     * 0.5 (the second "=" finds no unused candidate "="), p2 = 2/5,
     * p3 = 1/4, p4 = 0.1/3; bp = 1 (3 > 2): (0.5 * 0.4 * 0.25 * 0.1/3)^(1/4)
     * = 0.202052.
     * Syntax: reference subtrees with children: module, 2 x
     * expression_statement, 2 x assignment (identical s-expressions:
     * (assignment left: (identifier) right: (integer))); all but module
     * occur in the candidate: 4/5.
     * Data flow: ref edges x <- 1 (computedFrom), 1 (comesFrom), y <- 2,
     * 2; renamed (var_1 cF [var_0]), (var_0 cF []), (var_3 cF [var_2]),
     * (var_2 cF []); the candidate has the first two: 2/4.
     * CodeBLEU = (0.206873 + 0.202052 + 0.8 + 0.5) / 4 = 0.427231. */
    struct lt_sim_result r = py("x = 1", "x = 1\ny = 2");
    double bleu = exp(-1.0) * pow(0.1, 0.25);
    double wb = pow(0.5 * 0.4 * 0.25 * (0.1 / 3), 0.25);
    NEAR(r.bleu, bleu);
    NEAR(r.weighted_bleu, wb);
    NEAR(r.syntax_match, 0.8);
    NEAR(r.dataflow_match, 0.5);
    assert_int_equal(r.dataflow_ref_edges, 4);
    NEAR(r.codebleu, (bleu + wb + 0.8 + 0.5) / 4);
    /* CTSES from the same numbers: METEOR 0.263157895 and ROUGE-L 2/3
     * (test_meteor, test_rouge_l). */
    double c = r.codebleu, m = 0.5 * 0.5 / 0.95, l = 2.0 / 3.0;
    NEAR(r.ctses1, 0.5 * c + 0.3 * m + 0.2 * l);
    NEAR(r.ctses2, 0.4 * c + 0.3 * m + 0.3 * l);
    NEAR(r.ctses_uniform, (c + m + l) / 3);
    assert_false(r.ctses1_accepted); /* 0.427231*0.5 + ... = 0.425 */
    /* Identical texts: every part 1, CTSES accepted. */
    r = py("def f(a):\n    b = a + 1\n    return b\n",
           "def f(a):\n    b = a + 1\n    return b\n");
    NEAR(r.bleu, 1.0);
    NEAR(r.weighted_bleu, 1.0);
    NEAR(r.syntax_match, 1.0);
    NEAR(r.dataflow_match, 1.0);
    NEAR(r.codebleu, 1.0);
    assert_true(r.ctses1_accepted && r.ctses2_accepted &&
                r.ctses_uniform_accepted);
    /* Empty pair: no tokens (BLEU parts 0), one subtree each ((module)):
     * syntax 1, no reference edges: data flow counted 1.  CodeBLEU = 0.5. */
    r = py("", "");
    NEAR(r.bleu, 0.0);
    NEAR(r.syntax_match, 1.0);
    NEAR(r.dataflow_match, 0.0);
    assert_int_equal(r.dataflow_ref_edges, 0);
    NEAR(r.codebleu, 0.5);
    NEAR(r.levenshtein, 1.0);
    NEAR(r.tree_edit, 1.0);
}

static void test_codebleu_options(void **state)
{
    (void)state;
    /* Weights 1,0,0,0 leave plain BLEU; compat mode turns the zero data
     * flow of [a = 1] vs [b = c] ... into 1. */
    struct lt_sim_options o;
    lt_sim_options_init(&o);
    o.metrics = LT_SIM_M_CODEBLEU;
    o.codebleu_weights[0] = 1;
    o.codebleu_weights[1] = o.codebleu_weights[2] = o.codebleu_weights[3] = 0;
    struct lt_sim *s;
    assert_int_equal(lt_sim_new(&o, &s), 0);
    const char *refs[1] = {"x = b + a"};
    size_t rl[1] = {9};
    struct lt_sim_result r;
    assert_int_equal(lt_sim_compare(s, "x = a + b", 9, refs, rl, 1, &r), 0);
    NEAR(r.codebleu, r.bleu);
    lt_sim_free(s);

    /* [x = 1] vs [x = y]: reference edges x <- y and y; the candidate's
     * x <- 1 renames to (var_1 cF [var_0]) too, and 1 to (var_0 cF []):
     * renaming makes them match: 2/2. */
    struct lt_sim_result q = py("x = 1", "x = y");
    NEAR(q.dataflow_match, 1.0);
    /* [print(a)] vs [x = y]: no candidate edge, 0/2; counted as 0 by
     * default, as 1 in compat mode. */
    q = py("print(a)", "x = y");
    NEAR(q.dataflow_match, 0.0);
    o.codebleu_weights[0] = o.codebleu_weights[1] = 0;
    o.codebleu_weights[2] = 0;
    o.codebleu_weights[3] = 1;
    assert_int_equal(lt_sim_new(&o, &s), 0);
    const char *refs2[1] = {"x = y"};
    size_t rl2[1] = {5};
    assert_int_equal(lt_sim_compare(s, "print(a)", 8, refs2, rl2, 1, &r), 0);
    NEAR(r.codebleu, 0.0);
    lt_sim_free(s);
    o.dataflow_compat = true;
    assert_int_equal(lt_sim_new(&o, &s), 0);
    assert_int_equal(lt_sim_compare(s, "print(a)", 8, refs2, rl2, 1, &r), 0);
    NEAR(r.codebleu, 1.0);
    lt_sim_free(s);
}

/*** Levenshtein and tree edit ***/

static void test_levenshtein(void **state)
{
    (void)state;
    /* [x = a + b] vs [x = b + a]: two substitutions: 1 - 2/5. */
    struct lt_sim_result r = py("x = a + b", "x = b + a");
    assert_int_equal(r.levenshtein_distance, 2);
    NEAR(r.levenshtein, 0.6);
    /* [a < b] vs [a >= b]: one substitution: 1 - 1/3. */
    NEAR(lt_sim_token_levenshtein("a < b", 5, "a >= b", 6, LT_SIM_PYTHON),
         2.0 / 3.0);
    NEAR(lt_sim_token_levenshtein("", 0, "", 0, LT_SIM_PYTHON), 1.0);
    NEAR(lt_sim_token_levenshtein("", 0, "x y", 3, LT_SIM_PYTHON), 0.0);
    NEAR(lt_sim_token_levenshtein("a < b;", 6, "a < b;", 6, LT_SIM_JAVA), 1.0);
    NEAR(lt_sim_token_levenshtein("a < b;", 6, "a >= b;", 7, LT_SIM_JAVA),
         0.75);
}

static void test_tree_edit(void **state)
{
    (void)state;
    /* module(expression_statement(comparison_operator "<"(identifier:a,
     * identifier:b))): 5 named nodes each; only the comparison's label
     * differs ("comparison_operator <" vs "comparison_operator >="):
     * d = 1, 1 - 1/5. */
    NEAR(lt_sim_tree_edit("a < b", 5, "a >= b", 6, LT_SIM_PYTHON), 0.8);
    /* module(expression_statement(assignment "="(identifier:x,
     * integer:1))) has 5 nodes; with "y = 2" added, 9: four insertions,
     * 1 - 4/9. */
    struct lt_sim_result r = py("x = 1", "x = 1\ny = 2");
    assert_int_equal(r.tree_edit_distance, 4);
    NEAR(r.tree_edit, 1.0 - 4.0 / 9.0);
    /* Renaming one identifier is one relabel: 1 - 1/5. */
    NEAR(lt_sim_tree_edit("x = 1", 5, "z = 1", 5, LT_SIM_PYTHON), 0.8);
    /* Comments are not nodes. */
    NEAR(lt_sim_tree_edit("x = 1 # c", 9, "x = 1", 5, LT_SIM_PYTHON), 1.0);
    NEAR(lt_sim_tree_edit("", 0, "", 0, LT_SIM_PYTHON), 1.0);
    /* Java: program(expression_statement(binary_expression "<"(a, b)))
     * ... the operator again is one relabel out of 5. */
    NEAR(lt_sim_tree_edit("a < b;", 6, "a >= b;", 7, LT_SIM_JAVA), 0.8);
}

/* Operator-only differences must show under code tokens in every token
 * metric, and vanish under the word tokenizer. */
static void test_operator_only(void **state)
{
    (void)state;
    struct lt_sim_result c = py("if a < b:\n    x = 1\n", "if a >= b:\n    x = 1\n");
    struct lt_sim_result w = cmp("if a < b:\n    x = 1\n",
                                 "if a >= b:\n    x = 1\n", LT_SIM_PYTHON,
                                 LT_SIM_TOKENS_WORDS);
    assert_true(c.bleu < 1.0);
    assert_true(c.meteor < w.meteor);
    assert_true(c.rouge_l_f < 1.0);
    assert_true(c.levenshtein < 1.0);
    assert_true(c.tree_edit < 1.0);
    NEAR(w.rouge_l_f, 1.0);
    NEAR(w.levenshtein, 1.0);
    struct lt_sim_result j = cmp("if (a < b) { x = 1; }", "if (a >= b) { x = 1; }",
                                 LT_SIM_JAVA, LT_SIM_TOKENS_CODE);
    assert_true(j.rouge_l_f < 1.0 && j.levenshtein < 1.0);
}

/*** Bit-parallel kernels against plain dynamic programming ***/

static size_t dp_lcs(const uint32_t *a, size_t an, const uint32_t *b, size_t bn)
{
    size_t *row = calloc(bn + 1, sizeof(size_t));
    for (size_t i = 1; i <= an; i++) {
        size_t diag = 0;
        for (size_t j = 1; j <= bn; j++) {
            size_t up = row[j];
            row[j] = a[i - 1] == b[j - 1] ? diag + 1
                                          : (row[j] > row[j - 1] ? row[j] : row[j - 1]);
            diag = up;
        }
    }
    size_t v = row[bn];
    free(row);
    return v;
}

static size_t dp_lev(const uint32_t *a, size_t an, const uint32_t *b, size_t bn)
{
    size_t *row = malloc((bn + 1) * sizeof(size_t));
    for (size_t j = 0; j <= bn; j++)
        row[j] = j;
    for (size_t i = 1; i <= an; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= bn; j++) {
            size_t up = row[j];
            size_t v = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < v)
                v = up + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            row[j] = v;
            diag = up;
        }
    }
    size_t v = row[bn];
    free(row);
    return v;
}

static void test_kernels(void **state)
{
    (void)state;
    struct lt__scratch sc = {0};
    uint32_t a[400], b[400];
    unsigned seed = 12345;
    for (int round = 0; round < 200; round++) {
        size_t an = (size_t)(rand_r(&seed) % 300), bn = (size_t)(rand_r(&seed) % 300);
        unsigned alpha = 2 + (unsigned)rand_r(&seed) % 20;
        for (size_t i = 0; i < an; i++)
            a[i] = (uint32_t)rand_r(&seed) % alpha;
        for (size_t i = 0; i < bn; i++)
            b[i] = (uint32_t)rand_r(&seed) % alpha;
        size_t l1 = lt__lcs(&sc, 32, a, an, b, bn), l2 = dp_lcs(a, an, b, bn);
        size_t d1 = lt__levenshtein(&sc, 32, a, an, b, bn);
        size_t d2 = dp_lev(a, an, b, bn);
        if (l1 != l2 || d1 != d2) {
            print_error("round %d (%zu x %zu): lcs %zu vs %zu, lev %zu vs %zu\n",
                        round, an, bn, l1, l2, d1, d2);
            fail();
        }
    }
    /* Near-identical sequences (the common prefix and suffix are
     * trimmed before the bit-parallel pass), including identical ones
     * and edits at either end. */
    for (int round = 0; round < 400; round++) {
        size_t an = (size_t)(rand_r(&seed) % 390);
        unsigned alpha = 2 + (unsigned)rand_r(&seed) % 30;
        for (size_t i = 0; i < an; i++)
            a[i] = (uint32_t)rand_r(&seed) % alpha;
        size_t bn = an;
        memcpy(b, a, an * sizeof(uint32_t));
        unsigned edits = (unsigned)rand_r(&seed) % 6;
        for (unsigned e = 0; e < edits; e++) {
            size_t at = bn ? (size_t)rand_r(&seed) % bn : 0;
            if (round % 7 == 0)
                at = e % 2 ? 0 : (bn ? bn - 1 : 0); /* at the ends */
            switch (rand_r(&seed) % 3) {
            case 0:
                if (bn)
                    b[at] = (uint32_t)rand_r(&seed) % alpha;
                break;
            case 1:
                if (bn) {
                    memmove(b + at, b + at + 1, (bn - at - 1) * 4);
                    bn--;
                }
                break;
            default:
                if (bn < 399) {
                    memmove(b + at + 1, b + at, (bn - at) * 4);
                    b[at] = (uint32_t)rand_r(&seed) % alpha;
                    bn++;
                }
                break;
            }
        }
        size_t l1 = lt__lcs(&sc, 32, a, an, b, bn), l2 = dp_lcs(a, an, b, bn);
        size_t d1 = lt__levenshtein(&sc, 32, a, an, b, bn);
        size_t d2 = dp_lev(a, an, b, bn);
        if (l1 != l2 || d1 != d2) {
            print_error("near round %d (%zu x %zu): lcs %zu vs %zu, lev %zu "
                        "vs %zu\n", round, an, bn, l1, l2, d1, d2);
            fail();
        }
    }
    /* Distances around the cut-over from the banded pass (32) to the
     * bit-parallel one. */
    for (int round = 0; round < 300; round++) {
        size_t an = 100 + (size_t)(rand_r(&seed) % 290);
        for (size_t i = 0; i < an; i++)
            a[i] = (uint32_t)rand_r(&seed) % 25;
        size_t bn = an;
        memcpy(b, a, an * sizeof(uint32_t));
        unsigned edits = 20 + (unsigned)rand_r(&seed) % 25;
        for (unsigned e = 0; e < edits && bn > 0 && bn < 399; e++) {
            size_t at = (size_t)rand_r(&seed) % bn;
            if (rand_r(&seed) % 2) {
                b[at] = (uint32_t)rand_r(&seed) % 25;
            } else if (rand_r(&seed) % 2) {
                memmove(b + at, b + at + 1, (bn - at - 1) * 4);
                bn--;
            } else {
                memmove(b + at + 1, b + at, (bn - at) * 4);
                b[at] = 7;
                bn++;
            }
        }
        size_t d1 = lt__levenshtein(&sc, 32, a, an, b, bn);
        size_t d2 = dp_lev(a, an, b, bn);
        if (d1 != d2) {
            print_error("band round %d (%zu x %zu): lev %zu vs %zu\n", round,
                        an, bn, d1, d2);
            fail();
        }
    }
    lt__scratch_free(&sc);
}

/*** BLEU and the weighted n-gram match against plain counting ***/

/* Occurrences of the n-gram at p in s[0..sn). */
static size_t occurrences(const uint32_t *s, size_t sn, const uint32_t *p,
                          unsigned n)
{
    size_t k = 0;
    for (size_t i = 0; i + n <= sn; i++)
        if (memcmp(s + i, p, n * sizeof(uint32_t)) == 0)
            k++;
    return k;
}

/* NLTK's corpus_bleu and the reference weighted_ngram_match on one
 * candidate, by counting every n-gram the slow way; the keyword test is
 * "id < 3".  The arithmetic is the same as the library's, in the same
 * order, so the results must be equal bit for bit. */
static void slow_scores(const struct lt__toks *hyp, const struct lt__toks *refs,
                        size_t nrefs, double *bleu, double *weighted)
{
    double bnum[5] = {0}, bden[5] = {0}, wnum[5] = {0}, wden[5] = {0};
    size_t c = hyp->n;
    for (unsigned n = 1; n <= 4; n++) {
        size_t hn = c >= n ? c - n + 1 : 0;
        size_t clipped = 0;
        for (size_t i = 0; i < hn; i++) {
            const uint32_t *g = hyp->v + i;
            /* count each distinct n-gram once: at its first occurrence */
            if (occurrences(hyp->v, i + n - 1, g, n))
                continue;
            size_t hc = occurrences(hyp->v, c, g, n), mx = 0;
            for (size_t r = 0; r < nrefs; r++) {
                size_t rc = occurrences(refs[r].v, refs[r].n, g, n);
                if (rc > mx)
                    mx = rc;
            }
            clipped += hc < mx ? hc : mx;
        }
        bnum[n] = (double)clipped;
        bden[n] = hn > 0 ? (double)hn : 1.0;
        for (size_t r = 0; r < nrefs; r++) {
            size_t rn = refs[r].n >= n ? refs[r].n - n + 1 : 0;
            double rnum = 0, rden = 0;
            for (size_t i = 0; i < rn; i++) {
                const uint32_t *g = refs[r].v + i;
                double w = n == 1 ? (g[0] < 3 ? 1.0 : 0.2) : 1.0;
                rden += w;
                /* the first min(count in hyp) occurrences count */
                size_t before = occurrences(refs[r].v, i + n - 1, g, n);
                if (before < occurrences(hyp->v, c, g, n))
                    rnum += w;
            }
            wnum[n] += rnum;
            wden[n] += rden > 1.0 ? rden : 1.0;
        }
    }
    size_t best = refs[0].n;
    for (size_t r = 1; r < nrefs; r++) {
        size_t rl = refs[r].n;
        size_t d1 = rl > c ? rl - c : c - rl, d0 = best > c ? best - c : c - best;
        if (d1 < d0 || (d1 == d0 && rl < best))
            best = rl;
    }
    double bp[2] = {(double)best, 2.0}, *num[2] = {bnum, wnum};
    double *den[2] = {bden, wden}, out[2];
    for (int k = 0; k < 2; k++) {
        double b = c > bp[k] ? 1.0 : c == 0 ? 0.0 : exp(1.0 - bp[k] / (double)c);
        double sum = 0;
        for (unsigned n = 1; n <= 4; n++) {
            double p = num[k][n] == 0 ? 0.1 / den[k][n] : num[k][n] / den[k][n];
            sum += 0.25 * log(p);
        }
        out[k] = num[k][1] == 0 ? 0.0 : b * exp(sum);
    }
    *bleu = out[0];
    *weighted = out[1];
}

static void test_ngram_scores(void **state)
{
    (void)state;
    /* Token ids are interned strings; ids 0..2 are Python keywords. */
    struct lt__dict *d = lt__dict_new();
    static const char *const words[] = {"if", "for", "while", "x", "y", "z",
                                        "+", "(", ")", "1", "2", "f"};
    for (size_t i = 0; i < 12; i++)
        assert_int_equal(lt__dict_intern(d, words[i], strlen(words[i])), i);
    struct lt__scratch sc = {0};
    unsigned seed = 777;
    uint32_t buf[4][200];
    for (int round = 0; round < 300; round++) {
        size_t nrefs = 1 + (size_t)rand_r(&seed) % 3;
        struct lt__toks hyp = {buf[0], (size_t)rand_r(&seed) % 120, 200};
        struct lt__toks refs[3];
        unsigned alpha = 2 + (unsigned)rand_r(&seed) % 10;
        for (size_t i = 0; i < hyp.n; i++)
            buf[0][i] = (uint32_t)rand_r(&seed) % alpha;
        for (size_t r = 0; r < nrefs; r++) {
            refs[r] = (struct lt__toks){buf[r + 1], (size_t)rand_r(&seed) % 120,
                                        200};
            if (round % 3 == 0 && refs[r].n <= hyp.n) /* a near copy */
                memcpy(buf[r + 1], buf[0], refs[r].n * sizeof(uint32_t));
            else
                for (size_t i = 0; i < refs[r].n; i++)
                    buf[r + 1][i] = (uint32_t)rand_r(&seed) % alpha;
            if (refs[r].n)
                buf[r + 1][rand_r(&seed) % refs[r].n] = (uint32_t)rand_r(&seed) % 12;
        }
        const struct lt__toks *rp[3] = {&refs[0], &refs[1], &refs[2]};
        double b1, w1, b2, w2;
        lt__ngram_scores(&sc, d, LT_SIM_PYTHON, &hyp, rp, nrefs, &b1, &w1);
        slow_scores(&hyp, refs, nrefs, &b2, &w2);
        if (b1 != b2 || w1 != w2) {
            print_error("round %d: bleu %.17g vs %.17g, weighted %.17g vs "
                        "%.17g\n", round, b1, b2, w1, w2);
            fail();
        }
    }
    lt__scratch_free(&sc);
    lt__dict_free(d);
}

/*** Banded Zhang-Shasha against the plain algorithm ***/

/* A tree as (label, depth) in pre-order; valid when depth[0] = 0 and
 * 1 <= depth[i] <= depth[i-1] + 1 after the first node. */
struct rtree {
    uint32_t lab[512], dep[512];
    size_t n;
};

static void rtree_repair(struct rtree *t)
{
    t->dep[0] = 0;
    for (size_t i = 1; i < t->n; i++) {
        if (t->dep[i] < 1)
            t->dep[i] = 1;
        if (t->dep[i] > t->dep[i - 1] + 1)
            t->dep[i] = t->dep[i - 1] + 1;
    }
}

/* Post-order labels and leftmost leaves (post-order indices). */
static void rtree_post(const struct rtree *t, uint32_t *lab, uint32_t *lml)
{
    uint32_t stack[512], first[512];
    size_t top = 0, post = 0;
    for (size_t i = 0; i <= t->n; i++) {
        uint32_t d = i < t->n ? t->dep[i] : 0;
        /* close every open node at depth >= d */
        while (top && (i == t->n || t->dep[stack[top - 1]] >= d)) {
            uint32_t v = stack[--top];
            lab[post] = t->lab[v];
            lml[post] = first[v];
            post++;
        }
        if (i < t->n) {
            stack[top++] = (uint32_t)i;
            first[i] = (uint32_t)post; /* its leftmost leaf comes next */
        }
    }
}

static void rtree_mutate(struct rtree *t, unsigned *seed, unsigned edits,
                         unsigned alpha)
{
    for (unsigned e = 0; e < edits; e++) {
        size_t i = (size_t)rand_r(seed) % t->n;
        switch (rand_r(seed) % 3) {
        case 0:
            t->lab[i] = (uint32_t)rand_r(seed) % alpha;
            break;
        case 1: /* delete: its descendants move up a level */
            if (i == 0 || t->n < 2)
                break;
            for (size_t q = i + 1; q < t->n && t->dep[q] > t->dep[i]; q++)
                t->dep[q]--;
            memmove(t->lab + i, t->lab + i + 1, (t->n - i - 1) * 4);
            memmove(t->dep + i, t->dep + i + 1, (t->n - i - 1) * 4);
            t->n--;
            break;
        default: /* insert before node i (i > 0) */
            if (i == 0 || t->n >= 500)
                break;
            memmove(t->lab + i + 1, t->lab + i, (t->n - i) * 4);
            memmove(t->dep + i + 1, t->dep + i, (t->n - i) * 4);
            t->lab[i] = (uint32_t)rand_r(seed) % alpha;
            t->dep[i] = 1 + (uint32_t)rand_r(seed) % (t->dep[i - 1] + 1);
            t->n++;
            break;
        }
    }
    rtree_repair(t);
}

static void test_tree_edit_banded(void **state)
{
    (void)state;
    unsigned seed = 4242;
    static struct rtree a, b;
    static uint32_t la[512], ma[512], lb[512], mb[512];
    for (int round = 0; round < 1000; round++) {
        unsigned alpha = 2 + (unsigned)rand_r(&seed) % 12;
        a.n = 1 + (size_t)rand_r(&seed) % (round % 4 == 0 ? 400 : 60);
        for (size_t i = 0; i < a.n; i++) {
            a.lab[i] = (uint32_t)rand_r(&seed) % alpha;
            a.dep[i] = (uint32_t)rand_r(&seed) % 8;
        }
        rtree_repair(&a);
        if (round % 5 == 4) { /* unrelated trees */
            b.n = 1 + (size_t)rand_r(&seed) % 60;
            for (size_t i = 0; i < b.n; i++) {
                b.lab[i] = (uint32_t)rand_r(&seed) % alpha;
                b.dep[i] = (uint32_t)rand_r(&seed) % 8;
            }
            rtree_repair(&b);
        } else if (round % 5 == 3) { /* the same shape, relabelled */
            if (round % 15 == 3) {
                /* a row of leaves, rotated by one: relabelling all costs
                 * n - 1, deleting one end and inserting it at the other 2 */
                for (size_t i = 1; i < a.n; i++)
                    a.dep[i] = 1 + (uint32_t)(i % 7 == 0);
                rtree_repair(&a);
            }
            b = a;
            if (round % 15 == 3)
                for (size_t i = 1; i + 1 < b.n; i++)
                    b.lab[i] = a.lab[i + 1];
            unsigned edits = (unsigned)rand_r(&seed) % 8;
            for (unsigned e = 0; e < edits; e++)
                b.lab[rand_r(&seed) % b.n] = (uint32_t)rand_r(&seed) % alpha;
            if (round % 10 == 3 && b.n > 3) { /* swap two labels */
                uint32_t t = b.lab[1];
                b.lab[1] = b.lab[b.n - 1];
                b.lab[b.n - 1] = t;
            }
        } else { /* a few edits away */
            b = a;
            rtree_mutate(&b, &seed, (unsigned)rand_r(&seed) % 12, alpha);
        }
        rtree_post(&a, la, ma);
        rtree_post(&b, lb, mb);
        size_t fast = lt__ted_arrays(la, ma, a.n, lb, mb, b.n, false);
        size_t ref = lt__ted_arrays(la, ma, a.n, lb, mb, b.n, true);
        if (fast != ref) {
            print_error("round %d (%zu x %zu nodes): banded %zu, plain %zu\n",
                        round, a.n, b.n, fast, ref);
            fail();
        }
        /* The band itself: exact from k = d on, never below d. */
        size_t ks[] = {1, ref / 2, ref > 0 ? ref - 1 : 0, ref, ref + 1,
                       2 * ref + 3};
        for (size_t q = 0; q < sizeof(ks) / sizeof(ks[0]); q++) {
            size_t k = ks[q] < 1 ? 1 : ks[q];
            if (round % 4 == 0 && k > 60)
                continue; /* the large trees: keep the test quick */
            size_t band = lt__ted_band(la, ma, a.n, lb, mb, b.n, k);
            if (band < ref || (k >= ref && band != ref)) {
                print_error("round %d (%zu x %zu nodes): band %zu gives %zu, "
                            "distance %zu\n", round, a.n, b.n, k, band, ref);
                fail();
            }
        }
    }
}

/*** Syntax match against tree-sitter's own s-expressions ***/

struct sexps {
    char **v;
    size_t n, cap;
};

/* The reference's get_all_sub_trees: the root and every node with
 * children, as ts_node_string() (py-tree-sitter's sexp()). */
static void all_sexps(TSNode root, struct sexps *out)
{
    TSNode stack[4096];
    size_t top = 0;
    stack[top++] = root;
    while (top) {
        TSNode n = stack[--top];
        if (out->n == out->cap) {
            out->cap = out->cap ? out->cap * 2 : 64;
            out->v = realloc(out->v, out->cap * sizeof(char *));
        }
        out->v[out->n++] = ts_node_string(n);
        uint32_t k = ts_node_child_count(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_child(n, i);
            if (ts_node_child_count(c) > 0 && top < 4096)
                stack[top++] = c;
        }
    }
}

static double reference_syntax(const TSLanguage *lang, const char *cand,
                               const char *ref)
{
    TSParser *p = ts_parser_new();
    ts_parser_set_language(p, lang);
    TSTree *tc = ts_parser_parse_string(p, NULL, cand, (uint32_t)strlen(cand));
    TSTree *tr = ts_parser_parse_string(p, NULL, ref, (uint32_t)strlen(ref));
    struct sexps c = {0}, r = {0};
    all_sexps(ts_tree_root_node(tc), &c);
    all_sexps(ts_tree_root_node(tr), &r);
    size_t m = 0;
    for (size_t i = 0; i < r.n; i++)
        for (size_t j = 0; j < c.n; j++)
            if (strcmp(r.v[i], c.v[j]) == 0) {
                m++;
                break;
            }
    double score = (double)m / (double)r.n;
    for (size_t i = 0; i < c.n; i++)
        free(c.v[i]);
    for (size_t i = 0; i < r.n; i++)
        free(r.v[i]);
    free(c.v);
    free(r.v);
    ts_tree_delete(tc);
    ts_tree_delete(tr);
    ts_parser_delete(p);
    return score;
}

static void test_syntax_vs_tree_sitter(void **state)
{
    (void)state;
    /* Comment- and docstring-free code, so both sides parse the same
     * text; includes syntax errors (ERROR and MISSING nodes). */
    static const char *const pys[] = {
        "def f(a, b=2):\n    return [x * 2 for x in a if x > b]\n",
        "def f(a, b=3):\n    return [x + 2 for x in a if x >= b]\n",
        "class C(B):\n    def m(self, *args, **kw):\n        "
        "self.x: int = kw.get('x', 0)\n        "
        "with open(p) as fh, lock:\n            yield from fh\n",
        "for i, j in enumerate(xs):\n    if i % 2 == 0 and not j:\n"
        "        continue\n    elif j is None:\n        break\n"
        "    else:\n        total += i ** 2\nprint(f\"{total!r:>10}\")\n",
        ("try:\n    x = d[k]\nexcept (KeyError, IndexError) as e:\n"
         "    raise ValueError(e) from None\nfinally:\n    lambda q: q\n"),
        "x = (1 +\n", "def g(:\n    pass\n", "while x < 10:\n    x += 1\n",
        "a, b = b, a\nz = a if b else -a\nw = {k: v for k, v in d.items()}\n",
    };
    for (size_t i = 0; i < sizeof(pys) / sizeof(pys[0]); i++)
        for (size_t j = 0; j < sizeof(pys) / sizeof(pys[0]); j++) {
            double want = reference_syntax(tree_sitter_python(), pys[i], pys[j]);
            struct lt_sim_result r = py(pys[i], pys[j]);
            if (fabs(r.syntax_match - want) > 1e-12) {
                print_error("python %zu vs %zu: %.6f, tree-sitter strings "
                            "give %.6f\n", i, j, r.syntax_match, want);
                fail();
            }
        }
    static const char *const javas[] = {
        "class A { int f(int a) { int b = a + 1; return b; } }",
        "class A { int f(int a) { int b = a - 1; return b * 2; } }",
        ("class T { @Test void t() { List<String> xs = new ArrayList<>();"
         " for (String s : xs) { if (s == null) continue; "
         "assertEquals(1, s.length()); } } }"),
        "class B extends A implements I { B() { super(); this.x = y >>> 2; } }",
        "class C { void m() { int[] a = {1, 2}; a[0]++; x = a.length > 0 ? 1 : 2; }",
    };
    for (size_t i = 0; i < sizeof(javas) / sizeof(javas[0]); i++)
        for (size_t j = 0; j < sizeof(javas) / sizeof(javas[0]); j++) {
            double want = reference_syntax(tree_sitter_java(), javas[i], javas[j]);
            struct lt_sim_result r = cmp(javas[i], javas[j], LT_SIM_JAVA,
                                         LT_SIM_TOKENS_CODE);
            if (fabs(r.syntax_match - want) > 1e-12) {
                print_error("java %zu vs %zu: %.6f, tree-sitter strings give "
                            "%.6f\n", i, j, r.syntax_match, want);
                fail();
            }
        }
}

/* Java data flow on a pair worked by hand.  Reference tokens: class A {
 * void m ( ) { int x = 1 ; x = x + 2 ; } } with idx 0..20 (x at 9, 1 at 11,
 * x at 13 and 15, 2 at 17).  Entries: 1(11) comesFrom []; x(9) comesFrom
 * [1] (variable_declarator); x(15) comesFrom [x] (x's state is 9);
 * 2(17) comesFrom []; x(13) computedFrom [x] and computedFrom [2] (one per
 * value token), merged by idx into x(13) computedFrom [x, 2].  A, void
 * and m have no parents and are nobody's parent: dropped.  Renamed in idx
 * order: (var_1 comesFrom [var_0]), (var_0 comesFrom []), (var_1
 * computedFrom [var_1, var_2]), (var_1 comesFrom [var_1]), (var_2
 * comesFrom []): five edges.  The candidate `int x = 1;` has the first
 * two: 2/5. */
static void test_java_dataflow(void **state)
{
    (void)state;
    struct lt_sim_result r = cmp("class A { void m() { int x = 1; } }",
                                 "class A { void m() { int x = 1; x = x + 2; } }",
                                 LT_SIM_JAVA, LT_SIM_TOKENS_CODE);
    assert_int_equal(r.dataflow_ref_edges, 5);
    NEAR(r.dataflow_match, 0.4);
}

/*** The text cache: results do not depend on what was compared before ***/

static void same_result(const struct lt_sim_result *a,
                        const struct lt_sim_result *b, const char *what)
{
    /* every field, bit for bit (the struct has no padding-sensitive
     * fields that memcmp could trip on except the bools' padding, so
     * compare field by field through a checksum of the doubles) */
    const double x[] = {a->bleu, a->weighted_bleu, a->syntax_match,
                        a->dataflow_match, a->codebleu, a->meteor,
                        a->meteor_p, a->meteor_r, a->meteor_fmean,
                        a->rouge_l_p, a->rouge_l_r, a->rouge_l_f, a->ctses1,
                        a->ctses2, a->ctses_uniform, a->levenshtein,
                        a->tree_edit};
    const double y[] = {b->bleu, b->weighted_bleu, b->syntax_match,
                        b->dataflow_match, b->codebleu, b->meteor,
                        b->meteor_p, b->meteor_r, b->meteor_fmean,
                        b->rouge_l_p, b->rouge_l_r, b->rouge_l_f, b->ctses1,
                        b->ctses2, b->ctses_uniform, b->levenshtein,
                        b->tree_edit};
    for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
        if (memcmp(&x[i], &y[i], sizeof(double)) != 0) {
            print_error("%s: field %zu: %.17g vs %.17g\n", what, i, x[i], y[i]);
            fail();
        }
    assert_int_equal(a->computed, b->computed);
    assert_int_equal(a->dataflow_ref_edges, b->dataflow_ref_edges);
    assert_int_equal(a->levenshtein_distance, b->levenshtein_distance);
    assert_int_equal(a->tree_edit_distance, b->tree_edit_distance);
    assert_int_equal(a->cand_tokens, b->cand_tokens);
    assert_int_equal(a->ref_tokens, b->ref_tokens);
}

static void test_text_cache(void **state)
{
    (void)state;
    /* 12 texts (more than the cache holds), compared in a long shared
     * context in an order with repeats, with several references (also
     * more than the cache), and each time in a fresh context. */
    enum { N = 12 };
    char *t[N];
    for (int i = 0; i < N; i++) {
        char buf[512];
        snprintf(buf, sizeof(buf),
                 "def f%d(a, b=%d):\n    x = a %s b\n    for i in range(%d):\n"
                 "        if i %% 2 == %d:\n            x += i\n        else:\n"
                 "            x = max(x, b)\n    return [y * 2 for y in a if y > x]\n",
                 i % 3, i, i % 2 ? "+" : "-", i % 4, i % 2);
        t[i] = strdup(buf);
    }
    struct lt_sim_options o;
    lt_sim_options_init(&o);
    struct lt_sim *shared = NULL;
    assert_int_equal(lt_sim_new(&o, &shared), 0);
    unsigned seed = 99;
    for (int round = 0; round < 60; round++) {
        size_t nrefs = round % 10 == 9 ? 11 : 1 + (size_t)rand_r(&seed) % 3;
        const char *refs[11];
        size_t rl[11];
        const char *cand = t[rand_r(&seed) % N];
        for (size_t r = 0; r < nrefs; r++) {
            refs[r] = round % 4 == 0 && r == 0 ? cand : t[rand_r(&seed) % N];
            rl[r] = strlen(refs[r]);
        }
        struct lt_sim_result a, b;
        assert_int_equal(lt_sim_compare(shared, cand, strlen(cand), refs, rl,
                                        nrefs, &a), 0);
        struct lt_sim *fresh = NULL;
        assert_int_equal(lt_sim_new(&o, &fresh), 0);
        assert_int_equal(lt_sim_compare(fresh, cand, strlen(cand), refs, rl,
                                        nrefs, &b), 0);
        lt_sim_free(fresh);
        same_result(&a, &b, "shared vs fresh context");
    }
    lt_sim_free(shared);
    for (int i = 0; i < N; i++)
        free(t[i]);
}


/*** Incremental parsing ***/

/* A generated program of nf functions (Python, or a Java class), fixed
 * by seed. */
static char *gen_program(unsigned seed, int nf, bool java)
{
    static const char *const nm[] = {"total", "count", "items", "acc",
                                     "left", "right", "node", "limit"};
    static const char *const op[] = {"+", "-", "*", "<", ">=", "=="};
    size_t cap = 1024 + (size_t)nf * 1024, n = 0;
    char *b = malloc(cap);
    assert_non_null(b);
#define R(k) ((unsigned)rand_r(&seed) % (k))
#define OUT(...) n += (size_t)snprintf(b + n, cap - n, __VA_ARGS__)
    if (java)
        OUT("import java.util.*;\n\nclass P {\n");
    else
        OUT("import sys\n\n");
    for (int k = 0; k < nf; k++) {
        if (java) {
            OUT("    int m%d(int %s, int[] %s) {\n", k, nm[R(8)], nm[R(8)]);
            OUT("        // step %d\n        int %s = %s %s %u;\n", k,
                nm[R(8)], nm[R(8)], op[R(3)], R(100));
            OUT("        for (int i = 0; i < %s; i++) {\n", nm[R(8)]);
            OUT("            if (%s %s %s) { %s += %s[i]; }\n", nm[R(8)],
                op[3 + R(3)], nm[R(8)], nm[R(8)], nm[R(8)]);
            OUT("            else { %s = Math.max(%s, %u); }\n        }\n",
                nm[R(8)], nm[R(8)], R(50));
            OUT("        return %s %s %s;\n    }\n\n", nm[R(8)], op[R(3)],
                nm[R(8)]);
        } else {
            OUT("def f%d(%s, %s=%u):\n    \"\"\"Step %d.\"\"\"\n", k,
                nm[R(8)], nm[R(8)], R(10), k);
            OUT("    %s = %s %s %u  # note\n", nm[R(8)], nm[R(8)], op[R(3)],
                R(100));
            OUT("    for %s in range(%s):\n        if %s %s %s:\n", nm[R(8)],
                nm[R(8)], nm[R(8)], op[3 + R(3)], nm[R(8)]);
            OUT("            %s += %s[%s]\n        else:\n", nm[R(8)],
                nm[R(8)], nm[R(8)]);
            OUT("            %s = max(%s, %u)\n", nm[R(8)], nm[R(8)], R(50));
            OUT("    return [x * 2 for x in %s if x %s %u]\n\n\n", nm[R(8)],
                op[3 + R(3)], R(9));
        }
    }
    if (java)
        OUT("}\n");
#undef OUT
#undef R
    return b;
}

/* s with bytes [at, at + del) replaced by ins. */
static char *splice(const char *s, size_t at, size_t del, const char *ins)
{
    size_t n = strlen(s), k = strlen(ins);
    char *r = malloc(n - del + k + 1);
    assert_non_null(r);
    memcpy(r, s, at);
    memcpy(r + at, ins, k);
    memcpy(r + at + k, s + at + del, n - at - del + 1);
    return r;
}

/* The two trees, node by node: type, extent (bytes and points), named,
 * missing, extra, field, and the shape (the cursor's moves). */
static void same_ts_tree(const TSTree *a, const TSTree *b, const char *what)
{
    TSTreeCursor ca = ts_tree_cursor_new(ts_tree_root_node(a));
    TSTreeCursor cb = ts_tree_cursor_new(ts_tree_root_node(b));
    size_t nodes = 0;
    for (;;) {
        TSNode x = ts_tree_cursor_current_node(&ca);
        TSNode y = ts_tree_cursor_current_node(&cb);
        nodes++;
        TSPoint xs = ts_node_start_point(x), ys = ts_node_start_point(y);
        TSPoint xe = ts_node_end_point(x), ye = ts_node_end_point(y);
        if (ts_node_symbol(x) != ts_node_symbol(y) ||
            ts_node_start_byte(x) != ts_node_start_byte(y) ||
            ts_node_end_byte(x) != ts_node_end_byte(y) ||
            xs.row != ys.row || xs.column != ys.column ||
            xe.row != ye.row || xe.column != ye.column ||
            ts_node_is_named(x) != ts_node_is_named(y) ||
            ts_node_is_missing(x) != ts_node_is_missing(y) ||
            ts_node_is_extra(x) != ts_node_is_extra(y) ||
            ts_node_child_count(x) != ts_node_child_count(y) ||
            ts_tree_cursor_current_field_id(&ca) !=
                ts_tree_cursor_current_field_id(&cb)) {
            print_error("%s: node %zu differs: %s [%u, %u) vs %s [%u, %u)\n",
                        what, nodes, ts_node_type(x), ts_node_start_byte(x),
                        ts_node_end_byte(x), ts_node_type(y),
                        ts_node_start_byte(y), ts_node_end_byte(y));
            fail();
        }
        bool da = ts_tree_cursor_goto_first_child(&ca);
        assert_int_equal(da, ts_tree_cursor_goto_first_child(&cb));
        if (da)
            continue;
        for (;;) {
            bool sa = ts_tree_cursor_goto_next_sibling(&ca);
            assert_int_equal(sa, ts_tree_cursor_goto_next_sibling(&cb));
            if (sa)
                break;
            bool pa = ts_tree_cursor_goto_parent(&ca);
            assert_int_equal(pa, ts_tree_cursor_goto_parent(&cb));
            if (!pa) {
                ts_tree_cursor_delete(&ca);
                ts_tree_cursor_delete(&cb);
                return;
            }
        }
    }
}

/* Parses old, then new incrementally from it and afresh; the two trees of
 * new must be equal.  Returns whether the parse was incremental (it
 * falls back to a fresh one when new has a syntax error). */
static bool check_reparse(struct lt__trees *t, const char *old,
                          const char *new, const char *what)
{
    size_t ol = strlen(old), nl = strlen(new);
    struct lt__tree *base = lt__tree_parse_text(t, old, ol, NULL, NULL);
    assert_non_null(base);
    struct lt__lines la, lb;
    lt__lines_init(&la, old, ol);
    lt__lines_init(&lb, new, nl);
    struct lt__hunks h = {0};
    long kept = lt__text_diff(&la, old, ol, &lb, new, nl, 1 << 20, &h);
    assert_true(kept >= 0);
    struct lt__base b = {base, old, &la, &h, 0};
    struct lt__tree *inc = lt__tree_parse_text(t, new, nl, &b, NULL);
    struct lt__tree *fresh = lt__tree_parse_text(t, new, nl, NULL, NULL);
    assert_non_null(inc);
    assert_non_null(fresh);
    assert_false(lt__tree_incremental(fresh));
    same_ts_tree(lt__tree_ts(inc), lt__tree_ts(fresh), what);
    bool was = lt__tree_incremental(inc);
    if (was)
        assert_false(lt__tree_has_error(inc));
    lt__tree_free(base);
    lt__tree_free(inc);
    lt__tree_free(fresh);
    lt__lines_free(&la);
    lt__lines_free(&lb);
    free(h.v);
    return was;
}

/* Rebuilds b from a and the hunks: what lt__text_diff promises. */
static void check_diff(const char *a, const char *b, long maxd)
{
    size_t al = strlen(a), bl = strlen(b);
    struct lt__lines la, lb;
    lt__lines_init(&la, a, al);
    lt__lines_init(&lb, b, bl);
    struct lt__hunks h = {0};
    long kept = lt__text_diff(&la, a, al, &lb, b, bl, maxd, &h);
    if (kept >= 0) {
        char *r = malloc(bl + 1);
        assert_non_null(r);
        size_t o = 0, oa = 0, changed = 0;
        for (size_t i = 0; i < h.n; i++) {
            /* ascending, not overlapping, in range */
            assert_true(h.v[i].old_start >= oa);
            assert_true(h.v[i].old_start + h.v[i].old_len <= al);
            memcpy(r + o, a + oa, h.v[i].old_start - oa);
            o += h.v[i].old_start - oa;
            assert_int_equal(o, h.v[i].new_start);
            memcpy(r + o, b + h.v[i].new_start, h.v[i].new_len);
            o += h.v[i].new_len;
            changed += h.v[i].new_len;
            oa = h.v[i].old_start + h.v[i].old_len;
        }
        memcpy(r + o, a + oa, al - oa);
        o += al - oa;
        assert_int_equal(o, bl);
        assert_memory_equal(r, b, bl);
        assert_int_equal((size_t)kept, bl - changed);
        free(r);
    }
    lt__lines_free(&la);
    lt__lines_free(&lb);
    free(h.v);
}

static void test_text_diff(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"", ""},
        {"", "a\n"},
        {"a\n", ""},
        {"a\nb\nc\n", "a\nb\nc\n"},
        {"a\nb\nc\n", "x\nb\nc\n"},      /* first line */
        {"a\nb\nc\n", "a\nb\nx\n"},      /* last line */
        {"a\nb\nc", "a\nb\ncd"},         /* no final newline */
        {"a\nb\nc\n", "a\nc\n"},         /* deleted */
        {"a\nb\nc\n", "a\nb\nb\nc\n"},   /* duplicated */
        {"a\nb\nc\n", "c\nb\na\n"},      /* reordered */
        {"abc\n", "xyz\n"},              /* nothing in common */
        {"x = 1\ny = 2\n", "x = 1\ny = 3\n"},
    };
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
        check_diff(pairs[i][0], pairs[i][1], 1000);
    /* Single bytes changed come out as single-byte hunks. */
    const char *a = "def f(a):\n    return a + 1\n\nx = f(2)\n";
    const char *b = "def f(a):\n    return a - 1\n\nx = f(3)\n";
    struct lt__lines la, lb;
    lt__lines_init(&la, a, strlen(a));
    lt__lines_init(&lb, b, strlen(b));
    assert_int_equal(lt__lines_common(&la, &lb), 2);
    struct lt__hunks h = {0};
    long kept = lt__text_diff(&la, a, strlen(a), &lb, b, strlen(b), 10, &h);
    assert_int_equal(kept, (long)strlen(b) - 2);
    assert_int_equal(h.n, 2);
    assert_int_equal(h.v[0].old_len, 1);
    assert_int_equal(h.v[0].new_len, 1);
    /* Too many changed lines for maxd: no diff. */
    assert_int_equal(lt__text_diff(&la, a, strlen(a), &lb, b, strlen(b), 1,
                                   &h), -1);
    lt__lines_free(&la);
    lt__lines_free(&lb);
    free(h.v);
    /* A long text: a few changed lines are found; thousands are more
     * than the diff searches (it gives up, in bounded memory). */
    {
        enum { L = 30000 };
        char *x = malloc(L * 16 + 1), *y = malloc(L * 16 + 1);
        assert_non_null(x);
        assert_non_null(y);
        size_t xn = 0, yn = 0;
        for (int i = 0; i < L; i++) {
            xn += (size_t)sprintf(x + xn, "v%d = %d\n", i, i % 97);
            yn += (size_t)sprintf(y + yn, "v%d = %d\n", i,
                                  i % 1000 == 7 ? 5 : i % 97);
        }
        check_diff(x, y, 1 << 20);
        struct lt__lines lx, ly;
        lt__lines_init(&lx, x, xn);
        yn = 0; /* every other line changed */
        for (int i = 0; i < L; i++)
            yn += (size_t)sprintf(y + yn, "v%d = %d\n", i,
                                  i % 2 ? 1000 : i % 97);
        lt__lines_init(&ly, y, yn);
        struct lt__hunks hh = {0};
        assert_int_equal(lt__text_diff(&lx, x, xn, &ly, y, yn, 1 << 20, &hh),
                         -1);
        lt__lines_free(&lx);
        lt__lines_free(&ly);
        free(hh.v);
        free(x);
        free(y);
    }
    /* Random line edits of generated programs. */
    unsigned seed = 7;
    for (int round = 0; round < 200; round++) {
        char *p = gen_program((unsigned)round, 4, round % 2);
        char *q = strdup(p);
        for (int e = 0; e < 1 + round % 6; e++) {
            size_t n = strlen(q), at = n ? (size_t)rand_r(&seed) % n : 0;
            size_t del = (size_t)rand_r(&seed) % 40;
            if (at + del > n)
                del = n - at;
            char *r = splice(q, at, del, rand_r(&seed) % 2 ? "\n  x = 1\n" : "");
            free(q);
            q = r;
        }
        check_diff(p, q, 1 << 20);
        check_diff(q, p, 1 << 20);
        free(p);
        free(q);
    }
}

static void test_incremental_parse(void **state)
{
    (void)state;
    for (int java = 0; java < 2; java++) {
        struct lt__trees *t = lt__trees_new(java ? LT_SIM_JAVA : LT_SIM_PYTHON);
        assert_non_null(t);
        char *p = gen_program(11, 6, java);
        size_t n = strlen(p);
        char *q;
        /* An operator changed at the start, in the middle, at the end. */
        const char *first = strstr(p, java ? "class" : "def");
        q = splice(p, (size_t)(first - p), 0, java ? "public " : "@dec\n");
        assert_true(check_reparse(t, p, q, "edit at the start"));
        free(q);
        q = splice(p, 0, 0, java ? "// head\n" : "# head\n");
        assert_true(check_reparse(t, p, q, "comment before everything"));
        free(q);
        const char *mid = strstr(p + n / 2, " < ");
        assert_non_null(mid);
        mid++;
        q = splice(p, (size_t)(mid - p), 1, ">");
        assert_true(check_reparse(t, p, q, "operator in the middle"));
        free(q);
        q = splice(p, n, 0, java ? "class Q { }\n" : "z = 1\n");
        assert_true(check_reparse(t, p, q, "append at the end"));
        free(q);
        /* the last function (or method) deleted */
        const char *last = java ? strstr(p, "    int m5(") : strstr(p, "def f5(");
        assert_non_null(last);
        q = splice(p, (size_t)(last - p), n - (size_t)(last - p) -
                   (java ? 2 : 0), "");
        assert_true(check_reparse(t, p, q, "end cut"));
        free(q);
        /* a line inserted and a block's indentation changed */
        const char *ret = strstr(p, java ? "        return" : "    return");
        q = splice(p, (size_t)(ret - p), 0,
                   java ? "        x++;\n" : "    x = 1\n");
        assert_true(check_reparse(t, p, q, "line inserted"));
        free(q);
        /* Nothing in common: the diff replaces everything; still equal. */
        char *other = gen_program(12345, 3, java);
        check_reparse(t, p, other, "unrelated");
        check_reparse(t, p, "", "to empty");
        check_reparse(t, "", p, "from empty");
        /* Out of time at once (1 us): tree-sitter stops, the parser is
         * reset and the text parsed afresh; the same tree either way. */
        {
            struct lt__tree *base = lt__tree_parse_text(t, p, n, NULL, NULL);
            struct lt__lines la, lb;
            q = splice(p, (size_t)(mid - p), 1, ">");
            lt__lines_init(&la, p, n);
            lt__lines_init(&lb, q, strlen(q));
            struct lt__hunks h = {0};
            assert_true(lt__text_diff(&la, p, n, &lb, q, strlen(q), 100,
                                      &h) >= 0);
            struct lt__base b = {base, p, &la, &h, 1};
            struct lt__tree *x = lt__tree_parse_text(t, q, strlen(q), &b,
                                                     NULL);
            struct lt__tree *y = lt__tree_parse_text(t, q, strlen(q), NULL,
                                                     NULL);
            same_ts_tree(lt__tree_ts(x), lt__tree_ts(y), "timed out");
            /* and the parser is usable afterwards */
            lt__tree_free(y);
            y = lt__tree_parse_text(t, p, n, NULL, NULL);
            same_ts_tree(lt__tree_ts(base), lt__tree_ts(y), "after timeout");
            lt__tree_free(base);
            lt__tree_free(x);
            lt__tree_free(y);
            lt__lines_free(&la);
            lt__lines_free(&lb);
            free(h.v);
            free(q);
        }
        /* A syntax error appears: falls back to a fresh parse. */
        q = splice(p, (size_t)(mid - p), 1, "(((");
        assert_false(check_reparse(t, p, q, "syntax error"));
        free(q);
        /* Random edits of every kind, many at once. */
        unsigned seed = 3 + (unsigned)java;
        static const char *const ins[] = {"", "x", "\n", "    ", "(", ")",
                                          "+ 1", "\n    y = 2\n", "#",
                                          "\"", "else", ":", ";", "{", "}"};
        int incremental = 0;
        for (int round = 0; round < 300; round++) {
            char *base = gen_program((unsigned)round % 7, 3 + round % 4, java);
            char *cur = strdup(base);
            for (int e = 0; e < 1 + round % 5; e++) {
                size_t cn = strlen(cur);
                size_t at = cn ? (size_t)rand_r(&seed) % cn : 0;
                size_t del = (size_t)rand_r(&seed) % 4;
                if (at + del > cn)
                    del = cn - at;
                char *r = splice(cur, at, del,
                                 ins[(size_t)rand_r(&seed) %
                                     (sizeof(ins) / sizeof(ins[0]))]);
                free(cur);
                cur = r;
            }
            char what[64];
            snprintf(what, sizeof(what), "random round %d", round);
            incremental += check_reparse(t, base, cur, what);
            free(base);
            free(cur);
        }
        /* Most random edits break the syntax; enough do not. */
        assert_true(incremental >= 20);
        free(other);
        free(p);
        lt__trees_free(t);
    }
}

/* The metrics with incremental parsing on and off: bit for bit the same,
 * on near and far pairs, in one long context (bases from the cache). */
static void test_incremental_results(void **state)
{
    (void)state;
    for (int java = 0; java < 2; java++) {
        struct lt_sim_options o;
        lt_sim_options_init(&o);
        o.lang = java ? LT_SIM_JAVA : LT_SIM_PYTHON;
        struct lt_sim *on = NULL, *off = NULL;
        assert_int_equal(lt_sim_new(&o, &on), 0);
        assert_int_equal(lt_sim_new(&o, &off), 0);
        lt__sim_incremental(off, false);
        unsigned seed = 5;
        for (int round = 0; round < 40; round++) {
            char *ref = gen_program((unsigned)round / 3, 5, java);
            char *cand = strdup(ref);
            for (int e = 0; e < round % 4; e++) {
                char *at = strchr(cand + (size_t)rand_r(&seed) % strlen(cand),
                                  '+');
                if (at)
                    *at = '-';
            }
            if (round % 5 == 4) { /* unrelated */
                free(cand);
                cand = gen_program(1000 + (unsigned)round, 5, java);
            }
            const char *refs[1] = {ref};
            size_t rl[1] = {strlen(ref)};
            struct lt_sim_result a, b;
            assert_int_equal(lt_sim_compare(on, cand, strlen(cand), refs, rl,
                                            1, &a), 0);
            assert_int_equal(lt_sim_compare(off, cand, strlen(cand), refs, rl,
                                            1, &b), 0);
            same_result(&a, &b, "incremental on vs off");
            free(ref);
            free(cand);
        }
        lt_sim_free(on);
        lt_sim_free(off);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokenizers),
        cmocka_unit_test(test_rouge_l),
        cmocka_unit_test(test_meteor),
        cmocka_unit_test(test_meteor_multi_ref),
        cmocka_unit_test(test_porter),
        cmocka_unit_test(test_bleu),
        cmocka_unit_test(test_codebleu),
        cmocka_unit_test(test_codebleu_options),
        cmocka_unit_test(test_levenshtein),
        cmocka_unit_test(test_tree_edit),
        cmocka_unit_test(test_tree_edit_banded),
        cmocka_unit_test(test_operator_only),
        cmocka_unit_test(test_kernels),
        cmocka_unit_test(test_syntax_vs_tree_sitter),
        cmocka_unit_test(test_java_dataflow),
        cmocka_unit_test(test_ngram_scores),
        cmocka_unit_test(test_text_cache),
        cmocka_unit_test(test_text_diff),
        cmocka_unit_test(test_incremental_parse),
        cmocka_unit_test(test_incremental_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
