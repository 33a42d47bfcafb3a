"""The lines every agent-facing output is made of: a fact, a note on a retired name, a stale
mention.  Each is repomem's own fixed words with every mined string -- subject, value, path,
source text, commit subject, author -- passed through :func:`repomem.core.render.code`, so no
caller can put a repository's text at the start of a line or outside a code span (see that
module for the rules)."""

from __future__ import annotations

from repomem.core.render import TEXT_MAX, code, plain


def _short(sha: object) -> str:
    return plain(sha, 10)[:10] if sha else "?"


def _day(iso: object) -> str:
    return plain(iso or "", 10)[:10] or "?"


def value_note(f: dict) -> str:
    """What follows a fact's value: the value of the constant it names (``DEFAULT_MAX_REDIRECTS``
    (= ``20`` in ``httpx/_config.py``)); a setting read from the environment names its variable
    (``None`` (environment variable ``MAIL_SERVER`` overrides), not "the mail server is None"); a
    variable's own read says its value is the default; one computed by code says so; one set
    under an ``if`` or ``try`` of the module says that too."""
    note = _value_note(f)
    if (f.get("attrs") or {}).get("conditional"):
        note += " (set under a condition)"
    return note


def _value_note(f: dict) -> str:
    refers = f.get("refers")
    if refers:
        where = "" if refers["path"] == f["path"] else f" in {code(refers['path'])}"
        return f" (= {code(refers['value'])}{where})"
    attrs = f.get("attrs") or {}
    if attrs.get("read"):  # the variable's own read: its subject names it already
        from repomem.core.envreads import NO_DEFAULT  # its patterns cost a cold ask ~4 ms otherwise

        value = f.get("value")
        return "" if value in NO_DEFAULT else " (empty by default)" if value == "" else " (its default)"
    if attrs.get("env"):
        return f" (environment variable {code(attrs['env'])} overrides)"
    if attrs.get("expression"):
        return " (computed when the settings load)"
    return ""


def lineage_line(note: dict) -> str:
    """The one sentence that names a retired name, for an answer whose question used it."""
    when = f"in {_short(note['commit'])} on {_day(note['date'])}"
    if note["now"] is None:
        was = f" (it was {code(note['was'])})" if note["was"] != note["name"] else ""
        return f"{code(note['name'])} is gone: {code(note['subject'])} was removed {when}{was}"
    verb = "renamed" if note["key"].startswith("function:") else "changed"
    return f"{code(note['name'])} is now {code(note['now'])}, {verb} {when}"


_SAYS = {"set": "sets {setting} to {value}", "default": "defaults {setting} to {value}",
         "exposes": "exposes port {value}", "publishes": "publishes port {value}",
         "listens": "says the app's port is {value}"}


def disagree_lines(f: dict, indent: str) -> list[str]:
    """One line per other file that states another value of the same setting
    (``disagrees_with``, service/disagree.py): where, what it says, and its commit."""
    out = []
    for d in f.get("disagrees_with") or ():
        says = _SAYS.get(d["says"], "says {value}").format(setting=code(d["setting"]),
                                                          value=code(d["value"]))
        out.append(f"{indent}disagrees: {code(d['path'])}:{int(d.get('line') or 0)} {says} "
                   f"(commit {_short(d.get('commit'))}, {_day(d.get('valid_from'))})")
    return out


def same_in_line(f: dict, indent: str, shown: int = 6) -> list[str]:
    """The other files that state the fact alike (``same_in``, service/copies.py): the first
    SHOWN of them, and how many more."""
    copies = f.get("same_in") or ()
    if not copies:
        return []
    named = ", ".join(f"{code(x['path'])}:{int(x.get('line') or 0)}" for x in copies[:shown])
    more = f" and {len(copies) - shown} more" if len(copies) > shown else ""
    return [f"{indent}same in {named}{more}"]


def fact_lines(f: dict, uncommitted: bool = False) -> list[str]:
    """A fact for an agent's context: one bullet (subject, value, provenance) and one line of
    its source text, both of fixed shape."""
    where = f"{code(f['path'])}:{int(f.get('line') or 0)}"
    if uncommitted:
        prov = f"{where}, UNCOMMITTED edit (file modified {plain(f.get('modified', '?'), 40)})"
    else:
        prov = f"{where}, commit {_short(f.get('commit'))}, {_day(f.get('valid_from'))}"
    lines = [f"- {code(f['subject'])}: {code(f['value'])}{value_note(f)} ({prov})"]
    text = "\n".join((f.get("text") or "").splitlines()[:4]).strip()
    if text:
        lines.append(f"  source: {code(text, TEXT_MAX)}")
    return lines + same_in_line(f, "  ") + disagree_lines(f, "  ")


def answer_lines(f: dict, first: bool) -> list[str]:
    """A fact as ``repomem ask`` prints it: the answer, its provenance, and what the question
    asked for beside it (first seen, reached, adopted, the change, the value before)."""
    mark = "=>" if first else "  "
    lines = [f"{mark} {code(f['subject'])}: {code(f['value'])}{value_note(f)}",
             f"   {code(f['path'])}:{int(f.get('line') or 0)}  commit {_short(f['commit'])}  "
             f"since {plain(f['valid_from'] or '?', 40)}", *same_in_line(f, "   "),
             *disagree_lines(f, "   ")]
    if f.get("first_seen"):  # "when was h2 added?"
        first_seen = f["first_seen"]
        lines.append(f"   first seen {plain(first_seen['date'], 40)}  commit "
                     f"{_short(first_seen['commit'])}  as {code(first_seen['value'])}")
    if f.get("reached"):  # "when was wagtail upgraded to 7?"
        got = f["reached"]
        came = f"from {code(got['from'])}" if got["from"] is not None else "its first version"
        lines.append(f"   reached {code(got['version'])} on {plain(got['date'], 40)}  commit "
                     f"{_short(got['commit'])}  as {code(got['value'])}  ({came})")
    if f.get("adopted"):  # "when did click switch to flit?"
        took = f["adopted"]
        came = f"from {code(took['from'])}" if took["from"] is not None else "its first version"
        lines.append(f"   adopted {code(took['name'])} on {plain(took['date'], 40)}  commit "
                     f"{_short(took['commit'])}  as {code(took['value'])}  ({came})")
    if f.get("change"):  # "why was the timeout changed?", "who added X?"
        ch = f["change"]
        where = "" if ch["commit"] == f["commit"] else \
            f" in {_short(ch['commit'])} on {_day(ch['date'])}"
        lines.append(f"   by {code(ch['author'])}{where}: {code(ch['subject'])}")
    if f.get("previous"):  # "what was the previous version of body-parser?"
        was = f["previous"]
        lines.append(f"   previously {code(was['value'])}  from {plain(was['date'], 40)}  commit "
                     f"{_short(was['commit'])}  until {plain(was['until'], 40)}")
    return lines


def stale_line(f: dict) -> str:
    """A stale mention as ``repomem check`` prints it."""
    now = f"now {code(f['current_value'])}" if f["current_value"] is not None else "since removed"
    return (f"{code(f['path'])}:{int(f['line'])}: {code(f['mention'])} is stale: "
            f"{code(f['subject'])} was {code(f['stale_value'])}, {now} (changed in "
            f"{_short(f['changed_in'])} on {_day(f['changed_at'])})")
