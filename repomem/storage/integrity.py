"""Is the store of versions (Chroma's ``chroma.sqlite3``) whole?  Checked when a store is
opened, before an answer is read from it or from the snapshot built from it.

Chroma re-creates a missing or emptied ``chroma.sqlite3`` as a new, empty database without a
word, and a snapshot built before the damage would go on answering: a truncated file must be
named, with the command that rebuilds it from the records.  The check is cheap (a stat and a
read of 100 bytes): the file's SQLite header against its length."""

from __future__ import annotations

from pathlib import Path

_MAGIC = b"SQLite format 3\x00"


def sqlite_damage(path: Path) -> str | None:
    """Why the SQLite file at path is not whole (missing, empty, not SQLite, shorter than its
    header says), or None.  The header's page count is trusted only when SQLite marks it valid
    (the change counter at offset 24 equals the one at 92), as SQLite itself does."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            head = f.read(100)
    except FileNotFoundError:
        return "is missing"
    except OSError as e:
        return f"cannot be read ({e.strerror or e})"
    if size == 0:
        return "is empty (0 bytes)"
    if len(head) < 100 or not head.startswith(_MAGIC):
        return "is not a SQLite database"
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    if head[24:28] == head[92:96] and pages and size < page * pages:
        return f"is truncated ({size} of {page * pages} bytes)"
    return None
