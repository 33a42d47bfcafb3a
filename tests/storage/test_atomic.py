"""storage/atomic.py: the one way repomem replaces a file (snapshot, generation, hooks, caches)."""

from __future__ import annotations

import os
import stat

import pytest

from repomem.storage import atomic


def test_replacing_is_all_or_nothing(tmp_path):
    target = tmp_path / "state.json"
    atomic.write_text(target, "old")
    with pytest.raises(RuntimeError):
        with atomic.replacing(target) as fh:
            fh.write(b"half of the new")
            raise RuntimeError("killed mid-write")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]  # no temporary file left
    atomic.write_bytes(target, b"new")
    assert target.read_text() == "new" and sorted(os.listdir(tmp_path)) == ["state.json"]


def test_modes_follow_the_umask_unless_given(tmp_path):
    old = os.umask(0o022)
    try:
        atomic.write_text(tmp_path / "plain", "x")
        atomic.write_text(tmp_path / "hook", "#!/bin/sh\n", mode=0o755)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "plain").stat().st_mode) == 0o644  # as open() would create it
    assert stat.S_IMODE((tmp_path / "hook").stat().st_mode) == 0o755
