/* Tokenizers (Python tokenize boundaries, a Java lexer, the rouge_score
 * word splitter) and the token dictionary they intern into.
 * SPDX-License-Identifier: MIT */
#include "engine/similarity/internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/xmalloc.h"

/*** Dictionary ***/

enum { NO_ID = UINT32_MAX };

struct entry {
    uint32_t off, len;
    uint32_t hash;
    uint32_t lower, stem; /* NO_ID until asked for */
    uint8_t kw;           /* bit 0: not computed; bit 1: python; bit 2: java */
};

struct lt__dict {
    char *chars;
    size_t chars_len, chars_cap;
    struct entry *e;
    size_t n, cap;
    uint32_t *slots; /* open addressing: id + 1, 0 for empty */
    size_t nslots;
};

static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

struct lt__dict *lt__dict_new(void)
{
    struct lt__dict *d = xcalloc(1, sizeof(*d));
    d->nslots = 1024;
    d->slots = xcalloc(d->nslots, sizeof(uint32_t));
    return d;
}

void lt__dict_free(struct lt__dict *d)
{
    if (!d)
        return;
    free(d->chars);
    free(d->e);
    free(d->slots);
    free(d);
}

static void grow_slots(struct lt__dict *d)
{
    size_t ns = d->nslots * 2;
    uint32_t *slots = xcalloc(ns, sizeof(uint32_t));
    for (size_t i = 0; i < d->n; i++) {
        size_t j = d->e[i].hash & (ns - 1);
        while (slots[j])
            j = (j + 1) & (ns - 1);
        slots[j] = (uint32_t)i + 1;
    }
    free(d->slots);
    d->slots = slots;
    d->nslots = ns;
}

uint32_t lt__dict_intern(struct lt__dict *d, const char *s, size_t n)
{
    uint32_t h = hash_bytes(s, n);
    size_t mask = d->nslots - 1;
    size_t j = h & mask;
    while (d->slots[j]) {
        const struct entry *e = &d->e[d->slots[j] - 1];
        if (e->hash == h && e->len == n && memcmp(d->chars + e->off, s, n) == 0)
            return d->slots[j] - 1;
        j = (j + 1) & mask;
    }
    if (d->chars_len + n + 1 > d->chars_cap) {
        d->chars_cap = (d->chars_len + n + 1) * 2 + 4096;
        d->chars = xrealloc(d->chars, d->chars_cap);
    }
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 256;
        d->e = xrealloc(d->e, d->cap * sizeof(*d->e));
    }
    memcpy(d->chars + d->chars_len, s, n);
    d->chars[d->chars_len + n] = '\0';
    uint32_t id = (uint32_t)d->n++;
    d->e[id] = (struct entry){(uint32_t)d->chars_len, (uint32_t)n, h, NO_ID,
                              NO_ID, 1};
    d->chars_len += n + 1;
    d->slots[j] = id + 1;
    if (d->n * 2 > d->nslots)
        grow_slots(d);
    return id;
}

const char *lt__dict_str(const struct lt__dict *d, uint32_t id, size_t *n)
{
    if (n)
        *n = d->e[id].len;
    return d->chars + d->e[id].off;
}

size_t lt__dict_size(const struct lt__dict *d)
{
    return d->n;
}

uint32_t lt__dict_lower(struct lt__dict *d, uint32_t id)
{
    if (d->e[id].lower != NO_ID)
        return d->e[id].lower;
    size_t n = d->e[id].len;
    char tmp[128];
    char *w = n < sizeof(tmp) ? tmp : xmalloc(n + 1);
    memcpy(w, d->chars + d->e[id].off, n);
    for (size_t i = 0; i < n; i++)
        if (w[i] >= 'A' && w[i] <= 'Z')
            w[i] = (char)(w[i] - 'A' + 'a');
    uint32_t lid = lt__dict_intern(d, w, n); /* may move d->e */
    if (w != tmp)
        free(w);
    d->e[id].lower = lid;
    return lid;
}

uint32_t lt__dict_stem(struct lt__dict *d, uint32_t id)
{
    if (d->e[id].stem != NO_ID)
        return d->e[id].stem;
    uint32_t lid = lt__dict_lower(d, id);
    size_t n = d->e[lid].len;
    char tmp[128];
    char *w = n < sizeof(tmp) ? tmp : xmalloc(n + 1);
    memcpy(w, d->chars + d->e[lid].off, n);
    size_t sn = lt__porter_stem(w, n);
    uint32_t sid = lt__dict_intern(d, w, sn);
    if (w != tmp)
        free(w);
    d->e[id].stem = sid;
    return sid;
}

/* CodeBLEU's keyword lists: the reference implementation's python.txt;
 * for Java the JLS reserved keywords (docs/similarity.md). */
static const char *const py_keywords[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await",
    "break", "class", "continue", "def", "del", "elif", "else", "except",
    "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
    "while", "with", "yield", "match", "case", "type", NULL};
static const char *const java_keywords[] = {
    "abstract", "assert", "boolean", "break", "byte", "case", "catch",
    "char", "class", "const", "continue", "default", "do", "double",
    "else", "enum", "extends", "final", "finally", "float", "for", "goto",
    "if", "implements", "import", "instanceof", "int", "interface", "long",
    "native", "new", "package", "private", "protected", "public", "return",
    "short", "static", "strictfp", "super", "switch", "synchronized",
    "this", "throw", "throws", "transient", "try", "void", "volatile",
    "while", NULL};

static bool in_list(const char *const *list, const char *s, size_t n)
{
    for (; *list; list++)
        if (strlen(*list) == n && memcmp(*list, s, n) == 0)
            return true;
    return false;
}

bool lt__dict_keyword(struct lt__dict *d, uint32_t id, enum lt_sim_lang lang)
{
    struct entry *e = &d->e[id];
    if (e->kw & 1) {
        const char *s = d->chars + e->off;
        e->kw = (uint8_t)((in_list(py_keywords, s, e->len) ? 2 : 0) |
                          (in_list(java_keywords, s, e->len) ? 4 : 0));
    }
    return (e->kw & (lang == LT_SIM_JAVA ? 4 : 2)) != 0;
}

void lt__toks_push(struct lt__toks *t, uint32_t id)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->v = xrealloc(t->v, t->cap * sizeof(uint32_t));
    }
    t->v[t->n++] = id;
}

/*** Python: the token boundaries of CPython 3.11's Lib/tokenize.py ***/

/* tokenize.py matches, at each position after blanks, the first of:
 * comment, triple-quote start, Number, an operator (longest), a
 * single-line string, Name (\w+).  Anything else is a one-character
 * ERRORTOKEN, which we keep as a token.  Bytes >= 0x80 count as \w. */

static bool is_w(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

static bool is_d(char c)
{
    return c >= '0' && c <= '9';
}

/* [0-9](?:_?[0-9])* at p; returns the end or p when there is none. */
static size_t digitpart(const char *s, size_t n, size_t p)
{
    if (p >= n || !is_d(s[p]))
        return p;
    p++;
    for (;;) {
        if (p < n && is_d(s[p]))
            p++;
        else if (p + 1 < n && s[p] == '_' && is_d(s[p + 1]))
            p += 2;
        else
            return p;
    }
}

static size_t exponent(const char *s, size_t n, size_t p)
{
    if (p >= n || (s[p] != 'e' && s[p] != 'E'))
        return p;
    size_t q = p + 1;
    if (q < n && (s[q] == '+' || s[q] == '-'))
        q++;
    size_t r = digitpart(s, n, q);
    return r == q ? p : r;
}

static bool radix_digit(char c, int radix)
{
    if (radix == 16)
        return is_d(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (radix == 8)
        return c >= '0' && c <= '7';
    return c == '0' || c == '1';
}

/* Number = Imagnumber | Floatnumber | Intnumber, first alternative that
 * matches (regex alternation, not longest match). */
static size_t py_number(const char *s, size_t n, size_t p)
{
    size_t dp = digitpart(s, n, p);
    /* Imagnumber: digitpart [jJ] | Floatnumber [jJ] */
    size_t fl = 0; /* end of Floatnumber, 0 if none */
    {
        /* Pointfloat: digitpart '.' digitpart? | '.' digitpart; then
         * maybe Exponent.  Expfloat: digitpart Exponent. */
        size_t q = 0;
        if (dp > p && dp < n && s[dp] == '.')
            q = digitpart(s, n, dp + 1);
        else if (dp == p && p < n && s[p] == '.' &&
                 digitpart(s, n, p + 1) > p + 1)
            q = digitpart(s, n, p + 1);
        if (q)
            fl = exponent(s, n, q);
        else if (dp > p) {
            size_t e = exponent(s, n, dp);
            if (e > dp)
                fl = e;
        }
    }
    if (dp > p && dp < n && (s[dp] == 'j' || s[dp] == 'J'))
        return dp + 1;
    if (fl && fl < n && (s[fl] == 'j' || s[fl] == 'J'))
        return fl + 1;
    if (fl)
        return fl;
    /* Intnumber: hex, bin, oct, then decimal. */
    if (p + 1 < n && s[p] == '0') {
        int radix = 0;
        char x = s[p + 1];
        if (x == 'x' || x == 'X')
            radix = 16;
        else if (x == 'b' || x == 'B')
            radix = 2;
        else if (x == 'o' || x == 'O')
            radix = 8;
        if (radix) {
            size_t q = p + 2, last = 0;
            for (;;) {
                if (q < n && radix_digit(s[q], radix))
                    q++;
                else if (q + 1 < n && s[q] == '_' &&
                         radix_digit(s[q + 1], radix))
                    q += 2;
                else
                    break;
                last = q;
            }
            if (last)
                return last;
        }
    }
    if (p < n && s[p] == '0') {
        size_t q = p + 1; /* 0(?:_?0)* */
        for (;;) {
            if (q < n && s[q] == '0')
                q++;
            else if (q + 1 < n && s[q] == '_' && s[q + 1] == '0')
                q += 2;
            else
                return q;
        }
    }
    if (p < n && s[p] >= '1' && s[p] <= '9')
        return dp;
    return p;
}

/* The operators of tokenize.EXACT_TOKEN_TYPES (3.11), longest first. */
static size_t py_operator(const char *s, size_t n, size_t p)
{
    static const char *const ops3[] = {"**=", "...", "//=", "<<=", ">>=",
                                       NULL};
    static const char *const ops2[] = {
        "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=", ":=",
        "<<", "<=", "==", ">=", ">>", "@=", "^=", "|=", NULL};
    static const char ops1[] = "%&()*+,-./:;<=>@[]^{|}~";
    if (p + 3 <= n)
        for (const char *const *o = ops3; *o; o++)
            if (memcmp(s + p, *o, 3) == 0)
                return p + 3;
    if (p + 2 <= n)
        for (const char *const *o = ops2; *o; o++)
            if (memcmp(s + p, *o, 2) == 0)
                return p + 2;
    if (p < n && s[p] && strchr(ops1, s[p]))
        return p + 1;
    return p;
}

/* StringPrefix: '', or a case permutation of b r u f br fr (either
 * order).  Returns the prefix length if s[p..] is a prefix followed by a
 * quote, else -1. */
static int py_string_prefix(const char *s, size_t n, size_t p)
{
    size_t k = 0;
    char a = 0, b = 0;
    while (k < 3 && p + k < n) {
        char c = s[p + k];
        if (c == '\'' || c == '"')
            break;
        c = (char)(c | 0x20);
        if (c != 'b' && c != 'r' && c != 'u' && c != 'f')
            return -1;
        if (k == 0)
            a = c;
        else
            b = c;
        k++;
    }
    if (p + k >= n || (s[p + k] != '\'' && s[p + k] != '"'))
        return -1;
    if (k == 0 || k == 1)
        return (int)k;
    if (k == 2 && ((a == 'b' && b == 'r') || (a == 'r' && b == 'b') ||
                   (a == 'f' && b == 'r') || (a == 'r' && b == 'f')))
        return 2;
    return -1;
}

/* A string starting at its quote q: returns its end (past the closing
 * quote), or 0 when a single-quoted string is unterminated on its line
 * (tokenize then reports the quote as an ERRORTOKEN).  Triple-quoted
 * strings run to the closing triple quote or the end of input. */
static size_t py_string_body(const char *s, size_t n, size_t q)
{
    char quote = s[q];
    if (q + 2 < n && s[q + 1] == quote && s[q + 2] == quote) {
        size_t i = q + 3;
        while (i < n) {
            if (s[i] == '\\') {
                i += 2;
                continue;
            }
            if (s[i] == quote && i + 2 < n && s[i + 1] == quote &&
                s[i + 2] == quote)
                return i + 3;
            i++;
        }
        return n;
    }
    size_t i = q + 1;
    while (i < n) {
        char c = s[i];
        if (c == quote)
            return i + 1;
        if (c == '\n')
            return 0;
        if (c == '\\') {
            if (i + 1 < n && s[i + 1] == '\n') {
                i += 2; /* continues on the next line */
                continue;
            }
            if (i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n') {
                i += 3;
                continue;
            }
            i += 2;
            continue;
        }
        i++;
    }
    return 0;
}

static void py_tokens(struct lt__dict *d, const char *s, size_t n,
                      struct lt__toks *out)
{
    size_t p = 0;
    while (p < n) {
        char c = s[p];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r') {
            p++;
            continue;
        }
        if (c == '#') {
            while (p < n && s[p] != '\n' && s[p] != '\r')
                p++;
            continue;
        }
        if (c == '\\' && p + 1 < n &&
            (s[p + 1] == '\n' ||
             (s[p + 1] == '\r' && p + 2 < n && s[p + 2] == '\n'))) {
            p += s[p + 1] == '\n' ? 2 : 3; /* line continuation */
            continue;
        }
        size_t e = p;
        int pre = py_string_prefix(s, n, p);
        if (pre >= 0) {
            size_t q = p + (size_t)pre;
            bool triple = q + 2 < n && s[q + 1] == s[q] && s[q + 2] == s[q];
            if (triple) {
                e = py_string_body(s, n, q);
            } else {
                /* Number and operators come before ContStr, but no
                 * number or operator starts with a prefix letter or a
                 * quote. */
                size_t b = py_string_body(s, n, q);
                if (b)
                    e = b;
            }
        }
        if (e == p)
            e = py_number(s, n, p);
        if (e == p)
            e = py_operator(s, n, p);
        if (e == p && is_w((unsigned char)c)) {
            e = p + 1;
            while (e < n && is_w((unsigned char)s[e]))
                e++;
        }
        if (e == p)
            e = p + 1; /* ERRORTOKEN */
        lt__toks_push(out, lt__dict_intern(d, s + p, e - p));
        p = e;
    }
}

/*** Java: a lexer after JLS chapter 3 ***/

static bool java_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '$' || c >= 0x80;
}

static bool java_ident_part(unsigned char c)
{
    return java_ident_start(c) || is_d((char)c);
}

static bool hexd(char c)
{
    return radix_digit(c, 16);
}

/* Numeric literal at p (s[p] is a digit, or '.' followed by a digit). */
static size_t java_number(const char *s, size_t n, size_t p)
{
    size_t q = p;
    if (s[q] == '0' && q + 1 < n && (s[q + 1] == 'x' || s[q + 1] == 'X')) {
        q += 2;
        while (q < n && (hexd(s[q]) || s[q] == '_'))
            q++;
        bool fp = false;
        if (q < n && s[q] == '.') {
            q++;
            while (q < n && (hexd(s[q]) || s[q] == '_'))
                q++;
            fp = true;
        }
        if (q < n && (s[q] == 'p' || s[q] == 'P')) {
            q++;
            if (q < n && (s[q] == '+' || s[q] == '-'))
                q++;
            while (q < n && (is_d(s[q]) || s[q] == '_'))
                q++;
            fp = true;
        }
        if (q < n && (fp ? strchr("fFdD", s[q]) : strchr("lL", s[q])) &&
            s[q])
            q++;
        return q;
    }
    if (s[q] == '0' && q + 1 < n && (s[q + 1] == 'b' || s[q + 1] == 'B')) {
        q += 2;
        while (q < n && (s[q] == '0' || s[q] == '1' || s[q] == '_'))
            q++;
        if (q < n && (s[q] == 'l' || s[q] == 'L'))
            q++;
        return q;
    }
    while (q < n && (is_d(s[q]) || s[q] == '_'))
        q++;
    bool fp = false;
    if (q < n && s[q] == '.' && !(q + 1 < n && s[q + 1] == '.')) {
        q++;
        while (q < n && (is_d(s[q]) || s[q] == '_'))
            q++;
        fp = true;
    }
    if (q < n && (s[q] == 'e' || s[q] == 'E')) {
        size_t r = q + 1;
        if (r < n && (s[r] == '+' || s[r] == '-'))
            r++;
        if (r < n && is_d(s[r])) {
            while (r < n && (is_d(s[r]) || s[r] == '_'))
                r++;
            q = r;
            fp = true;
        }
    }
    if (q < n && s[q] && strchr("fFdD", s[q]))
        return q + 1;
    if (!fp && q < n && (s[q] == 'l' || s[q] == 'L'))
        return q + 1;
    return q;
}

static size_t java_operator(const char *s, size_t n, size_t p)
{
    static const char *const ops[] = {
        ">>>=", "<<=", ">>=", ">>>", "...", "->", "::", "++", "--", "&&",
        "||", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "&=", "|=",
        "^=", "%=", "<<", ">>", NULL};
    for (const char *const *o = ops; *o; o++) {
        size_t k = strlen(*o);
        if (p + k <= n && memcmp(s + p, *o, k) == 0)
            return p + k;
    }
    if (s[p] && strchr("(){}[];,.@=><!~?:+-*/&|^%", s[p]))
        return p + 1;
    return p;
}

static void java_tokens(struct lt__dict *d, const char *s, size_t n,
                        struct lt__toks *out)
{
    size_t p = 0;
    while (p < n) {
        unsigned char c = (unsigned char)s[p];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r') {
            p++;
            continue;
        }
        if (c == '/' && p + 1 < n && s[p + 1] == '/') {
            while (p < n && s[p] != '\n' && s[p] != '\r')
                p++;
            continue;
        }
        if (c == '/' && p + 1 < n && s[p + 1] == '*') {
            p += 2;
            while (p < n && !(s[p] == '*' && p + 1 < n && s[p + 1] == '/'))
                p++;
            p = p < n ? p + 2 : n;
            continue;
        }
        size_t e = p;
        if (c == '"' && p + 2 < n && s[p + 1] == '"' && s[p + 2] == '"') {
            e = p + 3; /* text block */
            while (e < n && !(s[e] == '"' && e + 2 < n && s[e + 1] == '"' &&
                              s[e + 2] == '"')) {
                e += s[e] == '\\' ? 2 : 1;
            }
            e = e + 3 <= n ? e + 3 : n;
        } else if (c == '"' || c == '\'') {
            e = p + 1;
            while (e < n && s[e] != (char)c && s[e] != '\n')
                e += s[e] == '\\' ? 2 : 1;
            if (e < n && s[e] == (char)c)
                e++;
            if (e > n)
                e = n;
        } else if (is_d((char)c) ||
                   (c == '.' && p + 1 < n && is_d(s[p + 1]))) {
            e = java_number(s, n, p);
        } else if (java_ident_start(c)) {
            e = p + 1;
            while (e < n && java_ident_part((unsigned char)s[e]))
                e++;
        } else {
            e = java_operator(s, n, p);
        }
        if (e == p)
            e = p + 1;
        lt__toks_push(out, lt__dict_intern(d, s + p, e - p));
        p = e;
    }
}

/*** rouge_score's default tokenizer ***/

/* lowercase; runs of [^a-z0-9] separate tokens (non-ASCII bytes too). */
static void word_tokens(struct lt__dict *d, const char *s, size_t n,
                        struct lt__toks *out)
{
    char tmp[256];
    size_t p = 0;
    while (p < n) {
        char c = s[p];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (!((c >= 'a' && c <= 'z') || is_d(c))) {
            p++;
            continue;
        }
        size_t e = p;
        size_t k = 0;
        struct lt_buf big = LT_BUF_INIT;
        while (e < n) {
            char x = s[e];
            if (x >= 'A' && x <= 'Z')
                x = (char)(x - 'A' + 'a');
            if (!((x >= 'a' && x <= 'z') || is_d(x)))
                break;
            if (k < sizeof(tmp))
                tmp[k] = x;
            else {
                if (k == sizeof(tmp))
                    lt_buf_append(&big, tmp, sizeof(tmp));
                lt_buf_append(&big, &x, 1);
            }
            k++;
            e++;
        }
        lt__toks_push(out, k <= sizeof(tmp) ? lt__dict_intern(d, tmp, k)
                                            : lt__dict_intern(d, big.data, k));
        lt_buf_free(&big);
        p = e;
    }
}

void lt__tokenize(struct lt__dict *d, const char *text, size_t len,
                  enum lt_sim_lang lang, enum lt_sim_tokens mode,
                  struct lt__toks *out)
{
    if (mode == LT_SIM_TOKENS_WORDS)
        word_tokens(d, text, len, out);
    else if (lang == LT_SIM_JAVA)
        java_tokens(d, text, len, out);
    else
        py_tokens(d, text, len, out);
}
