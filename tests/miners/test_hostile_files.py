"""Issue 9, case 1: hostile files cost bounded work, are skipped with a one-line reason, and never
retire facts already stored; .env values keep their escapes.  Real repositories, real ingest."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from repomem.miners import MAX_FACTS_PER_FILE, MAX_TEXT, MineError, mine_file
from repomem.service.ingest import ingest
from repomem.service.query import facts
from repomem.service.repo import Repo
from tests.conftest import commit

SUPPORT = Path(__file__).resolve().parents[1] / "support"


def _current(repo, store) -> dict[str, dict]:
    r = Repo.open(repo, store)
    return {f["key"]: f for f in facts(r)["facts"]}


def _alias_bomb(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_minified_json_facts_have_bounded_texts(new_repo, tmp_path):
    repo = new_repo()
    big = json.dumps({f"key{i}": f"value{i}" for i in range(1500)}, separators=(",", ":"))
    commit(repo, "2026-01-01T00:00:00+00:00", "big", {"big.json": big})
    ingest(Repo.open(repo, tmp_path / "s"), all_history=True, progress=False)
    cur = _current(repo, tmp_path / "s")
    assert cur["config:big.json:key1234"]["value"] == "value1234"
    assert len(cur) == 1500
    assert max(len(f["text"]) for f in cur.values()) <= MAX_TEXT + 2
    assert '"key1234":"value1234"' in cur["config:big.json:key1234"]["text"]  # around its value


@pytest.mark.parametrize("hostile,reason", [
    (json.dumps({f"k{i}": i for i in range(MAX_FACTS_PER_FILE + 1)}), "config too large"),
    (None, "alias bomb"),
])
def test_too_large_or_alias_bomb_skipped_and_earlier_facts_kept(new_repo, tmp_path, hostile, reason):
    name = "data.json" if hostile else "data.yaml"
    hostile = hostile or _alias_bomb()
    with pytest.raises(MineError, match=reason):
        mine_file(name, hostile.encode())
    repo = new_repo()
    good = '{"port": 8080}' if name.endswith("json") else "port: 8080\n"
    commit(repo, "2026-01-01T00:00:00+00:00", "good", {name: good, "other.toml": "x = 1\n"})
    commit(repo, "2026-01-02T00:00:00+00:00", "hostile", {name: hostile, "other.toml": "x = 2\n"})
    ingest(Repo.open(repo, tmp_path / "s"), all_history=True, progress=False)
    cur = _current(repo, tmp_path / "s")
    assert cur[f"config:{name}:port"]["value"] == "8080"  # kept
    assert cur["config:other.toml:x"]["value"] == "2"  # the rest of the commit went in
    assert len(cur) == 2


def test_recursive_alias_is_skipped():
    with pytest.raises(MineError, match="recursive"):
        mine_file("a.yaml", b"a: &a [*a, 1]\n")


def test_env_values_through_python_dotenv(new_repo, tmp_path):
    env = ('A="a\\"b"\nexport B=plain # comment\nC="multi\nline"\nD=\'single $X\'\n'
           "not a binding\nE=after\n")
    got = {f.key.rsplit(":", 1)[1]: (f.value, f.line) for f in mine_file(".env", env.encode())}
    assert got == {"A": ('a"b', 1), "B": ("plain", 2), "C": ("multi\nline", 3),
                   "D": ("single $X", 5), "E": ("after", 7)}


def test_fuzz_hostile_files_under_memory_cap(tmp_path):
    """Hypothesis-drawn hostile files in every format, mined and then ingested in a subprocess
    capped at 3 GB of address space: no crash, no traceback, earlier facts kept."""
    proc = subprocess.run([sys.executable, str(SUPPORT / "hostile_fuzz.py"), str(tmp_path), "80", "3000"],
                          capture_output=True, text=True, cwd=SUPPORT, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr and proc.stdout.startswith("OK 80 examples")
