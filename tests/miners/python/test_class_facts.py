"""Class facts: a class's name is its value and its identity survives a rename or a move, as a
function's does, on a real git history."""

from __future__ import annotations

import textwrap

from repomem.core.model import CLASS
from repomem.miners.python import MINER
from repomem.service.ingest import ingest
from repomem.service.query import facts, history
from repomem.service.repo import Repo
from tests.conftest import commit


def classes(src, path="pkg/mod.py"):
    return {f.subject: f for f in MINER.mine(path, textwrap.dedent(src)) if f.kind == CLASS}


def test_class_fields_and_nesting():
    got = classes('''
        import dataclasses

        @dataclasses.dataclass
        class UserRecord(Base, metaclass=Meta):
            """A stored user."""
            name: str = "x"

            class Inner:
                pass

            def greet(self):
                return UserRecord(self.name)
        ''')
    assert set(got) == {"class UserRecord", "class UserRecord.Inner"}
    c = got["class UserRecord"]
    assert (c.key, c.value, c.line, c.anchor) == ("class", "UserRecord", 5, "pkg/mod.py::class UserRecord")
    assert c.text == "@dataclasses.dataclass\nclass UserRecord(Base, metaclass=Meta):"
    assert c.attrs == (("bases", "Base, metaclass=Meta"), ("location", "pkg/mod.py"))
    assert c.purpose == "A stored user."
    # the body, not the name: the class's own name is _SELF_, the method's fingerprint is in it
    assert "_SELF_" in c.fingerprint and "UserRecord" not in c.fingerprint
    assert "name : str" not in c.fingerprint and 'name: str = "x"' in c.fingerprint
    assert got["class UserRecord.Inner"].purpose == "inner"


BODY = '''\
class {name}:
    """Keeps {what} in memory."""
    limit = 100

    def __init__(self):
        self.items = {{}}

    def put(self, key, value):
        if len(self.items) >= self.limit:
            self.items.pop(next(iter(self.items)))
        self.items[key] = value

    def get(self, key):
        return self.items.get(key)
'''


def test_bases_on_several_lines_read_as_on_one():
    """click's ``class _NumberRangeBase(\\n    _NumberParamTypeBase[...],\\n    t.Generic[...],\\n):``
    has the bases it would have on one line: no edge spaces, no trailing comma, no comment."""
    got = classes('''
        class Range(
            Base[T, U],  # numbers
            t.Generic[T],
        ):
            pass
        ''')
    assert dict(got["class Range"].attrs)["bases"] == "Base[T, U], t.Generic[T]"


def test_renamed_and_moved_class_keeps_its_key(new_repo):
    repo = new_repo()
    commit(repo, "2026-01-05T10:00:00+00:00", "cache", {"app/cache.py": BODY.format(name="MemoryCache", what="values")})
    c2 = commit(repo, "2026-02-05T10:00:00+00:00", "rename and move", {
        "app/cache.py": None, "app/store/lru.py": BODY.format(name="LRUStore", what="entries")})
    r = Repo.open(repo)
    ingest(r, all_history=True, progress=False)
    now = [f for f in facts(r, kind="class")["facts"]]
    assert [(f["value"], f["path"], f["commit"]) for f in now] == [("LRUStore", "app/store/lru.py", c2)]
    versions = history(r, "LRUStore")["versions"]
    assert [(v["value"], v["end_reason"]) for v in versions] == [
        ("MemoryCache", "superseded"), ("LRUStore", None)]
    assert history(r, now[0]["key"])["versions"] == versions
    # the methods moved with it and kept their identities too
    funcs = {f["value"]: f for f in facts(r, kind="function")["facts"]}
    assert len(history(r, funcs["put"]["key"])["versions"]) == 2
