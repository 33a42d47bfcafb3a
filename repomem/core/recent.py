"""Remember a pure function of a file's text for the last few texts it was called with.

One file version is often mined at several paths in one commit (a project kept twice, as in a
guide's ``initial/`` and ``complete/`` folders; a vendored copy; the Gradle wrapper's properties
of each sub-project), so the work a miner or the redactor does on a text is done once.  Only
small texts are kept, so the memory held is a few hundred KB at most whatever the history.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_MISSING = object()


def recent(size: int, max_chars: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorate FN(text, *args, **kwargs), pure: its result for each of the last SIZE
    argument lists it was called with whose text has at most MAX_CHARS characters is computed once (oldest dropped
    first).  The result is shared, so callers must not change it."""
    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        memo: dict[tuple, Any] = {}

        @functools.wraps(fn)
        def call(text: str, *args: Any, **kwargs: Any) -> T:
            if len(text) > max_chars:
                return fn(text, *args, **kwargs)
            key = (text, args, tuple(sorted(kwargs.items())))
            got = memo.get(key, _MISSING)
            if got is _MISSING:
                got = memo[key] = fn(text, *args, **kwargs)
                if len(memo) > size:
                    del memo[next(iter(memo))]  # the oldest
            return got

        call.memo = memo  # type: ignore[attr-defined]  # for tests that must start cold
        return call
    return wrap
