/* Line-level text differences, cut down to byte hunks: what turns one
 * text into another, for tree-sitter's incremental parsing (tree.c).
 * SPDX-License-Identifier: MIT */
#include "engine/similarity/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"

/*** Lines ***/

/* A line's key: a hash of its bytes (the newline included) and its
 * length.  Equal lines have equal keys; the converse is checked on the
 * bytes (lt__text_diff) before a difference is used. */
static uint64_t line_key(const char *p, size_t n)
{
    uint64_t h = 0x9ae16a3b2f90404full ^ (n * 0x9e3779b97f4a7c15ull);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 31;
    }
    uint64_t w = 0;
    if (n > i)
        memcpy(&w, p + i, n - i);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
}

/* Sorts v[0..n) ascending: LSD radix sort, 8 bits a pass; tmp holds n
 * values. */
static void sort_u32(uint32_t *v, size_t n, uint32_t *tmp)
{
    uint32_t *src = v, *dst = tmp;
    for (unsigned shift = 0; shift < 32; shift += 8) {
        size_t cnt[256] = {0};
        for (size_t i = 0; i < n; i++)
            cnt[(src[i] >> shift) & 0xff]++;
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
    /* four passes: the result is back in v */
}

/* Cuts text into lines (the last one may lack its newline) and keys
 * them.  The caller frees with lt__lines_free. */
void lt__lines_init(struct lt__lines *l, const char *text, size_t len)
{
    size_t n = 0;
    for (const char *p = text, *e = text + len; p < e; n++) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        p = nl ? nl + 1 : e;
    }
    l->n = n;
    l->key = xmalloc((n + 1) * sizeof(uint64_t));
    l->start = xmalloc((n + 1) * sizeof(uint32_t));
    l->sorted = xmalloc((n + 1) * sizeof(uint32_t));
    size_t i = 0;
    for (const char *p = text, *e = text + len; p < e; i++) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        const char *q = nl ? nl + 1 : e;
        l->start[i] = (uint32_t)(p - text);
        l->key[i] = line_key(p, (size_t)(q - p));
        p = q;
    }
    l->start[n] = (uint32_t)len;
    /* The low halves of the keys are enough to estimate the overlap. */
    for (size_t j = 0; j < n; j++)
        l->sorted[j] = (uint32_t)l->key[j];
    uint32_t *tmp = xmalloc((n + 1) * sizeof(uint32_t));
    sort_u32(l->sorted, n, tmp);
    free(tmp);
}

void lt__lines_free(struct lt__lines *l)
{
    free(l->key);
    free(l->start);
    free(l->sorted);
    memset(l, 0, sizeof(*l));
}

/* The number of lines a and b have in common, as multisets: an upper
 * bound on the lines a line diff keeps (a key collision in the low halves
 * can only raise it), found in linear time. */
size_t lt__lines_common(const struct lt__lines *a, const struct lt__lines *b)
{
    size_t i = 0, j = 0, m = 0;
    while (i < a->n && j < b->n) {
        if (a->sorted[i] < b->sorted[j]) {
            i++;
        } else if (a->sorted[i] > b->sorted[j]) {
            j++;
        } else {
            m++;
            i++;
            j++;
        }
    }
    return m;
}

/*** Myers' difference algorithm on line keys ***/

/* Myers (1986), "An O(ND) difference algorithm and its variations": the
 * greedy forward search, keeping every diagonal vector for the way back
 * (step d keeps diagonals -d..d, at trace[d * d]: (D + 1)^2 values in
 * all, so D is capped at MYERS_MAXD, 4 MB).  Sets match[x] to the line
 * of b that line x of a is kept as, or LT__NONE.  Returns the number of
 * lines inserted and deleted, or -1 when that is above maxd. */
enum { MYERS_MAXD = 1000 };

static long myers(const uint64_t *a, size_t n, const uint64_t *b, size_t m,
                  long maxd, uint32_t *match)
{
    if (maxd > (long)(n + m))
        maxd = (long)(n + m);
    if (maxd > MYERS_MAXD)
        maxd = MYERS_MAXD;
    const long off = maxd + 1, w = 2 * maxd + 3;
    int32_t *v = xmalloc((size_t)w * sizeof(int32_t));
    int32_t *trace = NULL;
    size_t trace_cap = 0;
    for (long i = 0; i < w; i++)
        v[i] = -1;
    v[off + 1] = 0;
    long dist = -1;
    for (long d = 0; d <= maxd && dist < 0; d++) {
        for (long k = -d; k <= d; k += 2) {
            long x;
            if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
                x = v[off + k + 1];
            else
                x = v[off + k - 1] + 1;
            long y = x - k;
            while (x < (long)n && y < (long)m && a[x] == b[y]) {
                x++;
                y++;
            }
            v[off + k] = (int32_t)x;
            if (x >= (long)n && y >= (long)m) {
                dist = d;
                break;
            }
        }
        size_t need = (size_t)(d + 1) * (size_t)(d + 1);
        if (need > trace_cap) {
            trace_cap = need * 2;
            trace = xrealloc(trace, trace_cap * sizeof(int32_t));
        }
        memcpy(trace + d * d, v + off - d, (size_t)(2 * d + 1) * sizeof(int32_t));
    }
    if (dist >= 0) {
        for (size_t i = 0; i < n; i++)
            match[i] = LT__NONE;
        /* Back from (n, m): each step undoes one insertion or deletion
         * and the run of kept lines (the snake) after it.  pv[k] is
         * diagonal k after step d - 1. */
        long x = (long)n, y = (long)m;
        for (long d = dist; d >= 0; d--) {
            const int32_t *pv = d > 0 ? trace + (d - 1) * (d - 1) + (d - 1)
                                      : NULL;
            long k = x - y, px, py;
            if (d == 0) {
                px = py = 0;
            } else if (k == -d || (k != d && pv[k - 1] < pv[k + 1])) {
                px = pv[k + 1]; /* an insertion: down from k + 1 */
                py = px - (k + 1);
            } else {
                px = pv[k - 1]; /* a deletion: right from k - 1 */
                py = px - (k - 1);
            }
            /* The snake runs back from (x, y) while both sides match. */
            long sx0 = d == 0 ? 0 : (px - py == k + 1 ? px : px + 1);
            while (x > sx0) {
                x--;
                y--;
                match[x] = (uint32_t)y;
            }
            x = px;
            y = py;
        }
    }
    free(trace);
    free(v);
    return dist;
}

/*** Hunks ***/

static void push_hunk(struct lt__hunks *h, uint32_t os, uint32_t oe,
                      uint32_t ns, uint32_t ne, const char *a,
                      const char *b)
{
    /* Cut the bytes the two sides share at either end. */
    while (os < oe && ns < ne && a[os] == b[ns]) {
        os++;
        ns++;
    }
    while (os < oe && ns < ne && a[oe - 1] == b[ne - 1]) {
        oe--;
        ne--;
    }
    if (os == oe && ns == ne)
        return;
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 16;
        h->v = xrealloc(h->v, h->cap * sizeof(*h->v));
    }
    h->v[h->n++] = (struct lt__hunk){os, oe - os, ns, ne - ns};
}

/* The hunks that turn text a (lines la) into text b (lines lb), in
 * increasing order, into *h (cleared first): lines kept by a line diff
 * of at most maxd inserted and deleted lines, and each run of changed
 * lines cut down to the bytes that differ at its two ends.  Returns the
 * bytes of b outside the hunks (kept from a), or -1 when the line diff
 * needs more than maxd (or MYERS_MAXD) lines.  Keys that are equal for
 * lines that are not (a hash collision) are caught: the kept bytes are
 * compared, and a mismatch returns -1 too. */
long lt__text_diff(const struct lt__lines *la, const char *a, size_t alen,
                   const struct lt__lines *lb, const char *b, size_t blen,
                   long maxd, struct lt__hunks *h)
{
    h->n = 0;
    size_t n = la->n, m = lb->n;
    /* Lines equal at both ends need no search. */
    size_t pre = 0;
    while (pre < n && pre < m && la->key[pre] == lb->key[pre])
        pre++;
    size_t suf = 0;
    while (suf < n - pre && suf < m - pre &&
           la->key[n - 1 - suf] == lb->key[m - 1 - suf])
        suf++;
    size_t mn = n - pre - suf, mm = m - pre - suf;
    uint32_t *match = xmalloc((mn + 1) * sizeof(uint32_t));
    long d = myers(la->key + pre, mn, lb->key + pre, mm, maxd, match);
    if (d < 0) {
        free(match);
        return -1;
    }
    /* Walk the kept lines; a gap on either side is a hunk. */
    size_t pa = 0, pb = 0; /* next line of each side, in the middle */
    for (size_t x = 0; x <= mn; x++) {
        if (x < mn && match[x] == LT__NONE)
            continue;
        size_t y = x < mn ? match[x] : mm;
        if (x > pa || y > pb)
            push_hunk(h, la->start[pre + pa], la->start[pre + x],
                      lb->start[pre + pb], lb->start[pre + y], a, b);
        pa = x + 1;
        pb = y + 1;
    }
    free(match);
    /* The bytes between the hunks must be the same on both sides. */
    size_t oa = 0, ob = 0;
    long kept = 0;
    for (size_t i = 0; i <= h->n; i++) {
        size_t ea = i < h->n ? h->v[i].old_start : alen;
        size_t eb = i < h->n ? h->v[i].new_start : blen;
        if (ea - oa != eb - ob || memcmp(a + oa, b + ob, ea - oa) != 0)
            return -1;
        kept += (long)(eb - ob);
        if (i < h->n) {
            oa = ea + h->v[i].old_len;
            ob = eb + h->v[i].new_len;
        }
    }
    return kept;
}
