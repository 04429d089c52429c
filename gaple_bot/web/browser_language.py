"""The language a browser asks for (its Accept-Language), among those the bot speaks."""

from __future__ import annotations

from aiohttp import web

from ..i18n import pick_language


def browser_language(request: web.Request) -> str | None:
    """The first language of the request's Accept-Language, by its weights (q), that the bot
    speaks; None when it names none of them (or none at all)."""
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate(request.headers.get("Accept-Language", "").split(",")):
        code, _, parameters = part.strip().partition(";")
        weight = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.strip().partition("=")
            if name == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if code and code != "*" and weight > 0.0:
            ranked.append((-weight, order, code))
    for _, _, code in sorted(ranked):
        picked = pick_language(code)
        if picked is not None:
            return picked
    return None
