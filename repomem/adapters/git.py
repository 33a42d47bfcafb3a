"""All git access goes through this module: one subprocess helper, NUL-separated output.

The hot paths use plain ``git`` processes: one ``diff-tree --stdin`` and one ``cat-file --batch``
process serve a whole ingestion run, and one ``rev-parse`` answers every discovery question of a
command.  GitPython (~180 ms to import, more than a pre-prompt hook's budget) is imported lazily,
only on the cold paths where its object model saves code: telling a bare repository from a
missing one, and reading git config for the hook installer.

Paths are bytes in git.  Every path read here goes through ``path_text``: valid UTF-8 stays as
it is, any other byte becomes a ``\\xNN`` escape (Python's ``backslashreplace``), so a file
named ``lat\\xe9.py`` is stored, shown and hashed as that text and never breaks a batch.
"""

from __future__ import annotations

import logging
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from repomem.core.errors import RepomemError

ZERO = "0" * 40
log = logging.getLogger("repomem")
# Variables git exports while a hook runs; nested git calls in another repo or worktree break
# when they leak (pre-commit does the same in no_git_env).
_KEEP_GIT_VARS = {"GIT_EXEC_PATH", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSL_CAINFO", "GIT_SSL_NO_VERIFY",
                  "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_TERMINAL_PROMPT"}


def no_git_env(env: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if env is None else env)
    return {k: v for k, v in env.items() if not k.startswith("GIT_") or k in _KEEP_GIT_VARS}


def git(repo: str | Path, *args: str, input: bytes | None = None, check: bool = True) -> bytes:
    try:
        proc = subprocess.run(["git", "-C", str(repo), *args], input=input, capture_output=True,
                              env=no_git_env())
    except FileNotFoundError:
        raise RepomemError("git is not installed", hint="install git and try again") from None
    if check and proc.returncode != 0:
        msg = proc.stderr.decode(errors="replace").strip().splitlines()
        raise GitError(msg[-1] if msg else f"git {args[0]} failed")
    return proc.stdout


class GitError(RepomemError):
    pass


def path_text(raw: bytes) -> str:
    """A git path as text: UTF-8, with any undecodable byte as a ``\\xNN`` escape (printable,
    encodable anywhere, and stable: the same bytes always give the same key)."""
    return raw.decode("utf-8", "backslashreplace")


@dataclass(frozen=True)
class Where:
    """A work tree as git sees it, from one ``rev-parse``."""

    root: Path  # the work tree's top
    git_dir: Path  # its own git dir (<common>/worktrees/<name> for a linked worktree)
    common: Path  # the git dir all worktrees share (the default store lives here)

    @property
    def worktree(self) -> str:
        """"" for the main work tree; for a linked one (``git worktree add``) a name derived
        from its private git dir's name, which ``git worktree move`` keeps."""
        if self.git_dir == self.common:
            return ""
        from repomem.core.model import short_hash

        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in self.git_dir.name)
        return f"wt-{safe[:40]}-{short_hash(self.git_dir.name, n=6)}"


def discover(path: str | Path) -> Where:
    path = Path(path)
    if not path.is_dir():
        raise RepomemError(f"{path} is not a directory", hint="pass --repo DIR with a git work tree")
    try:
        out = git(path, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir",
                  "--git-common-dir")
    except GitError:
        if is_bare(path):
            raise RepomemError(f"{path} is a bare git repository (no work tree to index)",
                               hint="run repomem in a clone or a worktree of it "
                                    "('git worktree add DIR' inside the bare repository)") from None
        raise RepomemError(f"{path} is not a git repository",
                           hint="run repomem inside a git work tree, or pass --repo DIR") from None
    root, gdir, common = (Path(os.path.realpath(x)) for x in out.decode().split("\n")[:3])
    return Where(root, gdir, common)


def toplevel(path: str | Path) -> Path:
    return discover(path).root


def is_bare(path: str | Path) -> bool:
    """Whether ``path`` is (inside) a bare repository.  Only asked after discovery failed, so
    GitPython's import cost falls on an error path."""
    import git as gitpython  # GitPython

    try:
        return bool(gitpython.Repo(path, search_parent_directories=True).bare)
    except (gitpython.InvalidGitRepositoryError, gitpython.NoSuchPathError, OSError):
        return False


def config_get(repo: str | Path, key: str) -> str | None:
    out = git(repo, "config", "--get", key, check=False).decode("utf-8", "replace").strip()
    return out or None


def shallow_commits(repo: str | Path) -> set[str]:
    """The grafted boundary commits of a shallow clone (git records them in ``shallow``)."""
    path = Path(git(repo, "rev-parse", "--path-format=absolute", "--git-path", "shallow")
                .decode().strip())
    try:
        return set(path.read_text().split())
    except OSError:
        return set()


def common_dir(repo: str | Path) -> Path:
    """The git directory shared by all worktrees (the store lives here, never in the work tree)."""
    out = git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir").decode().strip()
    return Path(out)


def git_dir(repo: str | Path) -> Path:
    return Path(git(repo, "rev-parse", "--path-format=absolute", "--git-dir").decode().strip())


def head(repo: str | Path) -> str | None:
    out = git(repo, "rev-parse", "--verify", "-q", "HEAD^{commit}", check=False).decode().strip()
    return out or None


def current_branch(repo: str | Path) -> str | None:
    out = git(repo, "symbolic-ref", "-q", "--short", "HEAD", check=False).decode().strip()
    return out or None


def first_parent_distance(repo: str | Path, ancestor: str | None, rev: str = "HEAD",
                          limit: int = 50) -> int | None:
    """How many first-parent steps ``ancestor`` is behind ``rev`` (0: the same commit); None
    when it is not on rev's first-parent line within ``limit`` steps."""
    if not ancestor:
        return None
    out = git(repo, "rev-list", "--first-parent", "-n", str(limit + 1), rev, "--",
              check=False).decode().split()
    return out.index(ancestor) if ancestor in out else None


def resolve_commit(repo: str | Path, rev: str) -> str:
    out = git(repo, "rev-parse", "--verify", "-q", "--end-of-options", f"{rev}^{{commit}}", check=False)
    sha = out.decode().strip()
    if not sha:
        raise RepomemError(f"unknown revision: {rev}", hint="give a commit, branch or tag that exists")
    return sha


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    parent: str | None  # first parent
    ct: int  # committer timestamp (seconds)


def first_parent_chain(repo: str | Path, rev: str = "HEAD", limit: int | None = None) -> list[CommitInfo]:
    """The first-parent history of ``rev``, oldest first; with LIMIT only its last LIMIT commits
    (git then reads those, not the whole history)."""
    last = ["-n", str(limit)] if limit is not None else []
    try:
        out = git(repo, "log", "--first-parent", *last, "--format=%H %ct %P", rev, "--").decode()
    except GitError:
        # an unborn HEAD has no history; asked only on failure (this runs once per question
        # and per ingest: a `rev-parse` first would double its git processes)
        if rev == "HEAD" and head(repo) is None:
            return []
        raise
    chain = []
    for line in reversed(out.splitlines()):
        parts = line.split()
        chain.append(CommitInfo(parts[0], parts[2] if len(parts) > 2 else None, int(parts[1])))
    return chain


def authors_and_subjects(repo: str | Path, shas: list[str]) -> dict[str, tuple[str, str]]:
    """sha -> (author's name, the message's first line) for each of these commits git has (one
    ``git log --no-walk``; a commit a shallow clone lacks is left out)."""
    have = [s for s in dict.fromkeys(shas) if s]
    if not have:
        return {}
    out = git(repo, "cat-file", "--batch-check", input="".join(f"{s}\n" for s in have).encode())
    have = [ln.split()[0] for ln in out.decode().splitlines() if ln.split()[1:2] == ["commit"]]
    if not have:
        return {}
    out = git(repo, "log", "--no-walk=unsorted", "--format=%H%x00%an%x00%s", *have, "--")
    rows = [ln.split("\0") for ln in out.decode("utf-8", "replace").splitlines()]
    return {row[0]: (row[1], row[2]) for row in rows if len(row) == 3}


def commit_infos(repo: str | Path, shas: list[str]) -> list[CommitInfo]:
    if not shas:
        return []
    out = git(repo, "log", "--no-walk=unsorted", "--format=%H %ct %P", *shas, "--").decode()
    infos = []
    for line in out.splitlines():
        parts = line.split()
        infos.append(CommitInfo(parts[0], parts[2] if len(parts) > 2 else None, int(parts[1])))
    return infos


def effective_times(chain: list[CommitInfo], after: int | None = None) -> dict[str, int]:
    """Valid time of each commit: its committer time, never earlier than its first parent's.

    Clock skew (a commit dated before its parent) must not reorder a line of history.  AFTER:
    the valid time of the commit before ``chain[0]``, when the chain is the tail of a history.
    """
    eff, last = {}, after
    for c in chain:
        last = c.ct if last is None else max(last, c.ct)
        eff[c.sha] = last
    return eff


@dataclass(frozen=True)
class Change:
    path: str
    old_blob: str | None  # None when the file is added
    new_blob: str | None  # None when the file is deleted
    moved_from: str | None = None  # the path git says this file was renamed from


def changes(repo: str | Path, commits: list[CommitInfo]) -> dict[str, list[Change]]:
    """Each commit diffed against its first parent (root commits against the empty tree).

    One ``git diff-tree --stdin`` process for the whole batch.  Only regular files are
    reported (symlinks and submodules carry no facts).  A file git detects as renamed (``-M``,
    its default similarity) is its old path deleted and its new path added, as without rename
    detection, the new one saying ``moved_from``; each commit's changes are in path order.
    """
    if not commits:
        return {}
    out = _diff_tree(repo, commits)
    result: dict[str, list[Change]] = {c.sha: [] for c in commits}
    tokens = out.split(b"\0")
    current = None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.startswith(b":"):
            meta = tok[1:].split()
            renamed = meta[4].startswith(b"R")
            path = path_text(tokens[i + 1])
            new_path = path_text(tokens[i + 2]) if renamed else path
            i += 3 if renamed else 2
            old_mode, new_mode, old_sha, new_sha = (m.decode() for m in meta[:4])
            if current is None:
                continue
            old_blob = old_sha if old_mode.startswith("100") and old_sha != ZERO else None
            new_blob = new_sha if new_mode.startswith("100") and new_sha != ZERO else None
            if not renamed:
                if old_blob or new_blob:
                    result[current].append(Change(path, old_blob, new_blob))
                continue
            if old_blob:
                result[current].append(Change(path, old_blob, None))
            if new_blob:
                result[current].append(Change(new_path, None, new_blob,
                                              path if old_blob else None))
        else:
            if tok:
                current = tok.decode().strip()
            i += 1
    for changed in result.values():
        changed.sort(key=lambda ch: ch.path)
    return result


def _diff_tree(repo: str | Path, commits: list[CommitInfo]) -> bytes:
    """``git diff-tree -M`` of these commits.  Rename detection reads the blobs of added and
    deleted files, and git stops at the first one it lacks (a partial clone, a failed LFS
    fetch): the batch is then halved until the commits that fail are alone, and those are
    diffed without rename detection (their moves read as a delete and an add)."""
    lines = "".join(f"{c.sha} {c.parent}\n" if c.parent else f"{c.sha}\n" for c in commits)
    try:
        return git(repo, "diff-tree", "--stdin", "-r", "-z", "-M", "--root", input=lines.encode())
    except GitError as e:
        if "unable to read" not in str(e) and "missing" not in str(e):
            raise
        if len(commits) > 1:
            half = len(commits) // 2
            return _diff_tree(repo, commits[:half]) + _diff_tree(repo, commits[half:])
        out = git(repo, "diff-tree", "--stdin", "-r", "-z", "--no-renames", "--root",
                  input=lines.encode())
        tokens = out.split(b"\0")
        missing = str(e).rsplit(" ", 1)[-1]
        paths = [path_text(tokens[i + 1]) for i, t in enumerate(tokens[:-1])
                 if t.startswith(b":") and missing.encode() in t]
        log.warning("skip renames at %s: object %s%s is missing from the repository",
                    commits[0].sha[:10], missing, f" ({', '.join(paths)})" if paths else "")
        return out


def blob_sizes(repo: str | Path, shas: list[str]) -> dict[str, int]:
    """Sizes of these blobs (one ``git cat-file --batch-check``; a missing one is left out)."""
    if not shas:
        return {}
    out = git(repo, "cat-file", "--batch-check", input="".join(f"{s}\n" for s in shas).encode())
    rows = [ln.split() for ln in out.decode().splitlines()]
    return {row[0]: int(row[2]) for row in rows if len(row) == 3 and row[2].isdigit()}


class BlobReader:
    """One long-lived ``git cat-file --batch`` process: a blob per request, no process per file."""

    def __init__(self, repo: str | Path):
        self.proc = subprocess.Popen(["git", "-C", str(repo), "cat-file", "--batch"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=no_git_env())

    def read(self, sha: str) -> bytes | None:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(sha.encode() + b"\n")
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            return None
        size = int(header[2])
        data = self.proc.stdout.read(size)
        self.proc.stdout.read(1)  # the newline after the contents
        return data

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin
            self.proc.stdin.close()
            self.proc.wait()

    def __enter__(self) -> "BlobReader":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# -- the checked-out tree first (repomem/service/current.py) -----------------------------------
def tree_files(repo: str | Path, rev: str = "HEAD") -> list[tuple[str, str]]:
    """(path, blob) of every regular file in REV's tree, in path order (one ``ls-tree``)."""
    out = git(repo, "ls-tree", "-r", "-z", "--full-tree", rev)
    files = []
    for entry in out.split(b"\0"):
        meta, sep, raw = entry.partition(b"\t")
        if not sep:
            continue
        mode, kind, sha = meta.split()[:3]
        if kind == b"blob" and mode.startswith(b"100"):
            files.append((path_text(raw), sha.decode()))
    return files


def last_touches(repo: str | Path, paths: set[str], rev: str = "HEAD") -> dict[str, str]:
    """path -> the last first-parent commit of REV that changed it, for each of PATHS: one
    ``git log --first-parent --name-only`` read newest first, stopped once every path is seen
    (a file untouched for years still costs the whole log; most are seen early)."""
    import subprocess

    want = set(paths)
    out: dict[str, str] = {}
    if not want:
        return out
    proc = subprocess.Popen(
        ["git", "-C", str(repo), "log", "--first-parent", "--no-renames", "--name-only", "-z",
         "--format=%x01%H", rev, "--"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env=no_git_env())
    assert proc.stdout is not None
    sha = ""
    buf = b""
    try:
        while want:
            chunk = proc.stdout.read(1 << 16)
            if not chunk:
                break
            buf += chunk
            *parts, buf = buf.split(b"\0")
            for tok in parts:
                tok = tok.lstrip(b"\n")
                if tok.startswith(b"\x01"):
                    head_, _, first = tok[1:].partition(b"\n")
                    sha = head_.decode()
                    tok = first
                if not tok:
                    continue
                path = path_text(tok)
                if path in want:
                    out[path] = sha
                    want.discard(path)
    finally:
        proc.stdout.close()
        proc.kill()
        proc.wait()
    return out
