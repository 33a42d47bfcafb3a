"""Fingerprints are made on demand and looked up by body: what the speed work changed in mining.
Moves are still found (tests/core/test_identity.py, test_lang_history.py); here: that unread
fingerprints cost nothing, that a body seen before is not tokenised again, and that records
sent from a mining worker carry none."""

from __future__ import annotations

import pickle

from repomem.core import identity
from repomem.core.identity import Fingerprint, match_moves
from repomem.core.model import CLASS, FUNCTION
from repomem.miners.lang.walker import MINER as LANG
from repomem.miners.python import MINER as PY

JS = "function load(path) {\n  // read it\n  const raw = read(path, 'utf8');\n  return parse(raw);\n}\n"


def test_js_fingerprint_is_made_only_when_read():
    identity._CACHE.clear()
    (f,) = [f for f in LANG.mine("a.js", JS) if f.kind == FUNCTION]
    assert isinstance(f.fingerprint, Fingerprint) and f.fingerprint._text is None
    assert not identity._CACHE  # nothing tokenised yet
    assert str(f.fingerprint) == "{ const raw = read ( path , 'utf8' ) ; return parse ( raw ) ; }"
    assert len(identity._CACHE) == 1
    # the same body in another file version (a line added above it): looked up, not made
    (g,) = [f for f in LANG.mine("a.js", "const X = 1;\n" + JS) if f.kind == FUNCTION]
    assert g.fingerprint._text == str(f.fingerprint)


def test_python_bodies_are_looked_up_and_classes_deferred():
    identity._CACHE.clear()
    src = "class Store:\n    def load(self, key):\n        return self.db.get(key) or None\n"
    facts = PY.mine("s.py", src)
    (m,) = [f for f in facts if f.kind == FUNCTION]
    (c,) = [f for f in facts if f.kind == CLASS]
    assert m.fingerprint._text == "return self . db . get ( key ) or None"
    assert c.fingerprint._text is None  # a class's fingerprint waits for a move to be looked for
    assert "_SELF_" not in str(c.fingerprint) and "return self . db" in c.fingerprint
    edited = PY.mine("s.py", "X = 1\n" + src)  # the body did not change: found by its hash
    assert len(identity._CACHE) == 1 and [f for f in edited if f.kind == FUNCTION][0].fingerprint == \
        m.fingerprint


def test_a_pickled_fingerprint_is_empty_and_moves_still_match():
    old = [f for f in LANG.mine("a.js", JS) if f.kind == FUNCTION]
    new = [f for f in LANG.mine("b.js", JS.replace("load", "loadFile")) if f.kind == FUNCTION]
    assert match_moves(old, new) == [("a.js::load", "b.js::loadFile")]
    assert pickle.loads(pickle.dumps(old[0])).fingerprint == ""


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(identity, "CACHE_MAX", 10)
    identity._CACHE.clear()
    for i in range(25):
        str(Fingerprint(lambda i=i: f"body {i}", identity.body_key("js", "f", str(i).encode())))
    assert len(identity._CACHE) <= 10
