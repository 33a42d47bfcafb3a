import random

import pytest

from repomem.core.identity import match_moves
from repomem.core.model import FUNCTION
from repomem.miners.python import MINER


def fn(path: str, src: str):
    """The single FUNCTION fact mined from ``src`` -- real fingerprints, not hand-written ones."""
    facts = [f for f in MINER.mine(path, src) if f.kind == FUNCTION]
    assert len(facts) == 1
    return facts[0]


BODY = """
    total = 0
    for item in items:
        if item.price > limit:
            total += item.price * rate
    return round(total, 2)
"""


def test_rename_identical_body():
    old = fn("a.py", "def sum_prices(items, limit, rate):" + BODY)
    new = fn("a.py", "def total_price(items, limit, rate):" + BODY)
    assert match_moves([old], [new]) == [("a.py::sum_prices", "a.py::total_price")]


def test_rename_with_small_edit():
    old = fn("a.py", "def sum_prices(items, limit, rate):" + BODY)
    new = fn("a.py", "def total_price(items, limit, rate):" + BODY.replace("round(total, 2)", "round(total, 3)"))
    assert match_moves([old], [new]) == [("a.py::sum_prices", "a.py::total_price")]


@pytest.mark.parametrize("new_path,new_src", [
    ("lib/b.py", "def sum_prices(items, limit, rate):" + BODY),
    ("lib/b.py", "class Cart:\n    def sum_prices(items, limit, rate):" + BODY.replace("\n    ", "\n        ")),
])
def test_moved_to_another_file_or_class(new_path, new_src):
    old = fn("a.py", "def sum_prices(items, limit, rate):" + BODY)
    new = fn(new_path, new_src)
    assert match_moves([old], [new]) == [("a.py::sum_prices", new.anchor)]


def test_unrelated_functions_not_matched():
    old = fn("a.py", "def sum_prices(items, limit, rate):" + BODY)
    new = fn("a.py", "def parse(text):\n    parts = text.split(',')\n"
                     "    return {p.strip(): len(p) for p in parts if p}\n")
    assert match_moves([old], [new]) == []


def test_recursion_survives_rename():
    src = "def {}(n):\n    if n <= 1:\n        return 1\n    return n * {}(n - 1)\n"
    old = fn("m.py", src.format("fact", "fact"))
    new = fn("m.py", src.format("factorial", "factorial"))
    assert old.fingerprint == new.fingerprint
    assert match_moves([old], [new]) == [("m.py::fact", "m.py::factorial")]


@pytest.mark.parametrize("body", ["pass", "return None", "raise NotImplementedError"])
def test_short_trivial_bodies_ambiguous_not_matched(body):
    removed = [fn("a.py", f"def a1():\n    {body}\n"), fn("a.py", f"def a2():\n    {body}\n")]
    added = [fn("b.py", f"def b1():\n    {body}\n")]
    assert match_moves(removed, added) == []
    assert match_moves(added, removed) == []


def test_short_body_unique_identical_matched_but_not_similar():
    old = fn("a.py", "def get_port():\n    return 8080\n")
    same = fn("b.py", "def port():\n    return 8080\n")
    other = fn("b.py", "def port():\n    return 8081\n")
    assert match_moves([old], [same]) == [("a.py::get_port", "b.py::port")]
    assert match_moves([old], [other]) == []


def test_one_to_one_best_first():
    a = fn("a.py", "def a(items, limit, rate):" + BODY)
    b = fn("a.py", "def b(items, limit, rate):" + BODY.replace("2)", "4)").replace("rate", "r2"))
    exact = fn("n.py", "def exact(items, limit, rate):" + BODY)
    near = fn("n.py", "def near(items, limit, rate):" + BODY.replace("2)", "4)").replace("rate", "r2"))
    assert match_moves([a, b], [near, exact]) == [("a.py::a", "n.py::exact"), ("a.py::b", "n.py::near")]


def test_deterministic_regardless_of_order():
    removed = [fn("a.py", f"def f{i}(items, limit, rate):" + BODY) for i in range(4)]
    added = [fn("b.py", f"def g{i}(items, limit, rate):" + BODY) for i in range(3)]
    expected = match_moves(removed, added)
    assert len(expected) == 3
    rng = random.Random(7)
    for _ in range(10):
        rng.shuffle(removed)
        rng.shuffle(added)
        assert match_moves(removed, added) == expected
    # identical bodies tie: anchors break the tie, so the lowest-sorting names pair up
    assert expected == [("a.py::f0", "b.py::g0"), ("a.py::f1", "b.py::g1"), ("a.py::f2", "b.py::g2")]


def test_empty_inputs():
    f = fn("a.py", "def f(items, limit, rate):" + BODY)
    assert match_moves([], []) == []
    assert match_moves([f], []) == []
    assert match_moves([], [f]) == []


def test_hundred_by_hundred_all_matched():
    rng = random.Random(1)
    words = [f"v{i}" for i in range(40)] + ["(", ")", "=", "+", ".", "return", "if", ":"]

    def body():
        return " ".join(rng.choice(words) for _ in range(rng.randint(30, 300)))

    from repomem.core.model import Fact

    def fact(anchor, fp):
        return Fact(key="function", kind=FUNCTION, subject="", value="", path="", line=1, text="",
                    purpose="", anchor=anchor, fingerprint=fp)

    bodies = [body() for _ in range(100)]
    removed = [fact(f"a.py::f{i}", b) for i, b in enumerate(bodies)]
    added = [fact(f"b.py::g{i}", b + " x") for i, b in enumerate(bodies)]
    pairs = match_moves(removed, added)  # speed is a benchmark's business, not a test's
    assert sorted(pairs) == sorted((f"a.py::f{i}", f"b.py::g{i}") for i in range(100))


TWO_CLASSES = '''class {a}:
    def __enter__(self):
        return self

    def open(self):
        if self._f is None:
            self._f = open(self.name, self.mode, encoding=self.encoding)
        return self._f


class {b}:
    def __enter__(self):
        return self
'''


def test_a_method_follows_its_class():
    """click renamed KeepOpenFile and LazyFile to _KeepOpenFile and _LazyFile in one commit: both
    ``__enter__`` are ``return self``, too short and too alike to match by body, so both were
    retired and born again.  Their classes' moves (and the longer methods' own) say where each
    went; the method of the same name and body there is the same method."""
    def funcs(src):
        return [f for f in MINER.mine("u.py", src) if f.kind == FUNCTION]

    old = funcs(TWO_CLASSES.format(a="LazyFile", b="KeepOpenFile"))
    new = funcs(TWO_CLASSES.format(a="_LazyFile", b="_KeepOpenFile"))
    # without the classes' moves: open matched by body says where LazyFile went, and its
    # __enter__ follows; KeepOpenFile's short __enter__ alone says nothing
    assert match_moves(old, new) == [("u.py::LazyFile.__enter__", "u.py::_LazyFile.__enter__"),
                                     ("u.py::LazyFile.open", "u.py::_LazyFile.open")]
    classes = [("u.py::class KeepOpenFile", "u.py::class _KeepOpenFile"),
               ("u.py::class LazyFile", "u.py::class _LazyFile")]
    assert match_moves(old, new, owners=classes) == [
        ("u.py::KeepOpenFile.__enter__", "u.py::_KeepOpenFile.__enter__"),
        ("u.py::LazyFile.__enter__", "u.py::_LazyFile.__enter__"),
        ("u.py::LazyFile.open", "u.py::_LazyFile.open")]
    # a method whose body changed as well does not follow on its name alone
    edited = funcs(TWO_CLASSES.format(a="_LazyFile", b="_KeepOpenFile").replace(
        "        return self\n\n    def open", "        self.opened = True\n        return self\n\n    def open"))
    assert ("u.py::LazyFile.__enter__", "u.py::_LazyFile.__enter__") not in match_moves(old, edited, owners=classes)


def test_a_renamed_classs_methods_keep_their_history(new_repo):
    """The same through the commit miner and the ledger: one history for _KeepOpenFile.__enter__."""
    from repomem.service.query import history
    from tests.conftest import indexed

    r = indexed(new_repo(), ("2024-01-01T10:00:00Z", {"u.py": TWO_CLASSES.format(a="LazyFile", b="KeepOpenFile")}),
                ("2024-02-01T10:00:00Z", {"u.py": TWO_CLASSES.format(a="_LazyFile", b="_KeepOpenFile")}))
    got = history(r, "_KeepOpenFile.__enter__")["versions"]
    assert [(v["subject"], v["end_reason"]) for v in got] == [
        ("method KeepOpenFile.__enter__", "superseded"), ("method _KeepOpenFile.__enter__", None)]


LOCK = """
    with transaction.atomic():
        check = Check.objects.select_for_update().get(code=code)
        check.status = "deleted"
        check.save()
    notify(check, "deleted")
"""
RENAME = """
    with transaction.atomic():
        check = Check.objects.select_for_update().get(code=code)
        check.name = f"{check.name} (deleted)"
        check.status = "deleted"
        check.save(update_fields=["name", "status"])
        log.info("renamed %s", check.code)
    notify(check, "deleted", previous=code)
"""


def test_a_rename_with_an_edited_body_is_linked_in_its_own_file_and_class():
    """healthchecks' lock_and_delete -> rename_and_delete, its body edited in the same commit:
    too different to link anywhere (under THRESHOLD), but it stayed in its file, where it is the
    one function removed and the one added; in another file it would be two functions."""
    from difflib import SequenceMatcher

    from repomem.core.identity import SAME_PLACE_THRESHOLD, THRESHOLD, _tokens

    old = fn("hc/api/models.py", "def lock_and_delete(code):" + LOCK)
    new = fn("hc/api/models.py", "def rename_and_delete(code):" + RENAME)
    score = SequenceMatcher(None, _tokens(old), _tokens(new), autojunk=False).ratio()
    assert SAME_PLACE_THRESHOLD <= score < THRESHOLD
    assert match_moves([old], [new]) == [("hc/api/models.py::lock_and_delete",
                                          "hc/api/models.py::rename_and_delete")]
    elsewhere = fn("hc/front/views.py", "def rename_and_delete(code):" + RENAME)
    assert match_moves([old], [elsewhere]) == []
    method = fn("hc/api/models.py", "class Check:\n    def rename_and_delete(code):" +
                RENAME.replace("\n    ", "\n        "))
    assert match_moves([old], [method]) == []  # a module function is no method of a class
    other = fn("hc/api/models.py", "def purge(code):" + RENAME)
    assert match_moves([old], [other]) == []  # a rename keeps a word of the name


REWRITE = """
    if not items:
        return 0
    return sum(price_of(item, rate) for item in items if item.price > limit)
"""


def test_a_function_moved_and_rewritten_keeps_its_name():
    """Moved to another file with its body rewritten: too different to link by body, but the
    one function of its qualified name removed and the one added.  Never guessed when the name
    is not unique on either side, nor across language families."""
    old = fn("shop/cart.py", "def sum_prices(items, limit, rate):" + BODY)
    new = fn("shop/pricing.py", "def sum_prices(items, limit, rate):" + REWRITE)
    assert match_moves([old], [new]) == [("shop/cart.py::sum_prices", "shop/pricing.py::sum_prices")]
    twin = fn("shop/tax.py", "def sum_prices(items, limit, rate):" + REWRITE.replace("price_of", "tax_of"))
    assert match_moves([old], [new, twin]) == []
    other = fn("shop/orders.py", "def sum_prices(items, limit, rate):" + BODY.replace("total", "acc"))
    assert match_moves([old, other], [new]) == []
    method = fn("shop/pricing.py", "class Cart:\n    def sum_prices(items, limit, rate):" +
                REWRITE.replace("\n    ", "\n        "))
    assert match_moves([old], [method]) == []  # a module function is no method of a class
