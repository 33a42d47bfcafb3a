"""Build sample repositories as real git repositories with dated commits.

A definition is a Python module with COMMITS = [(iso_date, message, {path: text | None}) or
(iso_date, message, {"revert": index})] and EXPECTED = [{question, answer, as_of?, never?}].
The demo samples (``repomem demo --sample NAME``) are package data in repomem/data/samples/, so
an installed wheel has them; the benchmark's scenario suite stays in the clone's sample_repos/
(SAMPLES_DIR), which the checkout's benchmarks (bench/) read by path.  No definition holds a .git folder:
repositories are built on demand.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
from importlib import resources
from pathlib import Path
from types import ModuleType

from repomem.adapters.git import no_git_env
from repomem.core.errors import RepomemError

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "sample_repos"  # a clone's; not in a wheel
BUNDLED = "data/samples"  # inside the repomem package


def bundled() -> list[str]:
    """Names of the samples shipped with the package."""
    folder = resources.files("repomem").joinpath(BUNDLED)
    return sorted(p.name[:-3] for p in folder.iterdir()
                  if p.name.endswith(".py") and not p.name.startswith("_"))


def load(name_or_path: str | Path) -> ModuleType:
    """A bundled sample by name ("payments"), or any definition file by path."""
    if Path(name_or_path).suffix:
        return _exec(Path(name_or_path))
    res = resources.files("repomem").joinpath(f"{BUNDLED}/{name_or_path}.py")
    if not res.is_file():
        raise RepomemError(f"no sample named {str(name_or_path)!r}",
                           hint=f"bundled samples: {', '.join(bundled())}; or pass the path "
                                "of a definition file")
    with resources.as_file(res) as path:  # a real file even where the package is zipped
        return _exec(path)


def _exec(path: Path) -> ModuleType:
    if not path.is_file():
        raise RepomemError(f"no sample definition at {path}",
                           hint=f"the benchmark's scenarios live in {SAMPLES_DIR} "
                                "(run from a clone of repomem)")
    spec = importlib.util.spec_from_file_location(f"repomem_sample_{path.stem}", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def git_env(date: str | None = None) -> dict[str, str]:
    """An environment for git runs that build sample or benchmark repositories: no hook-time
    variables, no user or system config, a fixed identity, and a fixed date when given."""
    env = no_git_env()
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_TEMPLATE_DIR="",
               GIT_AUTHOR_NAME="Sample Dev", GIT_AUTHOR_EMAIL="dev@example.com",
               GIT_COMMITTER_NAME="Sample Dev", GIT_COMMITTER_EMAIL="dev@example.com")
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    return env


def _git(dest: Path, *args: str, date: str | None = None) -> str:
    env = git_env(date)
    out = subprocess.run(["git", "-C", str(dest), "-c", "commit.gpgsign=false", *args], env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RepomemError(f"git {args[0]} failed while building a sample: {out.stderr.strip()}")
    return out.stdout.strip()


def write_files(dest: Path, files: dict) -> None:
    """Write FILES (path -> text or bytes; None deletes) and stage them: one ``git rm`` and one
    ``git add`` for all of them, not one process per file."""
    gone = [rel for rel, text in files.items() if text is None]
    written = [rel for rel, text in files.items() if text is not None]
    if gone:
        _git(dest, "rm", "-q", "--", *gone)
    for rel in written:
        p = dest / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        text = files[rel]
        p.write_bytes(text if isinstance(text, bytes) else text.encode())
    if written:
        _git(dest, "add", "--", *written)


def build(defn: ModuleType | list, dest: Path) -> list[str]:
    """Create ``dest`` as a git repository holding the definition's commits; returns their shas."""
    commits = defn if isinstance(defn, list) else defn.COMMITS
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    _git(dest, "init", "-q", "-b", "main")
    shas: list[str] = []
    for date, message, files in commits:
        if "revert" in files:
            _git(dest, "revert", "--no-edit", shas[files["revert"]], date=date)
            _git(dest, "commit", "-q", "--amend", "-m", message, date=date)
        else:
            write_files(dest, files)
            _git(dest, "commit", "-q", "--allow-empty", "-m", message, date=date)
        shas.append(_git(dest, "rev-parse", "HEAD"))
    return shas
