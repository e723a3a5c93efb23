/* Unit tests of lt_wire_send and lt_wire_recv over a socketpair: whole
 * frames, fds riding along as SCM_RIGHTS, and the refusals (EOF inside a
 * frame, oversized, zero-length, type 0, too many fds).
 * SPDX-License-Identifier: MIT */
#include "tests.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/err.h"
#include "harness/wire.h"

static void make_pair(int sv[2])
{
    int rc = socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
    assert_int_equal(rc, 0);
}

static void write_raw(int fd, const void *p, size_t n)
{
    ssize_t k = write(fd, p, n);
    assert_int_equal(k, (ssize_t)n);
}

/* Number of open fds, to show that nothing leaked. */
static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n - 1; /* the DIR's own fd */
}

static void test_send_recv_plain(void **state)
{
    int sv[2];
    make_pair(sv);
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_READY);
    lt_wire_put_u32(&w, 3);
    lt_wire_put_cstr(&w, "tests/test_a.py::test_one");
    lt_wire_finish(&w);
    assert_int_equal(lt_wire_send(sv[0], &w, NULL, 0), 0);
    /* And an empty frame right behind it. */
    struct lt_wire_writer q;
    lt_wire_writer_init(&q, LT_FRAME_QUIT);
    lt_wire_finish(&q);
    assert_int_equal(lt_wire_send(sv[0], &q, NULL, 0), 0);

    uint8_t *payload = NULL;
    size_t len = 0;
    int fds[LT_WIRE_MAX_FDS];
    int nfds = -1;
    int type = lt_wire_recv(sv[1], LT_WIRE_MAX_FRAME, &payload, &len, fds,
                            &nfds);
    assert_int_equal(type, LT_FRAME_READY);
    assert_int_equal(nfds, 0);
    assert_int_equal(len, w.len - 5);
    assert_memory_equal(payload, w.data + 5, len);
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, payload, len);
    assert_int_equal(lt_wire_get_u32(&r), 3);
    char *s = lt_wire_get_strdup(&r);
    assert_string_equal(s, "tests/test_a.py::test_one");
    free(s);
    assert_int_equal(lt_wire_reader_done(&r), 0);
    free(payload);

    type = lt_wire_recv(sv[1], LT_WIRE_MAX_FRAME, &payload, &len, NULL,
                        NULL);
    assert_int_equal(type, LT_FRAME_QUIT);
    assert_int_equal(len, 0);
    assert_non_null(payload); /* a zero-byte payload is still freeable */
    free(payload);

    lt_wire_writer_free(&w);
    lt_wire_writer_free(&q);
    close(sv[0]);
    close(sv[1]);
}

/* Two pipe ends travel with a RUN frame; the received copies work, come
 * close-on-exec, and the payload is intact. */
static void test_send_recv_two_fds(void **state)
{
    int sv[2], p1[2], p2[2];
    make_pair(sv);
    assert_int_equal(pipe2(p1, O_CLOEXEC), 0);
    assert_int_equal(pipe2(p2, O_CLOEXEC), 0);

    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_RUN);
    lt_wire_put_u64(&w, 0x1122334455667788ull);
    lt_wire_put_cstr(&w, "replacement");
    lt_wire_finish(&w);
    int send_fds[2] = {p1[1], p2[1]}; /* the write ends */
    assert_int_equal(lt_wire_send(sv[0], &w, send_fds, 2), 0);

    uint8_t *payload = NULL;
    size_t len = 0;
    int fds[LT_WIRE_MAX_FDS] = {-1, -1, -1, -1};
    int nfds = 0;
    int type = lt_wire_recv(sv[1], LT_WIRE_MAX_FRAME, &payload, &len, fds,
                            &nfds);
    assert_int_equal(type, LT_FRAME_RUN);
    assert_int_equal(nfds, 2);
    assert_int_equal(len, w.len - 5);
    assert_memory_equal(payload, w.data + 5, len);
    free(payload);

    for (int i = 0; i < 2; i++) {
        assert_true(fds[i] >= 0);
        assert_int_not_equal(fds[i], p1[1]);
        assert_int_not_equal(fds[i], p2[1]);
        int fl = fcntl(fds[i], F_GETFD);
        assert_true(fl >= 0 && (fl & FD_CLOEXEC));
    }
    /* Close the originals: only the received copies can still write. */
    close(p1[1]);
    close(p2[1]);
    write_raw(fds[0], "one", 3);
    write_raw(fds[1], "two", 3);
    close(fds[0]);
    close(fds[1]);
    char buf[8];
    assert_int_equal(read(p1[0], buf, sizeof(buf)), 3);
    assert_memory_equal(buf, "one", 3);
    assert_int_equal(read(p1[0], buf, sizeof(buf)), 0); /* all closed */
    assert_int_equal(read(p2[0], buf, sizeof(buf)), 3);
    assert_memory_equal(buf, "two", 3);
    assert_int_equal(read(p2[0], buf, sizeof(buf)), 0);

    close(p1[0]);
    close(p2[0]);
    lt_wire_writer_free(&w);
    close(sv[0]);
    close(sv[1]);
}

/* A receiver that passes NULL for fds gets none: they are closed. */
static void test_recv_refuses_fds(void **state)
{
    int sv[2], p[2];
    make_pair(sv);
    assert_int_equal(pipe2(p, O_CLOEXEC), 0);
    int before = count_fds();

    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_STARTED);
    lt_wire_put_u32(&w, 1234);
    lt_wire_finish(&w);
    int send_fds[2] = {p[0], p[1]};
    assert_int_equal(lt_wire_send(sv[0], &w, send_fds, 2), 0);
    lt_wire_writer_free(&w);

    uint8_t *payload = NULL;
    size_t len = 0;
    int type = lt_wire_recv(sv[1], 4096, &payload, &len, NULL, NULL);
    assert_int_equal(type, LT_FRAME_STARTED);
    assert_int_equal(len, 4);
    free(payload);
    assert_int_equal(count_fds(), before);

    close(p[0]);
    close(p[1]);
    close(sv[0]);
    close(sv[1]);
}

static void test_send_too_many_fds(void **state)
{
    int sv[2];
    make_pair(sv);
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_RUN);
    lt_wire_finish(&w);
    int fds[LT_WIRE_MAX_FDS + 1];
    for (int i = 0; i < LT_WIRE_MAX_FDS + 1; i++)
        fds[i] = sv[0];
    assert_int_equal(lt_wire_send(sv[0], &w, fds, LT_WIRE_MAX_FDS + 1),
                     -EINVAL);
    lt_wire_writer_free(&w);
    close(sv[0]);
    close(sv[1]);
}

static void test_send_to_closed_peer(void **state)
{
    int sv[2];
    make_pair(sv);
    close(sv[1]);
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_QUIT);
    lt_wire_finish(&w);
    assert_int_equal(lt_wire_send(sv[0], &w, NULL, 0), -EPIPE);
    int fds[1] = {sv[0]};
    assert_int_equal(lt_wire_send(sv[0], &w, fds, 1), -EPIPE);
    lt_wire_writer_free(&w);
    close(sv[0]);
}

/* Receives from a peer that wrote `n` raw bytes then hung up. */
static int recv_raw(const void *bytes, size_t n, size_t max, int with_fds)
{
    int sv[2];
    make_pair(sv);
    if (n)
        write_raw(sv[0], bytes, n);
    close(sv[0]);
    uint8_t *payload = (uint8_t *)"sentinel";
    size_t len = 99;
    int fds[LT_WIRE_MAX_FDS];
    int nfds = -1;
    int rc = with_fds ? lt_wire_recv(sv[1], max, &payload, &len, fds, &nfds)
                      : lt_wire_recv(sv[1], max, &payload, &len, NULL, NULL);
    /* recv resets *payload first; the caller frees it whatever the
     * result (a type-0 frame is refused with its payload allocated). */
    free(payload);
    if (with_fds)
        assert_int_equal(nfds, 0);
    close(sv[1]);
    return rc;
}

static void test_recv_eof_before_frame(void **state)
{
    assert_int_equal(recv_raw(NULL, 0, 4096, 0), 0);
    assert_int_equal(recv_raw(NULL, 0, 4096, 1), 0);
}

static void test_recv_eof_mid_frame(void **state)
{
    uint8_t f[16];
    test_put_header(f, 9, LT_FRAME_STARTED);
    memset(f + 5, 0xaa, 8);
    /* Inside the header, with and without the fd-receiving path. */
    for (size_t cut = 1; cut < 5; cut++) {
        assert_int_equal(recv_raw(f, cut, 4096, 0), LT_EPROTO);
        assert_int_equal(recv_raw(f, cut, 4096, 1), LT_EPROTO);
    }
    /* Inside the payload. */
    for (size_t cut = 5; cut < 13; cut++)
        assert_int_equal(recv_raw(f, cut, 4096, 0), LT_EPROTO);
    /* And the whole frame is fine. */
    assert_int_equal(recv_raw(f, 13, 4096, 0), LT_FRAME_STARTED);
}

static void test_recv_oversized(void **state)
{
    uint8_t f[5];
    test_put_header(f, 4097, LT_FRAME_STARTED);
    assert_int_equal(recv_raw(f, 5, 4096, 0), LT_EPROTO);
    test_put_header(f, UINT32_MAX, LT_FRAME_STARTED);
    assert_int_equal(recv_raw(f, 5, LT_WIRE_MAX_FRAME, 1), LT_EPROTO);
    test_put_header(f, LT_WIRE_MAX_FRAME + 1, LT_FRAME_INIT);
    assert_int_equal(recv_raw(f, 5, LT_WIRE_MAX_FRAME, 0), LT_EPROTO);
}

/* Exactly `max` bytes is accepted. */
static void test_recv_at_max(void **state)
{
    enum { MAX = 64 };
    uint8_t f[4 + MAX];
    test_put_header(f, MAX, LT_FRAME_FAILED);
    memset(f + 5, 'z', MAX - 1);
    assert_int_equal(recv_raw(f, sizeof(f), MAX, 0), LT_FRAME_FAILED);
    assert_int_equal(recv_raw(f, sizeof(f), MAX - 1, 0), LT_EPROTO);
}

static void test_recv_zero_length(void **state)
{
    uint8_t f[5];
    test_put_header(f, 0, LT_FRAME_QUIT);
    assert_int_equal(recv_raw(f, 4, 4096, 0), LT_EPROTO);
    assert_int_equal(recv_raw(f, 5, 4096, 1), LT_EPROTO);
}

/* Type 0 is not a frame type. */
static void test_recv_type_zero(void **state)
{
    uint8_t f[6];
    test_put_header(f, 2, 0);
    f[5] = 1;
    assert_int_equal(recv_raw(f, sizeof(f), 4096, 0), LT_EPROTO);
}

const struct CMUnitTest wire_io_tests[] = {
    LT_TEST(test_send_recv_plain),
    LT_TEST(test_send_recv_two_fds),
    LT_TEST(test_recv_refuses_fds),
    LT_TEST(test_send_too_many_fds),
    LT_TEST(test_send_to_closed_peer),
    LT_TEST(test_recv_eof_before_frame),
    LT_TEST(test_recv_eof_mid_frame),
    LT_TEST(test_recv_oversized),
    LT_TEST(test_recv_at_max),
    LT_TEST(test_recv_zero_length),
    LT_TEST(test_recv_type_zero),
};
const size_t wire_io_ntests = sizeof(wire_io_tests) / sizeof(wire_io_tests[0]);
