"""A prompt of several asks: each is looked up on its own and they share the context's budget
(question.asks, context.build_context)."""

from __future__ import annotations

from repomem.service.context import build_context
from repomem.service.question import asks, parse
from tests.conftest import indexed

# eight django packages, each a strong match of the first ask: asked as one, they fill the budget
REQUIREMENTS = "".join(f"django-{name}==1.{i}\n" for i, name in enumerate(
    ["redis", "storages", "debug-toolbar", "extensions", "filter", "cors-headers", "environ",
     "celery-beat"])) + "django==5.2\n"
SETTINGS = "SMTP_PORT = 1025\nSESSION_TIMEOUT = 3600\nDEBUG = False\nLANGUAGE_CODE = 'en-us'\n"


def test_a_prompt_is_split_into_its_asks():
    assert asks("Upgrade Django to 6.1 and Wagtail to 7.5.") == ["Upgrade Django to 6.1", "Wagtail to 7.5."]
    assert asks("Why are timestamps shown in UTC, and what's the default language code?") == [
        "Why are timestamps shown in UTC", "what's the default language code?"]
    assert asks("Raise requires-python to 3.10.") == ["Raise requires-python to 3.10."]
    assert asks("thanks, and go on") == ["thanks, and go on"]  # chatter asks nothing apart
    four = asks("Bump a, b and c; then d.")
    assert four == ["Bump a", "b", "c; then d."]  # the last ask holds the rest
    assert parse("Upgrade Django and change the SMTP port").asks == ("Upgrade Django", "change the SMTP port")
    # "both X and Y": what is asked, of each
    assert asks("Upgrade Spring Boot to 4.1 in both the Maven and the Gradle build.") == [
        "Upgrade Spring Boot to 4.1 in the Maven.", "Upgrade Spring Boot to 4.1 in the Gradle build."]
    assert asks("Why do both requests fail?") == ["Why do both requests fail?"]


def test_every_ask_of_a_prompt_gets_a_share_of_the_budget(new_repo):
    r = indexed(new_repo(), ("2024-03-01T10:00:00Z", {"requirements.txt": REQUIREMENTS,
                                                      "app/settings.py": SETTINGS}))
    prompt = "Upgrade django-redis, django-storages and django-filter, and what is the language code?"
    text = build_context(r, prompt, budget=150)
    assert "LANGUAGE_CODE" in text, text  # (the whole prompt's ranking gives three packages)
    assert "django-redis" in text, text
