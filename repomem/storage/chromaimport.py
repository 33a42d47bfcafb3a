"""chromadb, imported once per process under a lock (see import_chromadb)."""

from __future__ import annotations

import threading

_IMPORT_LOCK = threading.Lock()


def import_chromadb():
    """chromadb, imported under one lock.  A first ingest imports it in a thread while workers
    mine (service/pipeline.py), and the main thread may need it for an early write before that
    import is done: two threads importing chromadb's circular modules at once can see one
    partially initialised ("cannot import name 'SharedSystemClient' from partially initialized
    module")."""
    with _IMPORT_LOCK:
        import chromadb
        import chromadb.api.shared_system_client  # noqa: F401
        import chromadb.config  # noqa: F401
    return chromadb
