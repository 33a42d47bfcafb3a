"""The recipes of docs/extending.md, exercised: a plugin that lives outside the package
(tests/miners/plugin_example/repomem_toy: a language through a query file of its own, a file format, an
embedder) is installed the way pip installs one -- its folder on the path with a dist-info whose
entry points name its miners and embedder -- and a real git history is indexed and asked."""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from tests.conftest import ROOT, cli, commit, git

PLUGIN = ROOT / "tests" / "miners" / "plugin_example" / "repomem_toy"
ENTRY_POINTS = """\
[repomem.miners]
starlark = repomem_toy:STARLARK_MINER
kv = repomem_toy:KV_MINER

[repomem.embedders]
letters = repomem_toy:letters
"""

DEFS = '''\
# Build rules of the service.
GO_VERSION = "{go}"

# Builds the service binary with the pinned toolchain.
def {name}(name, srcs):
    native.genrule(name = name, srcs = srcs, cmd = "go build -o $@ $(SRCS)")
    return name
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """The plugin installed into a site folder of its own; repomem's registries as they were
    afterwards (other tests must not see its miners)."""
    import repomem.miners
    from repomem.adapters import embed

    site = tmp_path / "site"
    shutil.copytree(PLUGIN, site / "repomem_toy")
    info = site / "repomem_toy-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: repomem-toy\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(repomem.miners, "_MINERS", None)  # the registry is built again
    monkeypatch.setattr(embed, "EMBEDDERS", dict(embed.EMBEDDERS))
    yield
    monkeypatch.setattr(repomem.miners, "_MINERS", None)
    sys.modules.pop("repomem_toy", None)


def test_a_plugin_from_outside_adds_a_language_a_format_and_an_embedder(plugin, tmp_path):
    from repomem.miners import all_miners

    assert {"starlark", "kv"} <= {m.name for m in all_miners()}
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "2026-01-05T10:00:00+00:00", "build rules", {
        "build/defs.bzl": DEFS.format(go="1.21", name="service_binary"),
        "deploy/app.kv": "# the web tier\nreplicas: 2\nregion: eu-west-1\n"})
    commit(repo, "2026-02-10T10:00:00+00:00", "toolchain", {
        "build/defs.bzl": DEFS.format(go="1.22", name="go_service"),
        "deploy/app.kv": "# the web tier\nreplicas: 3\nregion: eu-west-1\n"})
    commit(repo, "2026-03-01T10:00:00+00:00", "a broken file keeps its facts", {
        "deploy/app.kv": "replicas 4\n"})
    cli("init", "--repo", repo, "--embedder", "letters", "--no-hooks", "-q")

    _, out, _ = cli("ask", "what go version does the build use?", "--repo", repo, "--json")
    top = json.loads(out)["facts"][0]
    assert (top["key"], top["value"]) == ("constant:build/defs.bzl:GO_VERSION", "1.22")
    _, out, _ = cli("ask", "how many replicas does the app run?", "--repo", repo, "--json")
    assert json.loads(out)["answer"] == "3"  # the broken third version kept the second's facts
    _, out, _ = cli("ask", "how many replicas does the app run?", "--as-of", "2026-01-31",
                    "--repo", repo, "--json")
    assert json.loads(out)["answer"] == "2"
    # the language's functions are facts too: the one of HEAD, with the comment above as purpose
    _, out, _ = cli("facts", "--kind", "function", "--repo", repo, "--json")
    [fn] = json.loads(out)["facts"]
    assert (fn["value"], fn["path"]) == ("go_service", "build/defs.bzl")
    assert "pinned toolchain" in fn["purpose"]
    # the store records the plugin's embedder, and a later process finds it by that name
    _, out, _ = cli("facts", "--kind", "config", "--repo", repo, "--json")
    assert {f["key"] for f in json.loads(out)["facts"]} >= {"config:deploy/app.kv:replicas",
                                                             "config:deploy/app.kv:region"}
    rc, _, err = cli("ask", "replicas", "--repo", repo, check=False)
    assert rc == 0, err
