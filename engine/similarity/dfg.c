/* CodeBLEU's data-flow graph: the reference implementation's DFG_python
 * and DFG_java rules (CodeXGLUE, as packaged by k4black/codebleu),
 * re-stated over the flattened tree, then its merge and its renaming of
 * variables by first appearance.  Where the reference's result depends on
 * Python set order we keep first appearance (docs/similarity.md).
 * SPDX-License-Identifier: MIT */
#include "engine/similarity/internal.h"

#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

#include "common/xmalloc.h"

/*** Arena for the small immutable lists ***/

struct block {
    struct block *prev;
    size_t used, cap;
    uint32_t v[];
};

struct arena {
    struct block *b;
};

static uint32_t *arena_alloc(struct arena *a, size_t n)
{
    if (n == 0)
        n = 1;
    if (!a->b || a->b->used + n > a->b->cap) {
        size_t cap = n > 16384 ? n : 16384;
        struct block *b = xmalloc(sizeof(*b) + cap * sizeof(uint32_t));
        b->prev = a->b;
        b->used = 0;
        b->cap = cap;
        a->b = b;
    }
    uint32_t *p = a->b->v + a->b->used;
    a->b->used += n;
    return p;
}

static void arena_free(struct arena *a)
{
    while (a->b) {
        struct block *p = a->b->prev;
        free(a->b);
        a->b = p;
    }
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
    enum lt_sim_lang lang;
    struct lt__dict *d;
    struct arena ar;
    uint8_t *kind;     /* per symbol */
    uint8_t *has_else; /* per symbol: type name contains "else" */
    size_t nsyms;
    uint32_t *tokof;   /* per node: token index, LT__NONE if not a token */
    uint32_t *tokidx;  /* per token: idx after span collisions */
    uint32_t *tokcode; /* per token: dict id of its text */
    uint32_t ntok;
    uint16_t f_name, f_value, f_left, f_right, f_body;
    uint32_t seq;
    bool fail;
    int depth;
};

/* The per-symbol tables cover the grammar's symbols only: an ERROR node
 * has tree-sitter's built-in symbol 0xFFFF (ts_builtin_sym_error), which
 * is no rule's kind and whose type name "ERROR" has no "else". */
static uint8_t node_kind(const struct ctx *c, uint32_t i)
{
    uint16_t s = c->f->n[i].sym;
    return s < c->nsyms ? c->kind[s] : K_OTHER;
}

static bool node_has_else(const struct ctx *c, uint32_t i)
{
    uint16_t s = c->f->n[i].sym;
    return s < c->nsyms && c->has_else[s];
}

static void push(struct ctx *c, struct ents *e, uint32_t name, uint32_t idx,
                 uint32_t rel, uint32_t np, uint32_t *pn, uint32_t ni,
                 uint32_t *pi)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 64;
        e->v = xrealloc(e->v, e->cap * sizeof(*e->v));
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

static void st_set(struct states *s, uint32_t name, uint32_t n, uint32_t *v)
{
    if ((s->count + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 16;
        struct sval *t = xcalloc(ncap, sizeof(*t));
        for (size_t i = 0; i < s->cap; i++)
            if (s->t[i].key) {
                size_t j = ((s->t[i].key - 1) * 2654435761u) & (ncap - 1);
                while (t[j].key)
                    j = (j + 1) & (ncap - 1);
                t[j] = s->t[i];
            }
        free(s->t);
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
    uint32_t *v = arena_alloc(&c->ar, 1);
    v[0] = idx;
    st_set(s, name, 1, v);
}

static void st_copy(struct states *dst, const struct states *src)
{
    dst->cap = src->cap;
    dst->count = src->count;
    dst->t = src->cap ? xmalloc(src->cap * sizeof(*dst->t)) : NULL;
    if (src->cap)
        memcpy(dst->t, src->t, src->cap * sizeof(*dst->t));
}

static void st_free(struct states *s)
{
    free(s->t);
    s->t = NULL;
    s->cap = s->count = 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t sort_unique(uint32_t *v, uint32_t n)
{
    if (n < 2)
        return n;
    qsort(v, n, sizeof(uint32_t), cmp_u32);
    uint32_t o = 1;
    for (uint32_t i = 1; i < n; i++)
        if (v[i] != v[o - 1])
            v[o++] = v[i];
    return o;
}

/* The union of several states, each list sorted and deduplicated. */
static void st_union(struct ctx *c, struct states *out, struct states *ins,
                     size_t nin)
{
    memset(out, 0, sizeof(*out));
    for (size_t k = 0; k < nin; k++)
        for (size_t i = 0; i < ins[k].cap; i++) {
            const struct sval *x = &ins[k].t[i];
            if (!x->key)
                continue;
            struct sval *y = st_find(out, x->key - 1);
            if (!y) {
                uint32_t *v = arena_alloc(&c->ar, x->n);
                memcpy(v, x->v, x->n * sizeof(uint32_t));
                st_set(out, x->key - 1, x->n, v);
            } else {
                uint32_t *v = arena_alloc(&c->ar, y->n + x->n);
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

static const char *type_of(const struct ctx *c, uint32_t i)
{
    return lt__flat_type(c->f, i);
}

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

static bool is_type(const struct ctx *c, uint32_t i, const char *t)
{
    return strcmp(type_of(c, i), t) == 0;
}

/* The reference's `root_node.type == code`: a token whose text is its
 * own type (keywords, punctuation) is not a variable. */
static bool self_typed(const struct ctx *c, uint32_t i)
{
    uint32_t t = c->tokof[i];
    size_t n;
    const char *code = lt__dict_str(c->d, c->tokcode[t], &n);
    const char *ty = type_of(c, i);
    return strlen(ty) == n && memcmp(ty, code, n) == 0;
}

struct u32v {
    uint32_t *v;
    size_t n, cap;
};

static void u32_push(struct u32v *x, uint32_t v)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? x->cap * 2 : 16;
        x->v = xrealloc(x->v, x->cap * sizeof(uint32_t));
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
            u32_push(out, c->tokof[i]);
        return;
    }
    for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
        var_tokens(c, k, out);
}

/* Children of i other than ",". */
static void children_nocomma(const struct ctx *c, uint32_t i, struct u32v *out)
{
    out->n = 0;
    for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
        if (!is_type(c, k, ","))
            u32_push(out, k);
}

/*** The rules ***/

static void dfg(struct ctx *c, uint32_t i, struct states *st, struct ents *out);

static void loop_merge(struct ctx *c, struct ents *loop, struct ents *out);

static int cmp_group(const void *x, const void *y)
{
    const struct ent *a = x, *b = y;
    if (a->idx != b->idx)
        return a->idx < b->idx ? -1 : 1;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    if (a->rel != b->rel)
        return a->rel < b->rel ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int cmp_idx_seq(const void *x, const void *y)
{
    const struct ent *a = x, *b = y;
    if (a->idx != b->idx)
        return a->idx < b->idx ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

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
    uint32_t *a = arena_alloc(&c->ar, tn), *b = arena_alloc(&c->ar, ti);
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

/* The loops' merge of entries with equal (name, idx, relation), listed by
 * idx and then first appearance. */
static void loop_merge(struct ctx *c, struct ents *loop, struct ents *out)
{
    if (loop->n == 0)
        return;
    qsort(loop->v, loop->n, sizeof(*loop->v), cmp_group);
    size_t ng = 0;
    for (size_t a = 0; a < loop->n;) {
        size_t b = a + 1;
        while (b < loop->n && loop->v[b].idx == loop->v[a].idx &&
               loop->v[b].name == loop->v[a].name &&
               loop->v[b].rel == loop->v[a].rel)
            b++;
        struct ent m = loop->v[a];
        if (b - a > 1)
            union_lists(c, loop->v + a, b - a, &m.np, &m.pn, &m.ni, &m.pi);
        loop->v[ng++] = m; /* keeps the first seq */
        a = b;
    }
    loop->n = ng;
    qsort(loop->v, loop->n, sizeof(*loop->v), cmp_idx_seq);
    for (size_t k = 0; k < loop->n; k++) {
        const struct ent *m = &loop->v[k];
        push(c, out, m->name, m->idx, m->rel, m->np, m->pn, m->ni, m->pi);
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
            uint32_t *pn = arena_alloc(&c->ar, 1), *pi = arena_alloc(&c->ar, 1);
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
        for (size_t a = 0; a < lt.n; a++) {
            uint32_t t1 = lt.v[a];
            uint32_t *pn = arena_alloc(&c->ar, rt.n);
            uint32_t *pi = arena_alloc(&c->ar, rt.n);
            for (size_t b = 0; b < rt.n; b++) {
                pn[b] = c->tokcode[rt.v[b]];
                pi[b] = c->tokidx[rt.v[b]];
            }
            push(c, out, c->tokcode[t1], c->tokidx[t1], 1, (uint32_t)rt.n, pn,
                 (uint32_t)rt.n, pi);
            st_set1(c, st, c->tokcode[t1], c->tokidx[t1]);
        }
    }
    free(lt.v);
    free(rt.v);
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
        u32_push(lefts, left);
        u32_push(rights, right);
    }
    if (lefts->n == 0)
        u32_push(lefts, left);
    if (rights->n == 0)
        u32_push(rights, right);
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
        uint32_t *pn = arena_alloc(&c->ar, 1);
        pn[0] = code;
        push(c, out, code, idx, 0, 1, pn, s->n, s->v);
        return;
    }
    if (is_type(c, i, "identifier"))
        st_set1(c, st, code, idx);
    push(c, out, code, idx, 0, 0, NULL, 0, NULL);
}

static void do_def(struct ctx *c, uint32_t i, struct states *st,
                   struct ents *out)
{
    uint32_t name = field_child(c, i, c->f_name);
    uint32_t value = field_child(c, i, c->f_value);
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
    free(nt.v);
    free(vt.v);
}

static void do_py_assign(struct ctx *c, uint32_t i, struct states *st,
                         struct ents *out)
{
    struct u32v lefts = {0}, rights = {0};
    if (node_kind(c, i) == K_FORIN) {
        u32_push(&rights, last_child(c, i));
        u32_push(&lefts, field_child(c, i, c->f_left));
    } else {
        uint32_t right = field_child(c, i, c->f_right);
        if (right == LT__NONE)
            return;
        uint32_t left = field_child(c, i, c->f_left);
        if (left == LT__NONE) {
            c->fail = true;
            return;
        }
        sides(c, left, right, &lefts, &rights);
    }
    for (size_t k = 0; k < rights.n; k++)
        dfg(c, rights.v[k], st, out);
    assign_pairs(c, st, out, &lefts, &rights);
    free(lefts.v);
    free(rights.v);
}

static void do_if(struct ctx *c, uint32_t i, struct states *st,
                  struct ents *out)
{
    struct states cur;
    st_copy(&cur, st);
    struct states *others = NULL;
    size_t no = 0, cap = 0;
    bool tag = node_has_else(c, i);
    bool flag = false;
    for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next) {
        if (node_has_else(c, k))
            tag = true;
        bool branch;
        if (c->lang == LT_SIM_PYTHON)
            branch = is_type(c, k, "elif_clause") || is_type(c, k, "else_clause");
        else
            branch = flag || node_kind(c, k) == K_IF;
        if (!branch) {
            dfg(c, k, &cur, out);
            continue;
        }
        flag = true;
        if (no + 2 >= cap) {
            cap = cap ? cap * 2 : 8;
            others = xrealloc(others, cap * sizeof(*others));
        }
        st_copy(&others[no], st);
        dfg(c, k, &others[no], out);
        no++;
    }
    if (no + 2 >= cap) {
        cap = cap + 4;
        others = xrealloc(others, cap * sizeof(*others));
    }
    others[no++] = cur;
    if (!tag)
        st_copy(&others[no++], st);
    struct states merged;
    st_union(c, &merged, others, no);
    for (size_t k = 0; k < no; k++)
        st_free(&others[k]);
    free(others);
    st_free(st);
    *st = merged;
}

static void do_py_for(struct ctx *c, uint32_t i, struct states *st,
                      struct ents *out)
{
    uint32_t left = field_child(c, i, c->f_left);
    uint32_t right = field_child(c, i, c->f_right);
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
        if (last != LT__NONE && is_type(c, last, "block"))
            dfg(c, last, st, &loop);
    }
    loop_merge(c, &loop, out);
    free(loop.v);
    free(lefts.v);
    free(rights.v);
}

static void do_while(struct ctx *c, uint32_t i, struct states *st,
                     struct ents *out)
{
    struct ents loop = {0};
    for (int it = 0; it < 2; it++)
        for (uint32_t k = c->f->n[i].first; k != LT__NONE; k = c->f->n[k].next)
            dfg(c, k, st, &loop);
    loop_merge(c, &loop, out);
    free(loop.v);
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
        else if (is_type(c, k, "local_variable_declaration"))
            flag = true;
    }
    loop_merge(c, &loop, out);
    free(loop.v);
}

static void do_java_efor(struct ctx *c, uint32_t i, struct states *st,
                         struct ents *out)
{
    uint32_t name = field_child(c, i, c->f_name);
    uint32_t value = field_child(c, i, c->f_value);
    uint32_t body = field_child(c, i, c->f_body);
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
    free(loop.v);
    free(nt.v);
    free(vt.v);
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
        uint32_t left = field_child(c, i, c->f_left);
        uint32_t right = field_child(c, i, c->f_right);
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
    free(nt.v);
    free(vt.v);
    c->depth--;
}

/*** Set-up: symbol kinds, tokens ***/

static void kinds(struct ctx *c)
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
    const TSLanguage *lang = c->f->language;
    c->nsyms = ts_language_symbol_count(lang);
    c->kind = xcalloc(c->nsyms + 1, 1);
    c->has_else = xcalloc(c->nsyms + 1, 1);
    for (size_t s = 0; s < c->nsyms; s++) {
        const char *nm = ts_language_symbol_name(lang, (TSSymbol)s);
        if (!nm)
            continue;
        c->has_else[s] = strstr(nm, "else") != NULL;
        for (size_t k = 0; (c->lang == LT_SIM_JAVA ? java : py)[k].name; k++)
            if (strcmp((c->lang == LT_SIM_JAVA ? java : py)[k].name, nm) == 0)
                c->kind[s] = (c->lang == LT_SIM_JAVA ? java : py)[k].kind;
    }
    c->f_name = ts_language_field_id_for_name(lang, "name", 4);
    c->f_value = ts_language_field_id_for_name(lang, "value", 5);
    c->f_left = ts_language_field_id_for_name(lang, "left", 4);
    c->f_right = ts_language_field_id_for_name(lang, "right", 5);
    c->f_body = ts_language_field_id_for_name(lang, "body", 4);
}

/* tree_to_token_index: leaf-like nodes in order.  Nodes with the same
 * span share the last one's index, as the reference's dict keyed by
 * (start, end) does. */
static void tokens(struct ctx *c)
{
    const struct lt__flat *f = c->f;
    c->tokof = xmalloc(f->count * sizeof(uint32_t));
    c->tokidx = xmalloc((f->count + 1) * sizeof(uint32_t));
    c->tokcode = xmalloc((f->count + 1) * sizeof(uint32_t));
    uint32_t *stack = xmalloc((f->count + 1) * sizeof(uint32_t));
    uint32_t *node_of = xmalloc((f->count + 1) * sizeof(uint32_t));
    size_t top = 0;
    uint32_t nt = 0;
    for (size_t i = 0; i < f->count; i++)
        c->tokof[i] = LT__NONE;
    stack[top++] = 0;
    char small[256];
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
        char *buf = n < sizeof(small) ? small : xmalloc(n + 1);
        size_t o = 0;
        for (size_t q = x->start; q < x->end; q++)
            if (f->text[q] != '\n') /* lines joined without newlines */
                buf[o++] = f->text[q];
        c->tokcode[t] = lt__dict_intern(c->d, buf, o);
        if (buf != small)
            free(buf);
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
    free(stack);
    free(node_of);
}

/*** Post-processing: get_data_flow and normalize_dataflow ***/

void lt__dfg_build(struct lt__dfg *g, const struct lt__flat *f,
                   enum lt_sim_lang lang, struct lt__dict *d)
{
    memset(g, 0, sizeof(*g));
    struct ctx c = {0};
    c.f = f;
    c.lang = lang;
    c.d = d;
    if (f->count == 0)
        return;
    kinds(&c);
    tokens(&c);
    struct states st = {0};
    struct ents all = {0};
    dfg(&c, 0, &st, &all);
    st_free(&st);
    if (c.fail)
        all.n = 0;
    qsort(all.v, all.n, sizeof(*all.v), cmp_idx_seq);
    /* Keep entries that have parents or are someone's parent. */
    uint8_t *keep = xcalloc(c.ntok + 1, 1);
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
    free(keep);
    /* Merge by idx: name and relation of the last, unions of the lists;
     * then rename by first appearance, parents first. */
    size_t pool_need = 0;
    for (size_t k = 0; k < all.n; k++)
        pool_need += all.v[k].np;
    g->e = xmalloc((all.n + 1) * sizeof(*g->e));
    g->pool = xmalloc((pool_need + 1) * sizeof(uint32_t));
    size_t pool_used = 0;
    uint32_t *rename = NULL;
    size_t rcap = lt__dict_size(d);
    rename = xmalloc((rcap + 1) * sizeof(uint32_t));
    uint32_t *seen = xcalloc(rcap + 1, sizeof(uint32_t));
    uint32_t nv = 0;
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
        for (uint32_t q = 0; q < m.np; q++) {
            uint32_t nm = m.pn[q];
            if (!seen[nm]) {
                seen[nm] = 1;
                rename[nm] = nv++;
            }
            e->par[q] = rename[nm];
        }
        pool_used += m.np;
        if (!seen[m.name]) {
            seen[m.name] = 1;
            rename[m.name] = nv++;
        }
        e->var = rename[m.name];
        a = b;
    }
    free(rename);
    free(seen);
    free(all.v);
    free(c.kind);
    free(c.has_else);
    free(c.tokof);
    free(c.tokidx);
    free(c.tokcode);
    arena_free(&c.ar);
}

void lt__dfg_free(struct lt__dfg *g)
{
    free(g->e);
    free(g->pool);
    memset(g, 0, sizeof(*g));
}
