"""The test suite's own hygiene: a test module binds each of its fixture constants once.

A second ``ECHOING = ...`` further down a module silently replaces the first for every test of
the module (module code runs before any test), so the earlier test runs on another fixture than
the one written above it.  ruff's F811 catches a function defined twice, not a name assigned
twice; this test does."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _rebound(path: Path) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for node in ast.parse(path.read_text(), filename=str(path)).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
        for t in targets:
            if isinstance(t, ast.Name):
                if t.id in seen:
                    out.append(f"{path.name}:{node.lineno}: {t.id} (first bound on line {seen[t.id]})")
                seen.setdefault(t.id, node.lineno)
    return out


def _modules() -> list[Path]:
    """The suite's own modules at any depth; not the fixture trees that stand for a mined
    repository (the miners' contract cases, the example plugin)."""
    return [p for p in sorted(TESTS.rglob("*.py"))
            if not {"contract", "plugin_example"} & set(p.relative_to(TESTS).parts)]


def test_no_test_module_binds_a_name_twice():
    modules = _modules()
    assert len([p for p in modules if p.name.startswith("test_")]) > 60  # every layer's folder
    assert [r for p in modules for r in _rebound(p)] == []


def test_the_check_finds_a_rebinding(tmp_path):
    mod = tmp_path / "test_x.py"
    mod.write_text('A = "one"\n\n\ndef test_a():\n    assert A\n\n\nA = "two"\n')
    assert _rebound(mod) == ["test_x.py:8: A (first bound on line 1)"]
