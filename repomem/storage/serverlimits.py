"""Bounds of every call to a Chroma server: timeouts and a response's size cap (used by the
bounded chromadb client, repomem/storage/bounded_http.py, and by the reader's plain-HTTP check,
repomem/service/serverview.py, which must not import chromadb)."""

from __future__ import annotations

import os

CONNECT_S = 5.0  # seconds to connect to the server
READ_S = 20.0  # seconds between two reads; REPOMEM_CHROMA_TIMEOUT sets it (a slow server)
MAX_RESPONSE = 64 * 1024 * 1024  # bytes of one response; REPOMEM_CHROMA_MAX_RESPONSE sets it


def read_timeout() -> float:
    try:
        return max(0.1, float(os.environ.get("REPOMEM_CHROMA_TIMEOUT", READ_S)))
    except ValueError:
        return READ_S


def max_response() -> int:
    try:
        return max(1024, int(os.environ.get("REPOMEM_CHROMA_MAX_RESPONSE", MAX_RESPONSE)))
    except ValueError:
        return MAX_RESPONSE
