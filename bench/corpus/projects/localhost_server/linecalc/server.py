import socketserver
import threading

from linecalc.protocol import answer


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        for raw in self.rfile:
            line = raw.decode("utf-8").rstrip("\n")
            if line == "QUIT":
                break
            self.wfile.write((answer(line) + "\n").encode("utf-8"))


def start(address):
    """Starts a server on address (host, port) in a thread; returns it
    (its server_address is the bound one)."""
    server = socketserver.ThreadingTCPServer(address, Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, args=(0.05,),
                     daemon=True).start()
    return server


def serve_pair(sock):
    """Answers every line that arrives on one end of a socketpair."""
    with sock.makefile("rwb") as f:
        for raw in f:
            f.write((answer(raw.decode("utf-8").rstrip("\n")) + "\n")
                    .encode("utf-8"))
            f.flush()
