"""Every URL of the site as a concrete path, for tests that must visit all of them (CSRF, fuzzing).

The list is read from the URL configuration itself, so a view added later is covered without
touching the tests. Path arguments are filled by name from ``values`` (a game id, a username…).
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

_PARAM = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")
ADMIN_APP = "tournaments"


@dataclass(frozen=True)
class Route:
    template: str  # e.g. "/games/<int:game_id>/act/"
    name: str | None
    params: tuple[tuple[str, str], ...]  # (name, converter)

    @property
    def admin(self) -> bool:
        return self.template.startswith("/admin/")

    def fill(self, value: Callable[[str, str, str], object]) -> str:
        """The path with each parameter replaced by ``value(name, converter, template)``, quoted."""

        def one(match: re.Match) -> str:
            converter = match.group("converter") or "str"
            raw = str(value(match.group("name"), converter, self.template))
            return urllib.parse.quote(raw, safe="/" if converter == "path" else "")

        return _PARAM.sub(one, self.template)


def _walk(patterns, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern), p


def routes() -> list[Route]:
    out = []
    for template, pattern in _walk(get_resolver().url_patterns):
        if isinstance(pattern.pattern, RegexPattern) or template.count("^"):
            # Only the admin uses regular expressions: its app index (filled here) and its catch-all.
            if "(?P<app_label>" in template:
                out.append(Route(f"/admin/{ADMIN_APP}/", pattern.name, ()))
            continue
        assert isinstance(pattern.pattern, RoutePattern), template
        params = tuple((m.group("name"), m.group("converter") or "str") for m in _PARAM.finditer(template))
        out.append(Route("/" + template, pattern.name, params))
    return out


def admin_model(template: str) -> str:
    """``"match"`` for ``/admin/tournaments/match/<path:object_id>/change/``."""
    parts = template.strip("/").split("/")
    return parts[2] if len(parts) > 2 else ""
