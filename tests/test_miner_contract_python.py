"""The Python miner's contract: every fact tests/miner_contract/python*/expected.json lists is
mined from the fixture files beside it (``files/``, real relative paths).  An expected fact is a
subset of a mined one: path, kind, subject and value, and line and key when given.  The suite
fails when a shape stops being mined (or is mined with another value, line or key)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repomem.miners import mine_file

CONTRACTS = sorted(p for p in (Path(__file__).parent / "miner_contract").glob("python*") if p.is_dir())


def mined(folder: Path) -> list[dict]:
    files = folder / "files"
    out = []
    for path in sorted(p for p in files.rglob("*") if p.is_file()):
        rel = path.relative_to(files).as_posix()
        out += [{"path": rel, "kind": f.kind, "subject": f.subject, "value": f.value, "line": f.line,
                 "key": f.key} for f in mine_file(rel, path.read_bytes())]
    return out


@pytest.mark.parametrize("folder", CONTRACTS, ids=[p.name for p in CONTRACTS])
def test_every_expected_fact_is_mined(folder):
    expected = json.loads((folder / "expected.json").read_text())
    got = mined(folder)
    missing = [e for e in expected if not any(all(m[k] == v for k, v in e.items()) for m in got)]
    assert not missing, "not mined:\n" + "\n".join(json.dumps(e) for e in missing)


def test_the_python_contract_covers_every_shape():
    """A fixture that lost a shape would pass vacuously: each shape is expected at least once."""
    expected = json.loads((Path(__file__).parent / "miner_contract/python/expected.json").read_text())
    keys = {e.get("key", "") for e in expected}
    for shape in ("Flask.default_config.PERMANENT_SESSION_LIFETIME", "LimitOffsetPagination.max_limit",
                  "LimitOffsetPagination.default_limit", "Settings.DATABASE_URL", "run.port.default",
                  "serve.workers.default", "CORSMiddleware.allow_origins", "Settings.PROJECT_NAME.max_length",
                  "Reader.read.DEFAULT_LIMIT", "Reader.default_port.return", "PING_TIMEOUT", "DEBUG",
                  "Check.timeout", "MAX_UPLOAD", "hc-api-pause"):
        assert any(k.endswith(":" + shape) for k in keys), shape
    assert {e["kind"] for e in expected} >= {"function", "class", "route", "router", "constant", "config"}
