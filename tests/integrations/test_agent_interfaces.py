"""The MCP server over stdio (a real SDK client against 'python -m repomem mcp') and the
Claude Code UserPromptSubmit hook ('repomem hook claude-code', and the checkout's script that
delegates to it): current values only, as-of on request, never a failure that blocks the agent."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import pytest

import repomem
from repomem.core.model import KINDS
from repomem.service.ingest import ingest
from repomem.service.repo import Repo
from tests.conftest import ROOT, commit

HOOK = ROOT / "hooks" / "claude_code_prompt_context.py"
TOOLS = {"ask", "context", "list_facts", "key_history", "changes_since"}


def _mcp(repo, script, with_init=False):
    """Start the server over stdio, run script(session) inside a ClientSession, return its result
    (with the initialize result first, when asked)."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, cwd=str(ROOT),
                                   args=["-m", "repomem", "mcp", "--repo", str(repo)])

    async def main():
        with anyio.fail_after(60):
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    init = await session.initialize()
                    got = await script(session)
                    return (init, got) if with_init else got

    return anyio.run(main)


def test_mcp_lists_tools_and_answers_current_and_as_of(payments):
    repo, _, shas = payments

    async def script(s):
        tools = (await s.list_tools()).tools
        now = await s.call_tool("ask", {"question": "What port does the payment service listen "
                                                    "on in production?"})
        then = await s.call_tool("ask", {"question": "What port does the payment service listen "
                                                     "on in production?", "as_of": "2026-02-01"})
        # the question's own date is the time asked; an empty question is an error
        named = await s.call_tool("ask", {"question": "On 2026-02-01, what port does the payment "
                                                      "service listen on in production?"})
        empty = await s.call_tool("ask", {"question": " ? "})
        fn = await s.call_tool("ask", {"question": "What is the function that looks up a user "
                                                   "by primary key called now?"})
        hist = await s.call_tool("key_history", {"key": "fetch_user"})
        routes = await s.call_tool("list_facts", {"kind": "route"})
        ctx = await s.call_tool("context", {"question": "user lookup function and its route"})
        since = await s.call_tool("changes_since", {"since": "2026-02-10"})
        bad = await s.call_tool("key_history", {"key": "no_such_thing"})
        # words name no key: an error naming the nearest keys, never another key's history
        words = await s.call_tool("key_history", {"key": "production port"})
        return tools, now, then, fn, hist, routes, ctx, since, bad, named, empty, words

    init, got = _mcp(repo, script, with_init=True)
    tools, now, then, fn, hist, routes, ctx, since, bad, named, empty, words = got
    assert init.server_info.version == repomem.version() != ""
    schemas = {t.name: t.output_schema for t in tools}
    assert schemas["ask"]["$defs"]["Fact"]["properties"]["kind"]["enum"] == list(KINDS)
    assert schemas["context"] is None  # Markdown text, not JSON
    assert {t.name for t in tools} == TOOLS
    for t in tools:
        assert len(t.description) > 80 and t.annotations.read_only_hint
    assert not now.is_error
    top = now.structured_content["facts"][0]
    assert now.structured_content["answer"] == "8080" and top["commit"] == shas[1]
    assert top["path"] == "config/production.toml" and top["valid_from"].startswith("2026-02-10")
    assert then.structured_content["answer"] == "8000"
    assert named.structured_content["answer"] == "8000"
    assert named.structured_content["as_of"].startswith("2026-02-01")
    assert empty.is_error and "the question is empty" in empty.content[0].text
    facts = fn.structured_content["facts"]
    assert fn.structured_content["answer"] == "fetch_user"
    assert "get_user_by_id" not in json.dumps(facts)
    assert [v["value"] for v in hist.structured_content["versions"]] == ["get_user_by_id",
                                                                         "fetch_user"]
    assert "GET /api/v2/users/<int:user_id>" in {f["value"] for f in
                                                 routes.structured_content["facts"]}
    text = ctx.content[0].text
    assert "fetch_user" in text and "get_user_by_id" not in text and "/api/v1/users" not in text
    assert since.structured_content["changes"][0]["to_value"] == "8080"
    assert bad.is_error and "unknown key" in bad.content[0].text
    assert words.is_error and "unknown key" in words.content[0].text
    assert "config:config/production.toml:server.port" in words.content[0].text


def test_mcp_sees_writes_by_another_process(new_repo):
    """A long-lived server and a writer (hook, daemon) on the same store: each call re-checks
    the store's generation, so the next answer reflects the new commit."""
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00+00:00", "cfg", {"app.toml": "[cache]\nttl = 30\n"})
    ingest(Repo.open(repo), all_history=True, progress=False)
    q = {"question": "cache ttl"}

    async def script(s):
        first = await s.call_tool("ask", q)
        commit(repo, "2026-01-02T00:00:00+00:00", "longer ttl",
               {"app.toml": "[cache]\nttl = 90\n"})
        await anyio.to_thread.run_sync(
            lambda: ingest(Repo.open(repo), all_history=True, progress=False))
        second = await s.call_tool("ask", q)
        return first, second

    first, second = _mcp(repo, script)
    assert first.structured_content["answer"] == "30"
    assert second.structured_content["answer"] == "90"


def _hook(event, env=None, script=False):
    """Run the hook as Claude Code does; (exit status, the additionalContext it gave or "")."""
    data = event if isinstance(event, str) else json.dumps(event)
    cmd = [sys.executable, str(HOOK)] if script else [sys.executable, "-m", "repomem", "hook",
                                                      "claude-code"]
    out = subprocess.run(cmd, input=data, capture_output=True, text=True, timeout=60, env=env)
    if not out.stdout:
        return out.returncode, ""
    got = json.loads(out.stdout)["hookSpecificOutput"]
    assert got["hookEventName"] == "UserPromptSubmit"
    return out.returncode, got["additionalContext"]


@pytest.mark.parametrize("script", [False, True])
def test_claude_code_hook_prints_current_values_only(payments, script):
    repo, _, _ = payments
    ev = {"session_id": "s1", "transcript_path": "/dev/null", "cwd": str(repo),
          "hook_event_name": "UserPromptSubmit", "permission_mode": "default",
          "prompt": "rename the function that looks up a user and update its route"}
    rc, text = _hook(ev, script=script)
    assert rc == 0
    assert text.startswith("## Repository facts")
    assert "fetch_user" in text and "/api/v2/users" in text
    assert "get_user_by_id" not in text and "/api/v1/users" not in text
    _, port = _hook(dict(ev, prompt="what port does production listen on?"), script=script)
    assert "`server.port`: `8080` (`config/production.toml`:" in port
    assert "`8000` (`config/production.toml`:" not in port
    assert len(port) // 4 <= 250  # the hook's small token budget


@pytest.mark.parametrize("event", [
    "not json",
    {"prompt": "what port does production use?", "cwd": "/nonexistent/dir"},
    {"prompt": "/clear", "cwd": "."},
    {"prompt": "ok"},
    {"prompt": ["not", "text"]},
])
def test_claude_code_hook_never_fails_the_prompt(event, tmp_path):
    assert _hook(event) == (0, "")


def test_claude_code_hook_without_a_store_prints_nothing(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00+00:00", "x", {"a.toml": "port = 1\n"})
    assert _hook({"prompt": "which port is used?", "cwd": str(repo)}) == (0, "")
    assert not (repo / ".git" / "repomem").exists()  # a hook never creates a store


def test_nothing_to_look_up_is_no_block(payments):
    """"thanks, looks good" gets no block at all, not the facts that happen to rank first."""
    repo, _, _ = payments
    for prompt in ("thanks, looks good", "ok, please continue", "yes do it"):
        assert _hook({"prompt": prompt, "cwd": str(repo)}) == (0, ""), prompt


SNAPSHOT_ONLY = """
import json, sys
from repomem.integrations.claude_code import context_for
text = context_for({"prompt": sys.argv[2], "cwd": sys.argv[1]})
print(json.dumps({"text": text, "chromadb": any(m.startswith("chromadb") for m in sys.modules)}))
"""


def test_the_hook_answers_a_removed_name_from_the_snapshot_alone(new_repo):
    """A prompt naming a dependency that was removed gets its note from the removed facts the
    snapshot keeps: chromadb is never imported on the hook's path, whatever the prompt."""
    repo = new_repo()
    commit(repo, "2026-01-01T00:00:00+00:00", "deps",
           {"requirements.txt": "requests==2.31\ncolorama==0.4\n"})
    commit(repo, "2026-02-01T00:00:00+00:00", "drop colorama", {"requirements.txt": "requests==2.31\n"})
    ingest(Repo.open(repo), all_history=True, progress=False)
    for prompt, said in (("is colorama still a dependency?", "`colorama` is gone"),
                         ("which requests version do we pin?", "`==2.31`"),
                         ("update the requests pin and drop colorama", "`colorama` is gone")):
        out = subprocess.run([sys.executable, "-c", SNAPSHOT_ONLY, str(repo), prompt],
                             capture_output=True, text=True, timeout=60, check=True)
        got = json.loads(out.stdout)
        assert said in got["text"] and not got["chromadb"], (prompt, got)


def test_removed_facts_follow_new_commits():
    from repomem.service.viewcache import patch_removed, removed_rows

    def v(key, valid_to, value="1"):
        return {"key": key, "valid_to": valid_to, "value": value, "text": "x", "spans": []}

    old = removed_rows([v("a", 5), v("a", 9, "2"), v("b", 3), v("live", 4)], live={"live"})
    assert [(x["key"], x["value"]) for x in old] == [("a", "2"), ("b", "1")]
    assert "text" not in old[0] and "spans" not in old[0]
    # a new commit removes c and brings a back
    new = patch_removed(old, [v("c", 12)], live={"live", "a"})
    assert [x["key"] for x in new] == ["c", "b"]
