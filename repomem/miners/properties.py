"""Java ``.properties`` files (Spring's ``application*.properties``, ``gradle.properties``, the
Gradle wrapper's ``gradle-wrapper.properties``...): one setting per property, keyed by the file
and the property as written, ``config:<path>:<property>``, like every other settings file's
(config.py), so ``application-dev.properties`` and ``application.properties`` never supersede
each other.

Read with ``javaproperties`` (the format's escapes, ``:`` and whitespace separators, ``\\``
continuations, ``#``/``!`` comments); each entry's line is counted from its source text.  A
comment right above an entry (or on its line, for the few who write one) is its purpose.
Translation bundles (``messages_fr.properties``, ``Labels_pt_BR.properties``, files under an
``i18n/`` folder) are text, not settings, and are skipped.
"""

from __future__ import annotations

import re

from repomem.core.model import Fact, file_setting
from repomem.core.recent import recent
from repomem.miners._base import MAX_FACTS_PER_FILE, MineError, too_many
from repomem.miners._pysource import MAX_TEXT_LINES
from repomem.miners._text import comment_for, path_words, words

_SKIP_DIRS = {"node_modules", "target", "build", "fixtures", "testdata", "test_data", ".gradle"}
_PARTS = re.compile(r"[.\[\]]")
# translation bundles: Spring's "messages" basename, a language_COUNTRY suffix, an i18n folder
# (a bare _xx suffix is no sign: application_db.properties)
_BUNDLE = re.compile(r"^(?:messages|ValidationMessages)(?:_[\w-]+)?\.properties$|_[a-z]{2,3}_[A-Z]{2}\.properties$")
_BUNDLE_DIRS = {"i18n", "l10n", "locale", "locales", "lang", "translations"}


def parse(text: str) -> list[tuple[str, str, int, int]]:
    """(key, value, first line, last line) of each entry, in file order."""
    return list(_parsed(text))


# one file is often mined at several paths in one commit (the Gradle wrapper's properties of a
# project kept twice; repomem.core.recent)
@recent(size=8, max_chars=65_536)
def _parsed(text: str) -> list[tuple[str, str, int, int]]:
    return _parse(text)


def _parse(text: str) -> list[tuple[str, str, int, int]]:
    import javaproperties

    out = []
    line = 1
    try:
        for item in javaproperties.parse(text):
            rows = item.source.count("\n") or 1
            if isinstance(item, javaproperties.KeyValue):
                out.append((item.key, item.value, line, line + rows - 1))
            line += item.source.count("\n") if item.source.endswith("\n") else rows
    except ValueError as e:  # javaproperties' InvalidUEscapeError (a bad \\uXXXX) is one
        raise MineError(f"properties: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    return out


class PropertiesMiner:
    name = "properties"

    def accepts(self, path: str) -> bool:
        parts = path.split("/")
        return parts[-1].endswith(".properties") and not _BUNDLE.search(parts[-1]) \
            and not _SKIP_DIRS.intersection(parts[:-1]) and not _BUNDLE_DIRS.intersection(parts[:-1])

    def mine(self, path: str, text: str) -> list[Fact]:
        entries = parse(text)
        if len(entries) > MAX_FACTS_PER_FILE:
            raise too_many(len(entries), "settings")
        lines = text.splitlines()
        facts: dict[str, Fact] = {}  # a repeated key: the last one wins, as java.util.Properties
        where = path_words(path)
        for key, value, first, last in entries:
            if not key:
                continue
            purpose = f"{words(*_PARTS.split(key))} ({where})"
            comment = comment_for(lines, first, "#!")
            if comment:
                purpose += f": {comment}"
            text_rows = "\n".join(lines[first - 1:min(last, first + MAX_TEXT_LINES - 1)])
            facts[key] = file_setting(path, key, value, first, text_rows, purpose)
        return list(facts.values())


MINER = PropertiesMiner()
