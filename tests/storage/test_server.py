"""Server mode (issue 13) against a real `chroma run` from the installed chromadb, behind the
token-checking proxy of tests/support/chroma_server.py.  Tests that stop or restart the server
start their own (`chroma`); the others share the session's (`shared_chroma`, tests/conftest.py)
and look only at their own repository's collections on it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from repomem.storage.remote import repo_identity
from tests.conftest import ROOT, cli, cli_json, cli_proc, commit, git
from tests.support.chroma_server import CHROMA, TOKEN, Gate, Server, own_collections

pytestmark = pytest.mark.skipif(not CHROMA.exists(), reason="chromadb's `chroma` CLI missing")


@pytest.fixture
def chroma(tmp_path, monkeypatch):
    server = Server(tmp_path / "chroma-db")
    server.start()
    gate = Gate(server, TOKEN)
    monkeypatch.setenv("REPOMEM_CHROMA_TOKEN", TOKEN)
    try:
        yield server, gate
    finally:
        gate.close()
        server.kill()


def history(root: Path) -> list[str]:
    """A small real history: a constant that changes, a dependency bump, a renamed function."""
    git(root, "init", "-q", "-b", "main")
    shas = [commit(root, "2024-01-0%d 10:00:00 +0000" % 1, "start", {
        "app.py": "PORT = 8080\n\ndef load_config(path):\n    return open(path).read()\n",
        "requirements.txt": "requests==2.31\n"})]
    shas.append(commit(root, "2024-01-02 10:00:00 +0000", "port", {
        "app.py": "PORT = 9090\n\ndef load_config(path):\n    return open(path).read()\n"}))
    shas.append(commit(root, "2024-01-03 10:00:00 +0000", "deps", {
        "requirements.txt": "requests==2.32\nflask==3.0\n"}))
    shas.append(commit(root, "2024-01-04 10:00:00 +0000", "rename", {
        "app.py": "PORT = 9090\n\ndef read_settings(path):\n    return open(path).read()\n"}))
    return shas


@pytest.fixture
def clones(tmp_path):
    """origin with a history, and two clones of it (A publishes, B only reads)."""
    src = tmp_path / "src"
    src.mkdir()
    history(src)
    git(tmp_path, "clone", "-q", "--bare", str(src), "origin")
    for name in ("a", "b"):
        git(tmp_path, "clone", "-q", str(tmp_path / "origin"), name)
    return tmp_path / "a", tmp_path / "b"


def answers(repo: Path, *server: str) -> dict:
    """What the readers say, without the parts that depend on when it ran."""
    facts = cli_json("facts", "--repo", repo, *server)
    facts.pop("as_of", None)
    key = next(f["key"] for f in facts["facts"] if f["subject"].startswith("PORT"))
    hist = cli_json("history", "--repo", repo, key, *server)
    changes = cli_json("changes", "--repo", repo, "--since", "2024-01-02", *server)
    changes.pop("until", None)
    context = cli("context", "--repo", repo, "which port", *server)[1]
    ask = cli_json("ask", "--repo", repo, "which port", *server)
    ask.pop("as_of", None)
    then = cli_json("ask", "--repo", repo, "which port", "--as-of", "2024-01-01T12:00:00Z",
                    *server)
    assert then["answer"] == "8080"  # as of a date: the value valid then
    # the store of record read at ask time: a key's first version, closed versions by kind
    added = cli_json("ask", "--repo", repo, "when was the requests dependency added?", *server)
    added.pop("as_of", None)
    assert added["facts"][0]["first_seen"]["value"] == "==2.31"
    gone = cli_json("ask", "--repo", repo, "is django still a dependency?", *server)
    gone.pop("as_of", None)
    assert facts["facts"] and hist and "PORT" in context  # not vacuously equal
    return {"facts": facts, "history": hist, "changes": changes, "context": context, "ask": ask,
            "then": then, "added": added, "gone": gone}


def test_publish_in_one_clone_answer_in_another(shared_chroma, clones):
    _, gate = shared_chroma
    a, b = clones
    out = cli_json("publish", "--repo", a, "--chroma", gate.url)
    name = out["name"]
    assert (out["new"], out["commits"]) == (4, 4)
    assert out["name"].endswith("/origin")  # named from the normalised origin URL
    _, out, err = cli("ask", "--repo", b, "which port", "--chroma", gate.url, "--json")
    assert json.loads(out)["answer"] == "9090" and "not indexed" not in err
    assert not (b / ".git" / "repomem").exists()  # B built no local store
    # every version stays in the server's collection: schema 4's layout, and its number, so a
    # client of the previous release reads it (an embedded store is schema 5)
    import chromadb

    from repomem.storage.remote import Remote
    from repomem.storage.store import SERVER_SCHEMA

    server, _ = shared_chroma
    meta = chromadb.HttpClient(host="127.0.0.1", port=server.port).get_collection(
        f"{Remote('', None, name).prefix}_meta").get(ids=["schema"], include=["metadatas"])
    assert SERVER_SCHEMA == 4 and json.loads(meta["metadatas"][0]["value"]) == SERVER_SCHEMA
    # Idempotent: a second publish adds nothing.
    assert cli_json("publish", "--repo", a, "--chroma", gate.url)["new"] == 0
    # A new commit published from A is answerable in B once B has it.
    commit(a, "2024-01-05 10:00:00 +0000", "port again", {
        "app.py": "PORT = 7070\n\ndef read_settings(path):\n    return open(path).read()\n"})
    cli("publish", "--repo", a, "--chroma", gate.url)
    git(a, "push", "-q", "origin", "main")
    git(b, "pull", "-q", "--ff-only")
    assert cli_json("ask", "--repo", b, "which port", "--chroma", gate.url)["answer"] == "7070"


def test_facts_through_the_server_equal_the_embedded_store(shared_chroma, clones):
    _, gate = shared_chroma
    a, b = clones
    cli("publish", "--repo", a, "--chroma", gate.url)
    cli("init", "--repo", b, "--no-hooks")
    assert answers(b, "--chroma", gate.url) == answers(b)


def test_server_killed_mid_publish_then_the_next_publish_completes(chroma, clones, monkeypatch):
    server, gate = chroma
    a, b = clones
    # Kill the server at the first write after the view was marked incomplete (records are in).
    marked = []

    def kill_after(body: bytes) -> bool:
        if marked:
            return True
        if b"complete" in body and b"false" in body:
            marked.append(body)
        return False
    gate.kill_after = kill_after
    rc, _, err = cli("publish", "--repo", a, "--chroma", gate.url, check=False)
    assert marked and rc == 1 and "unreachable" in err and "Traceback" not in err
    gate.kill_after = None
    server.start()  # the same data folder
    rc, _, err = cli("facts", "--repo", b, "--chroma", gate.url, check=False)
    assert rc == 1 and "nothing published" in err  # the half-written view is not served
    cli("publish", "--repo", a, "--chroma", gate.url)
    cli("publish", "--repo", a, "--chroma", gate.url, "--name", "clean")
    assert answers(b, "--chroma", gate.url) == answers(b, "--chroma", gate.url, "--name", "clean")
    import chromadb
    c = chromadb.HttpClient(host="127.0.0.1", port=server.port)
    recs = [x.name for x in c.list_collections() if x.name.endswith("_records")]
    assert len(recs) == 2 and all(c.get_collection(n).count() == 4 for n in recs)


def test_publisher_killed_mid_publish_is_completed_by_the_next_run(shared_chroma, clones, monkeypatch):
    _, gate = shared_chroma  # the publisher dies, not the server
    a, b = clones
    env = dict(REPOMEM_CRASH_AT="view:2")  # after the versions were written, before the fold
    monkeypatch.setenv("REPOMEM_CRASH_AT", env["REPOMEM_CRASH_AT"])
    rc, _, _ = cli_proc("publish", "--repo", a, "--chroma", gate.url, check=False)
    assert rc == -signal.SIGKILL
    monkeypatch.delenv("REPOMEM_CRASH_AT")
    cli("publish", "--repo", a, "--chroma", gate.url)
    cli("publish", "--repo", a, "--chroma", gate.url, "--name", "clean")
    assert answers(b, "--chroma", gate.url) == answers(b, "--chroma", gate.url, "--name", "clean")


def test_two_publishers_at_once_never_duplicate(shared_chroma, clones):
    server, gate = shared_chroma
    a, b = clones
    env = dict(os.environ, REPOMEM_CHROMA_URL=gate.url)
    procs = [subprocess.Popen([sys.executable, "-m", "repomem", "publish", "--repo", str(r)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for r in (a, b)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0], [p.stderr.read() for p in procs]
    import chromadb
    c = chromadb.HttpClient(host="127.0.0.1", port=server.port)
    (recs,) = own_collections(server, repo_identity(a), "_records")
    assert c.get_collection(recs).count() == 4
    cli("publish", "--repo", a, "--chroma", gate.url, "--name", "clean")
    assert answers(b, "--chroma", gate.url) == answers(b, "--chroma", gate.url, "--name", "clean")


def test_wrong_token_wrong_url_and_server_down(shared_chroma, clones, monkeypatch, tmp_path):
    _, gate = shared_chroma
    a, _ = clones
    monkeypatch.setenv("REPOMEM_CHROMA_TOKEN", "wrong")
    rc, _, err = cli("publish", "--repo", a, "--chroma", gate.url, check=False)
    assert rc == 1 and "refused the token" in err and "hint:" in err and "wrong" not in err
    monkeypatch.setenv("REPOMEM_CHROMA_TOKEN", TOKEN)
    rc, _, err = cli("ask", "--repo", a, "port", "--chroma", "http://127.0.0.1:1", check=False)
    assert rc == 1 and "unreachable" in err and len(err.strip().splitlines()) == 2
    rc, _, err = cli("facts", "--repo", a, "--chroma", "ftp://example", check=False)
    assert rc == 1 and "not a Chroma server URL" in err
    down = Gate(Server(tmp_path / "never-started"), TOKEN)  # the gate answers, the server not
    try:
        rc, _, err = cli_proc("facts", "--repo", a, "--chroma", down.url, check=False)
    finally:
        down.close()
    assert rc == 1 and "unreachable" in err and "Traceback" not in err


def test_no_origin_needs_a_name(shared_chroma, tmp_path):
    _, gate = shared_chroma
    repo = tmp_path / "solo"
    repo.mkdir()
    history(repo)
    rc, _, err = cli("publish", "--repo", repo, "--chroma", gate.url, check=False)
    assert rc == 1 and "--name" in err
    cli("publish", "--repo", repo, "--chroma", gate.url, "--name", "solo")
    assert cli_json("ask", "--repo", repo, "port", "--chroma", gate.url,
                    "--name", "solo")["answer"] == "9090"


def test_commit_with_hooks_succeeds_while_the_server_is_down(shared_chroma, clones, monkeypatch,
                                                            tmp_path):
    server, shared = shared_chroma
    a, b = clones
    # The repository's own gate: its server goes down (the gate forwards to one never started)
    # and comes back (the gate forwards to the shared one again), as a restarted server would.
    gate = Gate(server, TOKEN)
    try:
        cli("publish", "--repo", a, "--chroma", gate.url)
        cli("hooks", "install", "--repo", a)
        gate.server = Server(tmp_path / "never-started")
        monkeypatch.setenv("REPOMEM_CHROMA_URL", gate.url)
        commit(a, "2024-01-05 10:00:00 +0000", "while down", {
            "app.py": "PORT = 6060\n\ndef read_settings(path):\n    return open(path).read()\n"})
        gate.server = server
        cli("publish", "--repo", a)  # the next run publishes what the hook could not
        git(a, "push", "-q", "origin", "main")
        git(b, "pull", "-q", "--ff-only")
        assert cli_json("ask", "--repo", b, "which port")["answer"] == "6060"
    finally:
        gate.close()


def test_normalised_identity():
    from repomem.storage.remote import normalise_url

    for url in ("git@github.com:Org/Repo.git", "https://github.com/org/repo",
                "ssh://git@GitHub.com/org/repo.git/", "https://user@github.com/Org/Repo.git"):
        assert normalise_url(url) == "github.com/org/repo"


def test_a_branch_view_is_the_published_ledger_plus_its_own_commits(shared_chroma, clones):
    server, gate = shared_chroma
    a, b = clones
    cli("publish", "--repo", a, "--chroma", gate.url)
    git(b, "checkout", "-q", "-b", "feature")
    commit(b, "2024-01-06 10:00:00 +0000", "feature port", {
        "app.py": "PORT = 5050\n\ndef read_settings(path):\n    return open(path).read()\n"})
    _, out, err = cli("ask", "--repo", b, "which port", "--chroma", gate.url, "--json")
    assert json.loads(out)["answer"] == "5050"  # folded locally over the published ledger
    # Nothing of the branch reached the server: the default branch still answers 9090.
    assert cli_json("ask", "--repo", a, "which port", "--chroma", gate.url)["answer"] == "9090"
    import chromadb
    c = chromadb.HttpClient(host="127.0.0.1", port=server.port)
    (recs,) = own_collections(server, repo_identity(a), "_records")
    assert c.get_collection(recs).count() == 4
    git(b, "checkout", "-q", "main")
    assert cli_json("ask", "--repo", b, "which port", "--chroma", gate.url)["answer"] == "9090"


def test_the_hook_worker_on_a_feature_branch_publishes_nothing(shared_chroma, clones, monkeypatch):
    server, gate = shared_chroma
    a, _ = clones
    cli("publish", "--repo", a, "--chroma", gate.url)
    monkeypatch.setenv("REPOMEM_CHROMA_URL", gate.url)  # no hooks installed: no racing worker
    git(a, "checkout", "-q", "-b", "feature")
    commit(a, "2024-01-07 10:00:00 +0000", "feature", {"requirements.txt": "requests==2.33\n"})
    from repomem.integrations import worker
    from repomem.service.repo import Repo
    stats = worker.catch_up(Repo.open(a))  # what the hook's worker does, in this process
    assert stats["new"] == 0
    import chromadb
    c = chromadb.HttpClient(host="127.0.0.1", port=server.port)
    (recs,) = own_collections(server, repo_identity(a), "_records")
    assert c.get_collection(recs).count() == 4
    git(a, "checkout", "-q", "main")
    commit(a, "2024-01-08 10:00:00 +0000", "on main", {"requirements.txt": "requests==2.34\n"})
    assert worker.catch_up(Repo.open(a))["new"] == 1  # the default branch is published


def test_the_mcp_server_answers_from_the_server(shared_chroma, clones):
    pytest.importorskip("mcp.server.mcpserver")
    _, gate = shared_chroma
    a, b = clones
    cli("publish", "--repo", a, "--chroma", gate.url)

    async def script(s):
        return await s.call_tool("ask", {"question": "which port"})
    # `repomem mcp` opens its store itself: --chroma reaches it through the environment.
    res = _mcp_with(b, ["--chroma", gate.url], script)
    assert json.loads(res.content[0].text)["answer"] == "9090"
    assert not (b / ".git" / "repomem").exists()


def _mcp_with(repo, extra, script):
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, cwd=str(ROOT),
                                   args=["-m", "repomem", "mcp", "--repo", str(repo), *extra],
                                   env=dict(os.environ))

    async def main():
        with anyio.fail_after(60):
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await script(session)
    return anyio.run(main)


def test_ask_from_a_current_snapshot_does_not_import_the_chroma_client(shared_chroma, clones):
    _, gate = shared_chroma
    a, b = clones
    cli("publish", "--repo", a, "--chroma", gate.url)
    cli("ask", "--repo", b, "which port", "--chroma", gate.url)  # writes the snapshot
    code = ("import sys; from repomem.cli import main; "
            f"rc = main(['ask', '--repo', {str(b)!r}, 'which port', '--chroma', {gate.url!r}]); "
            "print('chromadb' in sys.modules, rc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip().splitlines()[-1] == "False 0", out.stderr
    assert "9090" in out.stdout


def test_rebuild_on_the_server_keeps_the_ledger(shared_chroma, clones):
    _, gate = shared_chroma
    a, b = clones
    cli("publish", "--repo", a, "--chroma", gate.url)
    before = answers(b, "--chroma", gate.url)
    cli("rebuild", "--repo", a, "--chroma", gate.url, "-q")
    assert answers(b, "--chroma", gate.url) == before
