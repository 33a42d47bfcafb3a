"""A real `chroma run` server and a token-checking proxy in front of it, for the server-mode
tests (tests/storage/test_server*.py).

`chroma run` (chromadb 1.x) has no token auth of its own: Chroma's docs put a proxy (envoy) in
front of it that checks the token header.  `Gate` is that proxy, in a thread: it forwards every
request to the server, refuses a wrong X-Chroma-Token with 403, and can kill the server at a
chosen request (a server dying mid-publish, at a known point)."""

from __future__ import annotations

import http.client
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CHROMA = Path(sys.executable).parent / "chroma"
TOKEN = "s3cret-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`chroma run --path DB --host 127.0.0.1 --port PORT`, started and killed by the test."""

    def __init__(self, path: Path):
        self.path, self.port, self.proc = path, free_port(), None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [str(CHROMA), "run", "--path", str(self.path), "--host", "127.0.0.1",
             "--port", str(self.port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(300):  # it starts in ~3-8 s on a busy machine
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/v2/heartbeat", timeout=1)
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("chroma run exited") from None
                time.sleep(0.1)
        raise RuntimeError("chroma run did not answer its heartbeat")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()


class Gate:
    """A token-checking reverse proxy in front of Server (see the module docstring)."""

    def __init__(self, server: Server, token: str):
        self.server, self.token, self.kill_after = server, token, None
        self.bodies: list[bytes] = []
        gate = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _any(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path != "/api/v2/heartbeat" and \
                        self.headers.get("X-Chroma-Token") != gate.token:
                    return self._send(403, b'{"error":"Forbidden"}', {})
                gate.bodies.append(body)
                if gate.kill_after is not None and gate.kill_after(body):
                    gate.server.kill()
                try:
                    con = http.client.HTTPConnection("127.0.0.1", gate.server.port, timeout=30)
                    headers = {k: v for k, v in self.headers.items()
                               if k.lower() not in ("host", "connection")}
                    con.request(self.command, self.path, body or None, headers)
                    resp = con.getresponse()
                    data = resp.read()
                    self._send(resp.status, data, dict(resp.getheaders()))
                except OSError:
                    self._send(502, b'{"error":"Bad Gateway"}', {})

            def _send(self, status, data, headers):
                self.send_response(status)
                for k, v in headers.items():
                    if k.lower() not in ("content-length", "transfer-encoding", "connection",
                                         "date", "server"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = _any

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def own_collections(server: Server, name: str, suffix: str) -> list[str]:
    """The collections on SERVER that repository NAME's publishes made, ending in SUFFIX (the
    server may be shared with other tests' repositories)."""
    import chromadb

    from repomem.storage.remote import Remote

    stem = Remote("", None, name).prefix
    client = chromadb.HttpClient(host="127.0.0.1", port=server.port)
    return [c.name for c in client.list_collections()
            if c.name.startswith(stem) and c.name.endswith(suffix)]
