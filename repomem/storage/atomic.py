"""One way to replace a file so that a reader sees the whole old content or the whole new one:
write a temporary file in the same folder (so the rename never crosses a file system), flush and
fsync it, then ``os.replace`` it over the target.  A failure removes the temporary file and
leaves the target as it was.  The temporary file is created with mode 0o666 less the umask, as
``open`` would create the target, so the replaced file keeps the permissions it always had."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def replacing(path: str | Path, mode: int | None = None) -> Iterator[BinaryIO]:
    """Yield a binary file whose content replaces ``path`` when the block ends without error.
    mode: permissions to give the new file (e.g. 0o755 for a hook script)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}-{secrets.token_hex(3)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_bytes(path: str | Path, data: bytes, mode: int | None = None) -> None:
    with replacing(path, mode) as fh:
        fh.write(data)


def write_text(path: str | Path, text: str, mode: int | None = None) -> None:
    write_bytes(path, text.encode("utf-8"), mode)
