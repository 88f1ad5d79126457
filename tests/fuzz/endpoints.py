"""Every URL pattern the project serves, read from Django's resolver, so a new endpoint is fuzzed
the day it is added; and the form fields its pages draw, read from the pages themselves."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

_ROUTE_PART = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
_REGEX_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>[^)]*\)")


@dataclass(frozen=True)
class Endpoint:
    """One pattern: its name, its route with `{keyword}` holes, and the keywords to fill."""

    name: str
    template: str
    keywords: tuple[str, ...]

    def path(self, values: dict) -> str:
        return "/" + self.template.format(**{key: values[key] for key in self.keywords})


def _template(pattern) -> str:
    if isinstance(pattern, RoutePattern):
        route = str(pattern._route).replace("{", "{{").replace("}", "}}")
        return _ROUTE_PART.sub(lambda m: "{" + m["name"] + "}", route)
    if isinstance(pattern, RegexPattern):
        regex = pattern._regex.lstrip("^").rstrip("$").replace("\\Z", "")
        regex = _REGEX_GROUP.sub(lambda m: "\0" + m["name"] + "\1", regex)
        regex = re.sub(r"\\(.)", r"\1", regex).replace("{", "{{").replace("}", "}}")
        return regex.replace("\0", "{").replace("\1", "}")
    raise TypeError(f"unknown pattern type {type(pattern).__name__}")


def _walk(patterns, prefix: str = "", namespace: str = ""):
    for entry in patterns:
        here = prefix + _template(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _walk(entry.url_patterns, here, inner)
        elif isinstance(entry, URLPattern):
            yield Endpoint(f"{namespace}{entry.name or entry.lookup_str}", here, _keywords(here))


def _keywords(template: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(re.findall(r"(?<!\{)\{(\w+)\}(?!\})", template)))


def all_endpoints() -> list[Endpoint]:
    """Every URL pattern of the project, in resolver order."""
    return list(_walk(get_resolver().url_patterns))


class Forms(HTMLParser):
    """The forms a page draws: each as its target path and its (name, value) pairs, as a browser
    would post them; buttons with `hx-post` and `hx-vals` count as forms of their own."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []
        self.names: set[str] = set()
        self.values: set[str] = set()
        self._current: list[tuple[str, str]] | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        attr = {key: value or "" for key, value in attrs}
        target = attr.get("hx-post") or (attr.get("action") if tag == "form" else "")
        if tag == "form":
            self._current = []
            self.forms.append((target, self._current))
        elif target and "hx-vals" in attr:
            self.forms.append((target, _hx_vals(attr["hx-vals"])))
        name = attr.get("name")
        if "value" in attr:
            self.values.add(attr["value"])
        if tag == "select":
            self._select = name
        if tag == "option" and self._select and self._current is not None:
            if not any(field == self._select for field, _ in self._current):
                self._current.append((self._select, attr.get("value", "")))
        if name and tag in ("input", "textarea", "button"):
            self.names.add(name)
            if self._current is not None and tag != "button":
                self._current.append((name, attr.get("value", "")))
        elif name and tag == "select":
            self.names.add(name)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._current = None
        elif tag == "select":
            self._select = None


def _hx_vals(text: str) -> list[tuple[str, str]]:
    try:
        values = json.loads(text)
    except ValueError:
        return []
    return [(str(key), str(value)) for key, value in values.items()] if isinstance(values, dict) else []


def read_forms(page: str) -> Forms:
    """Parse a page's forms."""
    parser = Forms()
    parser.feed(page)
    return parser
