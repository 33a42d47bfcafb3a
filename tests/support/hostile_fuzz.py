"""Run by tests/miners/test_hostile_files.py in a subprocess under a memory cap (RLIMIT_AS).

Hypothesis draws hostile files -- malformed, huge, deeply nested, aliased, binary, non-UTF-8 --
for every format repomem mines; each goes through ``mine_file`` (facts or a MineError, nothing
else), then the drawn files are committed over a good version of each file in a real repository
and ingested: the ingest must succeed and every good file's facts stay current.

Usage: python hostile_fuzz.py WORKDIR MAX_EXAMPLES MEMORY_MB
"""

from __future__ import annotations

import os
import resource
import sys
import traceback
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GOOD = {
    "a.toml": 'port = 8080\n[db]\nhost = "db"\n',
    "b.yaml": "server:\n  port: 8080\n",
    "c.json": '{"server": {"port": 8080}}\n',
    "d.ini": "[server]\nport = 8080\n",
    ".env": "PORT=8080\n",
    "e.py": "PORT = 8080\n\n\ndef serve(port):\n    return port\n",
    "requirements.txt": "requests==2.32.3\n",
    "pyproject.toml": '[project]\nname = "x"\ndependencies = ["httpx>=0.27"]\n',
    "package.json": '{"name": "x", "dependencies": {"express": "^4.19.2"}}\n',
    "Procfile": "web: gunicorn app:app\n",
    "schema.prisma": 'datasource db {\n  provider = "postgresql"\n}\n\nmodel U {\n  id Int @id\n}\n',
    ".npmrc": "save-exact=true\n",
    ".editorconfig": "root = true\n[*]\nindent_size = 2\n",
    ".tool-versions": "nodejs 20.11.0\n",
}


def _bomb(levels: int, fan: int) -> str:
    out = ["l0: &l0 [" + ",".join(["x"] * fan) + "]"]
    out += [f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * fan) + "]" for i in range(1, levels)]
    return "\n".join(out) + "\n"


def _nested(fmt: str, depth: int) -> str:
    if fmt in ("c.json", "package.json"):
        return '{"a":' * depth + "1" + "}" * depth
    if fmt == "b.yaml":  # indented up to 500 levels (60,000 would be 3.6 GB of spaces), then flow
        if depth <= 500:
            return "".join("  " * i + "a:\n" for i in range(depth)) + "  " * depth + "1\n"
        return "a: " + "[" * depth + "]" * depth + "\n"
    if fmt in ("a.toml", "pyproject.toml"):
        return "a = " + "[" * depth + "]" * depth + "\n"
    if fmt == "e.py":
        return "x = " + "(" * depth + "1" + ")" * depth + "\n"
    return "[s]\n" + "k = " + "[" * depth + "\n"


def _huge(fmt: str, n: int) -> str:
    line = {"c.json": None, "package.json": None, "b.yaml": "k{i}: v{i}\n", ".env": "K{i}=v{i}\n",
            "a.toml": 'k{i} = "v{i}"\n', "pyproject.toml": 'k{i} = "v{i}"\n',
            "d.ini": "k{i} = v{i}\n", "e.py": "C{i} = {i}\n", "requirements.txt": "pkg{i}==1.{i}\n",
            "Procfile": "p{i}: run {i}\n", "schema.prisma": "model M{i} {{\n  id Int @id\n}}\n",
            ".npmrc": "k{i}=v{i}\n", ".editorconfig": "k{i} = v{i}\n", ".tool-versions": "t{i} 1.{i}\n"}
    if line[fmt] is None:  # minified: one long line
        return "{" + ",".join(f'"k{i}":"v{i}"' for i in range(n)) + "}"
    body = "".join(line[fmt].format(i=i) for i in range(n))
    return ("[s]\n" + body) if fmt == "d.ini" else body


@st.composite
def hostile(draw):
    path = draw(st.sampled_from(sorted(GOOD)))
    kind = draw(st.sampled_from(["binary", "latin1", "utf16", "text", "mutate", "nested", "huge",
                                 "bomb", "bom", "nul"]))
    good = GOOD[path]
    if kind == "binary":
        data = draw(st.binary(min_size=1, max_size=4000))
    elif kind == "latin1":
        data = (good + "# caf\xe9 " + draw(st.text(max_size=50)) + "\n").encode("latin-1", "replace")
    elif kind == "utf16":
        data = good.encode("utf-16")
    elif kind == "text":
        data = draw(st.text(max_size=3000)).encode("utf-8", "surrogatepass")
    elif kind == "mutate":
        i = draw(st.integers(0, len(good)))
        junk = draw(st.text(alphabet="{}[]()\"':=,#&*!|>-\n\t \\xyz0", max_size=40))
        data = (good[:i] + junk + good[i + draw(st.integers(0, 5)):]).encode()
    elif kind == "nested":
        data = _nested(path, draw(st.sampled_from([50, 500, 5000, 60000]))).encode()
    elif kind == "huge":
        data = _huge(path, draw(st.sampled_from([3000, 30000, 80000]))).encode()
    elif kind == "bomb":
        data = _bomb(draw(st.integers(2, 12)), draw(st.integers(2, 12))).encode()
    elif kind == "bom":
        data = b"\xef\xbb\xbf" + good.encode()
    else:
        data = good.encode()[:5] + b"\x00" + good.encode()[5:]
    return path, data


_BY_IDENTITY = ("function", "route")  # keys made from identities, not paths


def main() -> int:
    work, examples, mem_mb = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    resource.setrlimit(resource.RLIMIT_AS, (mem_mb << 20, mem_mb << 20))
    from repomem.miners import MineError, mine_file

    drawn: list[tuple[str, bytes]] = []

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(hostile())
    def each(case):
        path, data = case
        try:
            mine_file(path, data)
        except MineError as e:
            assert "\n" not in str(e), f"{path}: a MineError is one line: {e!r}"
        if len(drawn) < 40:
            drawn.append(case)

    each()

    # the drawn files through a real ingest, over good versions of the same files
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout: tests.conftest
    from repomem.service.ingest import ingest
    from repomem.service.query import facts
    from repomem.service.repo import Repo
    from tests.conftest import commit, git

    repo = work / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-01T00:00:00+00:00", "good", dict(GOOD, **{"keep.toml": "port = 9090\n"}))
    for n, (path, data) in enumerate(drawn):
        commit(repo, f"2026-01-02T00:{n // 60:02d}:{n % 60:02d}+00:00", f"hostile {n}", {path: data})
    r = Repo.open(repo, work / "store")
    ingest(r, all_history=True, progress=False)
    current = facts(r)["facts"]
    assert {(f["key"], f["value"]) for f in current} >= {("config:keep.toml:port", "9090")}
    # earlier facts kept: each file's current facts are those of its last version that could be
    # mined (a hostile version that could not be read retires nothing)
    last_ok = {}
    for path, data in [(p, d.encode()) for p, d in GOOD.items()] + drawn:
        try:
            last_ok[path] = {f.key for f in mine_file(path, data) if f.kind not in _BY_IDENTITY}
        except MineError:
            pass
    for path, keys in last_ok.items():
        have = {f["key"] for f in current if f["path"] == path and f["kind"] not in _BY_IDENTITY}
        assert have == keys, f"{path}: {sorted(keys ^ have)[:5]}"
    print(f"OK {examples} examples, {len(drawn)} committed, {len(current)} facts, "
          f"peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("GIT_CONFIG_NOSYSTEM", "1")
    try:
        sys.exit(main())
    except Exception:  # the test shows it; a crash is a failure whatever its type
        traceback.print_exc()
        sys.exit(2)
