"""chromadb imported from two threads at once: a first ingest imports it in a thread while the
workers mine, and the main thread's early Chroma write needs it before that import is done.
Without one lock around both, the main thread sees a partially initialised chromadb module
(CI's `bench --quick` failed so).  A fresh process is the subject: chromadb must not be imported
yet."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
from repomem.service.pipeline import _import_chroma_meanwhile
from repomem.storage.store import _drop_client
assert "chromadb" not in sys.modules
_import_chroma_meanwhile()          # the ingest's thread starts importing
_drop_client("/no/such/store")      # the main thread's first touch of chromadb, at once
from chromadb.api.shared_system_client import SharedSystemClient
print("imported", SharedSystemClient.__name__)
"""

def test_chromadb_imported_by_a_thread_and_the_main_thread_at_once():
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                             timeout=120)
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.strip() == "imported SharedSystemClient"
