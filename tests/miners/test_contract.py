"""The miners' contract: every registered miner, run over small real-looking fixture files, still
mines every shape it promises.

Each case is a folder ``tests/miners/contract/<case>/`` with a ``files/`` tree (paths relative to
a repository root, as git hands them to the miners) and ``expected.json``: a list of
``{"path", "kind", "subject", "value"}`` objects, optionally with ``"line"`` and ``"key"``.
Every file is mined as ingestion mines it (``repomem.miners.mine_file``: every miner that accepts
the path, the redactor, the bounds), and every expected object must be among the facts (a
subset match: a case states the shapes it guards, not everything a file yields).  A shape that
stops being mined, moves to another line or changes its value fails its case.

An entry with ``"composed": true`` states what a file's fact becomes once the ledger folds all
the case's files as one commit: a value another file completes (a route under an ``include()``
prefix of another URLconf, a Gradle version read from ``gradle.properties``).

Cases are found by listing the folder, so a new language's case needs no change here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repomem.core.ledger import Ledger
from repomem.core.records import CommitRecord
from repomem.miners import all_miners, mine_file

CASES = Path(__file__).parent / "contract"
FIELDS = ("path", "kind", "subject", "value", "line", "key")


def _cases() -> list[str]:
    return sorted(p.name for p in CASES.iterdir() if (p / "expected.json").is_file())


def _files(case: str) -> dict[str, bytes]:
    root = CASES / case / "files"
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _mined(case: str) -> list[dict]:
    out = []
    for path, data in _files(case).items():
        for f in mine_file(path, data):
            out.append({"path": f.path, "kind": f.kind, "subject": f.subject, "value": f.value,
                        "line": f.line, "key": f.key})
    return out


def _composed(case: str) -> list[dict]:
    """The current facts after folding every file of the case as one commit."""
    ledger = Ledger()
    ledger.apply(CommitRecord("c" * 40, None, 0, {p: mine_file(p, d) for p, d in _files(case).items()}), 0)
    return [{"path": v.path, "kind": v.kind, "subject": v.subject, "value": v.value, "line": v.line, "key": v.key}
            for v in ledger.open.values()]


def _matches(want: dict, got: dict) -> bool:
    return all(got[k] == want[k] for k in FIELDS if k in want)


@pytest.mark.parametrize("case", _cases())
def test_case_mines_every_expected_fact(case):
    expected = json.loads((CASES / case / "expected.json").read_text("utf-8"))
    assert isinstance(expected, list) and expected, f"{case}: expected.json must be a non-empty list"
    for want in expected:
        assert {"path", "kind", "subject", "value"} <= set(want) <= {*FIELDS, "composed"}, f"{case}: bad entry {want}"
    mined = _mined(case)
    composed = _composed(case) if any(w.get("composed") for w in expected) else []
    missing = [w for w in expected if not any(_matches(w, g) for g in (composed if w.get("composed") else mined))]
    if missing:
        near = [g for g in mined for w in missing if g["subject"] == w["subject"] or g["key"] == w.get("key")]
        pytest.fail(f"{case}: {len(missing)} expected fact(s) not mined:\n"
                    + "\n".join(json.dumps(m, ensure_ascii=False) for m in missing)
                    + "\nmined with the same subject or key:\n"
                    + ("\n".join(json.dumps(g, ensure_ascii=False) for g in near) or "(none)"))


def test_every_built_in_miner_has_a_case():
    """A registered miner that no case feeds is a miner whose shapes nothing guards."""
    fed: set[str] = set()
    for case in _cases():
        for path, data in _files(case).items():
            if mine_file(path, data):
                fed.update(m.name for m in all_miners() if m.accepts(path))
    names = {m.name for m in all_miners() if type(m).__module__.startswith("repomem.miners")}
    assert names - fed == set()


def test_a_missing_shape_fails_its_case(tmp_path, monkeypatch):
    """The runner itself can fail: a case expecting a fact no file states is reported missing."""
    case = tmp_path / "probe"
    (case / "files").mkdir(parents=True)
    (case / "files" / "app.properties").write_text("server.port=8080\n")
    (case / "expected.json").write_text(json.dumps([
        {"path": "app.properties", "kind": "config", "subject": "server.port in app.properties", "value": "9090"}]))
    monkeypatch.setitem(globals(), "CASES", tmp_path)
    with pytest.raises(pytest.fail.Exception, match="not mined"):
        test_case_mines_every_expected_fact("probe")
    assert _mined("probe")[0]["value"] == "8080"


def test_the_python_case_covers_every_value_shape():
    """A fixture that lost a shape would pass vacuously: each Python value shape is expected at
    least once (dict entries under a class attribute, None, annotation-only settings, CLI option
    defaults, middleware and field options, local constants, literal returns, env wrappers,
    model field defaults, include() of a module's own list, a constructor's None default)."""
    expected = json.loads((CASES / "python" / "expected.json").read_text("utf-8"))
    keys = {e.get("key", "") for e in expected}
    for shape in ("Flask.default_config.PERMANENT_SESSION_LIFETIME", "LimitOffsetPagination.max_limit",
                  "LimitOffsetPagination.default_limit", "Settings.DATABASE_URL", "run.port.default",
                  "serve.workers.default", "CORSMiddleware.allow_origins", "Settings.PROJECT_NAME.max_length",
                  "Reader.read.DEFAULT_LIMIT", "Reader.default_port.return", "PING_TIMEOUT", "DEBUG",
                  "Check.timeout", "MAX_UPLOAD", "hc-api-pause", "ReaderConfig.timeout"):
        assert any(k.endswith(":" + shape) for k in keys), shape
    assert {e["kind"] for e in expected} >= {"function", "class", "route", "router", "constant", "config"}
