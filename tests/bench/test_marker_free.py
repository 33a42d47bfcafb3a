"""The benchmark scenarios are marker-free: no file, commit message or question carries a word
that tells which state of a fact is the later one (see sample_repos/scenarios/suite.py)."""

from __future__ import annotations

import re

import pytest

from repomem.service import samples
from tests.conftest import ROOT

SUITE = samples.load(samples.SAMPLES_DIR / "scenarios" / "suite.py")
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def _texts(scn):
    for _, message, files in scn["commits"]:
        yield "commit message", message
        for path, text in files.items():
            if path == "revert":
                continue
            yield path, path
            if text is not None:
                yield path, text
    for q in scn["questions"]:
        yield "question", q["question"]


def _violations(text: str) -> set[str]:
    words = {w.lower() for w in _WORD.findall(text)} | {
        w.lower() for w in re.findall(r"[A-Za-z0-9]+", text)}
    low = " ".join(re.findall(r"[a-z0-9]+", text.lower()))
    bad = {w for w in SUITE.FORBIDDEN if " " not in w and w in words}
    bad |= {p for p in SUITE.FORBIDDEN if " " in p and f" {p} " in f" {low} "}
    return bad


@pytest.mark.parametrize("variant", [("base", False), ("many", False), ("base", True)],
                         ids=["base", "many-versions", "noise"])
def test_no_temporal_markers(variant):
    found = []
    for scn in SUITE.scenarios(variant[0], noise=variant[1]):
        for where, text in _texts(scn):
            bad = _violations(text)
            if bad:
                found.append(f"{scn['name']} {where}: {sorted(bad)}")
    assert not found, "\n".join(found[:20])


def test_checker_catches_markers():
    assert _violations("PORT_OLD = 1") == {"old"}
    assert _violations("def getLatestUser(): pass") == {"latest"}
    assert _violations("this is no longer used") >= {"no longer"}
    assert not _violations("port = 8080  # billing")


def test_suite_shape():
    base = SUITE.scenarios("base")
    assert len(base) >= 40
    families = {}
    for s in base:
        families.setdefault(s["family"], []).append(s["name"])
    assert len(families) >= 12 and all(len(v) >= 2 for v in families.values()), families
    assert len({s["name"] for s in base}) == len(base)
    assert set(SUITE.QUICK) <= {s["name"] for s in base}
    for s in base:
        for q in s["questions"]:
            assert q["answer"] is None or q["answer"] not in q["stale"]
            assert q["as_of"] and all(d[:4].isdigit() for d, _ in q["as_of"])
    # versions go down as well as up: no "bigger is the later one" cue
    pins = [q for s in base if s["family"] == "dependency pin" for q in s["questions"]]
    assert any(max(q["stale"]) > q["answer"] for q in pins)
    many = SUITE.scenarios("many")
    for s in many:
        for q in s["questions"]:
            if s["family"] != "scoped pair" or q["stale"]:
                assert len(q["stale"]) >= 10, (s["name"], q["question"])


# ------------------------------------------------------------- the real-history benchmark

_REAL = sorted((ROOT / "bench" / "realrepos").glob("*.json"))
_CODE_SPAN = re.compile(r"`[^`]*`")


def _real_questions():
    import json

    return [q for f in _REAL for q in json.loads(f.read_text())]


def test_real_questions_are_marker_free():
    """The same rule for bench/realrepos, outside `code spans`: an identifier such as
    `get_current_context` is a name, not a cue (and the generator's list is this one, extended)."""
    from bench.realtruth import phrasing

    assert set(SUITE.FORBIDDEN) <= set(phrasing.FORBIDDEN)
    qs = _real_questions()
    assert qs, "no question files in bench/realrepos"
    bad = [(q["id"], q["question"], sorted(_violations(_CODE_SPAN.sub(" ", q["question"]))))
           for q in qs if _violations(_CODE_SPAN.sub(" ", q["question"]))]
    assert not bad, bad[:10]
    assert _violations(_CODE_SPAN.sub(" ", "What is `get_current_context` for?")) == set()
    assert _violations(_CODE_SPAN.sub(" ", "What is the latest `x`?")) == {"latest"}


def test_real_function_questions_do_not_name_the_function():
    """Asked by purpose: the question paraphrases the docstring and never names the answer."""
    for q in _real_questions():
        if q["family"] == "function":
            name = q["expect"]["value"]
            assert not re.search(rf"\b{re.escape(name)}\b", q["question"]), q["question"]
