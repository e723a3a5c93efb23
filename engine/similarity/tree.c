/* Syntax trees for CodeBLEU's syntax and data-flow match and for the tree
 * edit distance: tree-sitter parses, a flat copy of the tree, subtree
 * s-expressions by hash-consing, and Zhang-Shasha.
 * SPDX-License-Identifier: MIT */
#include "engine/similarity/internal.h"

#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "common/buf.h"
#include "common/xmalloc.h"

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_java(void);

/*** Subtree dictionary: one id per distinct s-expression ***/

/* The s-expression tree-sitter prints for a node (ts_node_string, which
 * is py-tree-sitter's sexp()) is fixed by: the node's type, whether it is
 * a MISSING node, and, for each visible named (or missing) child in order,
 * the child's field name and s-expression.  Interning that key bottom-up
 * gives equal ids exactly to equal s-expressions without building the
 * strings. */

struct skey {
    uint64_t hash;
    uint32_t off, len;
};

struct lt__trees {
    TSParser *parser;
    const TSLanguage *language;
    enum lt_sim_lang lang;
    uint32_t *keys; /* all keys back to back */
    size_t keys_len, keys_cap;
    struct skey *e;
    size_t n, cap;
    uint32_t *slots;
    size_t nslots;
    uint8_t *symflags; /* per symbol: LT__N_COMMENT, LT__N_STRLEAF */
    size_t nsyms;
    TSTreeCursor cursor;
    bool have_cursor;
};

struct lt__tree {
    struct lt__flat f;
    uint32_t *subs; /* sorted subtree ids */
    size_t nsubs;
    struct lt__dfg dfg;
    bool has_dfg;
    uint32_t *lab, *lml; /* TED: post-order labels, leftmost leaves */
    size_t tn;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static void trees_reset_table(struct lt__trees *t)
{
    free(t->keys);
    free(t->e);
    free(t->slots);
    t->keys = NULL;
    t->keys_len = t->keys_cap = 0;
    t->e = NULL;
    t->n = t->cap = 0;
    t->nslots = 4096;
    t->slots = xcalloc(t->nslots, sizeof(uint32_t));
}

static uint32_t intern_key(struct lt__trees *t, const uint32_t *k, size_t n)
{
    uint64_t h = 0x12345;
    for (size_t i = 0; i < n; i++)
        h = mix(h, k[i]);
    size_t mask = t->nslots - 1;
    size_t j = (size_t)h & mask;
    while (t->slots[j]) {
        const struct skey *e = &t->e[t->slots[j] - 1];
        if (e->hash == h && e->len == n &&
            memcmp(t->keys + e->off, k, n * sizeof(uint32_t)) == 0)
            return t->slots[j] - 1;
        j = (j + 1) & mask;
    }
    if (t->keys_len + n > t->keys_cap) {
        t->keys_cap = (t->keys_len + n) * 2 + 4096;
        t->keys = xrealloc(t->keys, t->keys_cap * sizeof(uint32_t));
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 1024;
        t->e = xrealloc(t->e, t->cap * sizeof(*t->e));
    }
    memcpy(t->keys + t->keys_len, k, n * sizeof(uint32_t));
    uint32_t id = (uint32_t)t->n++;
    t->e[id] = (struct skey){h, (uint32_t)t->keys_len, (uint32_t)n};
    t->keys_len += n;
    t->slots[j] = id + 1;
    if (t->n * 2 > t->nslots) {
        size_t ns = t->nslots * 2;
        uint32_t *slots = xcalloc(ns, sizeof(uint32_t));
        for (size_t i = 0; i < t->n; i++) {
            size_t q = (size_t)t->e[i].hash & (ns - 1);
            while (slots[q])
                q = (q + 1) & (ns - 1);
            slots[q] = (uint32_t)i + 1;
        }
        free(t->slots);
        t->slots = slots;
        t->nslots = ns;
    }
    return id;
}

struct lt__trees *lt__trees_new(enum lt_sim_lang lang)
{
    struct lt__trees *t = xcalloc(1, sizeof(*t));
    t->lang = lang;
    t->language = lang == LT_SIM_JAVA ? tree_sitter_java() : tree_sitter_python();
    t->parser = ts_parser_new();
    if (!t->parser || !ts_parser_set_language(t->parser, t->language)) {
        lt__trees_free(t);
        return NULL;
    }
    t->nsyms = ts_language_symbol_count(t->language);
    t->symflags = xcalloc(t->nsyms, 1);
    for (size_t s = 0; s < t->nsyms; s++) {
        const char *nm = ts_language_symbol_name(t->language, (TSSymbol)s);
        if (!nm)
            continue;
        if (strcmp(nm, "comment") == 0 || strcmp(nm, "line_comment") == 0 ||
            strcmp(nm, "block_comment") == 0)
            t->symflags[s] |= LT__N_COMMENT;
        if (strcmp(nm, "string") == 0 || strcmp(nm, "string_literal") == 0 ||
            strcmp(nm, "character_literal") == 0)
            t->symflags[s] |= LT__N_STRLEAF;
    }
    trees_reset_table(t);
    return t;
}

void lt__trees_free(struct lt__trees *t)
{
    if (!t)
        return;
    if (t->have_cursor)
        ts_tree_cursor_delete(&t->cursor);
    if (t->parser)
        ts_parser_delete(t->parser);
    free(t->keys);
    free(t->e);
    free(t->slots);
    free(t->symflags);
    free(t);
}

void lt__trees_trim(struct lt__trees *t)
{
    if (t->n > (1u << 20))
        trees_reset_table(t);
}

const char *lt__flat_type(const struct lt__flat *f, uint32_t i)
{
    return ts_language_symbol_name((const TSLanguage *)f->language,
                                   f->n[i].sym);
}

/*** Flattening ***/

static uint32_t add_node(struct lt__trees *t, struct lt__flat *f,
                         size_t *cap, uint32_t **last, const TSTreeCursor *c,
                         uint32_t parent)
{
    TSNode node = ts_tree_cursor_current_node(c);
    if (f->count == *cap) {
        *cap = *cap ? *cap * 2 : 1024;
        f->n = xrealloc(f->n, *cap * sizeof(*f->n));
        *last = xrealloc(*last, *cap * sizeof(uint32_t));
    }
    uint32_t i = (uint32_t)f->count++;
    struct lt__node *x = &f->n[i];
    TSSymbol sym = ts_node_symbol(node);
    x->start = ts_node_start_byte(node);
    x->end = ts_node_end_byte(node);
    x->parent = parent;
    x->first = x->next = LT__NONE;
    x->nchild = 0;
    x->tok = LT__NONE;
    x->sym = sym;
    x->field = ts_tree_cursor_current_field_id(c);
    x->named = ts_node_is_named(node);
    x->missing = ts_node_is_missing(node);
    x->flags = sym < t->nsyms ? t->symflags[sym] : 0;
    (*last)[i] = LT__NONE;
    if (parent != LT__NONE) {
        struct lt__node *p = &f->n[parent];
        if (p->first == LT__NONE)
            p->first = i;
        else
            f->n[(*last)[parent]].next = i;
        (*last)[parent] = i;
        p->nchild++;
        if (p->flags & LT__N_DROPPED)
            x->flags |= LT__N_DROPPED;
    }
    if (x->flags & LT__N_COMMENT)
        x->flags |= LT__N_DROPPED;
    return i;
}

static void flatten(struct lt__trees *t, TSTree *tree, struct lt__flat *f)
{
    TSNode root = ts_tree_root_node(tree);
    if (!t->have_cursor) {
        t->cursor = ts_tree_cursor_new(root);
        t->have_cursor = true;
    } else {
        ts_tree_cursor_reset(&t->cursor, root);
    }
    TSTreeCursor *c = &t->cursor;
    size_t cap = 0, scap = 0, top = 0;
    uint32_t *last = NULL, *stack = NULL;
    f->n = NULL;
    f->count = 0;
    uint32_t cur = add_node(t, f, &cap, &last, c, LT__NONE);
    for (;;) {
        if (top == scap) {
            scap = scap ? scap * 2 : 64;
            stack = xrealloc(stack, scap * sizeof(uint32_t));
        }
        if (ts_tree_cursor_goto_first_child(c)) {
            stack[top++] = cur;
            cur = add_node(t, f, &cap, &last, c, cur);
            continue;
        }
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(c)) {
                cur = add_node(t, f, &cap, &last, c, stack[top - 1]);
                break;
            }
            if (top == 0 || !ts_tree_cursor_goto_parent(c))
                goto done;
            cur = stack[--top];
        }
    }
done:
    free(last);
    free(stack);
}

/* Python statements made of one string literal (docstrings and the
 * like): the reference strips them before parsing (docs/similarity.md). */
static void mark_string_statements(struct lt__flat *f)
{
    for (size_t i = 0; i < f->count; i++) {
        struct lt__node *x = &f->n[i];
        if (x->parent != LT__NONE && (f->n[x->parent].flags & LT__N_DROPPED))
            x->flags |= LT__N_DROPPED;
        if (x->flags & LT__N_DROPPED)
            continue;
        if (strcmp(lt__flat_type(f, (uint32_t)i), "expression_statement"))
            continue;
        uint32_t only = LT__NONE;
        size_t k = 0;
        for (uint32_t c = x->first; c != LT__NONE; c = f->n[c].next)
            if (!(f->n[c].flags & LT__N_COMMENT)) {
                only = c;
                k++;
            }
        if (k != 1)
            continue;
        const char *ty = lt__flat_type(f, only);
        if (strcmp(ty, "string") == 0 || strcmp(ty, "concatenated_string") == 0)
            x->flags |= LT__N_DROPPED;
    }
}

/*** Syntax match ***/

/* Sorts v[0..n) ascending: LSD radix sort, 8 bits a pass, skipping the
 * passes where every key has the same byte; tmp holds n values. */
static void sort_u32(uint32_t *v, size_t n, uint32_t *tmp)
{
    uint32_t *src = v, *dst = tmp;
    for (unsigned shift = 0; shift < 32; shift += 8) {
        size_t cnt[256] = {0};
        for (size_t i = 0; i < n; i++)
            cnt[(src[i] >> shift) & 0xff]++;
        if (n == 0 || cnt[(src[0] >> shift) & 0xff] == n)
            continue;
        size_t sum = 0;
        for (size_t b = 0; b < 256; b++) {
            size_t c = cnt[b];
            cnt[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[cnt[(src[i] >> shift) & 0xff]++] = src[i];
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof(uint32_t));
}

static void subtrees(struct lt__trees *t, struct lt__tree *tr)
{
    struct lt__flat *f = &tr->f;
    uint32_t *id = xmalloc(f->count * sizeof(uint32_t));
    uint32_t *key = NULL;
    size_t kcap = 0;
    tr->subs = xmalloc(f->count * sizeof(uint32_t));
    tr->nsubs = 0;
    for (size_t ii = f->count; ii-- > 0;) {
        const struct lt__node *x = &f->n[ii];
        if ((x->flags & LT__N_DROPPED) && ii != 0)
            continue;
        size_t kn = 0;
        size_t need = 3 + 2 * (size_t)x->nchild;
        if (need > kcap) {
            kcap = need * 2;
            key = xrealloc(key, kcap * sizeof(uint32_t));
        }
        key[kn++] = x->sym;
        key[kn++] = (uint32_t)x->named | ((uint32_t)x->missing << 1);
        if (x->sym == (TSSymbol)-1 && x->nchild == 0 && x->end > x->start)
            key[kn++] = (unsigned char)f->text[x->start]; /* UNEXPECTED c */
        for (uint32_t c = x->first; c != LT__NONE; c = f->n[c].next) {
            const struct lt__node *y = &f->n[c];
            if (y->flags & LT__N_DROPPED)
                continue;
            if (!y->named && !y->missing)
                continue;
            key[kn++] = y->field;
            key[kn++] = id[c];
        }
        id[ii] = intern_key(t, key, kn);
        if (ii == 0 || x->nchild > 0)
            tr->subs[tr->nsubs++] = id[ii];
    }
    sort_u32(tr->subs, tr->nsubs, id); /* id is no longer needed */
    free(key);
    free(id);
}

/* The reference counts every reference subtree (with repeats) whose
 * s-expression occurs anywhere in the candidate. */
void lt__syntax_match(const struct lt__tree *cand, const struct lt__tree *ref,
                      size_t *match, size_t *total)
{
    size_t m = 0, j = 0;
    for (size_t i = 0; i < ref->nsubs; i++) {
        while (j < cand->nsubs && cand->subs[j] < ref->subs[i])
            j++;
        if (j < cand->nsubs && cand->subs[j] == ref->subs[i])
            m++;
    }
    *match += m;
    *total += ref->nsubs;
}

size_t lt__tree_subtrees(const struct lt__tree *tr)
{
    return tr->nsubs;
}

/*** Tree edit distance ***/

static bool punctuation(const char *s)
{
    static const char *const p[] = {"(", ")", "[", "]", "{", "}", ",", ";",
                                    ":", ".", "\"", "'", "`", NULL};
    for (const char *const *q = p; *q; q++)
        if (strcmp(*q, s) == 0)
            return true;
    return false;
}

/* Label of named node i: its type; for a node without named children,
 * also its source text; otherwise also its anonymous children other than
 * punctuation (operators and keywords), so `a < b` and `a >= b` differ. */
static uint32_t ted_label(struct lt__dict *d, const struct lt__flat *f,
                          uint32_t i, struct lt_buf *b)
{
    const struct lt__node *x = &f->n[i];
    b->len = 0;
    lt_buf_puts(b, lt__flat_type(f, i));
    bool named_child = false;
    for (uint32_t c = x->first; c != LT__NONE; c = f->n[c].next)
        if (f->n[c].named && !(f->n[c].flags & LT__N_COMMENT))
            named_child = true;
    if (!named_child) {
        lt_buf_append(b, ":", 1);
        lt_buf_append(b, f->text + x->start, x->end - x->start);
    } else {
        for (uint32_t c = x->first; c != LT__NONE; c = f->n[c].next) {
            if (f->n[c].named)
                continue;
            const char *ty = lt__flat_type(f, c);
            if (punctuation(ty))
                continue;
            lt_buf_append(b, " ", 1);
            lt_buf_puts(b, ty);
        }
    }
    return lt__dict_intern(d, b->data, b->len);
}

static void ted_prepare(struct lt__dict *d, struct lt__tree *tr)
{
    const struct lt__flat *f = &tr->f;
    tr->lab = xmalloc((f->count + 1) * sizeof(uint32_t));
    tr->lml = xmalloc((f->count + 1) * sizeof(uint32_t));
    tr->tn = 0;
    struct lt_buf b = LT_BUF_INIT;
    uint32_t *stack = xmalloc(f->count * sizeof(uint32_t) * 2);
    uint32_t *start = xmalloc(f->count * sizeof(uint32_t));
    size_t top = 0;
    stack[top++] = 0;
    while (top) {
        uint32_t v = stack[--top];
        if (v & 0x80000000u) {
            v &= 0x7fffffffu;
            const struct lt__node *x = &f->n[v];
            if (x->named && !(x->flags & LT__N_COMMENT)) {
                tr->lab[tr->tn] = ted_label(d, f, v, &b);
                tr->lml[tr->tn] = start[v];
                tr->tn++;
            }
            continue;
        }
        if (f->n[v].flags & LT__N_COMMENT)
            continue;
        start[v] = (uint32_t)tr->tn;
        stack[top++] = v | 0x80000000u;
        /* children pushed in reverse so the first is visited first */
        size_t k0 = top;
        for (uint32_t c = f->n[v].first; c != LT__NONE; c = f->n[c].next)
            stack[top++] = c;
        for (size_t a = k0, z = top - 1; a < z; a++, z--) {
            uint32_t tmp = stack[a];
            stack[a] = stack[z];
            stack[z] = tmp;
        }
    }
    free(stack);
    free(start);
    lt_buf_free(&b);
}

size_t lt__tree_size(const struct lt__tree *tr)
{
    return tr->tn;
}

enum { TED_MAX_CELLS = 40u * 1000u * 1000u };

/* Key roots of a post-order tree with leftmost leaves l[0..n): for each
 * leaf, the highest node whose leftmost leaf it is.  kr[0..k) ascending;
 * by_leaf[x] is the key root whose leftmost leaf is x, or LT__NONE. */
static size_t keyroots(const uint32_t *l, size_t n, uint32_t *kr,
                       uint32_t *by_leaf)
{
    for (size_t x = 0; x < n; x++)
        by_leaf[x] = LT__NONE;
    for (size_t i = 0; i < n; i++)
        by_leaf[l[i]] = (uint32_t)i; /* the last (highest) one wins */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (by_leaf[l[i]] == i)
            kr[k++] = (uint32_t)i;
    return k;
}

/* Zhang and Shasha (1989), unit costs, as published: td[i][j] is the
 * distance between the subtrees rooted at post-order nodes i and j; it is
 * filled for each pair of key roots through a forest-distance table.
 * O(|T1| |T2|) memory; the reference the banded version is tested
 * against. */
static size_t zs_full(const uint32_t *lab1, const uint32_t *l1, size_t n1,
                      const uint32_t *lab2, const uint32_t *l2, size_t n2)
{
    uint32_t *kr1 = xmalloc(n1 * sizeof(uint32_t));
    uint32_t *kr2 = xmalloc(n2 * sizeof(uint32_t));
    uint32_t *tmp = xmalloc((n1 > n2 ? n1 : n2) * sizeof(uint32_t));
    size_t k1 = keyroots(l1, n1, kr1, tmp);
    size_t k2 = keyroots(l2, n2, kr2, tmp);
    free(tmp);
    uint32_t *td = xmalloc(n1 * n2 * sizeof(uint32_t));
    uint32_t *fd = xmalloc((n1 + 1) * (n2 + 1) * sizeof(uint32_t));
    for (size_t x1 = 0; x1 < k1; x1++) {
        uint32_t i = kr1[x1];
        for (size_t x2 = 0; x2 < k2; x2++) {
            uint32_t j = kr2[x2];
            uint32_t li = l1[i], lj = l2[j];
            size_t w = j - lj + 2; /* row width of fd */
            fd[0] = 0;
            for (size_t y = 1; y < w; y++)
                fd[y] = (uint32_t)y;
            for (size_t x = 1; x <= i - li + 1; x++) {
                uint32_t di = li + (uint32_t)x - 1;
                uint32_t *row = fd + x * w, *prev = row - w;
                row[0] = (uint32_t)x;
                bool tree_i = l1[di] == li;
                size_t p = (size_t)(l1[di] - li) * w;
                uint32_t labi = lab1[di];
                uint32_t *tdrow = td + (size_t)di * n2;
                for (size_t y = 1; y < w; y++) {
                    uint32_t dj = lj + (uint32_t)y - 1;
                    uint32_t v = prev[y] + 1;
                    if (row[y - 1] + 1 < v)
                        v = row[y - 1] + 1;
                    if (tree_i && l2[dj] == lj) {
                        uint32_t s = prev[y - 1] + (labi != lab2[dj]);
                        if (s < v)
                            v = s;
                        tdrow[dj] = v;
                    } else {
                        uint32_t s = fd[p + (l2[dj] - lj)] + tdrow[dj];
                        if (s < v)
                            v = s;
                    }
                    row[y] = v;
                }
            }
        }
    }
    size_t dist = td[(n1 - 1) * n2 + (n2 - 1)];
    free(td);
    free(fd);
    free(kr1);
    free(kr2);
    return dist;
}

/* Zhang-Shasha restricted to a band of half-width k, after Touzet (2005,
 * "A linear tree edit distance algorithm for similar ordered trees").
 *
 * An ordered mapping preserves post-order, so in a mapping of cost c
 * every mapped pair (x, y) has |x - y| <= c (the nodes before x are
 * either mapped to nodes before y or deleted, and likewise), and in
 * every forest-distance table the cells on its path have
 * |local x - local y| <= c.  The loops below compute only the cells and
 * subtree distances inside those bands (|x - y| <= k for td, |local x -
 * local y| <= k for fd, and so only the key-root pairs whose leftmost
 * leaves are at most 2k apart); everything outside counts as BIG.  Every
 * value below BIG is then the cost of a real edit script (so >= the
 * distance), and every mapping of cost <= k is still represented (so the
 * result is <= its cost).  Hence: if the result is <= k it is the exact
 * distance; otherwise it is an upper bound, and a second run with k set
 * to it is exact. */
enum { TED_BIG = 0x3fffffff };

struct ted_ws {
    uint32_t *td, *fd, *kr1, *by2;
    size_t td_cap, fd_cap, n1_cap, n2_cap;
};

static void ws_grow(uint32_t **p, size_t *cap, size_t need)
{
    if (need > *cap) {
        free(*p);
        *cap = need + need / 2;
        *p = xmalloc(*cap * sizeof(uint32_t));
    }
}

static size_t zs_band(struct ted_ws *ws, const uint32_t *lab1,
                      const uint32_t *l1, size_t n1, const uint32_t *lab2,
                      const uint32_t *l2, size_t n2, size_t k)
{
    const size_t W = 2 * k + 1, S = W + 2; /* band, stride with sentinels */
    ws_grow(&ws->td, &ws->td_cap, n1 * W);
    ws_grow(&ws->fd, &ws->fd_cap, (n1 + 1) * S);
    ws_grow(&ws->kr1, &ws->n1_cap, 2 * n1);
    ws_grow(&ws->by2, &ws->n2_cap, 3 * n2);
    uint32_t *td = ws->td, *fd = ws->fd, *by2 = ws->by2, *kr2 = ws->by2 + n2;
    uint32_t *js = ws->by2 + 2 * n2;
    size_t k1 = keyroots(l1, n1, ws->kr1, ws->kr1 + n1);
    keyroots(l2, n2, kr2, by2);
    for (size_t q = 0; q < n1 * W; q++)
        td[q] = TED_BIG;
    for (size_t x = 0; x <= n1; x++) /* the sentinel columns */
        fd[x * S] = fd[x * S + S - 1] = TED_BIG;
    /* td(x, y) lives at td[x * W + (y - x + k)] when |x - y| <= k. */
#define TD(x, y)                                                             \
    ((size_t)((x) > (y) ? (x) - (y) : (y) - (x)) <= k                        \
         ? td[(size_t)(x) * W + ((size_t)(y) + k - (size_t)(x))]             \
         : (uint32_t)TED_BIG)
    /* fd(x, y) at fd[x * S + (y - x + k + 1)] when |x - y| <= k; the
     * columns 0 and S - 1 of each row are BIG. */
#define FDI(x, y) ((size_t)(x) * S + ((size_t)(y) + k + 1 - (size_t)(x)))
    for (size_t x1 = 0; x1 < k1; x1++) {
        uint32_t i = ws->kr1[x1], li = l1[i];
        size_t lo = li > 2 * k ? li - 2 * k : 0;
        size_t hi = li + 2 * k < n2 - 1 ? li + 2 * k : n2 - 1;
        /* The key roots of T2 whose leftmost leaf is in [lo, hi], in
         * increasing order (pass (i, j) reads subtree distances of
         * (i, j') for the key roots j' < j below j). */
        size_t nj = 0;
        for (size_t leaf = lo; leaf <= hi; leaf++) {
            uint32_t j = by2[leaf];
            if (j == LT__NONE)
                continue;
            size_t q = nj++;
            for (; q > 0 && js[q - 1] > j; q--)
                js[q] = js[q - 1];
            js[q] = j;
        }
        for (size_t xj = 0; xj < nj; xj++) {
            uint32_t j = js[xj], lj = l2[j];
            size_t rows = i - li + 1, cols = j - lj + 1;
            for (size_t y = 0; y <= cols && y <= k; y++)
                fd[FDI(0, y)] = (uint32_t)y;
            for (size_t x = 1; x <= rows; x++) {
                uint32_t di = li + (uint32_t)x - 1;
                if (x <= k)
                    fd[FDI(x, 0)] = (uint32_t)x;
                size_t y0 = x > k ? x - k : 1;
                size_t y1 = x + k < cols ? x + k : cols;
                bool tree_i = l1[di] == li;
                size_t a = l1[di] - li; /* fd row of di's left forest */
                uint32_t labi = lab1[di];
                /* row[y] = fd(x, y), prev[y] = fd(x - 1, y) */
                uint32_t *row = fd + (x * S + k + 1 - x);
                const uint32_t *prev = fd + ((x - 1) * S + k + 2 - x);
                for (size_t y = y0; y <= y1; y++) {
                    uint32_t dj = lj + (uint32_t)y - 1;
                    uint32_t v = prev[y] + 1;
                    if (row[y - 1] + 1 < v)
                        v = row[y - 1] + 1;
                    if (tree_i && l2[dj] == lj) {
                        uint32_t s = prev[y - 1] + (labi != lab2[dj]);
                        if (s < v)
                            v = s;
                        if (v > TED_BIG)
                            v = TED_BIG;
                        if ((size_t)(di > dj ? di - dj : dj - di) <= k)
                            td[(size_t)di * W + (dj + k - di)] = v;
                    } else {
                        size_t b = l2[dj] - lj;
                        size_t ab = a > b ? a - b : b - a;
                        if (ab <= k) {
                            uint32_t s = fd[FDI(a, b)] + TD(di, dj);
                            if (s < v)
                                v = s;
                        }
                        if (v > TED_BIG)
                            v = TED_BIG;
                    }
                    row[y] = v;
                }
            }
        }
    }
    size_t dist = TD(n1 - 1, n2 - 1);
#undef TD
#undef FDI
    return dist;
}

/* Every unmatched or relabelled node costs 1 and a mapping keeps at most
 * as many labels unchanged as the two label multisets share, so the
 * distance is at least max(n1, n2) - |multiset intersection|. */
static size_t label_lower_bound(const uint32_t *lab1, size_t n1,
                                const uint32_t *lab2, size_t n2)
{
    size_t big = n1 > n2 ? n1 : n2;
    uint32_t *a = xmalloc((n1 + n2 + big) * sizeof(uint32_t)), *b = a + n1;
    memcpy(a, lab1, n1 * sizeof(uint32_t));
    memcpy(b, lab2, n2 * sizeof(uint32_t));
    sort_u32(a, n1, b + n2);
    sort_u32(b, n2, b + n2);
    size_t i = 0, j = 0, common = 0;
    while (i < n1 && j < n2) {
        if (a[i] == b[j]) {
            common++;
            i++;
            j++;
        } else if (a[i] < b[j]) {
            i++;
        } else {
            j++;
        }
    }
    free(a);
    return (n1 > n2 ? n1 : n2) - common;
}

size_t lt__ted_arrays(const uint32_t *lab1, const uint32_t *l1, size_t n1,
                      const uint32_t *lab2, const uint32_t *l2, size_t n2,
                      bool reference)
{
    if (n1 == 0 || n2 == 0)
        return n1 + n2;
    if (reference)
        return zs_full(lab1, l1, n1, lab2, l2, n2);
    size_t big = n1 > n2 ? n1 : n2;
    size_t k = label_lower_bound(lab1, n1, lab2, n2);
    if (k < 1)
        k = 1;
    struct ted_ws ws = {0};
    size_t d = SIZE_MAX;
    while (k < big) {
        d = zs_band(&ws, lab1, l1, n1, lab2, l2, n2, k);
        if (d <= k)
            break;
        /* d is an upper bound: a band of d is exact; try 2k first. */
        k = d < 2 * k ? d : 2 * k;
        d = SIZE_MAX;
    }
    free(ws.td);
    free(ws.fd);
    free(ws.kr1);
    free(ws.by2);
    if (d == SIZE_MAX) /* the band would cover everything */
        d = zs_full(lab1, l1, n1, lab2, l2, n2);
    return d;
}

/* Zhang-Shasha distance between the two named-node trees. */
size_t lt__tree_edit(const struct lt__tree *a, const struct lt__tree *b)
{
    size_t n1 = a->tn, n2 = b->tn;
    if (n1 == 0 || n2 == 0)
        return n1 + n2;
    if (n1 == n2 && memcmp(a->lab, b->lab, n1 * sizeof(uint32_t)) == 0 &&
        memcmp(a->lml, b->lml, n1 * sizeof(uint32_t)) == 0)
        return 0; /* identical trees */
    if ((double)n1 * (double)n2 > TED_MAX_CELLS)
        return SIZE_MAX;
    return lt__ted_arrays(a->lab, a->lml, n1, b->lab, b->lml, n2, false);
}

/*** Parse ***/

struct lt__tree *lt__tree_parse(struct lt__trees *t, struct lt__dict *d,
                                const char *text, size_t len, unsigned what)
{
    if (len > UINT32_MAX)
        return NULL;
    TSTree *tree = ts_parser_parse_string(t->parser, NULL, text, (uint32_t)len);
    if (!tree)
        return NULL;
    struct lt__tree *tr = xcalloc(1, sizeof(*tr));
    tr->f.text = text;
    tr->f.len = len;
    tr->f.language = t->language;
    flatten(t, tree, &tr->f);
    ts_tree_delete(tree);
    if (t->lang == LT_SIM_PYTHON)
        mark_string_statements(&tr->f);
    if (what & LT__TREE_SYNTAX)
        subtrees(t, tr);
    if (what & LT__TREE_DFG) {
        lt__dfg_build(&tr->dfg, &tr->f, t->lang, d);
        tr->has_dfg = true;
    }
    if (what & LT__TREE_TED)
        ted_prepare(d, tr);
    /* The text belongs to the caller; nothing below reads it again. */
    tr->f.text = NULL;
    return tr;
}

void lt__tree_free(struct lt__tree *tr)
{
    if (!tr)
        return;
    free(tr->f.n);
    free(tr->subs);
    if (tr->has_dfg)
        lt__dfg_free(&tr->dfg);
    free(tr->lab);
    free(tr->lml);
    free(tr);
}

size_t lt__tree_dfg_edges(const struct lt__tree *tr)
{
    return tr->dfg.n;
}

static int cmp_edge(const void *x, const void *y)
{
    const struct lt__dfg_edge *a = x, *b = y;
    if (a->rel != b->rel)
        return a->rel < b->rel ? -1 : 1;
    if (a->var != b->var)
        return a->var < b->var ? -1 : 1;
    if (a->npar != b->npar)
        return a->npar < b->npar ? -1 : 1;
    for (uint32_t i = 0; i < a->npar; i++)
        if (a->par[i] != b->par[i])
            return a->par[i] < b->par[i] ? -1 : 1;
    return 0;
}

/* Multiset intersection of the normalised edges. */
void lt__dataflow_match(const struct lt__tree *cand,
                        const struct lt__tree *ref, size_t *match,
                        size_t *total)
{
    size_t nc = cand->dfg.n, nr = ref->dfg.n;
    struct lt__dfg_edge *c = xmalloc((nc + 1) * sizeof(*c));
    struct lt__dfg_edge *r = xmalloc((nr + 1) * sizeof(*r));
    if (nc)
        memcpy(c, cand->dfg.e, nc * sizeof(*c));
    if (nr)
        memcpy(r, ref->dfg.e, nr * sizeof(*r));
    qsort(c, nc, sizeof(*c), cmp_edge);
    qsort(r, nr, sizeof(*r), cmp_edge);
    size_t i = 0, j = 0, m = 0;
    while (i < nr && j < nc) {
        int k = cmp_edge(&r[i], &c[j]);
        if (k == 0) {
            m++;
            i++;
            j++;
        } else if (k < 0) {
            i++;
        } else {
            j++;
        }
    }
    free(c);
    free(r);
    *match += m;
    *total += nr;
}
