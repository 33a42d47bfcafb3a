"""A fact that several files state alike (a sample's initial/ and complete/ folders) is answered
once, naming the other files (`same_in`), so that its copies do not take the places of other
facts (query.ask, service/copies.py)."""

from __future__ import annotations

import json
import subprocess
import sys

from repomem.service.query import ask
from tests.conftest import indexed

APP = '''PORT = 8080
HOST = "0.0.0.0"


def serve(port=PORT):
    """Start the server on PORT."""
    return port
'''
CONFIG = 'SERVER_PORT = {port}\nSERVER_NAME = "api"\n'


def _repo(new_repo, other_port=8080):
    files = {f"{d}/app/server.py": APP for d in ("initial", "complete", "extra")}
    files["complete/app/config.py"] = CONFIG.format(port=8080)
    files["initial/app/config.py"] = CONFIG.format(port=other_port)
    return indexed(new_repo(), ("2024-03-01T10:00:00Z", files))


def test_copies_are_one_fact_naming_the_other_files(new_repo):
    r = _repo(new_repo)
    res = ask(r, "Which port does the server start on?", k=3)
    facts = res["facts"]
    sigs = [(f["kind"], f["subject"].split(" in ")[0], f["value"]) for f in facts]
    assert len(facts) == 3 and len(set(sigs)) == 3, sigs  # three different things
    port = next(f for f in facts if f["subject"].startswith("PORT in "))
    # (the copies among the candidates ranked: twice k of them)
    everywhere = {f"{d}/app/server.py" for d in ("initial", "complete", "extra")}
    others = {c["path"] for c in port["same_in"]}
    assert others and others <= everywhere - {port["path"]}, port
    assert all(c["line"] == 1 and c["key"] != port["key"] for c in port["same_in"])
    serve = next((f for f in facts if f["kind"] == "function"), None)
    assert serve is None or serve.get("same_in"), serve


def test_the_same_name_with_another_value_is_no_copy(new_repo):
    r = _repo(new_repo, other_port=9090)
    facts = ask(r, "What is SERVER_PORT?", k=5)["facts"]
    ports = [f for f in facts if f["subject"].startswith("SERVER_PORT in ")]
    assert sorted(f["value"] for f in ports) == ["8080", "9090"], facts
    assert not any(f.get("same_in") for f in ports)


def test_the_cli_and_the_json_name_the_copies(new_repo):
    r = _repo(new_repo)
    cli = [sys.executable, "-m", "repomem", "ask", "--repo", str(r.root),
           "Which port does the server start on?"]
    text = subprocess.run(cli, capture_output=True, text=True, check=True).stdout
    assert "same in `" in text and "/app/server.py`:1" in text, text
    data = json.loads(subprocess.run(cli + ["--json"], capture_output=True, text=True,
                                     check=True).stdout)
    assert any(f.get("same_in") for f in data["facts"]), data
