/* Frame encoding and decoding for the engine, zygote and child channels.
 * SPDX-License-Identifier: MIT */
#include "harness/wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/err.h"
#include "common/xmalloc.h"

/*** Encoding ***/

static void reserve(struct lt_wire_writer *w, size_t extra)
{
    if (w->len + extra <= w->cap)
        return;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < w->len + extra)
        cap *= 2;
    w->data = xrealloc(w->data, cap);
    w->cap = cap;
}

void lt_wire_writer_init(struct lt_wire_writer *w, enum lt_frame_type type)
{
    w->data = NULL;
    w->len = w->cap = 0;
    lt_wire_put_u32(w, 0); /* length, patched by lt_wire_finish */
    lt_wire_put_u8(w, (uint8_t)type);
}

void lt_wire_put_u8(struct lt_wire_writer *w, uint8_t v)
{
    reserve(w, 1);
    w->data[w->len++] = v;
}

void lt_wire_put_u32(struct lt_wire_writer *w, uint32_t v)
{
    reserve(w, 4);
    for (int i = 0; i < 4; i++)
        w->data[w->len++] = (uint8_t)(v >> (8 * i));
}

void lt_wire_put_u64(struct lt_wire_writer *w, uint64_t v)
{
    reserve(w, 8);
    for (int i = 0; i < 8; i++)
        w->data[w->len++] = (uint8_t)(v >> (8 * i));
}

void lt_wire_put_bytes(struct lt_wire_writer *w, const void *p, size_t n)
{
    reserve(w, n);
    if (n)
        memcpy(w->data + w->len, p, n);
    w->len += n;
}

void lt_wire_put_str(struct lt_wire_writer *w, const char *s, size_t n)
{
    lt_wire_put_u32(w, (uint32_t)n);
    reserve(w, n);
    if (n)
        memcpy(w->data + w->len, s, n);
    w->len += n;
}

void lt_wire_put_cstr(struct lt_wire_writer *w, const char *s)
{
    lt_wire_put_str(w, s ? s : "", s ? strlen(s) : 0);
}

void lt_wire_finish(struct lt_wire_writer *w)
{
    uint32_t n = (uint32_t)(w->len - 4);
    for (int i = 0; i < 4; i++)
        w->data[i] = (uint8_t)(n >> (8 * i));
}

void lt_wire_writer_free(struct lt_wire_writer *w)
{
    free(w->data);
    w->data = NULL;
    w->len = w->cap = 0;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int lt_wire_send(int fd, const struct lt_wire_writer *w, const int *fds,
                 int nfds)
{
    if (nfds <= 0)
        return write_all(fd, w->data, w->len);
    if (nfds > LT_WIRE_MAX_FDS)
        return -EINVAL;

    /* The fds ride on the first byte; the rest follows as plain data. */
    union {
        char buf[CMSG_SPACE(sizeof(int) * LT_WIRE_MAX_FDS)];
        struct cmsghdr align;
    } ctl;
    memset(&ctl, 0, sizeof(ctl));
    struct iovec iov = {.iov_base = w->data, .iov_len = 1};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1,
                         .msg_control = ctl.buf,
                         .msg_controllen = CMSG_SPACE(sizeof(int) * nfds)};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
    memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
    ssize_t k;
    do
        k = sendmsg(fd, &msg, MSG_NOSIGNAL);
    while (k < 0 && errno == EINTR);
    if (k < 0)
        return -errno;
    return write_all(fd, w->data + 1, w->len - 1);
}

/*** Decoding ***/

/* The u32 little-endian at p: a frame's length. */
static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

void lt_wire_reader_init(struct lt_wire_reader *r, const void *payload,
                         size_t len)
{
    r->p = payload;
    r->left = len;
    r->bad = 0;
}

static const uint8_t *take(struct lt_wire_reader *r, size_t n)
{
    if (r->bad || r->left < n) {
        r->bad = 1;
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += n;
    r->left -= n;
    return p;
}

uint8_t lt_wire_get_u8(struct lt_wire_reader *r)
{
    const uint8_t *p = take(r, 1);
    return p ? p[0] : 0;
}

uint32_t lt_wire_get_u32(struct lt_wire_reader *r)
{
    const uint8_t *p = take(r, 4);
    return p ? le32(p) : 0;
}

uint64_t lt_wire_get_u64(struct lt_wire_reader *r)
{
    const uint8_t *p = take(r, 8);
    uint64_t v = 0;
    if (p)
        for (int i = 0; i < 8; i++)
            v |= (uint64_t)p[i] << (8 * i);
    return v;
}

const char *lt_wire_get_str(struct lt_wire_reader *r, size_t *n)
{
    uint32_t len = lt_wire_get_u32(r);
    const uint8_t *p = take(r, len);
    *n = p ? len : 0;
    return p ? (const char *)p : "";
}

char *lt_wire_get_strdup(struct lt_wire_reader *r)
{
    size_t n;
    const char *s = lt_wire_get_str(r, &n);
    if (r->bad || memchr(s, '\0', n)) {
        r->bad = 1;
        return NULL;
    }
    return xstrndup(s, n);
}

int lt_wire_reader_done(const struct lt_wire_reader *r)
{
    return (r->bad || r->left != 0) ? LT_EPROTO : 0;
}

static int read_exact(int fd, uint8_t *p, size_t n, int *fds, int *nfds)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k;
        if (got == 0 && fds) {
            union {
                char buf[CMSG_SPACE(sizeof(int) * LT_WIRE_MAX_FDS)];
                struct cmsghdr align;
            } ctl;
            struct iovec iov = {.iov_base = p, .iov_len = n};
            struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1,
                                 .msg_control = ctl.buf,
                                 .msg_controllen = sizeof(ctl.buf)};
            k = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
            if (k >= 0) {
                for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c;
                     c = CMSG_NXTHDR(&msg, c)) {
                    if (c->cmsg_level != SOL_SOCKET ||
                        c->cmsg_type != SCM_RIGHTS)
                        continue;
                    size_t cnt = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                    int *in = (int *)CMSG_DATA(c);
                    for (size_t i = 0; i < cnt; i++) {
                        if (*nfds < LT_WIRE_MAX_FDS)
                            fds[(*nfds)++] = in[i];
                        else
                            close(in[i]);
                    }
                }
            }
        } else {
            k = read(fd, p + got, n - got);
        }
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (k == 0)
            return got == 0 ? 0 : LT_EPROTO;
        got += (size_t)k;
    }
    return 1;
}

int lt_wire_recv(int fd, size_t max, uint8_t **payload, size_t *len,
                 int *fds, int *nfds)
{
    uint8_t hdr[5];
    int dummy_fds[LT_WIRE_MAX_FDS];
    int dummy_n = 0;
    int *fdv = fds ? fds : dummy_fds;
    int *fdn = fds ? nfds : &dummy_n;
    *fdn = 0;
    *payload = NULL;
    *len = 0;
    int rc = read_exact(fd, hdr, sizeof(hdr), fdv, fdn);
    if (!fds)
        for (int i = 0; i < dummy_n; i++)
            close(dummy_fds[i]);
    if (rc <= 0)
        return rc;
    uint32_t n = le32(hdr);
    if (n == 0 || n > max)
        return LT_EPROTO;
    size_t plen = n - 1;
    uint8_t *p = xmalloc(plen + 1);
    if (plen) {
        rc = read_exact(fd, p, plen, NULL, NULL);
        if (rc <= 0) {
            free(p);
            return rc == 0 ? LT_EPROTO : rc;
        }
    }
    *payload = p;
    *len = plen;
    return hdr[4] ? hdr[4] : LT_EPROTO;
}

void lt_wire_decoder_init(struct lt_wire_decoder *d, size_t max)
{
    lt_framebuf_init(&d->in);
    d->max = max;
}

void lt_wire_decoder_feed(struct lt_wire_decoder *d, const void *p, size_t n)
{
    lt_framebuf_feed(&d->in, p, n);
}

int lt_wire_decoder_pop(struct lt_wire_decoder *d, int *type,
                        const uint8_t **payload, size_t *len)
{
    struct lt_framebuf *in = &d->in;
    int rc = lt_framebuf_has(in, in->start, 4, 4);
    if (rc <= 0)
        return rc;
    const uint8_t *frame = in->buf + in->start;
    uint32_t n = le32(frame);
    if (n == 0)
        return LT_EPROTO;
    /* The length prefix, then n bytes of type and payload. */
    rc = lt_framebuf_has(in, in->start + 4, n, 4 + d->max);
    if (rc <= 0)
        return rc;
    *type = frame[4];
    *payload = frame + 5;
    *len = n - 1;
    in->start += 4 + (size_t)n;
    return 1;
}

void lt_wire_decoder_free(struct lt_wire_decoder *d)
{
    lt_framebuf_free(&d->in);
}
