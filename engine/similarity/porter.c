/* The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping",
 * 1980), with the two departures of the author's own ANSI C release
 * (step 2: -bli -> -ble instead of -abli -> -able, and -logi -> -log).
 * Written from the published rules.  SPDX-License-Identifier: MIT */
#include "engine/similarity/internal.h"

#include <string.h>

struct stem {
    char *b;
    int k; /* index of the last letter */
    int j; /* end of the stem before a matched suffix */
};

static bool cons(const struct stem *z, int i)
{
    switch (z->b[i]) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
        return false;
    case 'y':
        return i == 0 ? true : !cons(z, i - 1);
    default:
        return true;
    }
}

/* m(): the number of VC sequences in b[0..j]. */
static int measure(const struct stem *z)
{
    int n = 0, i = 0;
    for (;;) {
        if (i > z->j)
            return n;
        if (!cons(z, i))
            break;
        i++;
    }
    i++;
    for (;;) {
        for (;;) {
            if (i > z->j)
                return n;
            if (cons(z, i))
                break;
            i++;
        }
        i++;
        n++;
        for (;;) {
            if (i > z->j)
                return n;
            if (!cons(z, i))
                break;
            i++;
        }
        i++;
    }
}

static bool vowel_in_stem(const struct stem *z)
{
    for (int i = 0; i <= z->j; i++)
        if (!cons(z, i))
            return true;
    return false;
}

static bool double_cons(const struct stem *z, int j)
{
    return j >= 1 && z->b[j] == z->b[j - 1] && cons(z, j);
}

/* cvc(i): b[i-2..i] is consonant-vowel-consonant and b[i] is not w, x,
 * y: the *o condition. */
static bool cvc(const struct stem *z, int i)
{
    if (i < 2 || !cons(z, i) || cons(z, i - 1) || !cons(z, i - 2))
        return false;
    char ch = z->b[i];
    return ch != 'w' && ch != 'x' && ch != 'y';
}

/* ends(s): b ends with s; sets j to the stem end. */
static bool ends(struct stem *z, const char *s)
{
    int len = (int)strlen(s);
    if (len > z->k + 1)
        return false;
    if (memcmp(z->b + z->k - len + 1, s, (size_t)len) != 0)
        return false;
    z->j = z->k - len;
    return true;
}

static void setto(struct stem *z, const char *s)
{
    int len = (int)strlen(s);
    memcpy(z->b + z->j + 1, s, (size_t)len);
    z->k = z->j + len;
}

static void r(struct stem *z, const char *s)
{
    if (measure(z) > 0)
        setto(z, s);
}

static void step1ab(struct stem *z)
{
    if (z->b[z->k] == 's') {
        if (ends(z, "sses"))
            z->k -= 2;
        else if (ends(z, "ies"))
            setto(z, "i");
        else if (z->k >= 1 && z->b[z->k - 1] != 's')
            z->k--;
    }
    if (ends(z, "eed")) {
        if (measure(z) > 0)
            z->k--;
    } else if ((ends(z, "ed") || ends(z, "ing")) && vowel_in_stem(z)) {
        z->k = z->j;
        if (ends(z, "at"))
            setto(z, "ate");
        else if (ends(z, "bl"))
            setto(z, "ble");
        else if (ends(z, "iz"))
            setto(z, "ize");
        else if (double_cons(z, z->k)) {
            z->k--;
            char ch = z->b[z->k];
            if (ch == 'l' || ch == 's' || ch == 'z')
                z->k++;
        } else {
            z->j = z->k;
            if (measure(z) == 1 && cvc(z, z->k))
                setto(z, "e");
        }
    }
}

static void step1c(struct stem *z)
{
    if (ends(z, "y") && vowel_in_stem(z))
        z->b[z->k] = 'i';
}

struct rule {
    const char *from, *to;
};

static void apply(struct stem *z, const struct rule *rules)
{
    for (const struct rule *x = rules; x->from; x++)
        if (ends(z, x->from)) {
            r(z, x->to);
            return;
        }
}

static void step2(struct stem *z)
{
    static const struct rule rules[] = {
        {"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"},
        {"anci", "ance"},   {"izer", "ize"},    {"bli", "ble"},
        {"alli", "al"},     {"entli", "ent"},   {"eli", "e"},
        {"ousli", "ous"},   {"ization", "ize"}, {"ation", "ate"},
        {"ator", "ate"},    {"alism", "al"},    {"iveness", "ive"},
        {"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"},
        {"iviti", "ive"},   {"biliti", "ble"},  {"logi", "log"},
        {NULL, NULL}};
    if (z->k < 1)
        return;
    apply(z, rules);
}

static void step3(struct stem *z)
{
    static const struct rule rules[] = {
        {"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
        {"ical", "ic"},  {"ful", ""},   {"ness", ""},    {NULL, NULL}};
    apply(z, rules);
}

static void step4(struct stem *z)
{
    static const char *const suf[] = {
        "al",  "ance", "ence", "er",  "ic",  "able", "ible", "ant", "ement",
        "ment", "ent", "ion",  "ou",  "ism", "ate",  "iti",  "ous", "ive",
        "ize", NULL};
    for (const char *const *s = suf; *s; s++) {
        if (!ends(z, *s))
            continue;
        if (strcmp(*s, "ion") == 0 &&
            !(z->j >= 0 && (z->b[z->j] == 's' || z->b[z->j] == 't')))
            return;
        if (measure(z) > 1)
            z->k = z->j;
        return;
    }
}

static void step5(struct stem *z)
{
    z->j = z->k;
    if (z->b[z->k] == 'e') {
        int a = measure(z);
        if (a > 1 || (a == 1 && !cvc(z, z->k - 1)))
            z->k--;
    }
    if (z->b[z->k] == 'l' && double_cons(z, z->k) && measure(z) > 1)
        z->k--;
}

size_t lt__porter_stem(char *w, size_t n)
{
    if (n <= 2 || n > 1000)
        return n;
    for (size_t i = 0; i < n; i++)
        if (w[i] < 'a' || w[i] > 'z')
            return n;
    struct stem z = {w, (int)n - 1, 0};
    step1ab(&z);
    if (z.k > 0) {
        step1c(&z);
        step2(&z);
        step3(&z);
        step4(&z);
        step5(&z);
    }
    return (size_t)z.k + 1;
}
