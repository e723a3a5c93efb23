/* Metrics over token sequences: BLEU, CodeBLEU's weighted n-gram match,
 * LCS (ROUGE-L), METEOR and Levenshtein, on interned token ids.
 * SPDX-License-Identifier: MIT */
#include "engine/similarity/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"

void lt__scratch_free(struct lt__scratch *s)
{
    free(s->bits);
    free(s->slot);
    free(s->stamp);
    free(s->u32a);
    free(s->u32b);
    free(s->table);
    memset(s, 0, sizeof(*s));
}

/* Per-token-id arrays, valid where stamp[id] == epoch. */
static void per_id(struct lt__scratch *s, size_t nids)
{
    if (nids > s->slot_cap) {
        size_t cap = nids * 2 + 1024;
        s->slot = xrealloc(s->slot, cap * sizeof(uint32_t));
        s->stamp = xrealloc(s->stamp, cap * sizeof(uint32_t));
        memset(s->stamp, 0, cap * sizeof(uint32_t));
        s->slot_cap = cap;
        s->epoch = 0;
    }
    if (++s->epoch == 0) {
        memset(s->stamp, 0, s->slot_cap * sizeof(uint32_t));
        s->epoch = 1;
    }
}

/*** N-gram table ***/

struct ng {
    uint64_t h;          /* 0: empty */
    const uint32_t *p;   /* the n ids */
    uint32_t hc;         /* count in the hypothesis */
    uint32_t cur, max;   /* count in the current / best reference */
    uint32_t mark;       /* reference the cur count belongs to, + 1 */
};

struct ngtab {
    struct ng *e;
    size_t mask;
    unsigned n;
};

static uint64_t ng_hash(const uint32_t *p, unsigned n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < n; i++) {
        h ^= p[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
    }
    h ^= h >> 33;
    return h | 1;
}

static void ng_init(struct lt__scratch *s, struct ngtab *t, size_t entries,
                    unsigned n)
{
    size_t cap = 16;
    while (cap < entries * 2 + 2)
        cap *= 2;
    if (cap * sizeof(struct ng) > s->table_cap) {
        free(s->table);
        s->table_cap = cap * sizeof(struct ng);
        s->table = xmalloc(s->table_cap);
    }
    t->e = s->table;
    memset(t->e, 0, cap * sizeof(struct ng));
    t->mask = cap - 1;
    t->n = n;
}

/* Finds the n-gram at p; inserts it when `add`.  NULL if absent. */
static struct ng *ng_get(struct ngtab *t, const uint32_t *p, bool add)
{
    uint64_t h = ng_hash(p, t->n);
    size_t j = (size_t)h & t->mask;
    for (;;) {
        struct ng *e = &t->e[j];
        if (e->h == 0) {
            if (!add)
                return NULL;
            e->h = h;
            e->p = p;
            return e;
        }
        if (e->h == h && memcmp(e->p, p, t->n * sizeof(uint32_t)) == 0)
            return e;
        j = (j + 1) & t->mask;
    }
}

/*** BLEU ***/

static double brevity(double r, double c)
{
    if (c > r)
        return 1.0;
    if (c == 0)
        return 0.0;
    return exp(1.0 - r / c);
}

double lt__bleu(struct lt__scratch *sc, const struct lt__toks *hyp,
                const struct lt__toks *refs, size_t nrefs)
{
    double num[5] = {0}, den[5] = {0};
    size_t c = hyp->n;
    for (unsigned n = 1; n <= 4; n++) {
        size_t hn = c >= n ? c - n + 1 : 0;
        struct ngtab t;
        ng_init(sc, &t, hn, n);
        for (size_t i = 0; i < hn; i++)
            ng_get(&t, hyp->v + i, true)->hc++;
        for (size_t r = 0; r < nrefs; r++) {
            size_t rn = refs[r].n >= n ? refs[r].n - n + 1 : 0;
            for (size_t i = 0; i < rn; i++) {
                struct ng *e = ng_get(&t, refs[r].v + i, false);
                if (!e)
                    continue;
                if (e->mark != r + 1) {
                    e->mark = (uint32_t)r + 1;
                    e->cur = 0;
                }
                if (++e->cur > e->max)
                    e->max = e->cur;
            }
        }
        uint64_t clipped = 0;
        for (size_t j = 0; j <= t.mask; j++)
            if (t.e[j].h)
                clipped += t.e[j].hc < t.e[j].max ? t.e[j].hc : t.e[j].max;
        num[n] = (double)clipped;
        den[n] = hn > 0 ? (double)hn : 1.0;
    }
    /* Closest reference length; ties go to the shorter one. */
    size_t best = refs[0].n;
    for (size_t r = 1; r < nrefs; r++) {
        size_t d1 = refs[r].n > c ? refs[r].n - c : c - refs[r].n;
        size_t d0 = best > c ? best - c : c - best;
        if (d1 < d0 || (d1 == d0 && refs[r].n < best))
            best = refs[r].n;
    }
    if (num[1] == 0)
        return 0.0;
    double bp = brevity((double)best, (double)c);
    double s = 0;
    for (unsigned n = 1; n <= 4; n++) {
        double p = num[n] == 0 ? 0.1 / den[n] : num[n] / den[n];
        s += 0.25 * log(p);
    }
    return bp * exp(s);
}

double lt__weighted_bleu(struct lt__scratch *sc, struct lt__dict *d,
                         enum lt_sim_lang lang, const struct lt__toks *hyp,
                         const struct lt__toks *refs, size_t nrefs)
{
    double num[5] = {0}, den[5] = {0};
    size_t c = hyp->n;
    for (unsigned n = 1; n <= 4; n++) {
        size_t hn = c >= n ? c - n + 1 : 0;
        struct ngtab t;
        ng_init(sc, &t, hn, n);
        for (size_t i = 0; i < hn; i++)
            ng_get(&t, hyp->v + i, true)->hc++;
        for (size_t r = 0; r < nrefs; r++) {
            size_t rn = refs[r].n >= n ? refs[r].n - n + 1 : 0;
            double rnum = 0, rden = 0;
            for (size_t i = 0; i < rn; i++) {
                double w = 1.0;
                if (n == 1)
                    w = lt__dict_keyword(d, refs[r].v[i], lang) ? 1.0 : 0.2;
                rden += w;
                struct ng *e = ng_get(&t, refs[r].v + i, false);
                if (!e)
                    continue;
                if (e->mark != r + 1) {
                    e->mark = (uint32_t)r + 1;
                    e->cur = 0;
                }
                if (e->cur < e->hc) {
                    e->cur++;
                    rnum += w;
                }
            }
            num[n] += rnum;
            den[n] += rden > 1.0 ? rden : 1.0;
        }
    }
    if (num[1] == 0)
        return 0.0;
    /* The reference measures each "reference" as a [tokens, weights]
     * pair, so its closest reference length is always 2. */
    double bp = brevity(2.0, (double)c);
    double s = 0;
    for (unsigned n = 1; n <= 4; n++) {
        double p = num[n] == 0 ? 0.1 / den[n] : num[n] / den[n];
        s += 0.25 * log(p);
    }
    return bp * exp(s);
}

/*** Bit-parallel LCS and Levenshtein ***/

/* Match bit-vectors of pattern a: row slot[id] has bit i set where
 * a[i] == id; slot 0 is all zeros (for ids not in a). */
static uint64_t *pattern(struct lt__scratch *sc, size_t nids, const uint32_t *a,
                         size_t an, size_t *words)
{
    size_t w = (an + 63) / 64;
    per_id(sc, nids);
    size_t rows = 1;
    for (size_t i = 0; i < an; i++)
        if (sc->stamp[a[i]] != sc->epoch) {
            sc->stamp[a[i]] = sc->epoch;
            sc->slot[a[i]] = (uint32_t)rows++;
        }
    size_t need = rows * w;
    if (need > sc->bits_cap) {
        free(sc->bits);
        sc->bits_cap = need * 2;
        sc->bits = xmalloc(sc->bits_cap * sizeof(uint64_t));
    }
    memset(sc->bits, 0, need * sizeof(uint64_t));
    for (size_t i = 0; i < an; i++)
        sc->bits[sc->slot[a[i]] * w + i / 64] |= 1ull << (i % 64);
    *words = w;
    return sc->bits;
}

static const uint64_t *row_of(struct lt__scratch *sc, const uint64_t *bits,
                              size_t w, uint32_t id)
{
    if (sc->stamp[id] != sc->epoch)
        return NULL;
    return bits + (size_t)sc->slot[id] * w;
}

/* Hyyro's bit-vector LCS: V starts all ones; for each b_j,
 * V = (V + (V & M)) | (V & ~M); the LCS is the number of zero bits. */
size_t lt__lcs(struct lt__scratch *sc, size_t nids, const uint32_t *a,
               size_t an, const uint32_t *b, size_t bn)
{
    if (an == 0 || bn == 0)
        return 0;
    if (an > bn) {
        const uint32_t *t = a;
        a = b;
        b = t;
        size_t tn = an;
        an = bn;
        bn = tn;
    }
    size_t w;
    uint64_t *bits = pattern(sc, nids, a, an, &w);
    uint64_t *v = xmalloc(w * sizeof(uint64_t));
    memset(v, 0xff, w * sizeof(uint64_t));
    for (size_t j = 0; j < bn; j++) {
        const uint64_t *m = row_of(sc, bits, w, b[j]);
        if (!m)
            continue;
        uint64_t carry = 0;
        for (size_t k = 0; k < w; k++) {
            uint64_t u = v[k] & m[k];
            uint64_t sum, s2;
            uint64_t c1 = __builtin_add_overflow(v[k], u, &sum);
            uint64_t c2 = __builtin_add_overflow(sum, carry, &s2);
            carry = c1 | c2;
            v[k] = s2 | (v[k] & ~m[k]);
        }
    }
    size_t zeros = 0;
    for (size_t k = 0; k < w; k++) {
        uint64_t x = ~v[k];
        if (k == w - 1 && an % 64)
            x &= (1ull << (an % 64)) - 1;
        zeros += (size_t)__builtin_popcountll(x);
    }
    free(v);
    return zeros;
}

/* Myers' bit-vector edit distance in Hyyro's block form: one block of 64
 * pattern rows per word, the horizontal delta carried from block to block
 * down each column; the score tracks row |a|. */
size_t lt__levenshtein(struct lt__scratch *sc, size_t nids, const uint32_t *a,
                       size_t an, const uint32_t *b, size_t bn)
{
    if (an == 0)
        return bn;
    if (bn == 0)
        return an;
    if (an > bn) {
        const uint32_t *t = a;
        a = b;
        b = t;
        size_t tn = an;
        an = bn;
        bn = tn;
    }
    size_t w;
    uint64_t *bits = pattern(sc, nids, a, an, &w);
    const uint64_t *zero = bits; /* slot 0 */
    uint64_t *pv = xmalloc(2 * w * sizeof(uint64_t));
    uint64_t *mv = pv + w;
    memset(pv, 0xff, w * sizeof(uint64_t));
    memset(mv, 0, w * sizeof(uint64_t));
    size_t score = an;
    unsigned last = (unsigned)((an - 1) % 64);
    for (size_t j = 0; j < bn; j++) {
        const uint64_t *eqr = row_of(sc, bits, w, b[j]);
        if (!eqr)
            eqr = zero;
        int hin = 1; /* D[0][j] - D[0][j-1] */
        for (size_t k = 0; k < w; k++) {
            uint64_t eq = eqr[k];
            uint64_t neg = hin < 0 ? 1 : 0;
            uint64_t xv = eq | mv[k];
            eq |= neg;
            uint64_t xh = (((eq & pv[k]) + pv[k]) ^ pv[k]) | eq;
            uint64_t ph = mv[k] | ~(xh | pv[k]);
            uint64_t mh = pv[k] & xh;
            int hout;
            if (k == w - 1) {
                hout = (int)((ph >> last) & 1) - (int)((mh >> last) & 1);
            } else {
                hout = (int)(ph >> 63) - (int)(mh >> 63);
            }
            ph <<= 1;
            mh <<= 1;
            mh |= neg;
            ph |= hin > 0 ? 1 : 0;
            pv[k] = mh | ~(xv | ph);
            mv[k] = ph & xv;
            hin = hout;
        }
        score = (size_t)((long)score + hin);
    }
    free(pv);
    return score;
}

/*** METEOR ***/

/* NLTK's _match_enums: hypothesis words from the last, each taking the
 * last still unmatched reference word with the same key.  hk, rk: keys;
 * hpos, rpos: original positions of the words still unmatched (updated
 * in place); matched pairs are appended to mh, mr. */
static void match_enums(struct lt__scratch *sc, size_t nids, uint32_t *hk,
                        uint32_t *hpos, size_t *hn, uint32_t *rk,
                        uint32_t *rpos, size_t *rn, uint32_t *mh, uint32_t *mr,
                        size_t *nm, uint32_t *next, bool *rused)
{
    per_id(sc, nids);
    for (size_t i = 0; i < *rn; i++) {
        uint32_t k = rk[i];
        next[i] = sc->stamp[k] == sc->epoch ? sc->slot[k] : UINT32_MAX;
        sc->stamp[k] = sc->epoch;
        sc->slot[k] = (uint32_t)i;
        rused[i] = false;
    }
    size_t keep = *hn;
    bool any = false;
    for (size_t ii = *hn; ii-- > 0;) {
        uint32_t k = hk[ii];
        if (sc->stamp[k] != sc->epoch || sc->slot[k] == UINT32_MAX)
            continue;
        uint32_t j = sc->slot[k];
        sc->slot[k] = next[j];
        rused[j] = true;
        mh[*nm] = hpos[ii];
        mr[*nm] = rpos[j];
        (*nm)++;
        hk[ii] = UINT32_MAX; /* mark matched */
        any = true;
    }
    (void)keep;
    if (!any)
        return;
    size_t o = 0;
    for (size_t i = 0; i < *hn; i++)
        if (hk[i] != UINT32_MAX) {
            hk[o] = hk[i];
            hpos[o++] = hpos[i];
        }
    *hn = o;
    o = 0;
    for (size_t i = 0; i < *rn; i++)
        if (!rused[i]) {
            rk[o] = rk[i];
            rpos[o++] = rpos[i];
        }
    *rn = o;
}

static int cmp_pair(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return *a < *b ? -1 : *a > *b;
}

double lt__meteor(struct lt__scratch *sc, struct lt__dict *d,
                  const struct lt__toks *hyp, const struct lt__toks *ref,
                  double *p, double *r, double *fmean)
{
    *p = *r = *fmean = 0;
    size_t hn = hyp->n, rn = ref->n;
    if (hn == 0 || rn == 0)
        return 0.0;
    size_t tot = hn + rn;
    uint32_t *buf = xmalloc((4 * tot + 2 * (hn < rn ? hn : rn) + rn) *
                            sizeof(uint32_t));
    bool *rused = xmalloc(rn);
    uint32_t *hk = buf, *hpos = hk + hn, *rk = hpos + hn, *rpos = rk + rn;
    uint32_t *next = rpos + rn;
    uint32_t *mh = next + rn, *mr = mh + (hn < rn ? hn : rn);
    for (size_t i = 0; i < hn; i++) {
        hk[i] = lt__dict_lower(d, hyp->v[i]);
        hpos[i] = (uint32_t)i;
    }
    for (size_t i = 0; i < rn; i++) {
        rk[i] = lt__dict_lower(d, ref->v[i]);
        rpos[i] = (uint32_t)i;
    }
    size_t nm = 0;
    size_t h_left = hn, r_left = rn;
    match_enums(sc, lt__dict_size(d), hk, hpos, &h_left, rk, rpos, &r_left,
                mh, mr, &nm, next, rused);
    if (h_left && r_left) {
        for (size_t i = 0; i < h_left; i++)
            hk[i] = lt__dict_stem(d, hyp->v[hpos[i]]);
        for (size_t i = 0; i < r_left; i++)
            rk[i] = lt__dict_stem(d, ref->v[rpos[i]]);
        match_enums(sc, lt__dict_size(d), hk, hpos, &h_left, rk, rpos,
                    &r_left, mh, mr, &nm, next, rused);
    }
    double score = 0;
    if (nm > 0) {
        uint64_t *pairs = xmalloc(nm * sizeof(uint64_t));
        for (size_t i = 0; i < nm; i++)
            pairs[i] = ((uint64_t)mh[i] << 32) | mr[i];
        qsort(pairs, nm, sizeof(uint64_t), cmp_pair);
        size_t chunks = 1;
        for (size_t i = 0; i + 1 < nm; i++) {
            uint32_t h0 = (uint32_t)(pairs[i] >> 32), r0 = (uint32_t)pairs[i];
            uint32_t h1 = (uint32_t)(pairs[i + 1] >> 32);
            uint32_t r1 = (uint32_t)pairs[i + 1];
            if (!(h1 == h0 + 1 && r1 == r0 + 1))
                chunks++;
        }
        free(pairs);
        double P = (double)nm / (double)hn, R = (double)nm / (double)rn;
        double F = P * R / (0.9 * P + 0.1 * R);
        double frag = (double)chunks / (double)nm;
        double pen = 0.5 * frag * frag * frag;
        *p = P;
        *r = R;
        *fmean = F;
        score = (1 - pen) * F;
    }
    free(buf);
    free(rused);
    return score;
}
