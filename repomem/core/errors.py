"""One error type for everything the user can fix; the CLI prints it as one line plus a hint.

``explain`` turns the environment's failures that reach the CLI from deep inside a library
(a full disk, a read-only or damaged store under Chroma's SQLite) into such an error, so they
exit 1 with a hint instead of looking like a bug."""

from __future__ import annotations

import errno


class RepomemError(Exception):
    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint

    def __reduce__(self):  # keeps the hint when raised in a worker process
        return (type(self), (str(self), self.hint))


# SQLite result codes (and messages) as chromadb's Rust and Python layers report them.
_FULL = ("database or disk is full", "(code: 13)", "disk i/o error", "(code: 10)")
_READONLY = ("readonly database", "read-only", "(code: 8)")
_CORRUPT = ("database disk image is malformed", "file is not a database", "(code: 11)",
            "(code: 26)")


def explain(exc: BaseException, store: str | None = None, rebuild: str | None = None
            ) -> RepomemError | None:
    """The user-fixable condition behind ``exc``, or None (a bug: the caller reports it as one).
    store: the store's path, rebuild: the command that rebuilds it, both for the hint."""
    where = f"the store at {store}" if store else "the store"
    err = getattr(exc, "errno", None)
    if err in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
        return RepomemError(f"no space left writing {where} ({getattr(exc, 'strerror', None) or exc})",
                            hint="free some space and run the command again: "
                                 "facts already stored are kept")
    name = getattr(exc, "filename", None)
    if err in (errno.EACCES, errno.EPERM) and name and store and \
            not str(name).startswith(str(store)):
        return RepomemError(f"permission denied: {name}",
                            hint="check the file's permissions (or run as its owner)")
    if err in (errno.EROFS, errno.EACCES, errno.EPERM):
        return RepomemError(f"{where} is not writable ({getattr(exc, 'strerror', None) or exc})",
                            hint="make it writable (chmod -R u+w STORE), or pass --store DIR "
                                 "with a writable copy")
    text = str(exc).lower()
    if any(m in text for m in _FULL):
        return RepomemError(f"no space left writing {where} ({exc})",
                            hint="free some space and run the command again: "
                                 "facts already stored are kept")
    if any(m in text for m in _READONLY):
        return RepomemError(f"{where} is read-only ({exc})",
                            hint="make it writable (chmod -R u+w STORE), or pass --store DIR "
                                 "with a writable copy")
    if any(m in text for m in _CORRUPT):
        return RepomemError(f"{where} is damaged ({exc})",
                            hint=f"rebuild it from git: {rebuild}" if rebuild else
                            "move the store away and run 'repomem init' again to rebuild it")
    return None
