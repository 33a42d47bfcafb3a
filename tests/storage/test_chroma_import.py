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


FUNCTIONS = """
import sys, tempfile
from repomem.storage.chromaimport import import_chromadb
chromadb = import_chromadb()
from chromadb.config import Settings
ran = lambda: "chromadb.utils.embedding_functions.openai_embedding_function" in sys.modules
print(ran())
path = tempfile.mkdtemp()
client = chromadb.PersistentClient(path=path, settings=Settings(anonymized_telemetry=False))
col = client.get_or_create_collection("rows", embedding_function=None, metadata={"hnsw:space": "cosine"})
col.upsert(ids=["a"], embeddings=[[1.0, 0.0]], metadatas=[{"n": 1}])
print(col.get(ids=["a"], include=["metadatas"])["metadatas"], ran())
# a collection configured with an embedding function: chroma registers it, and reads it back
# from its registry when the collection is opened again
from chromadb.api.types import EmbeddingFunction
from chromadb.utils.embedding_functions import register_embedding_function
@register_embedding_function
class Twice(EmbeddingFunction):
    def __init__(self): pass
    def __call__(self, input): return [[2.0, float(len(t))] for t in input]
    @staticmethod
    def name(): return "twice"
    @staticmethod
    def build_from_config(config): return Twice()
    def get_config(self): return {}
print(ran())
client.get_or_create_collection("texts", embedding_function=Twice()).add(ids=["t"], documents=["abc"])
from chromadb.utils.embedding_functions import known_embedding_functions as known
print("twice" in known, "openai" in known)
again = chromadb.PersistentClient(path=path, settings=Settings(anonymized_telemetry=False))
got = again.get_collection("texts")
print(type(got.configuration["embedding_function"]).__name__,
      got.get(ids=["t"], include=["embeddings"])["embeddings"][0].tolist())
"""


def test_chroma_embedding_functions_run_only_when_used():
    """chromadb's shipped embedding functions (and their client libraries) are not imported
    with chromadb; a collection without one writes and reads rows, and one configured with an
    embedding function still registers it and finds it again (the package runs then)."""
    out = subprocess.run([sys.executable, "-c", FUNCTIONS], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[:5] == [
        "False", "[{'n': 1}] False", "True", "True True", "Twice [2.0, 3.0]"]


STAR = """
from repomem.storage.chromaimport import import_chromadb
import_chromadb()
from chromadb.utils.embedding_functions import *  # noqa: F403 (runs the package: its __all__)
print("OpenAIEmbeddingFunction" in dir(), "DefaultEmbeddingFunction" in dir())
"""


def test_a_star_import_of_chroma_embedding_functions_gets_all_of_them():
    out = subprocess.run([sys.executable, "-c", STAR], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["True", "True"]
