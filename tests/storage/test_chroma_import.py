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


TRIMMED = """
import sys, tempfile
from repomem.storage.chromaimport import import_chromadb
chromadb = import_chromadb()
from chromadb.config import Settings
print("grpc" in sys.modules)
col = chromadb.PersistentClient(path=tempfile.mkdtemp(), settings=Settings(
    anonymized_telemetry=False)).get_or_create_collection("rows", embedding_function=None)
col.upsert(ids=["a"], embeddings=[[1.0, 0.0]], metadatas=[{"n": 1}])
print(col.get(ids=["a"], include=["metadatas"])["metadatas"])
# the span exporter chroma builds when an OTLP endpoint is configured: the real one, imported now
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
made = OTLPSpanExporter(endpoint="localhost:4317", insecure=True)
print(type(made).__module__, "grpc" in sys.modules)
import overrides
class Base(overrides.EnforceOverrides):
    def f(self): return 1
class Sub(Base):
    @overrides.override
    def f(self): return 2
print(Sub().f())
"""


def test_chromadb_is_imported_without_the_span_exporter_and_its_checks():
    """What import_chromadb leaves out of a process's import (gRPC's span exporter, the
    ``overrides`` signature checks) is not needed to write and read rows, and the exporter is
    still the real one when something makes one."""
    out = subprocess.run([sys.executable, "-c", TRIMMED], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[:4] == [
        "False", "[{'n': 1}]",
        "opentelemetry.exporter.otlp.proto.grpc.trace_exporter True", "2"]
