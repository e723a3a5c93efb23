/* CodeBLEU's data-flow graph: the reference implementation's DFG_python
 * and DFG_java rules (CodeXGLUE, as packaged by k4black/codebleu),
 * re-stated over the flattened tree, then its merge and its renaming of
 * variables by first appearance.  Where the reference's result depends on
 * Python set order we keep first appearance (docs/similarity.md).
 *
 * Memory: everything temporary comes from an arena that is reset, not
 * freed, between trees; type tests are per-symbol class bits
 * (lt__langinfo), not string compares.
 * SPDX-License-Identifier: MIT */
#include "engine/similarity/internal.h"

#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

#include "common/xmalloc.h"

/* Contract: see internal.h (here, the bottom file of the tree code:
 * tree.c calls dfg.c, never the reverse). */
const char *lt__flat_type(const struct lt__flat *f, uint32_t i)
{
    return ts_language_symbol_name((const TSLanguage *)f->language,
                                   f->n[i].sym);
}

/*** Arena ***/

struct block {
    struct block *prev;
    size_t used, cap; /* in 8-byte words */
    uint64_t v[];
};

struct arena {
    struct block *b;
    size_t total; /* words in all blocks */
};

static void *arena_more(struct arena *a, size_t n);

static inline void *arena_alloc(struct arena *a, size_t bytes)
{
    size_t n = bytes ? (bytes + 7) / 8 : 1;
    struct block *b = a->b;
    if (b && b->used + n <= b->cap) {
        void *p = b->v + b->used;
        b->used += n;
        return p;
    }
    return arena_more(a, n);
}

/* arena_alloc of n words when the current block is full. */
static void *arena_more(struct arena *a, size_t n)
{
    size_t cap = a->b ? a->b->cap * 2 : 8192;
    if (cap < n)
        cap = n;
    struct block *b = xmalloc(sizeof(*b) + cap * sizeof(uint64_t));
    b->prev = a->b;
    b->used = n;
    b->cap = cap;
    a->b = b;
    a->total += cap;
    return b->v;
}

static void arena_free(struct arena *a)
{
    while (a->b) {
        struct block *p = a->b->prev;
        free(a->b);
        a->b = p;
    }
    a->total = 0;
}

/* Empties the arena, keeping (or making) one block as large as all the
 * memory the last use needed. */
static void arena_reset(struct arena *a)
{
    if (a->b && a->b->prev) {
        size_t total = a->total;
        arena_free(a);
        struct block *b = xmalloc(sizeof(*b) + total * sizeof(uint64_t));
        b->prev = NULL;
        b->cap = total;
        a->b = b;
        a->total = total;
    }
    if (a->b)
        a->b->used = 0;
}

/* Reusable memory of lt__dfg_build. */
struct lt__dfg_ws {
    struct arena ar;
    uint32_t *tokof, *tokidx, *tokcode, *stack, *node_of;
    size_t nodes_cap;
    char *text;
    size_t text_cap;
};

void lt__dfg_ws_free(struct lt__dfg_ws *ws)
{
    if (!ws)
        return;
    arena_free(&ws->ar);
    free(ws->tokof);
    free(ws->tokidx);
    free(ws->tokcode);
    free(ws->stack);
    free(ws->node_of);
    free(ws->text);
    free(ws);
}

/*** Entries: (name, idx, relation, parent names, parent idxs) ***/

struct ent {
    uint32_t name, idx, rel, seq;
    uint32_t np, ni;
    uint32_t *pn, *pi;
};

struct ents {
    struct ent *v;
    size_t n, cap;
};

/*** States: variable name -> sorted list of defining token indices ***/

struct sval {
    uint32_t key; /* name + 1; 0 empty */
    uint32_t n;
    uint32_t *v;
};

struct states {
    struct sval *t;
    size_t cap, count;
};

enum kind {
    K_OTHER,
    K_DEF,       /* default_parameter, variable_declarator */
    K_ASSIGN,    /* Python assignment, augmented_assignment */
    K_FORIN,     /* Python for_in_clause (assignment and do-first) */
    K_JASSIGN,   /* Java assignment_expression */
    K_INCR,      /* Java update_expression */
    K_IF,        /* if_statement (and Java's "else") */
    K_FOR,       /* for_statement */
    K_EFOR,      /* Java enhanced_for_statement */
    K_WHILE,     /* while_statement */
};

struct ctx {
    const struct lt__flat *f;
    const struct lt__langinfo *li;
    enum lt_sim_lang lang;
    struct lt__dict *d;
    struct arena *ar;
    uint32_t *tokof;   /* per node: token index, LT__NONE if not a token */
    uint32_t *tokidx;  /* per token: idx after span collisions */
    uint32_t *tokcode; /* per token: dict id of its text */
    uint32_t ntok;
    uint32_t seq;
    bool fail;
    int depth;
};

static void *amalloc(struct ctx *c, size_t bytes)
{
    return arena_alloc(c->ar, bytes);
}

static uint32_t *alloc_u32(struct ctx *c, size_t n)
{
    return amalloc(c, n * sizeof(uint32_t));
}

/* The per-symbol tables cover the grammar's symbols only: an ERROR node
 * has tree-sitter's built-in symbol 0xFFFF (ts_builtin_sym_error), which
 * is no rule's kind and whose type name "ERROR" has no "else". */
static uint8_t node_kind(const struct ctx *c, uint32_t i)
{
    uint16_t s = c->f->n[i].sym;
    return s < c->li->nsyms ? c->li->kind[s] : K_OTHER;
}

static bool node_is(const struct ctx *c, uint32_t i, unsigned cls)
{
    return (lt__cls(c->li, c->f->n[i].sym) & cls) != 0;
}

static void push(struct ctx *c, struct ents *e, uint32_t name, uint32_t idx,
                 uint32_t rel, uint32_t np, uint32_t *pn, uint32_t ni,
                 uint32_t *pi)
{
    if (e->n == e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 64;
        struct ent *v = amalloc(c, cap * sizeof(*v));
        if (e->n)
            memcpy(v, e->v, e->n * sizeof(*v));
        e->v = v;
        e->cap = cap;
    }
    e->v[e->n++] = (struct ent){name, idx, rel, c->seq++, np, ni, pn, pi};
}

static struct sval *st_find(const struct states *s, uint32_t name)
{
    if (!s->cap)
        return NULL;
    size_t mask = s->cap - 1;
    size_t j = (name * 2654435761u) & mask;
    while (s->t[j].key) {
        if (s->t[j].key == name + 1)
            return &s->t[j];
        j = (j + 1) & mask;
    }
    return NULL;
}

static void st_set(struct ctx *c, struct states *s, uint32_t name,
                   uint32_t n, uint32_t *v)
{
    if ((s->count + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 16;
        struct sval *t = amalloc(c, ncap * sizeof(*t));
        memset(t, 0, ncap * sizeof(*t));
        for (size_t i = 0; i < s->cap; i++)
            if (s->t[i].key) {
                size_t j = ((s->t[i].key - 1) * 2654435761u) & (ncap - 1);
                while (t[j].key)
                    j = (j + 1) & (ncap - 1);
                t[j] = s->t[i];
            }
        s->t = t;
        s->cap = ncap;
    }
    size_t mask = s->cap - 1;
    size_t j = (name * 2654435761u) & mask;
    while (s->t[j].key && s->t[j].key != name + 1)
        j = (j + 1) & mask;
    if (!s->t[j].key)
        s->count++;
    s->t[j] = (struct sval){name + 1, n, v};
}

static void st_set1(struct ctx *c, struct states *s, uint32_t name,
                    uint32_t idx)
{
    uint32_t *v = alloc_u32(c, 1);
    v[0] = idx;
    st_set(c, s, name, 1, v);
}

static void st_copy(struct ctx *c, struct states *dst, const struct states *src)
{
    dst->cap = src->cap;
    dst->count = src->count;
    dst->t = NULL;
    if (src->cap) {
        dst->t = amalloc(c, src->cap * sizeof(*dst->t));
        memcpy(dst->t, src->t, src->cap * sizeof(*dst->t));
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v[0..n) and drops repeats; returns the new length. */
static uint32_t sort_unique(uint32_t *v, uint32_t n)
{
    if (n < 2)
        return n;
    if (n <= 32) {
        for (uint32_t i = 1; i < n; i++) {
            uint32_t x = v[i], j = i;
            for (; j > 0 && v[j - 1] > x; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
    } else {
        qsort(v, n, sizeof(uint32_t), cmp_u32);
    }
    uint32_t o = 1;
    for (uint32_t i = 1; i < n; i++)
        if (v[i] != v[o - 1])
            v[o++] = v[i];
    return o;
}

/* The union of several states, each list sorted and deduplicated. */
static void st_union(struct ctx *c, struct states *out,
                     const struct states *ins, size_t nin)
{
    memset(out, 0, sizeof(*out));
    for (size_t k = 0; k < nin; k++)
        for (size_t i = 0; i < ins[k].cap; i++) {
            const struct sval *x = &ins[k].t[i];
            if (!x->key)
                continue;
            struct sval *y = st_find(out, x->key - 1);
            if (!y) {
                uint32_t *v = alloc_u32(c, x->n);
                memcpy(v, x->v, x->n * sizeof(uint32_t));
                st_set(c, out, x->key - 1, x->n, v);
            } else {
                uint32_t *v = alloc_u32(c, y->n + x->n);
                memcpy(v, y->v, y->n * sizeof(uint32_t));
                memcpy(v + y->n, x->v, x->n * sizeof(uint32_t));
                y->v = v;
                y->n += x->n;
            }
        }
    for (size_t i = 0; i < out->cap; i++)
        if (out->t[i].key)
            out->t[i].n = sort_unique(out->t[i].v, out->t[i].n);
}

/*** Tree helpers ***/

static bool leaf_like(const struct ctx *c, uint32_t i)
{
    const struct lt__node *x = &c->f->n[i];
    return (x->nchild == 0 || (x->flags & LT__N_STRLEAF)) &&
           !(x->flags & LT__N_COMMENT);
}

static uint32_t field_child(const struct ctx *c, uint32_t i, uint16_t field)
{
    if (!field)
        return LT__NONE;
    for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
        if (c->f->n[k].field == field)
            return k;
    return LT__NONE;
}

static uint32_t last_child(const struct ctx *c, uint32_t i)
{
    uint32_t l = LT__NONE;
    for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
        l = k;
    return l;
}

/* The reference's `root_node.type == code`: a token whose text is its
 * own type (keywords, punctuation) is not a variable. */
static bool self_typed(const struct ctx *c, uint32_t i)
{
    uint32_t t = c->tokof[i];
    uint16_t sym = c->f->n[i].sym;
    if (sym < c->li->nsyms)
        return c->tokcode[t] == c->li->name_id[sym];
    size_t n;
    const char *code = lt__dict_str(c->d, c->tokcode[t], &n);
    const char *ty = lt__flat_type(c->f, i);
    return strlen(ty) == n && memcmp(ty, code, n) == 0;
}

struct u32v {
    uint32_t *v;
    size_t n, cap;
};

static void u32_push(struct ctx *c, struct u32v *x, uint32_t v)
{
    if (x->n == x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 16;
        uint32_t *nv = alloc_u32(c, cap);
        if (x->n)
            memcpy(nv, x->v, x->n * sizeof(uint32_t));
        x->v = nv;
        x->cap = cap;
    }
    x->v[x->n++] = v;
}

/* tree_to_variable_index: tokens under node i whose text is not their
 * type, as token numbers. */
static void var_tokens(struct ctx *c, uint32_t i, struct u32v *out)
{
    if (i == LT__NONE) {
        c->fail = true;
        return;
    }
    if (leaf_like(c, i)) {
        if (!self_typed(c, i))
            u32_push(c, out, c->tokof[i]);
        return;
    }
    for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
        var_tokens(c, k, out);
}

/* Children of i other than ",". */
static void children_nocomma(struct ctx *c, uint32_t i, struct u32v *out)
{
    out->n = 0;
    for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
        if (!node_is(c, k, LT__C_COMMA))
            u32_push(c, out, k);
}

/*** The rules ***/

static void dfg(struct ctx *c, uint32_t i, struct states *st, struct ents *out);

/* Ordered union of name lists (first appearance), and sorted union of
 * index lists, of the entries g[0..n). */
static void union_lists(struct ctx *c, const struct ent *g, size_t n,
                        uint32_t *np, uint32_t **pn, uint32_t *ni,
                        uint32_t **pi)
{
    size_t tn = 0, ti = 0;
    for (size_t k = 0; k < n; k++) {
        tn += g[k].np;
        ti += g[k].ni;
    }
    uint32_t *a = alloc_u32(c, tn), *b = alloc_u32(c, ti);
    uint32_t on = 0, oi = 0;
    for (size_t k = 0; k < n; k++) {
        for (uint32_t q = 0; q < g[k].np; q++) {
            uint32_t v = g[k].pn[q];
            bool dup = false;
            for (uint32_t r = 0; r < on && !dup; r++)
                dup = a[r] == v;
            if (!dup)
                a[on++] = v;
        }
        for (uint32_t q = 0; q < g[k].ni; q++)
            b[oi++] = g[k].pi[q];
    }
    *np = on;
    *pn = a;
    *ni = sort_unique(b, oi);
    *pi = b;
}

/* Sorts v[0..n) by idx, keeping the order of equal idx (a natural merge
 * sort: the entries come as a few ascending runs, one per walk of a loop
 * body).  tmp holds n entries. */
static void sort_by_idx(struct ent *v, size_t n, struct ent *tmp)
{
    if (n < 2)
        return;
    struct ent *src = v, *dst = tmp;
    for (;;) {
        size_t runs = 0;
        for (size_t a = 0; a < n;) {
            size_t m = a + 1;
            while (m < n && src[m - 1].idx <= src[m].idx)
                m++;
            size_t b = m;
            if (m < n) {
                b = m + 1;
                while (b < n && src[b - 1].idx <= src[b].idx)
                    b++;
            }
            /* merge src[a, m) and src[m, b) into dst[a, b) */
            size_t i = a, j = m, o = a;
            while (i < m && j < b)
                dst[o++] = src[j].idx < src[i].idx ? src[j++] : src[i++];
            while (i < m)
                dst[o++] = src[i++];
            while (j < b)
                dst[o++] = src[j++];
            runs++;
            a = b;
        }
        struct ent *t = src;
        src = dst;
        dst = t;
        if (runs <= 1)
            break;
    }
    if (src != v)
        memcpy(v, src, n * sizeof(*v));
}

static int cmp_group(const void *x, const void *y)
{
    const struct ent *a = x, *b = y;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    if (a->rel != b->rel)
        return a->rel < b->rel ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int cmp_seq(const void *x, const void *y)
{
    const struct ent *a = x, *b = y;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The loops' merge of entries with equal (name, idx, relation), listed by
 * idx and then first appearance; each merged entry has the fields of the
 * first and the unions of the lists, in order of appearance.  The input
 * is in order of appearance (seq). */
static void loop_merge(struct ctx *c, struct ents *loop, struct ents *out)
{
    if (loop->n == 0)
        return;
    struct ent *tmp = amalloc(c, loop->n * sizeof(*tmp));
    sort_by_idx(loop->v, loop->n, tmp);
    uint8_t *done = amalloc(c, loop->n);
    for (size_t a = 0; a < loop->n;) {
        size_t b = a + 1;
        while (b < loop->n && loop->v[b].idx == loop->v[a].idx)
            b++;
        struct ent *g = loop->v + a;
        size_t gn = b - a;
        if (gn > 16) {
            /* many entries for one token (nested loops): sort the run by
             * (name, rel, seq), merge, and put it back in seq order */
            qsort(g, gn, sizeof(*g), cmp_group);
            size_t ng = 0;
            for (size_t p = 0; p < gn;) {
                size_t q = p + 1;
                while (q < gn && g[q].name == g[p].name && g[q].rel == g[p].rel)
                    q++;
                struct ent m = g[p];
                if (q - p > 1)
                    union_lists(c, g + p, q - p, &m.np, &m.pn, &m.ni, &m.pi);
                tmp[ng++] = m;
                p = q;
            }
            qsort(tmp, ng, sizeof(*tmp), cmp_seq);
            for (size_t k = 0; k < ng; k++)
                push(c, out, tmp[k].name, tmp[k].idx, tmp[k].rel, tmp[k].np,
                     tmp[k].pn, tmp[k].ni, tmp[k].pi);
        } else {
            memset(done, 0, gn);
            for (size_t p = 0; p < gn; p++) {
                if (done[p])
                    continue;
                /* the group of g[p]: later entries with its name and rel */
                size_t k = 0;
                for (size_t q = p; q < gn; q++)
                    if (!done[q] && g[q].name == g[p].name &&
                        g[q].rel == g[p].rel) {
                        done[q] = 1;
                        tmp[k++] = g[q];
                    }
                struct ent m = g[p];
                if (k > 1)
                    union_lists(c, tmp, k, &m.np, &m.pn, &m.ni, &m.pi);
                push(c, out, m.name, m.idx, m.rel, m.np, m.pn, m.ni, m.pi);
            }
        }
        a = b;
    }
}

/* Edges name <- each value token, one entry per pair (def and the Java
 * assignment). */
static void pairwise(struct ctx *c, struct states *st, struct ents *out,
                     const struct u32v *names, const struct u32v *vals,
                     uint32_t rel)
{
    for (size_t a = 0; a < names->n; a++) {
        uint32_t t1 = names->v[a];
        for (size_t b = 0; b < vals->n; b++) {
            uint32_t t2 = vals->v[b];
            uint32_t *pn = alloc_u32(c, 2), *pi = pn + 1;
            pn[0] = c->tokcode[t2];
            pi[0] = c->tokidx[t2];
            push(c, out, c->tokcode[t1], c->tokidx[t1], rel, 1, pn, 1, pi);
        }
        st_set1(c, st, c->tokcode[t1], c->tokidx[t1]);
    }
}

/* Python's assignment edges: each left token computedFrom all the right
 * tokens of its pair. */
static void assign_pairs(struct ctx *c, struct states *st, struct ents *out,
                         const struct u32v *lefts, const struct u32v *rights)
{
    struct u32v lt = {0}, rt = {0};
    size_t n = lefts->n < rights->n ? lefts->n : rights->n;
    for (size_t k = 0; k < n; k++) {
        lt.n = rt.n = 0;
        var_tokens(c, lefts->v[k], &lt);
        var_tokens(c, rights->v[k], &rt);
        if (lt.n == 0)
            continue;
        /* the parent lists are the same for every left token */
        uint32_t *pn = alloc_u32(c, rt.n);
        uint32_t *pi = alloc_u32(c, rt.n);
        for (size_t b = 0; b < rt.n; b++) {
            pn[b] = c->tokcode[rt.v[b]];
            pi[b] = c->tokidx[rt.v[b]];
        }
        for (size_t a = 0; a < lt.n; a++) {
            uint32_t t1 = lt.v[a];
            push(c, out, c->tokcode[t1], c->tokidx[t1], 1, (uint32_t)rt.n, pn,
                 (uint32_t)rt.n, pi);
            st_set1(c, st, c->tokcode[t1], c->tokidx[t1]);
        }
    }
}

/* Python's left/right lists: the children other than ",", or the nodes
 * themselves when the counts differ or a side has no children. */
static void sides(struct ctx *c, uint32_t left, uint32_t right,
                  struct u32v *lefts, struct u32v *rights)
{
    children_nocomma(c, left, lefts);
    children_nocomma(c, right, rights);
    if (lefts->n != rights->n) {
        lefts->n = rights->n = 0;
        u32_push(c, lefts, left);
        u32_push(c, rights, right);
    }
    if (lefts->n == 0)
        u32_push(c, lefts, left);
    if (rights->n == 0)
        u32_push(c, rights, right);
}

static void leaf(struct ctx *c, uint32_t i, struct states *st,
                 struct ents *out)
{
    if (self_typed(c, i))
        return;
    uint32_t t = c->tokof[i];
    uint32_t code = c->tokcode[t], idx = c->tokidx[t];
    struct sval *s = st_find(st, code);
    if (s) {
        uint32_t *pn = alloc_u32(c, 1);
        pn[0] = code;
        push(c, out, code, idx, 0, 1, pn, s->n, s->v);
        return;
    }
    if (node_is(c, i, LT__C_IDENT))
        st_set1(c, st, code, idx);
    push(c, out, code, idx, 0, 0, NULL, 0, NULL);
}

static void do_def(struct ctx *c, uint32_t i, struct states *st,
                   struct ents *out)
{
    uint32_t name = field_child(c, i, c->li->f_name);
    uint32_t value = field_child(c, i, c->li->f_value);
    struct u32v nt = {0}, vt = {0};
    var_tokens(c, name, &nt);
    if (value == LT__NONE) {
        for (size_t a = 0; a < nt.n; a++) {
            push(c, out, c->tokcode[nt.v[a]], c->tokidx[nt.v[a]], 0, 0, NULL,
                 0, NULL);
            st_set1(c, st, c->tokcode[nt.v[a]], c->tokidx[nt.v[a]]);
        }
    } else {
        var_tokens(c, value, &vt);
        dfg(c, value, st, out);
        pairwise(c, st, out, &nt, &vt, 0);
    }
}

static void do_py_assign(struct ctx *c, uint32_t i, struct states *st,
                         struct ents *out)
{
    struct u32v lefts = {0}, rights = {0};
    if (node_kind(c, i) == K_FORIN) {
        u32_push(c, &rights, last_child(c, i));
        u32_push(c, &lefts, field_child(c, i, c->li->f_left));
    } else {
        uint32_t right = field_child(c, i, c->li->f_right);
        if (right == LT__NONE)
            return;
        uint32_t left = field_child(c, i, c->li->f_left);
        if (left == LT__NONE) {
            c->fail = true;
            return;
        }
        sides(c, left, right, &lefts, &rights);
    }
    for (size_t k = 0; k < rights.n; k++)
        dfg(c, rights.v[k], st, out);
    assign_pairs(c, st, out, &lefts, &rights);
}

static void do_if(struct ctx *c, uint32_t i, struct states *st,
                  struct ents *out)
{
    struct states cur;
    st_copy(c, &cur, st);
    struct states *others = NULL;
    size_t no = 0, cap = 0;
    bool tag = node_is(c, i, LT__C_HASELSE);
    bool flag = false;
    for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next) {
        if (node_is(c, k, LT__C_HASELSE))
            tag = true;
        bool branch;
        if (c->lang == LT_SIM_PYTHON)
            branch = node_is(c, k, LT__C_ELIFELSE);
        else
            branch = flag || node_kind(c, k) == K_IF;
        if (!branch) {
            dfg(c, k, &cur, out);
            continue;
        }
        flag = true;
        if (no + 2 >= cap) {
            size_t ncap = cap ? cap * 2 : 8;
            struct states *o = amalloc(c, ncap * sizeof(*o));
            if (no)
                memcpy(o, others, no * sizeof(*o));
            others = o;
            cap = ncap;
        }
        st_copy(c, &others[no], st);
        dfg(c, k, &others[no], out);
        no++;
    }
    if (no + 2 >= cap) {
        size_t ncap = cap + 4;
        struct states *o = amalloc(c, ncap * sizeof(*o));
        if (no)
            memcpy(o, others, no * sizeof(*o));
        others = o;
        cap = ncap;
    }
    others[no++] = cur;
    if (!tag)
        others[no++] = *st; /* read only from here on */
    struct states merged;
    st_union(c, &merged, others, no);
    *st = merged;
}

static void do_py_for(struct ctx *c, uint32_t i, struct states *st,
                      struct ents *out)
{
    uint32_t left = field_child(c, i, c->li->f_left);
    uint32_t right = field_child(c, i, c->li->f_right);
    if (left == LT__NONE || right == LT__NONE) {
        c->fail = true;
        return;
    }
    struct ents loop = {0};
    struct u32v lefts = {0}, rights = {0};
    uint32_t last = last_child(c, i);
    for (int it = 0; it < 2 && !c->fail; it++) {
        sides(c, left, right, &lefts, &rights);
        for (size_t k = 0; k < rights.n; k++)
            dfg(c, rights.v[k], st, &loop);
        assign_pairs(c, st, &loop, &lefts, &rights);
        if (last != LT__NONE && node_is(c, last, LT__C_BLOCK))
            dfg(c, last, st, &loop);
    }
    loop_merge(c, &loop, out);
}

static void do_while(struct ctx *c, uint32_t i, struct states *st,
                     struct ents *out)
{
    struct ents loop = {0};
    for (int it = 0; it < 2; it++)
        for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
            dfg(c, k, st, &loop);
    loop_merge(c, &loop, out);
}

static void do_java_for(struct ctx *c, uint32_t i, struct states *st,
                        struct ents *out)
{
    struct ents loop = {0};
    for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
        dfg(c, k, st, &loop);
    bool flag = false;
    for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next) {
        if (flag)
            dfg(c, k, st, &loop);
        else if (node_is(c, k, LT__C_LOCALVAR))
            flag = true;
    }
    loop_merge(c, &loop, out);
}

static void do_java_efor(struct ctx *c, uint32_t i, struct states *st,
                         struct ents *out)
{
    uint32_t name = field_child(c, i, c->li->f_name);
    uint32_t value = field_child(c, i, c->li->f_value);
    uint32_t body = field_child(c, i, c->li->f_body);
    if (value == LT__NONE || body == LT__NONE || name == LT__NONE) {
        c->fail = true;
        return;
    }
    struct ents loop = {0};
    struct u32v nt = {0}, vt = {0};
    for (int it = 0; it < 2; it++) {
        dfg(c, value, st, &loop);
        nt.n = vt.n = 0;
        var_tokens(c, name, &nt);
        var_tokens(c, value, &vt);
        pairwise(c, st, &loop, &nt, &vt, 1);
        dfg(c, body, st, &loop);
    }
    loop_merge(c, &loop, out);
}

static void dfg(struct ctx *c, uint32_t i, struct states *st, struct ents *out)
{
    if (c->fail)
        return;
    if (i == LT__NONE || ++c->depth > 990) {
        /* The reference dies on None.children, and on Python's recursion
         * limit; either way its data flow is empty. */
        c->fail = true;
        return;
    }
    if (leaf_like(c, i)) {
        leaf(c, i, st, out);
        c->depth--;
        return;
    }
    struct u32v nt = {0}, vt = {0};
    switch (node_kind(c, i)) {
    case K_DEF:
        do_def(c, i, st, out);
        break;
    case K_ASSIGN:
    case K_FORIN:
        do_py_assign(c, i, st, out);
        break;
    case K_JASSIGN: {
        uint32_t left = field_child(c, i, c->li->f_left);
        uint32_t right = field_child(c, i, c->li->f_right);
        dfg(c, right, st, out);
        var_tokens(c, left, &nt);
        var_tokens(c, right, &vt);
        pairwise(c, st, out, &nt, &vt, 1);
        break;
    }
    case K_INCR:
        var_tokens(c, i, &nt);
        pairwise(c, st, out, &nt, &nt, 1);
        break;
    case K_IF:
        do_if(c, i, st, out);
        break;
    case K_FOR:
        if (c->lang == LT_SIM_PYTHON)
            do_py_for(c, i, st, out);
        else
            do_java_for(c, i, st, out);
        break;
    case K_EFOR:
        do_java_efor(c, i, st, out);
        break;
    case K_WHILE:
        do_while(c, i, st, out);
        break;
    default:
        for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
            if (node_kind(c, k) == K_FORIN)
                dfg(c, k, st, out);
        for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
            if (node_kind(c, k) != K_FORIN)
                dfg(c, k, st, out);
        break;
    }
    c->depth--;
}

/*** Set-up: symbol kinds, tokens ***/

void lt__dfg_kinds(struct lt__langinfo *li)
{
    static const struct {
        const char *name;
        uint8_t kind;
    } py[] = {{"default_parameter", K_DEF},
              {"assignment", K_ASSIGN},
              {"augmented_assignment", K_ASSIGN},
              {"for_in_clause", K_FORIN},
              {"if_statement", K_IF},
              {"for_statement", K_FOR},
              {"while_statement", K_WHILE},
              {NULL, 0}},
      java[] = {{"variable_declarator", K_DEF},
                {"assignment_expression", K_JASSIGN},
                {"update_expression", K_INCR},
                {"if_statement", K_IF},
                {"else", K_IF},
                {"for_statement", K_FOR},
                {"enhanced_for_statement", K_EFOR},
                {"while_statement", K_WHILE},
                {NULL, 0}};
    const TSLanguage *lang = li->language;
    for (size_t s = 0; s < li->nsyms; s++) {
        li->kind[s] = K_OTHER;
        const char *nm = ts_language_symbol_name(lang, (TSSymbol)s);
        if (!nm)
            continue;
        for (size_t k = 0; (li->lang == LT_SIM_JAVA ? java : py)[k].name; k++)
            if (strcmp((li->lang == LT_SIM_JAVA ? java : py)[k].name, nm) == 0)
                li->kind[s] = (li->lang == LT_SIM_JAVA ? java : py)[k].kind;
    }
}

/* The dict ids of the type names, for self_typed (once per dictionary:
 * the language info lives as long as the context's dictionary). */
static void name_ids(struct lt__langinfo *li, struct lt__dict *d)
{
    if (li->have_name_ids)
        return;
    const TSLanguage *lang = li->language;
    for (size_t s = 0; s < li->nsyms; s++) {
        const char *nm = ts_language_symbol_name(lang, (TSSymbol)s);
        if (!nm)
            nm = "";
        li->name_id[s] = lt__dict_intern(d, nm, strlen(nm));
    }
    li->have_name_ids = true;
}

static void ws_nodes(struct lt__dfg_ws *ws, size_t n)
{
    if (n <= ws->nodes_cap)
        return;
    size_t cap = n + n / 2 + 64;
    free(ws->tokof);
    free(ws->tokidx);
    free(ws->tokcode);
    free(ws->stack);
    free(ws->node_of);
    ws->tokof = xmalloc(cap * sizeof(uint32_t));
    ws->tokidx = xmalloc(cap * sizeof(uint32_t));
    ws->tokcode = xmalloc(cap * sizeof(uint32_t));
    ws->stack = xmalloc(cap * sizeof(uint32_t));
    ws->node_of = xmalloc(cap * sizeof(uint32_t));
    ws->nodes_cap = cap;
}

/* tree_to_token_index: leaf-like nodes in order.  Nodes with the same
 * span share the last one's index, as the reference's dict keyed by
 * (start, end) does. */
static void tokens(struct ctx *c, struct lt__dfg_ws *ws)
{
    const struct lt__flat *f = c->f;
    ws_nodes(ws, f->count + 1);
    c->tokof = ws->tokof;
    c->tokidx = ws->tokidx;
    c->tokcode = ws->tokcode;
    uint32_t *stack = ws->stack, *node_of = ws->node_of;
    size_t top = 0;
    uint32_t nt = 0;
    for (size_t i = 0; i < f->count; i++)
        c->tokof[i] = LT__NONE;
    stack[top++] = 0;
    while (top) {
        uint32_t i = stack[--top];
        if (leaf_like(c, i)) {
            node_of[nt] = i;
            c->tokof[i] = nt++;
            continue;
        }
        size_t k0 = top;
        for (uint32_t k = f->n[i].first; k != LT__NONE; k = f->n[k].next)
            stack[top++] = k;
        for (size_t a = k0, z = top ? top - 1 : 0; a < z; a++, z--) {
            uint32_t t = stack[a];
            stack[a] = stack[z];
            stack[z] = t;
        }
    }
    for (uint32_t t = 0; t < nt; t++) {
        const struct lt__node *x = &f->n[node_of[t]];
        size_t n = x->end - x->start;
        const char *p = f->text + x->start;
        if (memchr(p, '\n', n)) { /* lines joined without newlines */
            if (n > ws->text_cap) {
                ws->text_cap = n * 2;
                ws->text = xrealloc(ws->text, ws->text_cap);
            }
            size_t o = 0;
            for (size_t q = 0; q < n; q++)
                if (p[q] != '\n')
                    ws->text[o++] = p[q];
            p = ws->text;
            n = o;
        }
        c->tokcode[t] = lt__dict_intern(c->d, p, n);
        c->tokidx[t] = t;
    }
    for (uint32_t t = nt; t-- > 1;) {
        const struct lt__node *x = &f->n[node_of[t]];
        const struct lt__node *y = &f->n[node_of[t - 1]];
        if (x->start == y->start && x->end == y->end) {
            c->tokidx[t - 1] = c->tokidx[t];
            c->tokcode[t - 1] = c->tokcode[t];
        }
    }
    c->ntok = nt;
}

/*** Post-processing: get_data_flow and normalize_dataflow ***/

int lt__dfg_edge_cmp(const struct lt__dfg_edge *a, const struct lt__dfg_edge *b)
{
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

static int cmp_edge(const void *x, const void *y)
{
    return lt__dfg_edge_cmp(x, y);
}

/* Renaming of names (dict ids) to var_0, var_1, ... by first appearance:
 * an open-addressing map from name + 1 to the number. */
struct renamer {
    uint32_t *key, *val;
    size_t mask;
    uint32_t next;
};

static uint32_t rename_of(struct renamer *r, uint32_t name)
{
    size_t j = (name * 2654435761u) & r->mask;
    while (r->key[j]) {
        if (r->key[j] == name + 1)
            return r->val[j];
        j = (j + 1) & r->mask;
    }
    r->key[j] = name + 1;
    r->val[j] = r->next;
    return r->next++;
}

void lt__dfg_build(struct lt__dfg *g, const struct lt__flat *f,
                   struct lt__langinfo *li, struct lt__dict *d,
                   struct lt__dfg_ws **wsp)
{
    memset(g, 0, sizeof(*g));
    if (f->count == 0)
        return;
    if (!*wsp)
        *wsp = xcalloc(1, sizeof(**wsp));
    struct lt__dfg_ws *ws = *wsp;
    arena_reset(&ws->ar);
    name_ids(li, d);
    struct ctx c = {0};
    c.f = f;
    c.li = li;
    c.lang = li->lang;
    c.d = d;
    c.ar = &ws->ar;
    tokens(&c, ws);
    struct states st = {0};
    struct ents all = {0};
    dfg(&c, 0, &st, &all);
    if (c.fail)
        all.n = 0;
    /* By idx, then order of appearance (all is in that order). */
    if (all.n) {
        struct ent *tmp = amalloc(&c, all.n * sizeof(*tmp));
        sort_by_idx(all.v, all.n, tmp);
    }
    /* Keep entries that have parents or are someone's parent. */
    uint8_t *keep = amalloc(&c, c.ntok + 1);
    memset(keep, 0, c.ntok + 1);
    for (size_t k = 0; k < all.n; k++) {
        if (all.v[k].ni)
            keep[all.v[k].idx] = 1;
        for (uint32_t q = 0; q < all.v[k].ni; q++)
            keep[all.v[k].pi[q]] = 1;
    }
    size_t o = 0;
    for (size_t k = 0; k < all.n; k++)
        if (keep[all.v[k].idx])
            all.v[o++] = all.v[k];
    all.n = o;
    /* Merge by idx: name and relation of the last, unions of the lists;
     * then rename by first appearance, parents first. */
    size_t pool_need = 0;
    for (size_t k = 0; k < all.n; k++)
        pool_need += all.v[k].np;
    g->e = xmalloc((all.n + 1) * sizeof(*g->e));
    g->pool = xmalloc((pool_need + 1) * sizeof(uint32_t));
    size_t pool_used = 0;
    struct renamer rn = {0};
    size_t cap = 16;
    while (cap < 2 * (pool_need + all.n) + 2)
        cap *= 2;
    rn.key = alloc_u32(&c, cap);
    rn.val = alloc_u32(&c, cap);
    memset(rn.key, 0, cap * sizeof(uint32_t));
    rn.mask = cap - 1;
    for (size_t a = 0; a < all.n;) {
        size_t b = a + 1;
        while (b < all.n && all.v[b].idx == all.v[a].idx)
            b++;
        struct ent m = all.v[b - 1];
        if (b - a > 1)
            union_lists(&c, all.v + a, b - a, &m.np, &m.pn, &m.ni, &m.pi);
        struct lt__dfg_edge *e = &g->e[g->n++];
        e->rel = m.rel;
        e->npar = m.np;
        e->par = g->pool + pool_used;
        for (uint32_t q = 0; q < m.np; q++)
            e->par[q] = rename_of(&rn, m.pn[q]);
        pool_used += m.np;
        e->var = rename_of(&rn, m.name);
        a = b;
    }
    /* Sorted once here, for lt__dataflow_match's merge: counted by
     * (relation, variable), the first keys of lt__dfg_edge_cmp, then each
     * run of equal keys (a few edges) by the parent lists.  Edges that
     * compare equal are equal in every field the merge reads. */
    for (size_t k = 0; k < g->n; k++)
        if (g->e[k].rel > 1) { /* not a relation the rules make */
            qsort(g->e, g->n, sizeof(*g->e), cmp_edge);
            return;
        }
    size_t nk = 2 * (size_t)rn.next + 1;
    uint32_t *cnt = alloc_u32(&c, nk + 1);
    memset(cnt, 0, (nk + 1) * sizeof(uint32_t));
    for (size_t k = 0; k < g->n; k++)
        cnt[g->e[k].rel * rn.next + g->e[k].var + 1]++;
    for (size_t k = 1; k <= nk; k++)
        cnt[k] += cnt[k - 1];
    struct lt__dfg_edge *sorted = amalloc(&c, (g->n + 1) * sizeof(*sorted));
    for (size_t k = 0; k < g->n; k++)
        sorted[cnt[g->e[k].rel * rn.next + g->e[k].var]++] = g->e[k];
    memcpy(g->e, sorted, g->n * sizeof(*g->e));
    for (size_t a = 0; a < g->n;) {
        size_t b = a + 1;
        while (b < g->n && g->e[b].rel == g->e[a].rel &&
               g->e[b].var == g->e[a].var)
            b++;
        if (b - a > 32) {
            qsort(g->e + a, b - a, sizeof(*g->e), cmp_edge);
        } else {
            for (size_t i = a + 1; i < b; i++) {
                struct lt__dfg_edge x = g->e[i];
                size_t j = i;
                for (; j > a && lt__dfg_edge_cmp(&g->e[j - 1], &x) > 0; j--)
                    g->e[j] = g->e[j - 1];
                g->e[j] = x;
            }
        }
        a = b;
    }
}

void lt__dfg_free(struct lt__dfg *g)
{
    free(g->e);
    free(g->pool);
    memset(g, 0, sizeof(*g));
}
