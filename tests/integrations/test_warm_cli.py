"""`repomem ask` and `repomem context` through a running warm answerer (real answerer process,
real command-line processes): the same bytes and exit status as the command's own answer,
hostile values included; what the answerer must not answer (an as-of question, a client whose
settings differ, a server store) is answered by the command itself, with the answerer's count
unchanged; the warm command's process imports no numpy."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.integrations.test_agent_output_injection import PROMPTS, TAG
from tests.integrations.test_warm_answerer import hostile, served, start, stop, store_of

__all__ = ["hostile"]  # (the module-scoped fixture, shared with the answerer's own tests)


def run(repo, *args: str, warm: bool, **env) -> tuple[int, bytes, bytes]:
    """(exit status, stdout, stderr) of a fresh ``python -m repomem`` process, as bytes."""
    e = dict(os.environ, REPOMEM_ANSWERER="1" if warm else "0", **env)
    p = subprocess.run([sys.executable, "-m", "repomem", *args, "--repo", str(repo)],
                       capture_output=True, env=e, timeout=120, cwd="/")
    return p.returncode, p.stdout, p.stderr


def asked_now(got: tuple[int, bytes, bytes]) -> tuple[int, bytes, bytes]:
    """GOT with the time --json says it was asked at (a current question's "as_of": now, to
    the second) left out: the one part of two answers asked a moment apart that may differ."""
    rc, out, err = got
    return rc, re.sub(rb'\n  "as_of": "[^"]*",\n', b"\n", out, count=1), err


def test_warm_ask_and_context_print_the_cold_bytes(hostile):
    """Questions (hostile values among the facts), as text and --json, and context blocks at
    two budgets: warm and cold print the same bytes; each warm one was the answerer's."""
    store = store_of(hostile)
    proc = start(store, hostile)
    try:
        calls = [("ask", p) for p in PROMPTS[:3]] + [
            ("ask", "what port does the app listen on?", "--json"),
            ("ask", "what port does the app listen on?", "-k", "2"),
            ("ask", "what is the zzzz quux frobnicator?"),  # nothing matches
            ("context", PROMPTS[0]), ("context", "what port does the app listen on?",
                                      "--budget", "60")]
        for args in calls:
            before = served(store)
            warm = run(hostile, *args, warm=True)
            assert served(store) == before + 1, args  # the answerer's answer
            cold = run(hostile, *args, warm=False)
            assert asked_now(warm) == asked_now(cold), args
            assert warm[0] == 0
        assert any(TAG.encode() in run(hostile, "ask", p, warm=True)[1] for p in PROMPTS[:3])
    finally:
        stop(proc)


def test_what_the_answerer_declines_is_answered_by_the_command(hostile):
    """An as-of question reads the store of record: the answerer declines it (no chromadb in
    it) and the command answers; a client whose ranking settings differ from the answerer's is
    not answered by it; a bad argument is the command's own one-line error."""
    store = store_of(hostile)
    proc = start(store, hostile)
    try:
        n = served(store)
        for args, env in ((("ask", "what port does the app listen on?", "--as-of",
                            "2026-01-15"), {}),
                          (("ask", "what port does the app listen on?"),
                           {"REPOMEM_RANK_WEIGHTS": "fitted"}),
                          (("context", "what port?", "--budget", "0"), {})):
            warm, cold = run(hostile, *args, warm=True, **env), run(hostile, *args, warm=False,
                                                                     **env)
            assert warm == cold, args
        assert b"8000" in run(hostile, "ask", "what port does the app listen on?", "--as-of",
                              "2026-01-15", warm=True)[1]
        assert cold[0] == 1 and b"--budget" in cold[2]
        from repomem.integrations import answerer

        status = answerer.request(store, "status")
        assert served(store) == n and not status["chromadb_loaded"]
    finally:
        stop(proc)


def test_the_warm_command_imports_no_numpy(hostile):
    """With an answerer up, ``repomem ask`` loads neither numpy nor chromadb nor the service
    layer's query code: a connection, not an interpreter's worth of imports."""
    store = store_of(hostile)
    proc = start(store, hostile)
    try:
        code = ("import sys\nfrom repomem.cli import main\n"
                f"rc = main(['ask', 'what port does the app listen on?', '--repo', {str(hostile)!r}])\n"
                "print(rc, sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'chromadb')"
                " or m in ('repomem.service.query', 'repomem.service.rank')))\n")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=dict(os.environ, REPOMEM_ANSWERER="1"), timeout=60).stdout
        block, loaded = out.rstrip("\n").rsplit("\n", 1)
        assert "8080" in block
        assert loaded == "0 []"
    finally:
        stop(proc)
