"""Test-only crash injection: ``REPOMEM_CRASH_AT=<name>:<n>`` makes the process SIGKILL itself
the n-th time it passes ``crashpoint(name)``.  Unset (always, outside tests) it costs one dict
lookup.  Used by tests/service/test_crash.py to prove that a killed ingestion, started again, leaves the
same ledger as an uninterrupted one."""

from __future__ import annotations

import os
import signal

_hits: dict[str, int] = {}


def crashpoint(name: str) -> None:
    spec = os.environ.get("REPOMEM_CRASH_AT")
    if not spec:
        return
    want, _, n = spec.partition(":")
    if want != name:
        return
    _hits[name] = _hits.get(name, 0) + 1
    if _hits[name] == int(n or 1):
        os.kill(os.getpid(), signal.SIGKILL)
