"""Typed readers of the environment that refuse values they do not understand."""

import os
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class BadEnvironment(ImproperlyConfigured):
    """A setting from the environment that Covenant refuses; manage.py and config.asgi say it in one line."""


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise BadEnvironment(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: int, low: int, high: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip()
    if not (value.isascii() and value.isdigit() and len(value) <= 12 and low <= int(value) <= high):
        raise BadEnvironment(f"{name} must be a whole number from {low} to {high}, not {raw!r}")
    return int(value)


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_site_url(name: str) -> tuple[str, str] | None:
    """The scheme and the host (as ALLOWED_HOSTS writes it: an IPv6 address in brackets) of the URL in
    `name`, such as BASE_URL=http://192.168.1.20:8000; None when it is unset or empty."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    try:
        url = urlsplit(raw)
        scheme, host, _port = url.scheme, url.hostname, url.port  # a port that is no number raises
    except ValueError:
        scheme, host = "", None
    if scheme not in ("http", "https") or not host:
        raise BadEnvironment(f"{name} must be an address such as http://192.168.1.20:8000, not {raw!r}")
    return scheme, f"[{host}]" if ":" in host else host


def redis_channel_prefix(redis_url: str) -> str:
    """The channel layer's prefix for a site on `redis_url`, naming its database: Redis's pub/sub channels are
    one namespace for the whole server, whatever database a client selected, so two sites (or two test
    workers) on one Redis in different databases would otherwise hear each other's groups."""
    from redis.connection import parse_url

    return f"covenant-db{parse_url(redis_url).get('db', 0)}."
