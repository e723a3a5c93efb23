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
    struct lt__langinfo li;
    const char **names; /* per symbol: type name */
    uint32_t *keys; /* all keys back to back */
    size_t keys_len, keys_cap;
    struct skey *e;
    size_t n, cap;
    uint32_t *slots;
    size_t nslots;
    TSTreeCursor cursor;
    bool have_cursor;
    /* Memory reused from parse to parse. */
    struct lt__node *nodes;
    uint32_t *last, *stack, *buf; /* per node */
    size_t nodes_cap;
    uint32_t *key;
    size_t key_cap;
    char *label;
    size_t label_cap;
    struct lt__dfg_ws *dfgws;
};

struct lt__tree {
    uint32_t *subs; /* sorted subtree ids */
    size_t nsubs;
    struct lt__dfg dfg; /* edges sorted (cmp_edge) */
    bool has_dfg;
    uint32_t *lab, *lml; /* TED: post-order labels, leftmost leaves */
    size_t tn;
    TSTree *ts;    /* tree-sitter's tree: the base of later parses */
    bool error;    /* it has an ERROR or MISSING node */
    bool incremental;
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

static bool name_in(const char *nm, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(*list, nm) == 0)
            return true;
    return false;
}

/* The per-symbol tables of t->li. */
static void langinfo(struct lt__trees *t)
{
    static const char *const comment[] = {"comment", "line_comment",
                                          "block_comment", NULL};
    static const char *const strleaf[] = {"string", "string_literal",
                                          "character_literal", NULL};
    static const char *const punct[] = {"(", ")", "[", "]", "{", "}", ",",
                                        ";", ":", ".", "\"", "'", "`", NULL};
    static const char *const string[] = {"string", "concatenated_string",
                                         NULL};
    static const char *const elifelse[] = {"elif_clause", "else_clause",
                                           NULL};
    struct lt__langinfo *li = &t->li;
    li->language = t->language;
    li->lang = t->lang;
    li->nsyms = ts_language_symbol_count(t->language);
    li->cls = xcalloc(li->nsyms + 1, sizeof(uint16_t));
    li->kind = xcalloc(li->nsyms + 1, 1);
    li->namelen = xcalloc(li->nsyms + 1, sizeof(uint16_t));
    li->name_id = xcalloc(li->nsyms + 1, sizeof(uint32_t));
    t->names = xcalloc(li->nsyms + 1, sizeof(char *));
    for (size_t s = 0; s < li->nsyms; s++) {
        const char *nm = ts_language_symbol_name(t->language, (TSSymbol)s);
        if (!nm)
            nm = "";
        t->names[s] = nm;
        size_t len = strlen(nm);
        li->namelen[s] = (uint16_t)(len < UINT16_MAX ? len : UINT16_MAX);
        unsigned c = 0;
        if (name_in(nm, comment))
            c |= LT__C_COMMENT;
        if (name_in(nm, strleaf))
            c |= LT__C_STRLEAF;
        if (name_in(nm, punct))
            c |= LT__C_PUNCT;
        if (strcmp(nm, "expression_statement") == 0)
            c |= LT__C_EXPRSTMT;
        if (name_in(nm, string))
            c |= LT__C_STRING;
        if (strcmp(nm, ",") == 0)
            c |= LT__C_COMMA;
        if (strcmp(nm, "identifier") == 0)
            c |= LT__C_IDENT;
        if (name_in(nm, elifelse))
            c |= LT__C_ELIFELSE;
        if (strcmp(nm, "block") == 0)
            c |= LT__C_BLOCK;
        if (strcmp(nm, "local_variable_declaration") == 0)
            c |= LT__C_LOCALVAR;
        if (strstr(nm, "else"))
            c |= LT__C_HASELSE;
        li->cls[s] = (uint16_t)c;
    }
    lt__dfg_kinds(li);
    li->f_name = ts_language_field_id_for_name(t->language, "name", 4);
    li->f_value = ts_language_field_id_for_name(t->language, "value", 5);
    li->f_left = ts_language_field_id_for_name(t->language, "left", 4);
    li->f_right = ts_language_field_id_for_name(t->language, "right", 5);
    li->f_body = ts_language_field_id_for_name(t->language, "body", 4);
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
    langinfo(t);
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
    free(t->li.cls);
    free(t->li.kind);
    free(t->li.namelen);
    free(t->li.name_id);
    free(t->names);
    free(t->nodes);
    free(t->last);
    free(t->stack);
    free(t->buf);
    free(t->key);
    free(t->label);
    lt__dfg_ws_free(t->dfgws);
    free(t);
}

bool lt__trees_trim(struct lt__trees *t)
{
    if (t->n <= (1u << 20))
        return false;
    trees_reset_table(t);
    return true;
}

/* The type name of symbol sym. */
static const char *sym_name(const struct lt__trees *t, uint16_t sym,
                            size_t *len)
{
    if (sym < t->li.nsyms) {
        *len = t->li.namelen[sym];
        return t->names[sym];
    }
    const char *nm = ts_language_symbol_name(t->language, sym);
    if (!nm)
        nm = "";
    *len = strlen(nm);
    return nm;
}

/*** Flattening ***/

static void grow_nodes(struct lt__trees *t, size_t need)
{
    if (need <= t->nodes_cap)
        return;
    size_t cap = t->nodes_cap ? t->nodes_cap : 1024;
    while (cap < need)
        cap *= 2;
    t->nodes = xrealloc(t->nodes, cap * sizeof(*t->nodes));
    t->last = xrealloc(t->last, cap * sizeof(uint32_t));
    t->stack = xrealloc(t->stack, cap * sizeof(uint32_t));
    t->buf = xrealloc(t->buf, cap * sizeof(uint32_t));
    t->nodes_cap = cap;
}

/* Appends the cursor's node, a child of parent, to f; returns its index
 * and sets *kids to its number of visible children. */
static uint32_t add_node(struct lt__trees *t, struct lt__flat *f,
                         const TSTreeCursor *c, uint32_t parent,
                         uint32_t *kids)
{
    TSNode node = ts_tree_cursor_current_node(c);
    if (f->count == t->nodes_cap) {
        grow_nodes(t, f->count + 1);
        f->n = t->nodes;
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
    /* The root has no field; asking the cursor costs a lookup. */
    x->field = parent == LT__NONE ? 0 : ts_tree_cursor_current_field_id(c);
    x->named = ts_node_is_named(node);
    x->missing = ts_node_is_missing(node);
    *kids = ts_node_child_count(node);
    unsigned cl = lt__cls(&t->li, sym);
    x->flags = (uint8_t)(((cl & LT__C_COMMENT) ? LT__N_COMMENT : 0) |
                         ((cl & LT__C_STRLEAF) ? LT__N_STRLEAF : 0));
    t->last[i] = LT__NONE;
    if (parent != LT__NONE) {
        struct lt__node *p = &f->n[parent];
        if (p->first == LT__NONE)
            p->first = i;
        else
            f->n[t->last[parent]].next = i;
        t->last[parent] = i;
        p->nchild++;
        if (p->flags & LT__N_DROPPED)
            x->flags |= LT__N_DROPPED;
    }
    if (x->flags & LT__N_COMMENT)
        x->flags |= LT__N_DROPPED;
    return i;
}

/* Copies the visible nodes of tree into f (in t's reused memory).  Each
 * node's number of visible children (ts_node_child_count, a stored
 * count) says when the last child is reached, so the cursor never makes
 * the failing moves -- to the first child of a leaf, to the sibling
 * after the last -- that cost tree-sitter a search through the hidden
 * nodes around it. */
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
    size_t top = 0;
    grow_nodes(t, 1024);
    f->n = t->nodes;
    f->count = 0;
    uint32_t kids;
    uint32_t cur = add_node(t, f, c, LT__NONE, &kids);
    /* stack[k]: an ancestor; buf[k]: its children still to visit (the
     * stack holds ancestors of a node, so fewer than count; add_node may
     * move both) */
    for (;;) {
        if (kids > 0 && ts_tree_cursor_goto_first_child(c)) {
            t->stack[top] = cur;
            t->buf[top++] = kids - 1;
            cur = add_node(t, f, c, cur, &kids);
            continue;
        }
        for (;;) {
            if (top == 0)
                return;
            if (t->buf[top - 1] > 0 && ts_tree_cursor_goto_next_sibling(c)) {
                t->buf[top - 1]--;
                cur = add_node(t, f, c, t->stack[top - 1], &kids);
                break;
            }
            if (!ts_tree_cursor_goto_parent(c))
                return;
            top--;
        }
    }
}

/* Python statements made of one string literal (docstrings and the
 * like): the reference strips them before parsing (docs/similarity.md). */
static void mark_string_statements(const struct lt__trees *t,
                                   struct lt__flat *f)
{
    for (size_t i = 0; i < f->count; i++) {
        struct lt__node *x = &f->n[i];
        if (x->parent != LT__NONE && (f->n[x->parent].flags & LT__N_DROPPED))
            x->flags |= LT__N_DROPPED;
        if (x->flags & LT__N_DROPPED)
            continue;
        if (!(lt__cls(&t->li, x->sym) & LT__C_EXPRSTMT))
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
        if (lt__cls(&t->li, f->n[only].sym) & LT__C_STRING)
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

static void subtrees(struct lt__trees *t, const struct lt__flat *f,
                     struct lt__tree *tr)
{
    uint32_t *id = t->buf; /* per node */
    tr->subs = xmalloc((f->count + 1) * sizeof(uint32_t));
    tr->nsubs = 0;
    for (size_t ii = f->count; ii-- > 0;) {
        const struct lt__node *x = &f->n[ii];
        if ((x->flags & LT__N_DROPPED) && ii != 0)
            continue;
        size_t kn = 0;
        size_t need = 3 + 2 * (size_t)x->nchild;
        if (need > t->key_cap) {
            t->key_cap = need * 2;
            t->key = xrealloc(t->key, t->key_cap * sizeof(uint32_t));
        }
        uint32_t *key = t->key;
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

/*** Tree edit distance ***/

static void label_put(struct lt__trees *t, size_t *n, const char *s,
                      size_t len)
{
    if (*n + len > t->label_cap) {
        t->label_cap = (*n + len) * 2 + 256;
        t->label = xrealloc(t->label, t->label_cap);
    }
    memcpy(t->label + *n, s, len);
    *n += len;
}

/* Label of named node i: its type; for a node without named children,
 * also its source text; otherwise also its anonymous children other than
 * punctuation (operators and keywords), so `a < b` and `a >= b` differ. */
static uint32_t ted_label(struct lt__trees *t, struct lt__dict *d,
                          const struct lt__flat *f, uint32_t i)
{
    const struct lt__node *x = &f->n[i];
    size_t n = 0, len;
    const char *nm = sym_name(t, x->sym, &len);
    label_put(t, &n, nm, len);
    bool named_child = false;
    for (uint32_t c = x->first; c != LT__NONE; c = f->n[c].next)
        if (f->n[c].named && !(f->n[c].flags & LT__N_COMMENT))
            named_child = true;
    if (!named_child) {
        label_put(t, &n, ":", 1);
        label_put(t, &n, f->text + x->start, x->end - x->start);
    } else {
        for (uint32_t c = x->first; c != LT__NONE; c = f->n[c].next) {
            if (f->n[c].named || (lt__cls(&t->li, f->n[c].sym) & LT__C_PUNCT))
                continue;
            label_put(t, &n, " ", 1);
            nm = sym_name(t, f->n[c].sym, &len);
            label_put(t, &n, nm, len);
        }
    }
    return lt__dict_intern(d, t->label, n);
}

static void ted_prepare(struct lt__trees *t, struct lt__dict *d,
                        const struct lt__flat *f, struct lt__tree *tr)
{
    tr->lab = xmalloc((f->count + 1) * sizeof(uint32_t));
    tr->lml = xmalloc((f->count + 1) * sizeof(uint32_t));
    tr->tn = 0;
    /* Every node is pushed once, and once more to be closed. */
    uint32_t *stack = xmalloc(f->count * sizeof(uint32_t) * 2);
    uint32_t *start = t->buf;
    size_t top = 0;
    stack[top++] = 0;
    while (top) {
        uint32_t v = stack[--top];
        if (v & 0x80000000u) {
            v &= 0x7fffffffu;
            const struct lt__node *x = &f->n[v];
            if (x->named && !(x->flags & LT__N_COMMENT)) {
                tr->lab[tr->tn] = ted_label(t, d, f, v);
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
 * Let M be an ordered mapping of cost c containing the pair (x, y).  The
 * nodes left of x (before its leftmost leaf l(x) in post-order, and not
 * its ancestors) can only be mapped to nodes left of y, and likewise for
 * the nodes before x itself, so |x - y| <= c and |l(x) - l(y)| <= c; M
 * restricted to the two subtrees costs at most c - |l(x) - l(y)| (the
 * unmapped nodes on the left are paid outside them), and on the path of
 * that restricted mapping through the forest-distance table of the pass
 * for the key roots with leaves l(x), l(y), the two prefix sizes differ by
 * at most that much.  So the loops below run only the passes (i, j) with
 * |l(i) - l(j)| <= k, compute in each only the cells with |local x -
 * local y| <= k - |l(i) - l(j)|, and keep only the subtree distances with
 * |x - y| <= k; everything outside counts as BIG.  Every value below BIG
 * is then the cost of a real edit script (so >= the distance), and every
 * mapping of cost <= k is still represented (so the result is <= its
 * cost).  Hence: if the result is <= k it is the exact distance;
 * otherwise it is an upper bound, and a second run with k set to it is
 * exact. */
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

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* One pass of the banded algorithm: key roots i of T1 and j of T2, whose
 * leftmost leaves are dl = |l(i) - l(j)| <= k apart; forest-distance
 * cells with |x - y| <= kk = k - dl.  fd(x, y) lives at fd[x * S + (y - x
 * + kk + 1)] with S = 2 kk + 3; columns 0 and S - 1 of every row are BIG,
 * so the reads just outside the band need no test.  td(x, y) lives at
 * td[x * (2k + 1) + (y - x + k)]: every (di, dj) met here has |di - dj|
 * <= dl + kk = k, so no test either. */
static void zs_pass(uint32_t *td, uint32_t *fd, size_t k, size_t kk,
                    const uint32_t *lab1, const uint32_t *l1, uint32_t i,
                    const uint32_t *lab2, const uint32_t *l2, uint32_t j)
{
    const size_t W = 2 * k + 1, S = 2 * kk + 3;
    const uint32_t li = l1[i], lj = l2[j];
    const size_t rows = i - li + 1, cols = j - lj + 1;
    for (size_t x = 0; x <= rows && x <= cols + kk; x++)
        fd[x * S] = fd[x * S + S - 1] = TED_BIG;
    /* row 0: fd(0, y) = y */
    for (size_t y = 0; y <= cols && y <= kk; y++)
        fd[y + kk + 1] = (uint32_t)y;
    const size_t o2 = (size_t)lj - 1; /* dj = o2 + y (wraps for lj = 0) */
    for (size_t x = 1; x <= rows && x <= cols + kk; x++) {
        const uint32_t di = li + (uint32_t)x - 1;
        uint32_t *row = fd + (x * S + kk + 1 - x); /* row[y] = fd(x, y) */
        const uint32_t *prev = row - S + 1;         /* prev[y] = fd(x-1, y) */
        if (x <= kk)
            row[0] = (uint32_t)x;
        const size_t y0 = x > kk ? x - kk : 1;
        const size_t y1 = x + kk < cols ? x + kk : cols;
        /* td(di, o2 + y) = td[tb + y] */
        const size_t tb = (size_t)di * W + k + o2 - di;
        const uint32_t a = l1[di] - li; /* fd row of di's left forest */
        if (l1[di] == li) {
            const uint32_t labi = lab1[di];
            for (size_t y = y0; y <= y1; y++) {
                uint32_t v = min_u32(prev[y], row[y - 1]) + 1;
                if (l2[o2 + y] == lj) {
                    v = min_u32(v, prev[y - 1] + (labi != lab2[o2 + y]));
                    v = min_u32(v, TED_BIG);
                    td[tb + y] = v;
                } else {
                    uint32_t b = l2[o2 + y] - lj;
                    if ((a > b ? a - b : b - a) <= kk)
                        v = min_u32(v, fd[a * S + (b + kk + 1 - a)] + td[tb + y]);
                    v = min_u32(v, TED_BIG);
                }
                row[y] = v;
            }
        } else {
            const uint32_t *fa = fd + (a * S + kk + 1 - a); /* fa[b] */
            for (size_t y = y0; y <= y1; y++) {
                uint32_t v = min_u32(prev[y], row[y - 1]) + 1;
                uint32_t b = l2[o2 + y] - lj;
                if ((a > b ? a - b : b - a) <= kk)
                    v = min_u32(v, fa[b] + td[tb + y]);
                row[y] = min_u32(v, TED_BIG);
            }
        }
    }
}

static size_t zs_band(struct ted_ws *ws, const uint32_t *lab1,
                      const uint32_t *l1, size_t n1, const uint32_t *lab2,
                      const uint32_t *l2, size_t n2, size_t k)
{
    const size_t W = 2 * k + 1;
    ws_grow(&ws->td, &ws->td_cap, n1 * W);
    ws_grow(&ws->fd, &ws->fd_cap, (n1 + 1) * (W + 2));
    ws_grow(&ws->kr1, &ws->n1_cap, 2 * n1);
    ws_grow(&ws->by2, &ws->n2_cap, 3 * n2);
    uint32_t *td = ws->td, *by2 = ws->by2, *kr2 = ws->by2 + n2;
    uint32_t *js = ws->by2 + 2 * n2;
    size_t k1 = keyroots(l1, n1, ws->kr1, ws->kr1 + n1);
    keyroots(l2, n2, kr2, by2);
    for (size_t q = 0; q < n1 * W; q++)
        td[q] = TED_BIG;
    for (size_t x1 = 0; x1 < k1; x1++) {
        uint32_t i = ws->kr1[x1], li = l1[i];
        size_t lo = li > k ? li - k : 0;
        size_t hi = li + k < n2 - 1 ? li + k : n2 - 1;
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
            size_t dl = li > lj ? li - lj : lj - li;
            zs_pass(td, ws->fd, k, k - dl, lab1, l1, i, lab2, l2, j);
        }
    }
    if ((n1 > n2 ? n1 - n2 : n2 - n1) > k)
        return TED_BIG;
    return td[(n1 - 1) * W + (n2 - 1) + k - (n1 - 1)];
}

/* A lower bound on the distance: the edit distance between the two
 * post-order label sequences.  Relabelling a node substitutes its label
 * in the sequence, and deleting or inserting a node deletes or inserts
 * its label without moving the others (its children take its place), so
 * an edit script of cost d turns one sequence into the other with d
 * string edits (Guha et al. 2002).  It is never below max(n1, n2) minus
 * the labels the trees share as multisets. */
static size_t label_lower_bound(struct lt__scratch *sc, size_t nids,
                                const uint32_t *lab1, size_t n1,
                                const uint32_t *lab2, size_t n2)
{
    return lt__levenshtein(sc, nids, lab1, n1, lab2, n2);
}

size_t lt__ted_band(const uint32_t *lab1, const uint32_t *l1, size_t n1,
                    const uint32_t *lab2, const uint32_t *l2, size_t n2,
                    size_t k)
{
    if (n1 == 0 || n2 == 0)
        return n1 + n2;
    struct ted_ws ws = {0};
    size_t d = zs_band(&ws, lab1, l1, n1, lab2, l2, n2, k < 1 ? 1 : k);
    free(ws.td);
    free(ws.fd);
    free(ws.kr1);
    free(ws.by2);
    return d >= TED_BIG ? SIZE_MAX : d;
}

/* The distance; sc and nids (labels are < nids) for the lower bound's
 * bit-parallel pass, or NULL to use memory of its own. */
static size_t ted(struct lt__scratch *sc, size_t nids, const uint32_t *lab1,
                  const uint32_t *l1, size_t n1, const uint32_t *lab2,
                  const uint32_t *l2, size_t n2)
{
    if (n1 == 0 || n2 == 0)
        return n1 + n2;
    size_t big = n1 > n2 ? n1 : n2;
    struct lt__scratch own = {0};
    if (!sc) {
        nids = 0;
        for (size_t i = 0; i < n1; i++)
            if (lab1[i] >= nids)
                nids = (size_t)lab1[i] + 1;
        for (size_t i = 0; i < n2; i++)
            if (lab2[i] >= nids)
                nids = (size_t)lab2[i] + 1;
        sc = &own;
    }
    size_t lb = label_lower_bound(sc, nids, lab1, n1, lab2, n2);
    lt__scratch_free(&own);
    /* Trees of the same shape (equal post-order leftmost leaves): mapping
     * every node to its counterpart costs the number of labels that
     * differ, an upper bound; when it meets the lower bound it is the
     * distance. */
    size_t ub = SIZE_MAX;
    if (n1 == n2 && memcmp(l1, l2, n1 * sizeof(uint32_t)) == 0) {
        ub = 0;
        for (size_t i = 0; i < n1; i++)
            ub += lab1[i] != lab2[i];
        if (ub == lb)
            return ub;
    }
    size_t k = lb < 1 ? 1 : lb;
    struct ted_ws ws = {0};
    size_t d = SIZE_MAX;
    while (k < big) {
        d = zs_band(&ws, lab1, l1, n1, lab2, l2, n2, k);
        if (d <= k)
            break;
        /* The band finds every script of cost <= k, so the distance is
         * above k; d is the cost of a script.  When they meet, done. */
        lb = k + 1;
        if (d == lb)
            break;
        if (ub == lb) {
            d = ub;
            break;
        }
        /* A band of d is exact; try 2k first.  So is a band of ub. */
        size_t nk = d < 2 * k ? d : 2 * k;
        if (ub < nk)
            nk = ub;
        d = SIZE_MAX;
        if (nk <= k) /* cannot happen; the plain algorithm decides */
            break;
        k = nk;
    }
    free(ws.td);
    free(ws.fd);
    free(ws.kr1);
    free(ws.by2);
    if (d == SIZE_MAX) /* the band would cover everything */
        d = zs_full(lab1, l1, n1, lab2, l2, n2);
    return d;
}

size_t lt__ted_arrays(const uint32_t *lab1, const uint32_t *l1, size_t n1,
                      const uint32_t *lab2, const uint32_t *l2, size_t n2,
                      bool reference)
{
    if (n1 == 0 || n2 == 0)
        return n1 + n2;
    if (reference)
        return zs_full(lab1, l1, n1, lab2, l2, n2);
    return ted(NULL, 0, lab1, l1, n1, lab2, l2, n2);
}

/* Zhang-Shasha distance between the two named-node trees. */
size_t lt__tree_edit(const struct lt__tree *a, const struct lt__tree *b,
                     struct lt__scratch *sc, size_t nids)
{
    size_t n1 = a->tn, n2 = b->tn;
    if (n1 == 0 || n2 == 0)
        return n1 + n2;
    if (n1 == n2 && memcmp(a->lab, b->lab, n1 * sizeof(uint32_t)) == 0 &&
        memcmp(a->lml, b->lml, n1 * sizeof(uint32_t)) == 0)
        return 0; /* identical trees */
    if ((double)n1 * (double)n2 > TED_MAX_CELLS)
        return SIZE_MAX;
    return ted(sc, nids, a->lab, a->lml, n1, b->lab, b->lml, n2);
}

/*** Parse ***/

/* The row and column of byte off of a text whose lines are l. */
static TSPoint point_at(const struct lt__lines *l, const char *text,
                        uint32_t off)
{
    if (l->n == 0)
        return (TSPoint){0, 0};
    size_t lo = 0, hi = l->n; /* the row is the last line starting <= off */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (l->start[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    /* Just past a final newline: the start of a row of its own. */
    if (off == l->start[l->n] && off > 0 && text[off - 1] == '\n' &&
        lo == l->n - 1)
        return (TSPoint){(uint32_t)l->n, 0};
    return (TSPoint){(uint32_t)lo, off - l->start[lo]};
}

/* p moved past the n bytes of s. */
static TSPoint point_after(TSPoint p, const char *s, size_t n)
{
    const char *e = s + n, *nl;
    while ((nl = memchr(s, '\n', (size_t)(e - s))) != NULL) {
        p.row++;
        p.column = 0;
        s = nl + 1;
    }
    p.column += (uint32_t)(e - s);
    return p;
}

/* Tree-sitter's incremental parse: a copy of the base's tree (shallow;
 * editing it leaves the base alone) is told of each hunk, from the last
 * to the first so that every hunk's offsets are still those of the base
 * text when it is applied, and the parser reuses the subtrees the edits
 * do not touch.  Tree-sitter's promise, and what the unit tests and the
 * benchmark's --dump check, is that the result equals a fresh parse of
 * the new text.  Error recovery is where that is least certain (the
 * parser's choices depend on the stack it happens to have), so a base
 * with a syntax error is not used, and a result with one is thrown away
 * for a fresh parse.  An incremental parse can also cost as much as a
 * fresh one (an edit that changes the indentation of what follows, or
 * error recovery): b->budget_us, when not 0, bounds its time, and past
 * it the parse starts again afresh.  Either way the tree is the same. */
static TSTree *parse_from(struct lt__trees *t, const char *text, size_t len,
                          const struct lt__base *b)
{
    TSTree *old = ts_tree_copy(b->tree->ts);
    for (size_t i = b->hunks->n; i-- > 0;) {
        const struct lt__hunk *h = &b->hunks->v[i];
        TSInputEdit e;
        e.start_byte = h->old_start;
        e.old_end_byte = h->old_start + h->old_len;
        e.new_end_byte = h->old_start + h->new_len;
        e.start_point = point_at(b->lines, b->text, e.start_byte);
        e.old_end_point = point_at(b->lines, b->text, e.old_end_byte);
        e.new_end_point = point_after(e.start_point, text + h->new_start,
                                      h->new_len);
        ts_tree_edit(old, &e);
    }
    if (b->budget_us)
        ts_parser_set_timeout_micros(t->parser, b->budget_us);
    TSTree *tree = ts_parser_parse_string(t->parser, old, text, (uint32_t)len);
    ts_tree_delete(old);
    if (b->budget_us) {
        ts_parser_set_timeout_micros(t->parser, 0);
        if (!tree) /* out of time: start the next parse from scratch */
            ts_parser_reset(t->parser);
    }
    if (tree && ts_node_has_error(ts_tree_root_node(tree))) {
        ts_tree_delete(tree);
        tree = NULL;
    }
    return tree;
}

/* Parses text (afresh, or from base when it is given and has no syntax
 * error); the caller frees the result with lt__tree_free.  NULL when the
 * parser fails. */
struct lt__tree *lt__tree_parse_text(struct lt__trees *t, const char *text,
                                     size_t len, const struct lt__base *base,
                                     double *prof)
{
    if (len > UINT32_MAX)
        return NULL;
    double tm = prof ? lt__sim_now() : 0;
    TSTree *tree = NULL;
    bool inc = false;
    if (base && base->tree->ts && !base->tree->error) {
        tree = parse_from(t, text, len, base);
        inc = tree != NULL;
    }
    if (!tree)
        tree = ts_parser_parse_string(t->parser, NULL, text, (uint32_t)len);
    if (!tree)
        return NULL;
    struct lt__tree *tr = xcalloc(1, sizeof(*tr));
    tr->ts = tree;
    tr->error = ts_node_has_error(ts_tree_root_node(tree));
    tr->incremental = inc;
    lt__sim_lap(prof, LT__PH_PARSE, &tm);
    return tr;
}

/* Fills tr's subtree ids, data flow and tree-edit labels (as `what`
 * asks) from its tree-sitter tree; d interns the labels. */
void lt__tree_derive(struct lt__trees *t, struct lt__dict *d,
                     struct lt__tree *tr, const char *text, size_t len,
                     unsigned what, double *prof)
{
    double tm = prof ? lt__sim_now() : 0;
    struct lt__flat f = {.text = text, .len = len, .language = t->language};
    flatten(t, tr->ts, &f);
    lt__sim_lap(prof, LT__PH_FLATTEN, &tm);
    if (t->lang == LT_SIM_PYTHON)
        mark_string_statements(t, &f);
    if (what & LT__TREE_SYNTAX)
        subtrees(t, &f, tr);
    lt__sim_lap(prof, LT__PH_SUBTREES, &tm);
    if (what & LT__TREE_DFG) {
        lt__dfg_build(&tr->dfg, &f, &t->li, d, &t->dfgws);
        tr->has_dfg = true;
        lt__sim_lap(prof, LT__PH_DFG, &tm);
    }
    if (what & LT__TREE_TED) {
        ted_prepare(t, d, &f, tr);
        lt__sim_lap(prof, LT__PH_TEDPREP, &tm);
    }
    /* The flat tree lives in t's memory and the text is the caller's:
     * the tree keeps neither. */
}

bool lt__tree_has_error(const struct lt__tree *tr)
{
    return tr->error;
}

bool lt__tree_incremental(const struct lt__tree *tr)
{
    return tr->incremental;
}

const void *lt__tree_ts(const struct lt__tree *tr)
{
    return tr->ts;
}

void lt__tree_free(struct lt__tree *tr)
{
    if (!tr)
        return;
    free(tr->subs);
    if (tr->has_dfg)
        lt__dfg_free(&tr->dfg);
    free(tr->lab);
    free(tr->lml);
    if (tr->ts)
        ts_tree_delete(tr->ts);
    free(tr);
}

/* Multiset intersection of the normalised edges, which lt__dfg_build
 * sorted (lt__dfg_edge_cmp). */
void lt__dataflow_match(const struct lt__tree *cand,
                        const struct lt__tree *ref, size_t *match,
                        size_t *total)
{
    size_t nc = cand->dfg.n, nr = ref->dfg.n;
    const struct lt__dfg_edge *c = cand->dfg.e, *r = ref->dfg.e;
    size_t i = 0, j = 0, m = 0;
    while (i < nr && j < nc) {
        int k = lt__dfg_edge_cmp(&r[i], &c[j]);
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
    *match += m;
    *total += nr;
}
