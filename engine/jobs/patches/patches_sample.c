/* `litmus patches`: the arithmetic of mutant sampling under a CPU budget
 * (docs/patches.md, "Mutation budget"): the order mutants are sampled in,
 * the sample sizes, and the score with its 95% Wilson interval.  No I/O;
 * patches.c applies it to a text's mutants.
 * SPDX-License-Identifier: MIT */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/jobs/patches/patches_internal.h"

/* Largest size of the grid 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, ... (the
 * powers of two and their halfway points) that is at most x; 0 below 1.
 * A sample size is taken from this grid so that the few percent by which
 * a CPU time varies from run to run rarely change it. */
size_t lt__ps_grid_floor(double x)
{
    if (!(x >= 1))
        return 0;
    if (x >= (double)(SIZE_MAX / 4))
        return SIZE_MAX / 4;
    size_t best = 1;
    for (size_t p = 1; (double)p <= x; p *= 2) {
        best = p;
        if ((double)(p + p / 2) <= x && p >= 2)
            best = p + p / 2;
    }
    return best;
}

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 0;
}

/* Shuffles idx[0..n) (Fisher-Yates) with a generator seeded by the first
 * 16 hex digits of sha: the same text gives the same order on every run
 * and machine. */
void lt__ps_shuffle(const char *sha, size_t *idx, size_t n)
{
    uint64_t seed = 0;
    for (int i = 0; i < 16 && sha && sha[i]; i++)
        seed = seed << 4 | (uint64_t)hex_digit(sha[i]);
    for (size_t i = n; i > 1; i--) {
        /* Rejection sampling keeps every order equally likely. */
        uint64_t bound = (uint64_t)i;
        uint64_t lim = UINT64_MAX - UINT64_MAX % bound;
        uint64_t x;
        do
            x = splitmix64(&seed);
        while (x >= lim);
        size_t j = (size_t)(x % bound);
        size_t tmp = idx[i - 1];
        idx[i - 1] = idx[j];
        idx[j] = tmp;
    }
}

/* The first sample: the largest grid size k whose first k members
 * (cost[j]: the estimated cost of member j in sample order, 0 when it
 * shares an earlier member's run) cost at most budget, and at least
 * LT_PS_MIN_SAMPLE members (fewer say almost nothing).  n when all of
 * them fit. */
size_t lt__ps_first(const double *cost, size_t n, double budget)
{
    double sum = 0;
    size_t fit = 0;
    while (fit < n && sum + cost[fit] <= budget)
        sum += cost[fit++];
    if (fit == n)
        return n;
    size_t k = lt__ps_grid_floor((double)fit);
    if (k < LT_PS_MIN_SAMPLE)
        k = LT_PS_MIN_SAMPLE;
    return k < n ? k : n;
}

/* The sample once its first k members have run: spent is what their runs
 * cost by the model (patches.c, mut_charge), est what they were estimated
 * to cost.  The budget left buys more members at the observed cost per
 * member, counted with one more member at the estimated cost, so that a
 * small first sample that happened to be cheap does not promise too much.
 * Returns a grid size in [k, n], or n. */
size_t lt__ps_extend(size_t k, size_t n, double spent, double est,
                     double budget)
{
    if (k >= n || k == 0)
        return n < k ? n : k;
    double per = (spent + est / (double)k) / (double)(k + 1);
    if (!(per > 0))
        return n;
    double left = budget - spent;
    if (left <= 0)
        return k;
    double want = (double)k + left / per;
    if (want >= (double)n)
        return n;
    size_t g = lt__ps_grid_floor(want);
    return g > k ? g : k;
}

/* The 95% Wilson score interval of a proportion d/v (v > 0). */
void lt__ps_wilson(double d, double v, double *lo, double *hi)
{
    const double z = 1.959963984540054;
    if (!(v > 0)) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double p = d / v, z2 = z * z;
    double den = 1 + z2 / v;
    double mid = (p + z2 / (2 * v)) / den;
    double half = z * sqrt(p * (1 - p) / v + z2 / (4 * v * v)) / den;
    *lo = mid - half < 0 ? 0 : mid - half;
    *hi = mid + half > 1 ? 1 : mid + half;
    /* Rounding must not put p outside its own interval. */
    if (*lo > p)
        *lo = p;
    if (*hi < p)
        *hi = p;
}

/* The score of a text whose runnable mutants were sampled: of the n
 * sampled out of pop, v had a valid verdict and d of those were detected;
 * dk and vk count the detected and valid mutants decided without a run
 * (no test covers them: valid, never detected).  The sample stands for
 * every runnable mutant: the score is (d/v * V + dk) / (V + vk) with
 * V = pop * v/n valid runnable mutants, and the Wilson interval of d/v
 * maps through the same formula.  -1 (and no interval) when no mutant is
 * valid. */
double lt__ps_score(double d, double v, double n, double pop, double dk,
                    double vk, double *lo, double *hi)
{
    double V = n > 0 ? pop * v / n : 0;
    if (!(V + vk > 0)) {
        *lo = *hi = -1;
        return -1;
    }
    if (!(v > 0)) {
        *lo = *hi = dk / vk;
        return dk / vk;
    }
    double plo, phi;
    lt__ps_wilson(d, v, &plo, &phi);
    *lo = (plo * V + dk) / (V + vk);
    *hi = (phi * V + dk) / (V + vk);
    return (d / v * V + dk) / (V + vk);
}
