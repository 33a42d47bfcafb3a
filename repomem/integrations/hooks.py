"""Install, remove and inspect repomem's git hook shims.

The shims (``hook_templates/shim.sh``) are tiny POSIX sh scripts marked with an ``# ID: repomem-``
line.  Install never clobbers: a hook that was already there is moved to ``<hook>.legacy`` and the
shim runs it first; uninstall puts it back.  A ``core.hooksPath`` that points away from the
repository's own hooks folder (a shared folder, husky, pre-commit) is refused with a hint, since
writing there would change other repositories' hooks too.
"""

from __future__ import annotations

import os
import shlex
import sys
from importlib import resources
from pathlib import Path

from repomem.adapters import git
from repomem.core.errors import RepomemError
from repomem.core.model import short_hash
from repomem.storage import atomic

HOOKS = ("post-commit", "post-merge", "post-rewrite", "post-checkout")
MARKER = "# ID: repomem-"


def template() -> str:
    # Package data, so an installed (non-editable) package finds it too.
    return resources.files("repomem").joinpath("integrations/hook_templates/shim.sh").read_text()


def render(hook: str, python: str) -> str:
    # No store path in the shim: it finds the store from the repository when it runs.
    text = template()
    return (text.replace("@ID@", short_hash(text, n=12)).replace("@HOOK@", hook)
            .replace("@PYTHON@", shlex.quote(python)))


def is_ours(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(1024)
    except OSError:
        return False
    return MARKER.encode() in head


def _config(root: Path, section: str, option: str) -> str | None:
    """A git config value through GitPython's config reader (install and status are not on a
    hot path, so its import cost does not matter here)."""
    import git as gitpython

    with gitpython.Repo(root).config_reader() as cfg:
        value = cfg.get_value(section, option, default="")
    return str(value) or None


def hooks_dir(root: Path) -> Path:
    default = git.common_dir(root) / "hooks"
    configured = _config(root, "core", "hooksPath")
    if configured:
        path = Path(os.path.expanduser(configured))
        if not path.is_absolute():
            path = root / path
        if path.resolve() != default.resolve():
            raise RepomemError(
                f"core.hooksPath is set to {configured}: hooks there may be shared with other "
                "repositories or managed by another tool, so repomem will not write into it",
                hint="call 'repomem hooks run <hook> --repo .' from the post-commit, post-merge, "
                     "post-rewrite and post-checkout hooks there, or 'git config --unset "
                     "core.hooksPath' and install again")
    return default


def install(root: str | Path, python: str | None = None, store: Path | None = None) -> list[str]:
    """Install the four shims; returns the lines to print.  store: the store they should feed
    when it is not the one they find by default ($REPOMEM_STORE or <git common dir>/repomem):
    recorded as the ``repomem.store`` git config, which the shims read when they run."""
    where = git.discover(root)
    root = where.root
    d = hooks_dir(root)
    d.mkdir(parents=True, exist_ok=True)
    python = python or sys.executable
    lines = []
    if store is not None and not os.environ.get("REPOMEM_STORE") and \
            Path(store) != where.common / "repomem" and \
            _config(root, "repomem", "store") != str(store):
        git.git(root, "config", "repomem.store", str(store))
        lines.append(f"set git config repomem.store = {store} (the hooks feed that store)")
    for hook in HOOKS:
        path, legacy = d / hook, d / f"{hook}.legacy"
        note = ""
        if path.exists() and not is_ours(path):
            if legacy.exists():
                raise RepomemError(f"{path} is not repomem's and {legacy.name} exists already",
                                   hint="merge or remove one of them by hand, then install again")
            os.replace(path, legacy)
            note = f" (the existing hook was moved to {legacy.name} and still runs first)"
        atomic.write_text(path, render(hook, python), mode=0o755)
        lines.append(f"installed {path}{note}")
    return lines


def uninstall(root: str | Path) -> list[str]:
    root = git.toplevel(root)
    d = hooks_dir(root)
    lines = []
    for hook in HOOKS:
        path, legacy = d / hook, d / f"{hook}.legacy"
        if not is_ours(path):
            if path.exists():
                lines.append(f"left {path}: not repomem's")
            continue
        path.unlink()
        if legacy.exists():
            os.replace(legacy, path)
            lines.append(f"removed repomem from {path}; restored the earlier hook")
        else:
            lines.append(f"removed {path}")
    return lines


def status(root: str | Path) -> list[str]:
    root = git.toplevel(root)
    d = hooks_dir(root)
    lines = []
    for hook in HOOKS:
        path, legacy = d / hook, d / f"{hook}.legacy"
        if is_ours(path):
            state = "installed"
            py = _recorded_python(path)
            if py and not os.access(py, os.X_OK):
                state += f" (python {py} is gone: falls back to 'repomem' on PATH)"
            if legacy.exists():
                state += f", chains {legacy.name}"
        elif path.exists():
            state = "foreign hook (repomem not installed)"
        else:
            state = "not installed"
        lines.append(f"{hook}: {state}")
    return lines


def installed(root: str | Path) -> bool:
    root = git.toplevel(root)
    return all(is_ours(hooks_dir(root) / h) for h in HOOKS)


def _recorded_python(path: Path) -> str | None:
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("PY="):
            parts = shlex.split(line[3:])
            return parts[0] if parts else None
    return None
