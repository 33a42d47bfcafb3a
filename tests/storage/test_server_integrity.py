"""The team server's view is bound to its repository and checked, against a real `chroma run`
(the Server and Gate of test_server.py): another history cannot publish over it, a bad,
deleted or emptied view is an error naming the collection and the repair command, never an
exit 3 or an empty answer, and the next `publish` repairs it."""

from __future__ import annotations

import json
import shutil

import chromadb

from tests.conftest import cli, cli_json, commit, git
from tests.storage.test_server import clones  # noqa: F401  (a fixture)

# The tests share the session's server (shared_chroma, tests/conftest.py): each publishes
# under a name of its own.
NAME = "team/victim"


def one_line(rc, out, err, *texts):
    lines = err.strip().splitlines()
    assert rc == 1 and "Traceback" not in err and "internal error" not in err, (rc, err)
    assert len(lines) == 2 and lines[0].startswith("repomem: error: "), err
    assert all(t in lines[0] for t in texts) and lines[1].startswith("hint: "), err


def fresh(repo):
    """A reader with no cached snapshot (as a fresh clone is)."""
    shutil.rmtree(repo / ".git" / "repomem-server", ignore_errors=True)
    return repo


def server_client(server):
    return chromadb.HttpClient(host="127.0.0.1", port=server.port)


def versions_collection(server, name: str) -> str:
    stem = "rm-" + name.replace("/", "-")
    return next(c.name for c in server_client(server).list_collections()
                if c.name.startswith(stem + "-") and c.name.endswith("_versions"))


def test_another_repository_cannot_publish_over_yours(shared_chroma, clones, tmp_path):  # noqa: F811
    _, gate = shared_chroma
    a, b = clones
    srv = ["--chroma", gate.url, "--name", f"{NAME}-over"]
    assert cli_json("publish", "--repo", a, *srv)["new"] == 4
    other = tmp_path / "attacker"
    other.mkdir()
    git(other, "init", "-q", "-b", "main")
    commit(other, "2024-02-01 10:00:00 +0000", "x", {"app.py": "PORT = 6666\n"})
    commit(other, "2024-02-02 10:00:00 +0000", "y", {"app.py": "PORT = 6667\n"})
    one_line(*cli("publish", "--repo", other, *srv, check=False), "another repository's history")
    # the victim's readers still answer their own history
    assert cli_json("ask", "--repo", fresh(b), "which port", *srv)["answer"] == "9090"
    # and a reader of the other history is told, not answered with the victim's facts
    one_line(*cli("ask", "--repo", other, "which port", *srv, check=False),
             "is not this repository's")


def test_invalid_rows_are_named_and_publish_repairs_them(shared_chroma, clones):  # noqa: F811
    server, gate = shared_chroma
    a, b = clones
    name = f"{NAME}-rows"
    srv = ["--chroma", gate.url, "--name", name]
    cli("publish", "--repo", a, *srv)
    col = server_client(server).get_collection(versions_collection(server, name))
    got = col.get(limit=5, include=["metadatas"])
    col.update(ids=got["ids"], metadatas=[dict(m, valid_from="not-a-date")
                                          for m in got["metadatas"]])
    for args in (["ask", "which port"], ["context", "which port"], ["facts"]):
        one_line(*cli(*args, "--repo", fresh(b), *srv, check=False),
                 versions_collection(server, name), "invalid row", "valid_from")
    rc, out, err = cli("publish", "--repo", a, *srv)
    assert "repaired the published view" in out and "valid_from" in out
    assert cli_json("ask", "--repo", fresh(b), "which port", *srv)["answer"] == "9090"
    assert "repaired" not in cli("publish", "--repo", a, *srv)[1]  # once repaired, stays so


def test_a_deleted_or_emptied_view_is_named_and_publish_repairs_it(shared_chroma, clones):  # noqa: F811
    server, gate = shared_chroma
    a, b = clones
    srv = ["--chroma", gate.url, "--name", f"{NAME}-view"]
    total = cli_json("publish", "--repo", a, *srv)["versions"]
    name = versions_collection(server, f"{NAME}-view")
    server_client(server).delete_collection(name)
    one_line(*cli("ask", "--repo", fresh(b), "which port", *srv, check=False), name, "missing")
    one_line(*cli("facts", "--repo", fresh(b), *srv, check=False), name, "missing")
    out = cli_json("publish", "--repo", a, *srv)
    assert out["repaired"] and out["versions"] == total
    assert cli_json("ask", "--repo", fresh(b), "which port", *srv)["answer"] == "9090"
    col = server_client(server).get_collection(name)  # emptied, not deleted
    col.delete(ids=col.get(include=[])["ids"])
    one_line(*cli("ask", "--repo", fresh(b), "which port", *srv, check=False), name,
             f"holds 0 of the {total}")
    assert cli_json("publish", "--repo", a, *srv)["repaired"]
    assert json.loads(cli("ask", "--repo", fresh(b), "which port", *srv, "--json")[1])[
        "answer"] == "9090"
