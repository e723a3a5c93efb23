/* The C side of the mutation operators, which needs no interpreter: the
 * stable mutant id (SHA-256), mutant application, categories and the
 * operators' names.  SPDX-License-Identifier: MIT */
#include "operators/operators.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "common/xmalloc.h"

/* The stable id of a mutant: the first 16 hex chars of SHA-256 over
 * "file\0start\0end\0op\0replacement" with start and end in decimal.
 * mutgen.py's mutant_id() computes the same; the unit tests hold them
 * together. */
void lt_mutant_make_id(const char *file, size_t start, size_t end,
                       const char *op, const char *replacement,
                       char out[17])
{
    struct lt_sha256 s;
    char num[32];
    uint8_t digest[32];
    static const char hex[] = "0123456789abcdef";

    lt_sha256_init(&s);
    lt_sha256_update(&s, file, strlen(file) + 1);
    int n = snprintf(num, sizeof(num), "%zu", start);
    lt_sha256_update(&s, num, (size_t)n + 1);
    n = snprintf(num, sizeof(num), "%zu", end);
    lt_sha256_update(&s, num, (size_t)n + 1);
    lt_sha256_update(&s, op, strlen(op) + 1);
    lt_sha256_update(&s, replacement, strlen(replacement));
    lt_sha256_final(&s, digest);
    for (int i = 0; i < 8; i++) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    out[16] = '\0';
}

/*** Mutants ***/

/* Builds source[0:start] + replacement + source[end:] in a fresh,
 * NUL-terminated buffer the caller frees; its length goes to *out_len when
 * out_len is not NULL.  NULL when the span does not fit the source. */
char *lt_mutant_apply(const struct lt_mutant *m, const char *source,
                      size_t len, size_t *out_len)
{
    if (m->start > m->end || m->end > len)
        return NULL;
    size_t rlen = strlen(m->replacement);
    size_t n = len - (m->end - m->start) + rlen;
    char *buf = xmalloc(n + 1);
    memcpy(buf, source, m->start);
    memcpy(buf + m->start, m->replacement, rlen);
    memcpy(buf + m->start + rlen, source + m->end, len - m->end);
    buf[n] = '\0';
    if (out_len)
        *out_len = n;
    return buf;
}

const char *lt_category_name(enum lt_category c)
{
    switch (c) {
    case LT_CATEGORY_STATEMENT:
        return "statement";
    case LT_CATEGORY_VALUE:
        return "value";
    case LT_CATEGORY_DECISION:
        return "decision";
    }
    return "unknown";
}

/* Frees what a mutant owns and zeroes it; the struct itself stays. */
void lt_mutant_clear(struct lt_mutant *m)
{
    if (!m)
        return;
    free(m->file);
    free(m->op);
    free(m->original);
    free(m->replacement);
    memset(m, 0, sizeof(*m));
}

/* Frees every mutant and the array; accepts NULL and empty lists. */
void lt_mutant_list_free(struct lt_mutant_list *list)
{
    if (!list)
        return;
    for (size_t i = 0; i < list->count; i++)
        lt_mutant_clear(&list->items[i]);
    free(list->items);
    list->items = NULL;
    list->count = 0;
}

/* The set names first, then every operator name; mutgen.py's
 * operator_names() returns the same list (checked by the unit tests). */
const char *const *lt_operator_sets(void)
{
    static const char *const names[] = {
        "mutmut", "algo1",
        /* mutmut 2.5.1 */
        "number", "string", "fstring", "name", "argument", "keyword",
        "operator", "and_or", "lambda", "assignment", "decorator",
        /* algo1 */
        "arith", "augassign", "invert", "relational", "logical", "not", "is",
        "in", "break_continue", "true_false", "number_pm",
        NULL,
    };
    return names;
}
