"""Find credential-shaped spans in text: detect-secrets' regex plugins plus repomem's own rules.

The rule set is detect-secrets' (a maintained set of provider formats: AWS, GitHub, GitLab,
Slack, Stripe, Discord, JWT, private keys, ...) plus the rules in ``data/secret_rules.toml``
(shapes the plugins miss or match too narrowly) plus two structural rules written here: the
password of a URL (which may itself contain ``@`` or ``/``) and secret-named query parameters.

Ingestion is hot (every blob of every commit), so each rule carries lower-case keywords, one of
which must occur in the text for the rule to run; a blob with none of them costs one ``in`` test
per keyword.  detect-secrets scans line by line with every plugin; here each regex runs once over
the whole blob, and only when its prefilter passes.  Pure: no I/O after import.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import math
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from repomem.core.tokens import uncamel

# Prefilter keywords for detect-secrets' plugins, by class name.  A plugin not listed here (a
# newer detect-secrets may add some) runs on every blob.  IPPublicDetector is left out: a public
# IP address in a config is a setting people ask about, not a credential.
_PLUGIN_KEYWORDS = {
    "AWSKeyDetector": ["a3t", "abia", "acca", "akia", "asia", "aws"],
    "ArtifactoryDetector": ["artifactory", "jfrog", "akc"],
    "AzureStorageKeyDetector": ["accountkey"],
    "BasicAuthDetector": ["://"],
    "CloudantDetector": ["cloudant"],
    "GitHubTokenDetector": ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    "GitLabTokenDetector": ["glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "gr1348941",
                            "glcbt-", "glimt-", "glptt-", "glagent-", "gloas-"],
    "IbmCloudIamDetector": ["ibm", "iam"],
    "IbmCosHmacDetector": ["ibm", "hmac"],
    "JwtTokenDetector": ["eyj"],
    "MailchimpDetector": ["-us"],
    "NpmDetector": ["_authtoken"],
    "OpenAIDetector": ["t3blbkfj"],
    "PrivateKeyDetector": ["private key"],
    "PypiTokenDetector": ["pypi-"],
    "SendGridDetector": ["sg."],
    "SlackDetector": ["xox", "hooks.slack.com"],
    "SoftlayerDetector": ["softlayer"],
    "SquareOAuthDetector": ["sq0csp-"],
    "StripeDetector": ["k_live_"],
}
_SKIP_PLUGINS = {"IPPublicDetector"}


@dataclass
class Rule:
    id: str
    pattern: str
    flags: int = 0
    keywords: tuple[str, ...] = ()
    group: int | None = None  # None: the longest group that is not a prefix, else the match
    check: str = ""
    _rx: re.Pattern | None = None

    @property
    def regex(self) -> re.Pattern:
        # compiled on first use: most rules' keywords never occur, and compiling all of them
        # would be most of the import time
        if self._rx is None:
            self._rx = re.compile(self.pattern, self.flags)
        return self._rx


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


_WORD = re.compile(r"[A-Z][a-z]{2,}|[a-z]{4,}")


def wordy(s: str) -> bool:
    """Mostly made of words (``TestSomethingVeryLongName12345``, ``module.attribute_name``):
    an identifier, not a key.  In random base62 text a run of 4 lower-case letters is rare."""
    return sum(len(w) for w in _WORD.findall(s)) >= 0.6 * len(s)


def alphabet(s: str) -> bool:
    """Mostly runs of consecutive characters (``ABC...XYZabc...xyz0123456789-._~``, httpx's
    unreserved characters): a character set written out, as high in entropy as a key is."""
    steps = sum(ord(b) - ord(a) == 1 for a, b in zip(s, s[1:]))
    return steps >= 0.7 * (len(s) - 1)


def random_looking(s: str) -> bool:
    """A generic credential: mixed case and digits, high entropy, not made of words nor an
    alphabet written out."""
    return not wordy(s) and (sum(c.isdigit() for c in s) >= 2 and re.search(r"[a-z]", s) is not None
            and re.search(r"[A-Z]", s) is not None and _entropy(s) >= 4.0) and not alphabet(s)


def _hex_token(s: str) -> bool:
    # a digest-sized run of hex with both letters and digits (not a row of zeros or a word)
    return sum(c.isdigit() for c in s) >= 4 and sum(c.isalpha() for c in s) >= 4 \
        and _entropy(s) >= 3.0


def _aws_secret(s: str) -> bool:
    # 40 base64 characters, mixed case with a digit, entropy of random text (a camel-case
    # identifier of that length scores about 4.3, an AWS secret access key about 4.6+)
    return re.search(r"[0-9]", s) is not None and re.search(r"[a-z]", s) is not None \
        and re.search(r"[A-Z]", s) is not None and _entropy(s) >= 4.5 and not wordy(s)


_CHECKS = {"aws-secret": _aws_secret, "hex": _hex_token, "": lambda s: True}


def live_plugin_patterns() -> list[dict]:
    """detect-secrets' regex plugins as data: ``{"plugin", "pattern", "flags"}`` each."""
    import inspect
    import pkgutil

    import detect_secrets.plugins as plugins
    from detect_secrets.plugins.base import RegexBasedDetector

    out = []
    for info in sorted(pkgutil.iter_modules(plugins.__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"detect_secrets.plugins.{info.name}")
        for name, cls in inspect.getmembers(mod, inspect.isclass):
            if (not issubclass(cls, RegexBasedDetector) or cls is RegexBasedDetector
                    or cls.__module__ != mod.__name__ or name in _SKIP_PLUGINS):
                continue
            out += [{"plugin": name, "pattern": rx.pattern, "flags": int(rx.flags)}
                    for rx in cls.denylist]  # type: ignore[attr-defined]  # stubs: a property; subclasses set a list
    return out


_DATA = Path(__file__).resolve().parents[1] / "data"
_SNAPSHOT = _DATA / "detect_secrets_rules.json"


def _plugin_rules() -> list[Rule]:
    """Importing detect-secrets costs 0.1-0.4 s (it pulls in requests), paid by every hook run,
    so its patterns are kept in a snapshot for the installed version; another version is read
    live (and tests/core/test_secret_scan.py says to refresh the snapshot: ``python -m
    repomem.core.secret_scan``)."""
    try:
        installed = _installed_version()
        snap = json.loads(_SNAPSHOT.read_text("utf-8"))
    except (ImportError, OSError, ValueError):
        installed, snap = None, {}
    fresh = installed is not None and snap.get("detect_secrets") == installed
    pats = snap["patterns"] if fresh else live_plugin_patterns()
    return [Rule(f"detect-secrets:{p['plugin']}", p["pattern"], p["flags"],
                 tuple(_PLUGIN_KEYWORDS.get(p["plugin"], ()))) for p in pats]


def _installed_version() -> str:
    """detect-secrets' version from its dist-info folder name (importing importlib.metadata
    alone costs ~80 ms)."""
    spec = importlib.util.find_spec("detect_secrets")
    if spec and spec.origin:
        found = sorted(Path(spec.origin).parent.parent.glob("detect_secrets-*.dist-info"))
        if len(found) == 1:
            return found[0].name[len("detect_secrets-"):-len(".dist-info")]
    from importlib import metadata

    return metadata.version("detect-secrets")


def _data_rules() -> list[Rule]:
    text = (_DATA / "secret_rules.toml").read_text("utf-8")
    return [Rule(r["id"], r["regex"], 0, tuple(r.get("keywords", ())), r.get("group"),
                 r.get("check", "")) for r in tomllib.loads(text)["rule"]]


# -- setting names that say their value is a credential (secrets.py redacts such settings) --
_SECRET_WORDS = {"password", "passwd", "pwd", "pass", "passphrase", "secret", "secrets", "token",
                 "tokens", "credential", "credentials", "creds", "dsn", "auth", "apikey"}
# compounds found inside one run-together word as well (DBPASSWORD, apiKey, PRIVATEKEY)
_SECRET_JOINED = ("password", "passwd", "apikey", "privatekey", "accesskey", "clientsecret",
                  "secretkey", "signingkey", "encryptionkey", "masterkey", "authtoken")
# words saying the setting is *about* the secret, not the secret itself
_SAFE_WORDS = {"ttl", "timeout", "expiry", "expires", "expire", "expiration", "lifetime", "age",
               "length", "len", "size", "url", "uri", "endpoint", "host", "port", "enabled",
               "enable", "disabled", "required", "type", "header", "file", "path", "dir", "name",
               "user", "username", "count", "limit", "max", "min", "algorithm", "method", "mode",
               "prefix", "field", "param", "provider", "backend", "scheme", "version", "format",
               "policy", "interval", "duration", "retries", "seconds", "minutes", "hours", "days",
               "ms", "validation", "regex", "pattern", "hint", "label", "env", "var", "class",
               "template", "hosts", "validator", "validators", "hasher", "hashers"}
def _words(name: str) -> list[str]:
    name = uncamel(name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", name.lower()) if w]


@functools.lru_cache(maxsize=65536)
def secret_name(name: str) -> bool:
    """True when a setting/constant name says its value is a credential."""
    ws = _words(name)
    if not ws or any(w in _SAFE_WORDS for w in ws):
        return False
    joined = "".join(ws)
    return any(w in _SECRET_WORDS for w in ws) or any(c in joined for c in _SECRET_JOINED)


# user:password@ in a URL.  The password runs up to the *last* '@' before the host, so one that
# contains '@' or '/' is caught whole; the host must be followed by a port, a path or the end.
_URL_PASSWORD = re.compile(
    r"""://[^\s:/@"'<>]*:(?P<pw>[^\s"'<>`]+)@"""
    r"""(?=[A-Za-z0-9.\[\]-]+(?::[0-9]+)?(?:[/?#\s"'<>`,;)\\]|$))""", re.M)
_PORT_PATH = re.compile(r"[0-9]{1,5}(?:/|$)")
_QUERY = re.compile(r"""[?&;](?P<name>[A-Za-z_][A-Za-z0-9_.-]*)=(?P<val>[^&\s"'#<>`]+)""")
_QUERY_NAMES = {"key", "sig", "signature", "apikey", "api_key", "access_token", "code_verifier"}

RULES: list[Rule] = _data_rules() + _plugin_rules()
_BY_KEYWORD: dict[str, list[int]] = {}
for _i, _r in enumerate(RULES):
    for _k in _r.keywords:
        _BY_KEYWORD.setdefault(_k, []).append(_i)
_KEYWORDS = tuple(_BY_KEYWORD)
_ALWAYS = [r for r in RULES if not r.keywords]
_ALWAYS_MIN = 30  # tests/core/test_secret_scan.py checks that no such rule matches anything shorter
_RUN = re.compile(r"[A-Za-z0-9+/_.:=-]{%d,}" % _ALWAYS_MIN)  # every such match lies in one


def _span(m: re.Match, group: int | None) -> tuple[int, int]:
    if group is not None:
        return m.span(group)
    groups = [i for i in range(1, (m.re.groups or 0) + 1)
              if m.group(i) and m.start(i) > m.start() and m.end(i) - m.start(i) >= 4]
    if groups:  # a context regex (``aws ... key = "<secret>"``): the group is the secret
        return m.span(max(groups, key=lambda i: m.end(i) - m.start(i)))
    a, b = m.span()
    text = m.string
    while a < b and text[a] in " \t\r\n\"'=:":  # plugins that match their delimiters
        a += 1
    while b > a and text[b - 1] in " \t\r\n\"'":
        b -= 1
    return a, b


def _run(rule: Rule, text: str, skip, spans: list, pos: int = 0, endpos: int | None = None) -> None:
    check = _CHECKS.get(rule.check, _CHECKS[""])
    for m in rule.regex.finditer(text, pos, len(text) if endpos is None else endpos):
        a, b = _span(m, rule.group)
        # a rule with no literal prefix (Discord, Telegram, 40-char keys) must not take an
        # identifier or a dotted name for a token
        if b > a and check(text[a:b]) and not (skip and skip(text[a:b])) \
                and (rule.keywords or not wordy(text[a:b])):
            spans.append((a, b))


# Keywords found in each line of text seen lately.  No keyword holds a line break, so the
# keywords of a text are the union of its lines': a file version shares most lines with the
# version before it, and testing ~50 keywords against every line of every version was a third
# of redaction time.
_LINES: dict[str, tuple[str, ...]] = {}
_LINES_MAX = 200_000
_BY_LINE = not any("\n" in k for k in _KEYWORDS)
_LINE_MIN = 1000  # shorter texts (a fact's value or text) are tested whole


def _present(low: str):
    if len(low) < _LINE_MIN or not _BY_LINE:
        return [k for k in _KEYWORDS if k in low]
    found: set[str] = set()
    for line in low.split("\n"):
        hit = _LINES.get(line)
        if hit is None:
            hit = tuple(k for k in _KEYWORDS if k in line)
            if len(_LINES) >= _LINES_MAX:
                _LINES.clear()
            _LINES[line] = hit
        if hit:
            found.update(hit)
    return found


_RUNS: dict[str, tuple[tuple[int, int], ...]] = {}


def token_runs(text: str) -> list[tuple[int, int]]:
    """The spans of ``_RUN`` in text.  A run never holds a line break, so they are found line
    by line, each line's (relative) runs cached like its keywords: a line shorter than a run
    needs no search at all."""
    if len(text) < _LINE_MIN:
        return [m.span() for m in _RUN.finditer(text)] if len(text) >= _ALWAYS_MIN else []
    out, pos = [], 0
    for line in text.split("\n"):
        if len(line) >= _ALWAYS_MIN:
            hit = _RUNS.get(line)
            if hit is None:
                hit = tuple(m.span() for m in _RUN.finditer(line))
                if len(_RUNS) >= _LINES_MAX:
                    _RUNS.clear()
                _RUNS[line] = hit
            out += [(pos + a, pos + b) for a, b in hit]
        pos += len(line) + 1
    return out


def scan(text: str, lowered: str | None = None, skip=None,
         runs: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Sorted, non-overlapping ``(start, end)`` spans of credentials in ``text``.

    ``skip(value)`` vetoes a match (a placeholder); ``runs``: the spans of ``_RUN`` in ``text``
    when the caller has them already."""
    low = lowered if lowered is not None else text.lower()
    spans: list[tuple[int, int]] = []
    # each keyword is tested once, not once per rule; most texts have none of them
    active = {i for k in _present(low) for i in _BY_KEYWORD[k]}
    for i in sorted(active) if active else ():
        _run(RULES[i], text, skip, spans)
    if len(text) >= _ALWAYS_MIN:
        # rules without keywords all match a run of 30+ token characters: find the runs first
        # (one cheap pass) and try those rules only there
        for a, b in runs if runs is not None else token_runs(text):
            for rule in _ALWAYS:
                _run(rule, text, skip, spans, a, b)
    if "://" in text:
        for m in _URL_PASSWORD.finditer(text):
            if _PORT_PATH.match(m.group("pw")):  # host:8080/path@v1.2 is a port, not a password
                continue
            if not (skip and skip(m.group("pw"))):
                spans.append(m.span("pw"))
    if "=" in text and ("?" in text or "&" in text):
        for m in _QUERY.finditer(text):
            name = m.group("name")
            if (secret_name(name) or name.lower() in _QUERY_NAMES) and not (skip and skip(m.group("val"))):
                spans.append(m.span("val"))
    return merge(spans)


def merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


if __name__ == "__main__":  # refresh the snapshot of detect-secrets' patterns
    _SNAPSHOT.write_text(json.dumps({
        "source": "detect-secrets (Yelp, Apache-2.0): RegexBasedDetector.denylist of each plugin",
        "detect_secrets": _installed_version(),
        "patterns": live_plugin_patterns()}, indent=1) + "\n")
    print(f"wrote {_SNAPSHOT}")
