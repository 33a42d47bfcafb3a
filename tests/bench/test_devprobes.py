"""bench/realtruth/devprobes.py: rewordings of training questions, never of held-out ones, and
never of a fact the caller holds out; a held-out repository is refused."""

from __future__ import annotations

from bench.realtruth import devprobes, phrasing


def _q(question, value, split, as_of=None, dep="urllib3"):
    return {"id": "x", "repo": "tiny", "family": "dependency", "question": question,
            "as_of": as_of, "split": split, "absent": False, "stale_values": [],
            "evidence": {}, "expect": {"value": value, "subject": dep,
                                       "path": "pyproject.toml", "kinds": ["dependency"]}}


def test_rewordings_are_training_only_and_skip_held_out_facts():
    bench = [_q("Which version of urllib3 does tiny require?", ">=2", "train"),
             _q("On 2024-01-02, which version of certifi does tiny require?", ">=1", "train",
                "2024-01-02", "certifi"),
             _q("Which version of idna does tiny require?", ">=3", "train", dep="idna"),
             _q("What is tiny's requirement for idna?", ">=3", "held-out", dep="idna")]
    held = {devprobes._fact(q) for q in bench if q["split"] != "train"}
    texts = {q["question"] for q in bench}
    got = devprobes.reword(bench, held, texts)
    assert {q["expect"]["subject"] for q in got} == {"urllib3", "certifi"}
    for q in got:
        assert q["split"] == "train"
        assert q["question"] not in {b["question"] for b in bench}
        assert q["expect"]["subject"] in ("urllib3", "certifi")  # idna is asked held-out
        if q["expect"]["subject"] == "certifi":
            assert q["question"].startswith("On 2024-01-02, ") and q["as_of"] == "2024-01-02"


def test_held_out_repository_is_refused(tmp_path):
    assert devprobes.main(["--out", str(tmp_path), "--repo", phrasing.HELD_OUT[0]]) == 2
    assert not list(tmp_path.iterdir())
