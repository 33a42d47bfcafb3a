"""`repomem agent install|uninstall`: settings written idempotently next to what is there, and
restored byte for byte; the hook command the settings hold answers from the store however it
was chosen.  The last test does it all with the built wheel in a fresh virtual environment."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import sysconfig
import time
import tomllib
from pathlib import Path

import repomem
from tests.conftest import ROOT, cli, commit, git

# A settings file as a person writes it: their own formatting, hooks and permissions.
SETTINGS = b"""{
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": "echo mine"}]}
        ],
        "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "fmt"}]}]
    }
}
"""
EVENT = {"session_id": "s", "transcript_path": "/dev/null", "permission_mode": "default",
         "hook_event_name": "UserPromptSubmit", "prompt": "which port does the server listen on?"}


def _repo(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-01T10:00:00+00:00", "config", {"app.toml": "[server]\nport = 8000\n"})
    commit(repo, "2026-02-01T10:00:00+00:00", "move", {"app.toml": "[server]\nport = 8080\n"})
    return repo


def _hook_commands(settings: dict) -> list[str]:
    return [h["command"] for g in settings["hooks"]["UserPromptSubmit"] for h in g["hooks"]]


def _run_hook(command: str, repo: Path, env: dict | None = None) -> str:
    """Run the settings' command as Claude Code does (a shell, the event on stdin)."""
    out = subprocess.run(command, shell=True, input=json.dumps(dict(EVENT, cwd=str(repo))),
                         capture_output=True, text=True, timeout=120, cwd=repo,
                         env=env or dict(os.environ))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"] if out.stdout else ""


def test_install_keeps_settings_is_idempotent_and_uninstall_restores_them(new_repo):
    repo = _repo(new_repo)
    cli("init", "--repo", repo, "--no-hooks")
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_bytes(SETTINGS)
    cli("agent", "install", "claude-code", "--mcp", "--repo", repo)
    first = (repo / ".claude" / "settings.json").read_bytes()
    cli("agent", "install", "claude-code", "--mcp", "--repo", repo)  # again: nothing changes
    assert (repo / ".claude" / "settings.json").read_bytes() == first
    settings = json.loads(first)
    assert settings["permissions"] == {"allow": ["Bash(npm test)"]}
    assert settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == "fmt"
    commands = _hook_commands(settings)
    assert commands[0] == "echo mine" and len(commands) == 2 and "hook claude-code" in commands[1]
    server = json.loads((repo / ".mcp.json").read_text())["mcpServers"]["repomem"]
    assert server["args"][-3:] == ["mcp", "--repo", str(repo)]
    text = _run_hook(commands[1], repo)
    assert "`server.port`: `8080` (`app.toml`:" in text and "8000" not in text
    assert not git(repo, "status", "--porcelain", "--ignored", "--", ".git")  # nothing in the tree

    cli("agent", "uninstall", "claude-code", "--repo", repo)
    assert (repo / ".claude" / "settings.json").read_bytes() == SETTINGS
    assert not (repo / ".mcp.json").exists()


def test_uninstall_after_an_edit_takes_only_repomem_out(new_repo):
    repo = _repo(new_repo)
    cli("agent", "install", "claude-code", "--repo", repo)
    path = repo / ".claude" / "settings.json"
    settings = json.loads(path.read_text())
    settings["model"] = "opus"  # the user's edit since install
    path.write_text(json.dumps(settings))
    cli("agent", "uninstall", "claude-code", "--repo", repo)
    assert json.loads(path.read_text()) == {"model": "opus"}
    cli("agent", "install", "claude-code", "--repo", repo)
    path.unlink()
    (repo / ".claude").rmdir()
    cli("agent", "uninstall", "claude-code", "--repo", repo)  # nothing left to take out
    assert not (repo / ".claude").exists()


def test_cursor_and_codex_mcp_configs(new_repo):
    repo = _repo(new_repo)
    (repo / ".codex").mkdir()
    codex = b'model = "o4"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n'
    (repo / ".codex" / "config.toml").write_bytes(codex)
    cli("agent", "install", "cursor", "--repo", repo)
    cli("agent", "install", "codex", "--repo", repo)
    cli("agent", "install", "codex", "--repo", repo)
    cursor = json.loads((repo / ".cursor" / "mcp.json").read_text())["mcpServers"]["repomem"]
    assert cursor["command"] == sys.executable and "mcp" in cursor["args"]
    config = tomllib.loads((repo / ".codex" / "config.toml").read_text())
    assert config["model"] == "o4" and config["mcp_servers"]["docs"]["command"] == "docs-mcp"
    assert config["mcp_servers"]["repomem"]["args"][-3:] == ["mcp", "--repo", str(repo)]
    cli("agent", "uninstall", "cursor", "--repo", repo)
    cli("agent", "uninstall", "codex", "--repo", repo)
    assert not (repo / ".cursor").exists()
    assert (repo / ".codex" / "config.toml").read_bytes() == codex


def test_version():
    rc, out, _ = cli("--version", check=False)
    assert (rc, out.strip()) == (0, f"repomem {repomem.version()}")
    text = (ROOT / "pyproject.toml").read_text()
    assert repomem.version() == tomllib.loads(text)["project"]["version"]


def test_the_built_wheel_in_a_fresh_venv(tmp_path, new_repo):
    """The wheel alone (its dependencies are the test environment's, so nothing is downloaded):
    init with a store chosen by $REPOMEM_STORE, agent install, the settings' hook command run
    without that variable, uninstall."""
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "-w", dist, ROOT], check=True, capture_output=True, timeout=600)
    wheel = next(dist.glob("repomem-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, timeout=120)
    py = venv / "bin" / "python"
    site = Path(subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # the dependencies: a plain path entry (its .pth files, the editable repomem's, are not run)
    (site / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-deps",
                    wheel], check=True, capture_output=True, timeout=600)
    exe = venv / "bin" / "repomem"
    where = subprocess.run([py, "-c", "import repomem; print(repomem.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert where.startswith(str(site))  # the wheel's copy, not the source tree
    version = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.strip() == f"repomem {wheel.name.split('-')[1]}"

    repo = _repo(new_repo)
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_bytes(SETTINGS)
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPOMEM_")}
    store = tmp_path / "elsewhere" / "store"
    for args, extra in ((["init"], {"REPOMEM_STORE": str(store)}),
                        (["agent", "install", "claude-code"], {})):
        subprocess.run([exe, *args], cwd=repo, env=dict(env, **extra), check=True,
                       capture_output=True, timeout=600)
    assert store.is_dir()
    settings = json.loads((repo / ".claude" / "settings.json").read_text())
    command = _hook_commands(settings)[-1]
    assert shlex.split(command)[0] == str(py)
    text = _run_hook(command, repo, env)
    assert "`server.port`: `8080` (`app.toml`:" in text
    # that call started the store's warm answerer (the wheel's own): the next call is its answer
    from repomem.integrations import answerer

    warm = str(store.resolve())
    deadline = time.monotonic() + 60
    while answerer.request(warm, "status") is None and time.monotonic() < deadline:
        time.sleep(0.1)
    try:
        assert _run_hook(command, repo, env) == text
        assert answerer.request(warm, "status")["served"] == 1
    finally:
        answerer.request(warm, "stop")
    subprocess.run([exe, "agent", "uninstall", "claude-code"], cwd=repo, env=env, check=True,
                   capture_output=True, timeout=120)
    assert (repo / ".claude" / "settings.json").read_bytes() == SETTINGS
