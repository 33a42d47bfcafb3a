"""Read a git history directly: the first-parent chain, file contents at a revision, and the
commit in effect at a moment.  Nothing here imports repomem: the truth must not come from it."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone

ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)


@dataclass(frozen=True)
class Commit:
    sha: str
    ct: int    # committer time
    eff: int   # committer time, never earlier than the first parent's (clock skew)


class GitRepo:
    def __init__(self, root):
        self.root = str(root)
        self._batch = None
        self._cache: dict[str, str | None] = {}
        self.chain = self._chain()

    def git(self, *args: str) -> str:
        out = subprocess.run(["git", "-C", self.root, *args], capture_output=True, env=ENV)
        if out.returncode != 0:
            raise RuntimeError(f"git {args}: {out.stderr.decode(errors='replace')[:300]}")
        return out.stdout.decode("utf-8", errors="replace")

    def _chain(self) -> list[Commit]:
        rows = self.git("log", "--first-parent", "--format=%H %ct", "HEAD").split("\n")
        chain, last = [], None
        for line in reversed([r for r in rows if r.strip()]):
            sha, ct = line.split()
            last = int(ct) if last is None else max(last, int(ct))
            chain.append(Commit(sha, int(ct), last))
        return chain

    @property
    def head(self) -> Commit:
        return self.chain[-1]

    def show(self, rev: str, path: str) -> str | None:
        """``git show REV:PATH`` (None when the file does not exist there or is not text)."""
        return self.blob(f"{rev}:{path}")

    def blob(self, name: str) -> str | None:
        """An object by name (``REV:PATH`` or a blob id) as text; None if missing or binary."""
        key = name
        if key not in self._cache:
            if self._batch is None:
                self._batch = subprocess.Popen(["git", "-C", self.root, "cat-file", "--batch"],
                                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                               env=ENV)
            self._batch.stdin.write(f"{name}\n".encode())
            self._batch.stdin.flush()
            header = self._batch.stdout.readline().decode().split()
            text = None
            if len(header) == 3 and header[1] == "blob":
                data = self._batch.stdout.read(int(header[2]) + 1)[:-1]
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    text = None
            self._cache[key] = text
        return self._cache[key]

    def touching(self, paths: list[str]) -> list[Commit]:
        """First-parent commits whose diff against their first parent touches one of PATHS,
        oldest first."""
        if not paths:
            return []
        out = self.git("log", "--first-parent", "--format=%H", "HEAD", "--", *paths)
        shas = set(out.split())
        return [c for c in self.chain if c.sha in shas]

    def ls(self, rev: str, under: str = "") -> list[str]:
        args = ["ls-tree", "-r", "--name-only", rev] + ([under] if under else [])
        return [p for p in self.git(*args).split("\n") if p]

    def in_effect(self, t: int, raw: bool = False) -> Commit | None:
        """The first-parent commit in effect at time T: the last one (in chain order) whose
        effective time -- or, with raw, committer time -- is <= T."""
        found = None
        for c in self.chain:
            if (c.ct if raw else c.eff) <= t:
                found = c
            elif not raw:
                break
        return found

    def close(self):
        if self._batch is not None:
            self._batch.stdin.close()
            self._batch.wait()
            self._batch = None


def day_edges(day: str) -> tuple[int, int]:
    """Start (00:00:00) and end (23:59:59) of a UTC day, as timestamps."""
    d = datetime.fromisoformat(day).replace(tzinfo=timezone.utc)
    start = int(d.timestamp())
    return start, start + 86399


def day_of(t: int) -> str:
    return datetime.fromtimestamp(t, timezone.utc).date().isoformat()


# Where code questions are read from (functions.py, renames.py).
_SKIP_DIRS = ("tests/", "test/", "docs/", "examples/", "migrations/")


def py_files(g, rev, dirs, exts=(".py",)):
    """The files under DIRS at REV with one of EXTS, tests, docs, examples and migrations left out."""
    files = []
    for d in dirs:
        files += [p for p in g.ls(rev, d) if p.endswith(exts)
                  and not any(s in p + "/" for s in _SKIP_DIRS)]
    return files


def code_files(g, rev, dirs):
    """Python, JavaScript and TypeScript sources (renames.py follows definitions in all three)."""
    return py_files(g, rev, dirs, (".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx"))
