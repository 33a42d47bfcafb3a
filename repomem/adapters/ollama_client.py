"""Ollama adapter: an embedder, a chat call, and error translation.  Optional and explicit --
used only when a user passes ``--embedder ollama:MODEL`` or ``--llm ollama:MODEL``; nothing in
repomem falls back to it silently.

The server address comes from ``OLLAMA_HOST`` (the ``ollama`` client reads it; default
127.0.0.1:11434).  A server that cannot be reached or a model that is not pulled becomes one
:class:`RepomemError` line with the fix, so the CLI exits 1 instead of printing a traceback.
"""

from __future__ import annotations

import os

from repomem.core.errors import RepomemError

EMBED_BATCH = 64
DEFAULT_HOST = "127.0.0.1:11434"


def host() -> str:
    return os.environ.get("OLLAMA_HOST") or DEFAULT_HOST


def parse_llm(spec: str) -> str:
    """``ollama:MODEL`` -> MODEL.  The only LLM backend; anything else is a user error."""
    prefix, _, model = (spec or "").partition(":")
    if prefix != "ollama" or not model:
        raise RepomemError(f"unknown LLM: {spec!r}", hint="use --llm ollama:MODEL, e.g. ollama:llama3.2")
    return model


def _client():
    import ollama

    # timeout: a local model may take a while to load, but a hung server must not hang a hook.
    return ollama.Client(timeout=float(os.environ.get("REPOMEM_OLLAMA_TIMEOUT", "120")))


def _call(model: str, fn):
    """Run fn(client), translating the client's failures into one actionable line."""
    import httpx
    import ollama

    try:
        return fn(_client())
    except ollama.ResponseError as e:
        if e.status_code == 404 or "not found" in str(e.error).lower():
            raise RepomemError(f"Ollama at {host()} has no model {model!r} ({e.error})",
                               hint=f"ollama pull {model}") from None
        raise RepomemError(f"Ollama at {host()} failed: {e.error} (HTTP {e.status_code})",
                           hint="check the Ollama server log") from None
    except (ConnectionError, httpx.TransportError) as e:
        raise RepomemError(f"cannot reach Ollama at {host()} ({type(e).__name__})",
                           hint=f"start it with 'ollama serve' (and 'ollama pull {model}'), "
                                "or set OLLAMA_HOST to where it runs") from None


class OllamaEmbedder:
    """Embeddings from an Ollama model via POST /api/embed.  The store records ``name``, so a
    store built with one model is never queried with another."""

    def __init__(self, model: str):
        if not model:
            raise RepomemError("no Ollama model given", hint="use --embedder ollama:MODEL, "
                               "e.g. ollama:nomic-embed-text")
        self.model = model
        self.name = f"ollama:{model}"

    def embed(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for i in range(0, len(texts), EMBED_BATCH):
            chunk = texts[i:i + EMBED_BATCH]
            resp = _call(self.model, lambda c, chunk=chunk: c.embed(model=self.model, input=chunk))
            vecs = [list(v) for v in resp.embeddings]
            if len(vecs) != len(chunk):
                raise RepomemError(f"Ollama returned {len(vecs)} embeddings for {len(chunk)} texts",
                                   hint=f"is {self.model!r} an embedding model?")
            out.extend(vecs)
        return out


def chat(model: str, system: str, user: str) -> str:
    """One non-streaming chat turn (POST /api/chat); returns the assistant's text."""
    resp = _call(model, lambda c: c.chat(model=model, stream=False, options={"temperature": 0},
                                         messages=[{"role": "system", "content": system},
                                                   {"role": "user", "content": user}]))
    return (resp.message.content or "").strip()
