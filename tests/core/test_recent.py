"""The memo of a pure function of a file's text (repomem.core.recent)."""

from __future__ import annotations

from repomem.core.recent import recent


def test_a_text_is_worked_on_once_and_only_the_last_few_small_ones_are_kept():
    calls: list[tuple] = []

    @recent(size=2, max_chars=10)
    def shout(text: str, times: int = 1) -> str:
        calls.append((text, times))
        return text.upper() * times

    assert shout("pom") == shout("pom") == "POM"
    assert shout("pom", times=2) == "POMPOM"  # other arguments: another result
    assert calls == [("pom", 1), ("pom", 2)]
    shout("gradle")  # a third text: the oldest ("pom", 1) is dropped
    assert len(shout.memo) == 2  # type: ignore[attr-defined]
    shout("pom")
    assert calls[-1] == ("pom", 1)
    big = "x" * 11  # over max_chars: computed every time, never kept
    shout(big), shout(big)
    assert calls.count((big, 1)) == 2 and all(k[0] != big for k in shout.memo)  # type: ignore[attr-defined]
