"""chromadb, imported once per process under a lock (see import_chromadb)."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import threading
import types
from collections.abc import Callable, MutableMapping

_IMPORT_LOCK = threading.Lock()
# chromadb's telemetry imports OpenTelemetry's gRPC span exporter (and gRPC with it) at import
# time, but builds one only when an OTLP endpoint is configured (chroma's otel settings).
_OTLP = "opentelemetry.exporter.otlp.proto.grpc.trace_exporter"
# chromadb's registry of the embedding functions it ships (OpenAI's, Cohere's, an ONNX model's...),
# each imported with its client library to fill it; read only for a collection configured with
# one of them, and repomem's collections have none (repomem embeds the rows itself)
_FUNCTIONS = "chromadb.utils.embedding_functions"


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


class _Known(MutableMapping):
    """chromadb's ``known_embedding_functions`` as its collection configuration imports it: the
    real registry, which the first use of it loads."""

    def __init__(self, load) -> None:
        self._load = load

    def _real(self) -> dict:
        return self._load().known_embedding_functions

    def __getitem__(self, name):
        return self._real()[name]

    def __setitem__(self, name, value) -> None:
        self._real()[name] = value

    def __delitem__(self, name) -> None:
        del self._real()[name]

    def __iter__(self):
        return iter(self._real())

    def __len__(self) -> int:
        return len(self._real())


def _spec_of(dotted: str):
    """The spec of a module of an installed package, found without running any package on the
    way (``importlib.util.find_spec`` imports the parents); None when there is no such file."""
    top, *rest = dotted.split(".")
    spec = importlib.util.find_spec(top)
    for i in range(len(rest)):
        if spec is None or spec.submodule_search_locations is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(
            ".".join([top, *rest[:i + 1]]), list(spec.submodule_search_locations))
    return spec


def _deferred(dotted: str) -> tuple[types.ModuleType, Callable[[], types.ModuleType]] | None:
    """A module put in sys.modules without running it, and the function that runs it (once): the
    first name read from it that it does not have yet runs it (PEP 562's module ``__getattr__``).
    Its ``__spec__``, ``__path__`` and ``__file__`` are the real ones, so importing it again or a
    submodule of it does not run it.  None when it is imported already, or not found."""
    if dotted in sys.modules:
        return None
    spec = _spec_of(dotted)
    if spec is None or spec.loader is None:  # another layout: imported as it is
        return None
    loader = spec.loader
    module = importlib.util.module_from_spec(spec)
    lock = threading.RLock()
    loaded: list[bool] = []

    def load() -> types.ModuleType:
        with lock:
            if not loaded:
                loaded.append(True)
                delattr(module, "__getattr__")
                try:
                    loader.exec_module(module)
                except BaseException:  # as a failed import: not left half run in sys.modules
                    sys.modules.pop(dotted, None)
                    raise
        return module

    def __getattr__(name: str):  # noqa: N807 (a module's __getattr__)
        return getattr(load(), name)  # (__all__ of a star import, __version__... too)

    setattr(module, "__getattr__", __getattr__)  # noqa: B010 (a module's, not a method)
    sys.modules[dotted] = module
    return module, load


def _defer_embedding_functions() -> None:
    """chromadb's package of embedding functions, not run until something uses it: ~0.04 s of
    CPU off every process that imports chromadb.  Its collection configuration imports two
    names from it at once (the registry and its decorator): those are stand-ins that run it on
    first use."""
    got = _deferred(_FUNCTIONS)
    if got is None:
        return
    module, load = got

    def register_embedding_function(ef_class=None):
        return load().register_embedding_function(ef_class)

    module.known_embedding_functions = _Known(load)  # type: ignore[attr-defined]
    module.register_embedding_function = register_embedding_function  # type: ignore[attr-defined]


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
            _defer_embedding_functions()
        import chromadb
        import chromadb.api.shared_system_client  # noqa: F401
        import chromadb.config  # noqa: F401
    return chromadb
