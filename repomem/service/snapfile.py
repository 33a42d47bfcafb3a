"""The snapshot's file: named numeric arrays, each read with one ``readinto`` of its bytes.

A fresh ``repomem ask`` reads the whole snapshot (the rows, their embeddings, the lexical index,
ranking's columns).  As an ``.npz`` (a zip of ``.npy`` files) that cost ~15 ms of a cold ask's
~0.2 s of CPU on httpx: importing ``zipfile`` (and the ``bz2``/``lzma`` it brings), a CRC over
every member, a ``.npy`` header parsed per member and the bytes copied twice.  Here the file is::

    MAGIC | header length (8 bytes, little-endian) | header (JSON) | each member's bytes

where the header names each member's dtype, shape, offset and size.  Plain numbers only
(booleans, integers, floats; text is UTF-8 in ``uint8`` arrays): nothing in the file is ever
run or unpickled, whoever wrote the store's folder.  A snapshot written by an older repomem (an
``.npz``, same file name) is still read, through numpy; the next writer replaces it.  A file
that is neither, or is cut short, raises ValueError where it is read, never a partial array.
"""

from __future__ import annotations

import io
import json
import math
import os
from typing import IO, Any

MAGIC = b"repomem snapshot 1\n"
_ALIGN = 64
_KINDS = "biuf"  # the dtype kinds a member may have: no objects, no strings, no records
_NPZ = b"PK\x03\x04"  # a zip's first bytes: an older repomem's .npz


def save(fh: IO[bytes], members: dict[str, Any]) -> None:
    """Write MEMBERS (name -> numpy array of a kind in _KINDS) to the open file FH."""
    import numpy as np

    arrays = {name: np.ascontiguousarray(a) for name, a in members.items()}
    layout, offset = {}, 0
    for name, a in arrays.items():
        if a.dtype.kind not in _KINDS:
            raise ValueError(f"snapshot member {name}: dtype {a.dtype} is not a plain number")
        layout[name] = {"dtype": a.dtype.str, "shape": list(a.shape), "offset": offset,
                        "size": a.nbytes}
        offset += -(-a.nbytes // _ALIGN) * _ALIGN
    header = json.dumps({"members": layout}).encode()
    start = -(-(len(MAGIC) + 8 + len(header)) // _ALIGN) * _ALIGN  # the data's first byte
    fh.write(MAGIC + len(header).to_bytes(8, "little") + header)
    fh.write(b"\0" * (start - len(MAGIC) - 8 - len(header)))
    for a in arrays.values():
        fh.write(a.tobytes())
        fh.write(b"\0" * (-a.nbytes % _ALIGN))


class _Members:
    """A snapshot file's members as a context manager: closed when the block ends."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Snapshot(_Members):
    """The members of a snapshot file, each read when first asked for (``"rows" in snap``,
    ``snap["rows"]``, ``snap.files``: as numpy's NpzFile, which reads an older file).  FH: the
    file, open for reading at its start; the Snapshot closes it."""

    def __init__(self, fh: io.BufferedReader):
        self._fh = fh
        self._layout, self._start = _header(self._fh)
        self.files = list(self._layout)

    def __contains__(self, name: object) -> bool:
        return name in self._layout

    def __getitem__(self, name: str):
        import numpy as np

        m = self._layout[name]
        buf = bytearray(m["size"])
        self._fh.seek(self._start + m["offset"])
        if self._fh.readinto(buf) != len(buf):
            raise ValueError(f"snapshot member {name} is cut short")
        return np.frombuffer(buf, dtype=np.dtype(m["dtype"])).reshape(m["shape"])

    def close(self) -> None:
        self._fh.close()


def _header(fh: IO[bytes]) -> tuple[dict, int]:
    import numpy as np

    head = fh.read(len(MAGIC) + 8)
    if not head.startswith(MAGIC):
        raise ValueError("not a repomem snapshot")
    n = int.from_bytes(head[len(MAGIC):], "little")
    if n > 1 << 24:
        raise ValueError("snapshot header too long")
    raw = fh.read(n)
    if len(raw) != n:
        raise ValueError("snapshot header cut short")
    layout = json.loads(raw)["members"]
    if not isinstance(layout, dict):
        raise ValueError("snapshot header has no members")
    for name, m in layout.items():  # what a member says about itself must hold together
        dtype = np.dtype(m["dtype"])
        if dtype.kind not in _KINDS or not all(type(d) is int and d >= 0 for d in m["shape"]) \
                or math.prod(m["shape"]) * dtype.itemsize != m["size"] \
                or type(m["offset"]) is not int or m["offset"] < 0:
            raise ValueError(f"snapshot member {name} is malformed")
    return layout, -(-(len(MAGIC) + 8 + n) // _ALIGN) * _ALIGN


def json_member(a) -> Any:
    """The JSON text a uint8 member (or its bytes) holds, parsed: by orjson (about twice as fast as the
    standard library on the snapshot's rows: ~5 ms of a cold ask on httpx), or by ``json``
    where orjson refuses it (NaN): the same objects either way for the snapshot's members,
    whose integers fit 64 bits (times, which git and Chroma keep in 64 bits, lines, positions;
    orjson would read a larger one as a float).  ValueError when it is no JSON."""
    import orjson

    if isinstance(a, (bytes, bytearray)):
        data: bytes | bytearray | memoryview = a
    else:
        data = memoryview(a).cast("B") if a.ndim == 1 and a.flags.c_contiguous else a.tobytes()
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(bytes(data))


def load(path: os.PathLike | str):
    """The members of the snapshot at PATH (a Snapshot; numpy's NpzFile for an older repomem's
    .npz).  OSError when it cannot be opened, ValueError when it is not a snapshot."""
    fh = open(path, "rb")
    try:
        if fh.read(len(_NPZ)) != _NPZ:
            fh.seek(0)
            return Snapshot(fh)
    except BaseException:
        fh.close()
        raise
    fh.close()
    return _npz(path)


def _npz(path: os.PathLike | str):
    import zipfile

    import numpy as np

    try:
        return _Npz(np.load(path, allow_pickle=False))
    except zipfile.BadZipFile as e:
        raise ValueError(f"damaged .npz: {e}") from e


class _Npz(_Members):
    """An older repomem's .npz, its zip errors as ValueError (a damaged snapshot)."""

    def __init__(self, z):
        self._z = z
        self.files = list(z.files)

    def __contains__(self, name: object) -> bool:
        return name in self._z

    def __getitem__(self, name: str):
        import zipfile

        try:
            return self._z[name]
        except zipfile.BadZipFile as e:
            raise ValueError(f"damaged .npz member {name}: {e}") from e

    def close(self) -> None:
        self._z.close()
