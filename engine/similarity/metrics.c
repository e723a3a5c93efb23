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
    free(s->ng);
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

/*** N-gram ids ***/

/* Every n-gram of the hypothesis gets a small id, level by level: the id
 * of the n-gram at i is looked up by (id of the (n-1)-gram at i, token
 * i + n - 1), so equal n-grams get equal ids with one probe and no
 * comparison of token runs.  A reference n-gram whose (n-1)-gram prefix
 * is not in the hypothesis cannot be in it either (NONE). */

enum { NG_NONE = UINT32_MAX };

struct ngslot {
    uint64_t key;
    uint32_t id, gen; /* valid when gen == the table's generation */
};

struct ngtab {
    struct ngslot *e;
    size_t mask;
    unsigned shift;
    uint32_t gen;
    uint32_t next; /* ids handed out at this level */
};

/* Starts a level: an empty table for `entries` keys.  The slots are not
 * cleared: a new generation number makes them all stale. */
static void ng_level(struct lt__scratch *sc, struct ngtab *t, size_t entries)
{
    size_t cap = 16;
    unsigned bits = 4;
    while (cap < entries * 2 + 2) {
        cap *= 2;
        bits++;
    }
    if (cap * sizeof(struct ngslot) > sc->table_cap) {
        free(sc->table);
        sc->table_cap = cap * sizeof(struct ngslot);
        sc->table = xmalloc(sc->table_cap);
        memset(sc->table, 0, sc->table_cap);
        sc->ng_gen = 0;
    }
    if (++sc->ng_gen == 0) {
        memset(sc->table, 0, sc->table_cap);
        sc->ng_gen = 1;
    }
    t->gen = sc->ng_gen;
    t->e = sc->table;
    t->mask = cap - 1;
    t->shift = 64 - bits;
    t->next = 0;
}

static inline size_t ng_slot(const struct ngtab *t, uint64_t key)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> t->shift);
}

static uint32_t ng_add(struct ngtab *t, uint64_t key)
{
    for (size_t j = ng_slot(t, key);; j = (j + 1) & t->mask) {
        struct ngslot *e = &t->e[j];
        if (e->gen != t->gen) {
            *e = (struct ngslot){key, t->next, t->gen};
            return t->next++;
        }
        if (e->key == key)
            return e->id;
    }
}

static uint32_t ng_find(const struct ngtab *t, uint64_t key)
{
    for (size_t j = ng_slot(t, key);; j = (j + 1) & t->mask) {
        const struct ngslot *e = &t->e[j];
        if (e->gen != t->gen)
            return NG_NONE;
        if (e->key == key)
            return e->id;
    }
}

static uint64_t ng_key(uint32_t prev, uint32_t tok)
{
    return (uint64_t)prev << 32 | tok;
}

/*** BLEU and the weighted n-gram match ***/

static double brevity(double r, double c)
{
    if (c > r)
        return 1.0;
    if (c == 0)
        return 0.0;
    return exp(1.0 - r / c);
}

static double smoothed(const double *num, const double *den, double bp)
{
    if (num[1] == 0)
        return 0.0;
    double s = 0;
    for (unsigned n = 1; n <= 4; n++) {
        double p = num[n] == 0 ? 0.1 / den[n] : num[n] / den[n];
        s += 0.25 * log(p);
    }
    return bp * exp(s);
}

static uint32_t *ng_grow(struct lt__scratch *sc, size_t need)
{
    if (need > sc->ng_cap) {
        free(sc->ng);
        sc->ng_cap = need + need / 2;
        sc->ng = xmalloc(sc->ng_cap * sizeof(uint32_t));
    }
    return sc->ng;
}

void lt__ngram_scores(struct lt__scratch *sc, struct lt__dict *d,
                      enum lt_sim_lang lang, const struct lt__toks *hyp,
                      const struct lt__toks *const *refs, size_t nrefs,
                      double *bleu, double *weighted)
{
    double bnum[5] = {0}, bden[5] = {0}, wnum[5] = {0}, wden[5] = {0};
    size_t c = hyp->n, rtot = 0;
    for (size_t r = 0; r < nrefs; r++)
        rtot += refs[r]->n;
    /* hid: ids of the hypothesis n-grams; rid: of the references' (one
     * run after the other); hc, cnt, maxc, mark: per id. */
    uint32_t *hid = ng_grow(sc, c + rtot + 4 * (c + 1));
    uint32_t *rid = hid + c, *hc = rid + rtot, *cnt = hc + c + 1;
    uint32_t *maxc = cnt + c + 1, *mark = maxc + c + 1;
    for (size_t i = 0; i < c; i++)
        hid[i] = UINT32_MAX; /* the 0-gram */
    for (size_t i = 0; i < rtot; i++)
        rid[i] = UINT32_MAX;
    struct ngtab t = {0};
    for (unsigned n = 1; n <= 4; n++) {
        size_t hn = c >= n ? c - n + 1 : 0;
        ng_level(sc, &t, hn);
        for (size_t i = 0; i < hn; i++)
            hid[i] = ng_add(&t, ng_key(hid[i], hyp->v[i + n - 1]));
        uint32_t m = t.next;
        memset(hc, 0, m * sizeof(uint32_t));
        memset(maxc, 0, m * sizeof(uint32_t));
        memset(mark, 0, m * sizeof(uint32_t));
        for (size_t i = 0; i < hn; i++)
            hc[hid[i]]++;
        uint32_t *ri = rid;
        for (size_t r = 0; r < nrefs; r++) {
            const struct lt__toks *rf = refs[r];
            size_t rn = rf->n >= n ? rf->n - n + 1 : 0;
            double rnum = 0, rden = 0;
            for (size_t i = 0; i < rn; i++) {
                uint32_t id = ri[i];
                if (id != NG_NONE || n == 1)
                    id = ng_find(&t, ng_key(id, rf->v[i + n - 1]));
                ri[i] = id;
                double w = 1.0;
                if (n == 1)
                    w = lt__dict_keyword(d, rf->v[i], lang) ? 1.0 : 0.2;
                rden += w;
                if (id == NG_NONE)
                    continue;
                if (mark[id] != r + 1) {
                    mark[id] = (uint32_t)r + 1;
                    cnt[id] = 0;
                }
                if (cnt[id] < hc[id])
                    rnum += w;
                if (++cnt[id] > maxc[id])
                    maxc[id] = cnt[id];
            }
            wnum[n] += rnum;
            wden[n] += rden > 1.0 ? rden : 1.0;
            ri += rf->n;
        }
        uint64_t clipped = 0;
        for (uint32_t id = 0; id < m; id++)
            clipped += hc[id] < maxc[id] ? hc[id] : maxc[id];
        bnum[n] = (double)clipped;
        bden[n] = hn > 0 ? (double)hn : 1.0;
    }
    /* Closest reference length; ties go to the shorter one. */
    size_t best = refs[0]->n;
    for (size_t r = 1; r < nrefs; r++) {
        size_t rl = refs[r]->n;
        size_t d1 = rl > c ? rl - c : c - rl;
        size_t d0 = best > c ? best - c : c - best;
        if (d1 < d0 || (d1 == d0 && rl < best))
            best = rl;
    }
    *bleu = smoothed(bnum, bden, brevity((double)best, (double)c));
    /* The reference measures each "reference" as a [tokens, weights]
     * pair, so its closest reference length is always 2. */
    *weighted = smoothed(wnum, wden, brevity(2.0, (double)c));
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
/* Drops the common prefix and suffix of a and b; returns their total
 * length.  Neither the edit distance nor the LCS beyond those tokens
 * depends on them: some optimal alignment matches them one to one. */
static size_t trim(const uint32_t **a, size_t *an, const uint32_t **b,
                   size_t *bn)
{
    size_t p = 0, n = *an < *bn ? *an : *bn;
    while (p < n && (*a)[p] == (*b)[p])
        p++;
    size_t q = 0;
    while (q < n - p && (*a)[*an - 1 - q] == (*b)[*bn - 1 - q])
        q++;
    *a += p;
    *b += p;
    *an -= p + q;
    *bn -= p + q;
    return p + q;
}

size_t lt__lcs(struct lt__scratch *sc, size_t nids, const uint32_t *a,
               size_t an, const uint32_t *b, size_t bn)
{
    size_t same = trim(&a, &an, &b, &bn);
    if (an == 0 || bn == 0)
        return same;
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
    return same + zeros;
}

/* Myers' bit-vector edit distance in Hyyro's block form: one block of 64
 * pattern rows per word, the horizontal delta carried from block to block
 * down each column; the score tracks row |a|. */
/* Landau and Vishkin (1989): the furthest row reached on each diagonal
 * k = j - i with d edits, L_d(k) = max(L_{d-1}(k) + 1, L_{d-1}(k - 1),
 * L_{d-1}(k + 1) + 1) (substitution, insertion, deletion), then slid
 * along the diagonal over equal tokens; done when diagonal bn - an
 * reaches row an.  A row past the end of its diagonal is cut back to it,
 * which stays within d since neighbouring cells differ by at most one
 * and cells never decrease along a diagonal.  O((an + bn) d): for near
 * sequences far cheaper than the bit-parallel pass.  The distance, or
 * SIZE_MAX when it is above LV_MAXD. */
enum { LV_MAXD = 32 };

static size_t lv_distance(const uint32_t *a, size_t an, const uint32_t *b,
                          size_t bn)
{
    const long NEG = -(1l << 40), off = LV_MAXD + 1, n = (long)an,
               m = (long)bn, target = m - n;
    long buf[2][2 * LV_MAXD + 3];
    if (target > LV_MAXD || -target > LV_MAXD)
        return SIZE_MAX;
    for (long d = 0; d <= LV_MAXD; d++) {
        const long *prev = buf[(d + 1) & 1];
        long *cur = buf[d & 1];
        cur[off - d - 1] = cur[off + d + 1] = NEG; /* outside the band */
        for (long k = -d; k <= d; k++) {
            if (k < -n || k > m) {
                cur[off + k] = NEG;
                continue;
            }
            long row = 0;
            if (d > 0) {
                row = NEG;
                if (k > -d && k < d)
                    row = prev[off + k] + 1;
                if (k - 1 >= -(d - 1) && prev[off + k - 1] > row)
                    row = prev[off + k - 1];
                if (k + 1 <= d - 1 && prev[off + k + 1] + 1 > row)
                    row = prev[off + k + 1] + 1;
                if (row < 0) {
                    cur[off + k] = NEG;
                    continue;
                }
            }
            long lim = n < m - k ? n : m - k;
            if (row > lim)
                row = lim;
            while (row < n && row + k < m && a[row] == b[row + k])
                row++;
            cur[off + k] = row;
            if (k == target && row >= n)
                return (size_t)d;
        }
    }
    return SIZE_MAX;
}

size_t lt__levenshtein(struct lt__scratch *sc, size_t nids, const uint32_t *a,
                       size_t an, const uint32_t *b, size_t bn)
{
    trim(&a, &an, &b, &bn);
    if (an == 0)
        return bn;
    if (bn == 0)
        return an;
    /* Near sequences first: the band is cheap and exact when it ends. */
    size_t near = lv_distance(a, an, b, bn);
    if (near != SIZE_MAX)
        return near;
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
        /* Chunks: runs of matches contiguous in both texts, in order of
         * hypothesis position (each position is matched at most once, so
         * a table by position sorts them). */
        uint32_t *rof = mr + (hn < rn ? hn : rn); /* 2 (hn + rn) free */
        for (size_t i = 0; i < hn; i++)
            rof[i] = UINT32_MAX;
        for (size_t i = 0; i < nm; i++)
            rof[mh[i]] = mr[i];
        size_t chunks = 0;
        uint32_t ph = UINT32_MAX, pr = UINT32_MAX;
        for (uint32_t h = 0; h < hn; h++) {
            if (rof[h] == UINT32_MAX)
                continue;
            if (!(ph != UINT32_MAX && h == ph + 1 && rof[h] == pr + 1))
                chunks++;
            ph = h;
            pr = rof[h];
        }
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
