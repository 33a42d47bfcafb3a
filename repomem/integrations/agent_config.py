"""``repomem agent install|uninstall``: wire repomem into a coding agent's project settings.

* ``claude-code``: the UserPromptSubmit hook in ``.claude/settings.json``
  (``{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": ...}]}]}}``);
  with ``--mcp`` also the MCP server in ``.mcp.json`` (Claude Code's project scope).
* ``cursor``: the MCP server in ``.cursor/mcp.json``.
* ``codex``: the MCP server as ``[mcp_servers.repomem]`` in ``.codex/config.toml`` (Codex CLI
  reads a project's file once the project is trusted).

Install keeps whatever the files hold already and is idempotent (repomem's own entry is
replaced, never added twice).  Before the first change to a file, its bytes (or its absence)
are saved under ``<git dir>/repomem-agent/``; uninstall puts them back exactly when the file
is still as install left it, and otherwise takes only repomem's entry out, so edits made since
are kept.  The commands written run this interpreter (``python -m repomem``), so a pipx or venv
install is found whatever the agent's PATH.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import sys
from pathlib import Path

from repomem.adapters import git
from repomem.core.errors import RepomemError
from repomem.storage import atomic

NAME = "repomem"
AGENTS = ("claude-code", "cursor", "codex")
HOOK_TIMEOUT = 10  # seconds Claude Code waits for the hook command (it gives up by itself sooner)


def _python() -> list[str]:
    return [sys.executable, "-m", "repomem"]


def hook_command() -> str:
    return shlex.join([*_python(), "hook", "claude-code"])


def _mcp_server(root: Path) -> dict:
    py, *rest = _python()
    return {"command": py, "args": [*rest, "mcp", "--repo", str(root)]}


# -- one file's edits, saved and restored ----------------------------------------------------
class _Saved:
    """The bytes a settings file had before repomem first changed it, and a digest of what
    repomem wrote, kept in the git dir (never in the work tree)."""

    def __init__(self, where: git.Where, rel: str):
        base = where.git_dir / "repomem-agent"
        slug = rel.replace("/", "__")
        self.orig, self.absent, self.wrote = (base / f"{slug}.orig", base / f"{slug}.absent",
                                              base / f"{slug}.wrote")

    def keep_original(self, path: Path) -> None:
        if self.orig.exists() or self.absent.exists():
            return  # installed before: the first original is the one to restore
        self.orig.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            atomic.write_bytes(self.orig, path.read_bytes())
        else:
            atomic.write_text(self.absent, "")

    def wrote_now(self, data: bytes) -> None:
        atomic.write_text(self.wrote, hashlib.sha256(data).hexdigest())

    def unchanged_since(self, path: Path) -> bool:
        try:
            return self.wrote.read_text() == hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return False

    def restore(self, path: Path) -> bool:
        """Put the original back; False when there is none saved."""
        if self.orig.exists():
            atomic.write_bytes(path, self.orig.read_bytes())
        elif self.absent.exists():
            path.unlink(missing_ok=True)
            _prune(path.parent)
        else:
            return False
        self.forget()
        return True

    def forget(self) -> None:
        for p in (self.orig, self.absent, self.wrote):
            p.unlink(missing_ok=True)


def _prune(folder: Path) -> None:
    """Remove a settings folder (.claude, .cursor, .codex) left empty."""
    try:
        folder.rmdir()
    except OSError:
        pass


def _json_bytes(data: dict) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


# -- what each file holds of repomem's -------------------------------------------------------
def _ours(entry: object) -> bool:
    """A hook entry (one of an event's "hooks") that runs repomem's Claude Code hook."""
    return isinstance(entry, dict) and "hook claude-code" in str(entry.get("command", "")) \
        and "repomem" in str(entry.get("command", ""))


def _without_hook(settings: dict) -> dict:
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict) or not isinstance(hooks.get("UserPromptSubmit"), list):
        return settings
    groups = []
    for group in hooks["UserPromptSubmit"]:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            kept = [h for h in group["hooks"] if not _ours(h)]
            if not kept and group["hooks"]:
                continue  # a group that held only repomem's hook
            group = dict(group, hooks=kept)
        groups.append(group)
    hooks = dict(hooks)
    if groups:
        hooks["UserPromptSubmit"] = groups
    else:
        del hooks["UserPromptSubmit"]
    out = dict(settings)
    if hooks:
        out["hooks"] = hooks
    else:
        del out["hooks"]
    return out


def _with_hook(settings: dict) -> dict:
    out = _without_hook(settings)
    hooks = dict(out.get("hooks") or {})
    entry = {"type": "command", "command": hook_command(), "timeout": HOOK_TIMEOUT}
    hooks["UserPromptSubmit"] = [*hooks.get("UserPromptSubmit", []), {"hooks": [entry]}]
    return dict(out, hooks=hooks)


def _with_server(config: dict, root: Path) -> dict:
    servers = dict(config.get("mcpServers") or {})
    servers[NAME] = _mcp_server(root)
    return dict(config, mcpServers=servers)


def _without_server(config: dict) -> dict:
    servers = dict(config.get("mcpServers") or {})
    servers.pop(NAME, None)
    out = dict(config)
    if servers:
        out["mcpServers"] = servers
    else:
        out.pop("mcpServers", None)
    return out


_CODEX_TABLE = f"[mcp_servers.{NAME}]"


def _codex_block(root: Path) -> str:
    server = _mcp_server(root)
    args = ", ".join(json.dumps(a) for a in server["args"])  # a JSON string is a TOML string
    return (f"\n{_CODEX_TABLE}  # written by repomem agent install\n"
            f"command = {json.dumps(server['command'])}\nargs = [{args}]\n")


def _codex_without(text: str) -> str:
    """TEXT without the [mcp_servers.repomem] table (up to the next table header)."""
    lines, out, skipping = text.splitlines(keepends=True), [], False
    for line in lines:
        head = line.strip()
        if head.startswith("["):
            skipping = head.split("#", 1)[0].strip() == _CODEX_TABLE
        if not skipping:
            out.append(line)
    return "".join(out).rstrip("\n") + "\n" if "".join(out).strip() else ""


# -- install / uninstall ---------------------------------------------------------------------
def remember_store(where: git.Where, store: Path) -> str | None:
    """Record a store that is not the default as the ``repomem.store`` git config, which every
    command, git hook and agent hook reads: an agent started without ``$REPOMEM_STORE`` or
    ``--store`` still finds the store made with them.  The line to print, or None."""
    from repomem.storage.storepath import is_default

    if is_default(where, store):
        return None
    conf = git.config_get(where.root, "repomem.store")
    if conf and Path(where.common / conf).resolve() == store.resolve():
        return None
    git.git(where.root, "config", "repomem.store", str(store))
    return f"set git config repomem.store = {store} (agents and hooks find the store there)"


def _files(agent: str, mcp: bool) -> list[str]:
    if agent == "claude-code":
        return [".claude/settings.json"] + ([".mcp.json"] if mcp else [])
    if agent == "cursor":
        return [".cursor/mcp.json"]
    if agent == "codex":
        return [".codex/config.toml"]
    raise RepomemError(f"unknown agent {agent!r}", hint="one of: " + ", ".join(AGENTS))


def _installed(rel: str, data: bytes, root: Path) -> bytes:
    """DATA (a file's bytes, b"" when absent) with repomem's entry in it."""
    if rel == ".codex/config.toml":
        text = _codex_without(data.decode("utf-8", "replace"))
        return (text + _codex_block(root)).lstrip("\n").encode()
    config = _read_bytes_json(rel, data)
    return _json_bytes(_with_hook(config) if rel.endswith("settings.json")
                       else _with_server(config, root))


def _removed(rel: str, data: bytes) -> bytes:
    if rel == ".codex/config.toml":
        return _codex_without(data.decode("utf-8", "replace")).encode()
    config = _read_bytes_json(rel, data)
    return _json_bytes(_without_hook(config) if rel.endswith("settings.json")
                       else _without_server(config))


def _read_bytes_json(rel: str, data: bytes) -> dict:
    try:
        got = json.loads(data.decode("utf-8") or "{}") if data.strip() else {}
    except (ValueError, UnicodeDecodeError) as e:
        raise RepomemError(f"{rel} is not valid JSON ({e})",
                           hint="fix or move the file, then run the command again") from None
    if not isinstance(got, dict):
        raise RepomemError(f"{rel} does not hold a JSON object", hint="fix or move the file")
    return got


def install(repo: str | Path, agent: str, mcp: bool = False, store: str | None = None) -> list[str]:
    """Write repomem's entries into the agent's project files; the lines to print.  The store
    (found as every command finds it, from STORE or $REPOMEM_STORE) is recorded for the agent's
    processes when it is not the default."""
    from repomem.storage.storepath import resolve_store_path

    where = git.discover(repo)
    files = _files(agent, mcp)
    remembered = remember_store(where, resolve_store_path(where, store))
    lines = [remembered] if remembered else []
    if not resolve_store_path(where, store).exists():
        lines.append("note: no store yet; run 'repomem init' so the agent has facts to read")
    for rel in files:
        path = where.root / rel
        data = path.read_bytes() if path.exists() else b""
        new = _installed(rel, data, where.root)
        if new == data:
            lines.append(f"{path}: already set up")
            continue
        saved = _Saved(where, rel)
        saved.keep_original(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(path, new)
        saved.wrote_now(new)
        lines.append(f"wrote {path}")
    return lines


def uninstall(repo: str | Path, agent: str, mcp: bool = True) -> list[str]:
    """Take repomem's entries out: the file as it was before install when nothing else
    changed it since, else the file less repomem's entries."""
    where = git.discover(repo)
    lines = []
    for rel in _files(agent, mcp):
        path = where.root / rel
        saved = _Saved(where, rel)
        if not path.exists():
            saved.forget()
            continue
        if saved.unchanged_since(path) and saved.restore(path):
            lines.append(f"restored {path}")
            continue
        data = path.read_bytes()
        new = _removed(rel, data)
        saved.forget()
        if new == data or (new.strip() in (b"", b"{}") and not data.strip()):
            continue
        if new.strip() in (b"", b"{}"):  # nothing but repomem's entry was in it
            path.unlink()
            _prune(path.parent)
            lines.append(f"removed {path}")
        else:
            atomic.write_bytes(path, new)
            lines.append(f"took repomem out of {path}")
    return lines or ["nothing of repomem's to take out"]
