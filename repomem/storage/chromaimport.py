"""chromadb, imported once per process under a lock (see import_chromadb)."""

from __future__ import annotations

import importlib
import sys
import threading
import types

_IMPORT_LOCK = threading.Lock()
# chromadb's telemetry imports OpenTelemetry's gRPC span exporter (and gRPC with it) at import
# time, but builds one only when an OTLP endpoint is configured (chroma's otel settings).
_OTLP = "opentelemetry.exporter.otlp.proto.grpc.trace_exporter"


def _mark_overrides() -> None:
    """chromadb marks its subclasses' methods with the ``overrides`` package's decorator, which
    checks each method's signature against its base class's as the class is created: a
    development-time check, ~0.1 s of every process's chromadb import (a first ingest of a short
    history is ~1.5 s).  The decorator is replaced by one that only marks the method, as the
    original does once its check passes (``EnforceOverrides`` classes read that mark)."""
    try:
        import overrides
        import overrides.overrides as impl
    except ImportError:  # chromadb without it: nothing to replace
        return

    def override(method=None, *, check_signature=True, check_at_runtime=False):
        if method is None:  # @override(check_signature=False)
            return override
        method.__override__ = True
        return method

    overrides.override = overrides.overrides = override  # type: ignore[assignment]
    impl.override = impl.overrides = override  # type: ignore[assignment]


def _defer_otlp_exporter() -> None:
    """A stand-in module for the span exporter whose ``OTLPSpanExporter`` imports the real one
    when an exporter is made: ~0.1 s of CPU (gRPC's import) off every process that imports
    chromadb, which repomem never configures to export spans.  A process that imported the
    exporter already keeps it."""
    if _OTLP in sys.modules:
        return
    stand_in = types.ModuleType(_OTLP, "imports the real exporter on first use (repomem)")

    def exporter(*args, **kwargs):
        if sys.modules.get(_OTLP) is stand_in:
            del sys.modules[_OTLP]
        return importlib.import_module(_OTLP).OTLPSpanExporter(*args, **kwargs)

    stand_in.OTLPSpanExporter = exporter  # type: ignore[attr-defined]
    sys.modules[_OTLP] = stand_in


def import_chromadb():
    """chromadb, imported under one lock.  A first ingest imports it in a thread while workers
    mine (service/pipeline.py), and the main thread may need it for an early write before that
    import is done: two threads importing chromadb's circular modules at once can see one
    partially initialised ("cannot import name 'SharedSystemClient' from partially initialized
    module")."""
    with _IMPORT_LOCK:
        if "chromadb" not in sys.modules:
            _mark_overrides()
            _defer_otlp_exporter()
        import chromadb
        import chromadb.api.shared_system_client  # noqa: F401
        import chromadb.config  # noqa: F401
    return chromadb
