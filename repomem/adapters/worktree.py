"""Read a tracked file from the work tree without ever leaving the work tree.

``check`` and the uncommitted overlay read files by the names git lists.  A name can lead out of
the repository: a committed symlink (``notes.md -> /etc/passwd``, or to a note in the user's
home), a tracked file replaced by a symlink in the work tree, or a tracked folder replaced by a
link to somewhere else.  Following any of these would print or index text from outside the
repository as if the repository said it.  So:

* a path whose last part is a symlink is not read at all -- git records a link as the link, not
  as what it points to (a link to another file of the tree is read under that file's own name);
* a path whose real location (folders resolved) is outside the work tree is not read;
* only regular files are read, opened with ``O_NOFOLLOW`` so a link swapped in after the check
  is refused too (POSIX only, as are the hooks and the daemon).

Each skip is logged with its reason; the caller carries on with the other files.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from repomem.core.termsafe import safe

log = logging.getLogger("repomem")


def _skip(rel: str, why: str, level: int = logging.WARNING) -> None:
    log.log(level, "skipped %s: %s", safe(rel), why)


def inside(root: Path, rel: str) -> Path | None:
    """The real path of the work-tree file ``rel`` when reading it stays inside ``root``;
    None (logged) for a symlink, a path that leads outside, or anything not a regular file."""
    p = Path(root) / rel
    try:
        st = p.lstat()
    except OSError:
        return None  # deleted in the work tree: nothing to read, nothing to say
    if stat.S_ISLNK(st.st_mode):
        try:
            target = p.resolve(strict=True)
            target.relative_to(Path(root).resolve())
        except (OSError, RuntimeError, ValueError):
            _skip(rel, "a symlink that leads outside the repository (not followed)")
        else:
            _skip(rel, "a symlink (its target is read under its own name)", logging.INFO)
        return None
    try:
        real = p.resolve(strict=True)
        real.relative_to(Path(root).resolve())
    except (OSError, RuntimeError, ValueError):
        _skip(rel, "its folder is a symlink that leads outside the repository (not followed)")
        return None
    return real if stat.S_ISREG(st.st_mode) else None


def read(root: Path, rel: str, max_bytes: int | None = None) -> bytes | None:
    """The bytes of the work-tree file ``rel`` (see ``inside``); None when skipped, unreadable
    or larger than ``max_bytes``."""
    real = inside(root, rel)
    if real is None:
        return None
    try:
        # O_NONBLOCK: a fifo swapped in after the check must not hang the read.
        fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            return None
        if max_bytes is None:
            return f.read()
        if st.st_size > max_bytes:
            return None
        data = f.read(max_bytes + 1)  # it may have grown since the stat
        return data if len(data) <= max_bytes else None
