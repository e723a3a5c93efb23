/* Bytes a peer sent, held until they make whole frames: the buffer under
 * both wires' incremental decoders (wire.h: the children's length-prefixed
 * frames; jvm_wire.h: the Java workers' messages), and the one length
 * check that decides, from a frame's declared length alone, whether it is
 * over its cap or not all here yet.  SPDX-License-Identifier: MIT */
#ifndef LT_HARNESS_FRAMEBUF_H
#define LT_HARNESS_FRAMEBUF_H

#include <stddef.h>
#include <stdint.h>

struct lt_framebuf {
    uint8_t *buf;
    size_t len, cap; /* bytes held, allocated */
    size_t start;    /* bytes before it were handed out: dropped by a
                        later feed */
};

void lt_framebuf_init(struct lt_framebuf *fb);
size_t lt_framebuf_feed(struct lt_framebuf *fb, const void *p, size_t n);
int lt_framebuf_has(const struct lt_framebuf *fb, size_t at, size_t n,
                    size_t max);
void lt_framebuf_free(struct lt_framebuf *fb);

#endif
