/* The byte buffer of both wires' incremental decoders and its length
 * check (framebuf.h).  SPDX-License-Identifier: MIT */
#include "harness/framebuf.h"

#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/xmalloc.h"

/* Contract: an empty buffer; lt_framebuf_free() releases it. */
void lt_framebuf_init(struct lt_framebuf *fb)
{
    memset(fb, 0, sizeof(*fb));
}

/* Contract: appends n bytes read from the peer.  The bytes before start
 * (frames already handed out, and what points into them) are dropped
 * first when none is left after them or when the new bytes would not
 * fit otherwise; returns how many were dropped, by which the caller's
 * own offsets into buf go down. */
size_t lt_framebuf_feed(struct lt_framebuf *fb, const void *p, size_t n)
{
    size_t shift = 0;
    /* Nothing to add; on a fresh buffer buf is still NULL, and NULL + 0
     * (or memcpy from a NULL p) is undefined behaviour. */
    if (n == 0)
        return 0;
    if (fb->start > 0 && (fb->start == fb->len || fb->len + n > fb->cap)) {
        shift = fb->start;
        memmove(fb->buf, fb->buf + shift, fb->len - shift);
        fb->len -= shift;
        fb->start = 0;
    }
    if (fb->len + n > fb->cap) {
        size_t cap = fb->cap ? fb->cap : 1024;
        while (cap < fb->len + n)
            cap *= 2;
        fb->buf = xrealloc(fb->buf, cap);
        fb->cap = cap;
    }
    memcpy(fb->buf + fb->len, p, n);
    fb->len += n;
    return shift;
}

/* Contract: whether the n bytes from offset at (at >= start) are all
 * held: 1, or 0 while some are still to come; LT_EPROTO when the frame
 * they end, counted from start, would be longer than max.  A length the
 * peer declared is judged before its bytes arrive, so a lying one fails
 * at once rather than after max bytes. */
int lt_framebuf_has(const struct lt_framebuf *fb, size_t at, size_t n,
                    size_t max)
{
    if (at - fb->start > max || n > max - (at - fb->start))
        return LT_EPROTO;
    return at <= fb->len && fb->len - at >= n;
}

/* Contract: releases the buffer; it may be init'ed again. */
void lt_framebuf_free(struct lt_framebuf *fb)
{
    free(fb->buf);
    lt_framebuf_init(fb);
}
