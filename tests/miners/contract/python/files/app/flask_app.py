from datetime import timedelta

from rest_framework.settings import api_settings
from werkzeug.datastructures import ImmutableDict


class Flask:
    """A WSGI application."""

    default_config = ImmutableDict({
        "DEBUG": None,
        "PERMANENT_SESSION_LIFETIME": timedelta(days=31),
        "SESSION_COOKIE_NAME": "session",
    })


class LimitOffsetPagination:
    default_limit = api_settings.PAGE_SIZE
    max_limit = None
