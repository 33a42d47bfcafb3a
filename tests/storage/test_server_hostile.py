"""A hostile or broken Chroma server, faked on loopback: every answer of it is one line and a
hint (exit 1), within bounded time and memory -- never a hang, never exit 3.

The fake speaks HTTP and nothing else: it accepts and never answers, sends a response far
over the size cap, or answers malformed JSON, an HTML page or JSON of the wrong shape."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.conftest import ROOT, cli, commit, git


class Fake:
    """A loopback HTTP server answering every request as MODE says."""

    def __init__(self, mode: str):
        self.mode, self.stop = mode, threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _any(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if fake.mode == "silent":  # accepted, never answered (bounded by the test)
                    fake.stop.wait(60)
                    return
                if fake.mode == "huge":  # 100 MB, no Content-Length: the cap must stop it
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    chunk = b"[" + b"1," * 512 * 1024
                    try:
                        for _ in range(100):
                            self.wfile.write(chunk)
                    except OSError:
                        pass
                    return
                body = {"malformed": b'{"ids": [', "html": b"<html><body>Welcome</body></html>",
                        "wrong-types": b'{"id": 5, "name": [], "ids": "x", "metadatas": 7, '
                                       b'"nanosecond heartbeat": "soon", "tenant": 1}'}[fake.mode]
                self.send_response(200)
                self.send_header("Content-Type", "text/html" if fake.mode == "html"
                                 else "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = _any

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    repo = tmp_path_factory.mktemp("hostile") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-01T00:00:00Z", "a", {"c.toml": "port = 1\n"})
    return repo


def run(*args, timeout: float = 60) -> tuple[int, str, str, float]:
    """The real entry point: (rc, stdout, stderr, seconds), killed at TIMEOUT
    (a hang fails the test instead of hanging it)."""
    env = dict(os.environ, REPOMEM_CHROMA_TIMEOUT="2")
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "repomem", *map(str, args)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"repomem {args} still running after {timeout} s") from None
    return proc.returncode, out, err, time.monotonic() - start


def one_line(rc, out, err, *texts):
    lines = err.strip().splitlines()
    assert rc == 1 and "Traceback" not in err and "internal error" not in err, (rc, err)
    assert len(lines) == 2 and lines[0].startswith("repomem: error: "), err
    assert lines[1].startswith("hint: ") and all(t in lines[0] for t in texts), err


@pytest.mark.timeout(90)  # a hang fails the test instead of hanging the suite
@pytest.mark.parametrize("mode,says", [
    ("silent", "did not answer in time"),
    ("huge", "over"),
    ("malformed", "cannot read"),
    ("html", "cannot read"),
    ("wrong-types", "cannot read"),
])
@pytest.mark.parametrize("command", ["ask", "publish"])
def test_a_hostile_server_is_one_line(repo, mode, says, command, monkeypatch):
    monkeypatch.setenv("REPOMEM_CHROMA_TIMEOUT", "1")
    fake = Fake(mode)
    try:
        args = ["ask", "which port"] if command == "ask" else ["publish"]
        start = time.monotonic()
        rc, out, err = cli(*args, "--repo", repo, "--chroma", fake.url, "--name", "team/x",
                           check=False)
        took = time.monotonic() - start
    finally:
        fake.close()
    one_line(rc, out, err, says)
    assert took < 30, f"{took:.1f} s"  # a 1 s read timeout: bounded, far from a hang


PEAK = """
import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
err = p.stderr.read().decode()
_, status, usage = os.wait4(p.pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss // 1024, err.splitlines()[0] if err else "")
"""


def test_an_oversized_response_is_refused_before_it_is_read(repo):
    """Peak memory of a publish against a 100 MB answer stays far below the answer's size
    (it was 1.18 GB: the whole body read and parsed).  Measured from a small parent: a child
    forked from the test process would count the test process's own memory in its peak (Linux
    keeps the high-water mark across exec)."""
    fake = Fake("huge")
    try:
        env = dict(os.environ, REPOMEM_CHROMA_TIMEOUT="5")
        out = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "repomem",
                              "publish", "--repo", str(repo), "--chroma", fake.url, "--name",
                              "team/x"], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=120).stdout
    finally:
        fake.close()
    rc, peak, line = out.split(" ", 2)
    assert rc == "1" and "over" in line, out
    assert int(peak) < 400, f"peak {peak} MB"


def test_a_server_that_accepts_and_never_answers_the_fast_path(repo):
    """The snapshot check of `ask` (plain HTTP, no chromadb) is bounded too."""
    with socket.socket() as s:  # a listener that never accepts: the connect itself waits
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
        rc, out, err, took = run("ask", "which port", "--repo", repo, "--chroma", url,
                                    "--name", "team/x")
    one_line(rc, out, err, "did not answer in time")
    assert took < 40, f"{took:.1f} s"
