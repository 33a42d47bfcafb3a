"""The rule set: detect-secrets' plugins (snapshot kept in step with the installed version), the
repomem rules, the structural URL/query rules, and blob redaction that keeps line numbers."""

from __future__ import annotations

import json
import re

import pytest

from repomem.core import secret_scan
from repomem.core.secrets import redact_blob, redact_text

TOKEN = re.compile(r"<redacted:[0-9a-f]{6}>")


def test_detect_secrets_snapshot_matches_installed_plugins():
    snap = json.loads(secret_scan._SNAPSHOT.read_text())
    assert snap["detect_secrets"] == secret_scan._installed_version(), \
        "refresh the snapshot: python -m repomem.core.secret_scan"
    assert snap["patterns"] == secret_scan.live_plugin_patterns()
    plugins = {p["plugin"] for p in snap["patterns"]}
    assert {"SlackDetector", "GitLabTokenDetector", "StripeDetector", "AWSKeyDetector",
            "DiscordBotTokenDetector", "PrivateKeyDetector"} <= plugins
    assert "IPPublicDetector" not in plugins


def test_rules_without_keywords_match_only_long_runs():
    # scan() tries keyword-less rules only inside runs of _RUN characters of _ALWAYS_MIN or more
    samples = ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "3f9a1c7e5b2d4f608a1b9c3d7e5f1a2b",
               "MTA4NjQ0ODk5NzIzNTk4NjU2OA.GxYz12.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab",
               "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq", "AC" + "a1" * 16, "SK" + "b2" * 16]
    hits = 0
    for rule in secret_scan._ALWAYS:
        for text in samples + ["x" * 5 + "Ab1" * 20]:
            for m in rule.regex.finditer(text):
                hits += 1
                run = secret_scan._RUN.search(text, m.start())
                assert run and run.start() <= m.start() and m.end() <= run.end(), rule.id
    assert hits >= len(samples)


@pytest.mark.parametrize("text,secret", [
    ("notify = https://hooks.slack.com/services/T000/B000/XXXXsecretXXXXyyyy", "XXXXsecretXXXXyyyy"),
    ("x = glpat-Ab3dEf6hIj9kLm2nOp5q", "Ab3dEf6hIj9kLm2nOp5q"),
    ("k: sk_live_4eC39HqLyj", "4eC39HqLyj"),
    ("k: key-3ax6xnjp29jd6fds4gc373sgvjxteol0", "3ax6xnjp29jd6fds4gc373sgvjxteol0"),
    ("v = 3f9a1c7e5b2d4f608a1b9c3d7e5f1a2b", "3f9a1c7e5b2d4f608a1b9c3d7e5f1a2b"),
    ("v = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "bPxRfiCYEXAMPLEKEY"),
    ("redis://:p@ss/w0rd@cache:6379/0", "w0rd"),
    ("postgres://u:p@ss@db/app", "p@ss"),
    ("https://x.example.com/cb?user=bob&password=Qz7hunter42&x=1", "Qz7hunter42"),
    ("MTA4NjQ0ODk5NzIzNTk4NjU2OA.GxYz12.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab", "GxYz12"),
])
def test_shapes_under_neutral_names(text, secret):
    out = redact_text(text)
    assert secret not in out and TOKEN.search(out)


@pytest.mark.parametrize("text", [
    "https://localhost:3000/jqueryui@1.2.3", "aws-requests-auth==0.4.3",
    "see https://example.com/docs and git sha 8e5e7e5ab8b370d6c329ec480221332ada57f0ab",
    "DB_PASSWORD: changeme", "postgres://app:changeme@db/app", "TEMPLATE = 'base/basic_auth.html'",
    "class TestSomethingVeryLongCamelCaseName12345(Base):",
])
def test_ordinary_text_untouched(text):
    assert redact_text(text) == text


def test_blob_keeps_lines_and_python_syntax():
    pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7xyz\n-----END RSA PRIVATE KEY-----"
    src = (f'KEY = """{pem}"""\n\ndef f(password):\n    """Uses sk_live_4eC39HqLyj."""\n'
           '    token = get_token(password)\n    return call(password="Tr0ub4dor&3x", t=token)\n')
    out = redact_blob(src, code=True)
    assert out.count("\n") == src.count("\n")
    assert "MIIEp" not in out and "4eC39HqLyj" not in out and "Tr0ub4dor" not in out
    assert "token = get_token(password)" in out  # code is not a value
    compile(out, "x.py", "exec")


def test_blob_redacts_every_occurrence_of_a_found_secret():
    out = redact_blob("DB_PASSWORD=hunter2!x  # prod pw is hunter2!x\n")
    assert "hunter2!x" not in out and out.count("<redacted:") == 2


def test_blob_secret_that_is_a_name_is_replaced_only_where_found():
    # (a plain word as the value, "bcrypt", is no secret at all: a short word names a kind)
    src = ('import bcrypt4x\n\nADMIN_PASSWORD = "bcrypt4x"\n\n\ndef h(x):\n'
           '    return bcrypt4x.hash(x)\n')
    out = redact_blob(src, code=True)
    assert out.startswith("import bcrypt4x\n") and "bcrypt4x.hash(x)" in out
    assert 'ADMIN_PASSWORD = "<redacted:' in out
