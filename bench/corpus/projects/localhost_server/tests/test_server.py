import asyncio
import multiprocessing
import socket
import threading

import pytest

from linecalc import protocol, server


@pytest.fixture
def calc():
    srv = server.start(("127.0.0.1", 0))
    yield srv.server_address
    srv.shutdown()
    srv.server_close()


def ask(address, *lines, family=socket.AF_INET):
    with socket.create_connection(address, timeout=10) as s:
        f = s.makefile("rwb")
        replies = []
        for line in lines:
            f.write((line + "\n").encode())
            f.flush()
            replies.append(f.readline().decode().rstrip("\n"))
        return replies


def test_add_over_tcp(calc):
    assert ask(calc, "ADD 2 3", "ADD") == ["5", "0"]


def test_mul_and_max_over_tcp(calc):
    assert ask(calc, "MUL 2 3 4", "MAX 4 9 1", "MAX") == ["24", "9",
                                                          "ERR no numbers"]


def test_errors_over_tcp(calc):
    assert ask(calc, "POW 2", "ADD x") == ["ERR unknown POW",
                                            "ERR not a number"]


def test_ipv6_loopback():
    if not socket.has_ipv6:
        pytest.skip("no IPv6")
    srv = socket.socket(socket.AF_INET6)
    srv.bind(("::1", 0))
    srv.listen()
    port = srv.getsockname()[1]

    def serve():
        conn, _ = srv.accept()
        with conn:
            conn.sendall(protocol.answer(conn.recv(100).decode()).encode())

    t = threading.Thread(target=serve)
    t.start()
    with socket.create_connection(("::1", port), timeout=10) as c:
        c.sendall(b"ADD 40 2")
        assert c.recv(100) == b"42"
    t.join()
    srv.close()


def test_socketpair():
    a, b = socket.socketpair()
    a.settimeout(1)
    t = threading.Thread(target=server.serve_pair, args=(b,), daemon=True)
    t.start()
    f = a.makefile("rwb")
    f.write(b"MUL 6 7\n")
    f.flush()
    assert f.readline() == b"42\n"
    a.close()


def test_asyncio_server():
    async def main():
        async def handle(reader, writer):
            line = (await reader.readline()).decode().rstrip("\n")
            writer.write((protocol.answer(line) + "\n").encode())
            await writer.drain()
            writer.close()

        srv = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = srv.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"MAX 3 8 5\n")
        await writer.drain()
        reply = await reader.readline()
        writer.close()
        srv.close()
        await srv.wait_closed()
        return reply

    assert asyncio.run(main()) == b"8\n"


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_pool(method):
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(2) as pool:
        assert pool.map(protocol.square, [1, 2, 3]) == [1, 4, 9]
