"""A loopback stand-in for an Ollama server, for tests of the real ``ollama`` client.

Implements the documented endpoints repomem uses (POST /api/embed, POST /api/chat) plus
GET /api/tags and POST /api/show, with Ollama's error shape for a model that is not pulled:
HTTP 404 and ``{"error": "model \\"NAME\\" not found, try pulling it first"}``.
Embeddings are repomem's own hash embeddings (deterministic, so search still works); the chat
reply quotes the first fact it was given, with its provenance, like an obedient model would.
"""

from __future__ import annotations

import json
import re
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from repomem.adapters.embed import HashEmbedder

_FACT = re.compile(r"^- (?P<subject>[^\n]*?): `(?P<value>[^`]*)` \((?P<where>[^,]+), commit "
                   r"(?P<commit>\w+)", re.M)


class FakeOllama:
    def __init__(self, models=("nomic-embed-text", "llama3.2")):
        self.models = set(models)
        self.requests: list[tuple[str, str, dict]] = []
        fake = self
        emb = HashEmbedder()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):  # keep test output clean
                pass

            def _send(self, code: int, obj) -> None:
                body = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _body(self) -> dict:
                n = int(self.headers.get("Content-Length") or 0)
                return json.loads(self.rfile.read(n) or b"{}")

            def _model_ok(self, body) -> bool:
                m = body.get("model") or body.get("name") or ""
                if m in fake.models or m.removesuffix(":latest") in fake.models:
                    return True
                self._send(404, {"error": f'model "{m}" not found, try pulling it first'})
                return False

            def do_GET(self):
                fake.requests.append(("GET", self.path, {}))
                if self.path == "/api/tags":
                    return self._send(200, {"models": [
                        {"name": f"{m}:latest", "model": f"{m}:latest", "size": 1,
                         "digest": "0" * 64, "modified_at": "2026-01-01T00:00:00Z"}
                        for m in sorted(fake.models)]})
                return self._send(404, {"error": "not found"})

            def do_POST(self):
                body = self._body()
                fake.requests.append(("POST", self.path, body))
                if self.path == "/api/embed":
                    if not self._model_ok(body):
                        return
                    inp = body.get("input")
                    texts = [inp] if isinstance(inp, str) else list(inp or [])
                    return self._send(200, {"model": body["model"], "embeddings": emb.embed(texts),
                                            "total_duration": 1, "load_duration": 1,
                                            "prompt_eval_count": len(texts)})
                if self.path == "/api/chat":
                    if not self._model_ok(body):
                        return
                    user = next((m["content"] for m in body["messages"] if m["role"] == "user"), "")
                    m = _FACT.search(user)
                    text = (f"{m['subject']} is {m['value']} ({m['where']}, commit {m['commit']})."
                            if m else "The facts do not say.")
                    return self._send(200, {
                        "model": body["model"], "created_at": "2026-01-01T00:00:00Z",
                        "message": {"role": "assistant", "content": text}, "done": True,
                        "done_reason": "stop"})
                if self.path == "/api/show":
                    if not self._model_ok(body):
                        return
                    return self._send(200, {"modelfile": "", "parameters": "", "template": "",
                                            "details": {"family": "fake"}})
                return self._send(404, {"error": "not found"})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.host = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def paths(self) -> list[str]:
        return [p for _, p, _ in self.requests]


def closed_port_host() -> str:
    """An address on loopback where nothing listens (bound, then released)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}"
