"""studio_slots.py — hostile connections to a running `smalti studio` (for studio_test.sh).
Usage: studio_slots.py slots PORT TOKEN | trickle PORT
slots: 64 connections without the token, each stopped inside its request line (all the slots
  there are), then the token holder asks for the page; prints "page STATUS" and "open N of 64".
trickle: one connection that sends its request line a byte every 0.5 s and never ends it; prints
  "dropped after N bytes" once the server closes it, or "still open after N bytes" (a hang guard:
  120 s). Its bytes come more often than the server's idle timeout, so only a header deadline ends it."""
import errno
import socket
import sys
import time

SLOTS = 64


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=120)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def closed_by_server(s):
    """Whether the server has closed s (end of stream or reset), without waiting."""
    s.setblocking(False)
    try:
        return s.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError as e:
        return e.errno in (errno.ECONNRESET, errno.EPIPE)


def page_status(port, token):
    s = connect(port)
    s.sendall(("GET /%s/ HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % (token, port)).encode())
    reply = b""
    try:
        while not reply.endswith(b"</html>\n") and len(reply) < 10_000_000:
            got = s.recv(65536)
            if not got:
                break
            reply += got
    except OSError:
        pass
    s.close()
    line = reply.split(b"\r\n", 1)[0].decode("latin-1")
    return line.split(" ")[1] if line.startswith("HTTP/") else "none"


def slots(port, token):
    held = []
    for _ in range(SLOTS):
        try:
            s = connect(port)
            s.sendall(b"GET /")
            held.append(s)
        except OSError:
            pass
    print("page", page_status(port, token))
    print("open %d of %d" % (sum(not closed_by_server(s) for s in held), SLOTS))
    for s in held:
        s.close()


def trickle(port):
    s = connect(port)
    sent = 0
    start = time.monotonic()
    while time.monotonic() - start < 120:
        try:
            s.sendall(b"GET /" if sent == 0 else b"a")
        except OSError:
            break
        sent += 1
        time.sleep(0.5)
        if closed_by_server(s):
            break
        s.setblocking(True)
    else:
        print("still open after %d bytes" % sent)
        return
    print("dropped after %d bytes" % sent)


if __name__ == "__main__":
    if sys.argv[1] == "slots":
        slots(int(sys.argv[2]), sys.argv[3])
    else:
        trickle(int(sys.argv[2]))
