"""Rows read from a Chroma server are checked before anything uses them (repomem/storage/remote.py).

Anyone with the server's token can write any row: a version whose ``valid_from`` is
"not-a-date" would otherwise reach the ranking and the renderers and fail there as a bug.  A
row that does not have the shape repomem writes is one error naming the collection, the row
and the field, with the command that repairs it (``repomem publish`` rewrites the view from
the commit records)."""

from __future__ import annotations

import json

from repomem.core.errors import RepomemError

# field -> the types a written row has there (bool is an int to Python: checked apart)
_FILTER = {"key": str, "kind": str, "valid_from": int, "valid_to": int}
_PAYLOAD = {"subject": str, "value": str, "attrs": str, "is_set": bool, "commit": str,
            "recorded_at": int, "path": str, "line": int, "text": str, "purpose": str,
            "superseded_by": str, "end_reason": str, "end_commit": str, "former": list,
            "spans": list}


_WHAT = {int: "a number", str: "text", bool: "true or false", list: "a list"}


class BadRow(RepomemError):
    pass


def repair_hint(remote) -> str:
    return (f"repair it from the commit records: repomem publish --chroma {remote.url} "
            f"--name {remote.name} (in CI, on the default branch)")


def bad_row(remote, collection: str, row_id, problem: str) -> BadRow:
    return BadRow(f"the Chroma server's collection {collection} has an invalid row "
                  f"{str(row_id)[:60]!r}: {problem}", hint=repair_hint(remote))


def _typed(value, want: type) -> bool:
    if want is bool:
        return isinstance(value, bool)
    return isinstance(value, want) and not isinstance(value, bool)


def check_version(remote, collection: str, row_id, meta) -> None:
    """A version row (id, metadata) as repomem.storage.store.version_meta writes it."""
    if not isinstance(row_id, str) or not isinstance(meta, dict):
        raise bad_row(remote, collection, row_id, "not a row of fact versions")
    for field, want in _FILTER.items():
        if not _typed(meta.get(field), want):
            raise bad_row(remote, collection, row_id,
                          f"{field} is {meta.get(field)!r:.40}, not {_WHAT[want]}")
    try:
        payload = json.loads(meta["payload"])
    except (KeyError, TypeError, ValueError):
        raise bad_row(remote, collection, row_id, "its payload is not JSON") from None
    if not isinstance(payload, dict):
        raise bad_row(remote, collection, row_id, "its payload is not a JSON object")
    for field, want in _PAYLOAD.items():
        if not _typed(payload.get(field), want):
            raise bad_row(remote, collection, row_id,
                          f"payload field {field} is {payload.get(field)!r:.40}, "
                          f"not {_WHAT[want]}")
