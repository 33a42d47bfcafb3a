"""Both error rates of the redactor on a labelled set (tests/support/secrets_labelled.py): secrets it
must hide, and look-alikes it must leave readable -- a password field's min_length, DRF's
keyword "Token", a token bucket in a docstring.  Each case is mined as the file it is, through
mine_file (the redactor runs on the whole blob, then on every fact)."""

from __future__ import annotations

import sys

from repomem.miners import mine_file
from tests.support.secrets_labelled import LOOK_ALIKES, SECRETS

MAX_MISSED = 0  # a secret in clear text is never acceptable
MAX_REDACTED = 2  # look-alikes hidden: an agent loses a value (tracked, lowered over time)


def shown(path: str, text: str) -> str:
    """Everything the facts of a file show."""
    out = []
    for f in mine_file(path, text.encode()):
        out += [f.value, f.text, f.purpose, f.subject, *(v for _, v in f.attrs)]
    return "\n".join(out)


def test_the_labelled_set_is_big_enough():
    assert len(SECRETS) >= 40 and len(LOOK_ALIKES) >= 40


def test_both_error_rates():
    missed = [(p, s) for p, t, s in SECRETS if s in shown(p, t)]
    redacted = [(p, s) for p, t, s in LOOK_ALIKES if s not in shown(p, t)]
    print(f"\nsecrets left in clear text: {len(missed)}/{len(SECRETS)} "
          f"({len(missed) / len(SECRETS):.1%}); look-alikes redacted: "
          f"{len(redacted)}/{len(LOOK_ALIKES)} ({len(redacted) / len(LOOK_ALIKES):.1%})",
          file=sys.__stdout__)
    for p, s in missed + redacted:
        print(f"  {'missed' if (p, s) in missed else 'redacted'}: {p}: {s}", file=sys.__stdout__)
    assert len(missed) <= MAX_MISSED and len(redacted) <= MAX_REDACTED, (missed, redacted)
