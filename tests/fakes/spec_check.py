"""Validation of Bot API requests and responses against the machine-readable Bot API spec."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

DEFAULT_SPEC_PATH: Final = Path(__file__).resolve().parent.parent / "data" / "bot-api.json"

_PRIMITIVES: Final = frozenset({"Integer", "String", "Boolean", "Float"})
_ARRAY_PREFIX: Final = "Array of "
_INT_RE: Final = re.compile(r"-?\d+")
_DISCRIMINATOR_RE: Final = re.compile(r"(?:must be|always)\s+[“\"]?([A-Za-z_]+)")
_MAX_SHOWN_ERRORS: Final = 6


@dataclass(frozen=True)
class Upload:
    """A file uploaded in a multipart/form-data request: the only value an ``InputFile``
    parameter accepts (Telegram takes files as form parts, never inside JSON)."""

    name: str
    """The form part's name: the parameter it is the value of."""
    filename: str | None
    content_type: str
    data: bytes

    def __repr__(self) -> str:
        return f"Upload({self.name!r}, {self.filename!r}, {len(self.data)} bytes)"


@dataclass(frozen=True)
class FieldSpec:
    """One field of a Bot API method or type."""

    name: str
    types: tuple[str, ...]
    required: bool


@dataclass(frozen=True)
class TypeSpec:
    """One Bot API type: an object with fields, or a union of subtypes."""

    name: str
    fields: dict[str, FieldSpec] = field(default_factory=dict)
    subtypes: tuple[str, ...] = ()
    # For subtypes of a union: (field name, value) that selects this subtype, e.g. ("type", "chat").
    discriminator: tuple[str, str] | None = None


@dataclass(frozen=True)
class MethodSpec:
    """One Bot API method."""

    name: str
    fields: dict[str, FieldSpec]
    returns: tuple[str, ...]


def _fields(raw: Sequence[Mapping[str, Any]]) -> dict[str, FieldSpec]:
    return {
        str(f["name"]): FieldSpec(
            name=str(f["name"]),
            types=tuple(str(t) for t in f["types"]),
            required=bool(f["required"]),
        )
        for f in raw
    }


def _discriminator(raw: Mapping[str, Any]) -> tuple[str, str] | None:
    for f in raw.get("fields", []):
        if f["required"] and list(f["types"]) == ["String"]:
            match = _DISCRIMINATOR_RE.search(str(f["description"]))
            if match:
                return str(f["name"]), match.group(1)
    return None


class BotApiSpec:
    """The Bot API description (methods, types) with a structural validator.

    Two validation modes:

    * ``coerce=True`` for top-level request parameters that arrived as form fields: every value is
      a string, so "Integer"/"Float"/"Boolean" are parsed from strings and objects/arrays are
      JSON-decoded (that is what python-telegram-bot sends).
    * ``coerce=False`` (strict) for JSON values: nested objects, JSON request bodies, and the
      fake's own responses.
    """

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.version: str = str(raw.get("version", "?"))
        self.methods: dict[str, MethodSpec] = {
            name: MethodSpec(
                name=name,
                fields=_fields(m.get("fields", [])),
                returns=tuple(str(t) for t in m.get("returns", [])),
            )
            for name, m in raw["methods"].items()
        }
        self.types: dict[str, TypeSpec] = {
            name: TypeSpec(
                name=name,
                fields=_fields(t.get("fields", [])),
                subtypes=tuple(str(s) for s in t.get("subtypes", [])),
                discriminator=_discriminator(t) if t.get("subtype_of") else None,
            )
            for name, t in raw["types"].items()
        }
        self._methods_lower = {name.lower(): name for name in self.methods}

    @classmethod
    def load(cls, path: Path = DEFAULT_SPEC_PATH) -> BotApiSpec:
        with path.open(encoding="utf-8") as fh:
            return cls(json.load(fh))

    def canonical_method(self, name: str) -> str | None:
        """The spec's spelling of a method name (the Bot API matches names case-insensitively)."""
        return self._methods_lower.get(name.lower())

    # ------------------------------------------------------------------ requests

    def check_request(
        self, method: str, params: Mapping[str, object], *, coerce: bool
    ) -> tuple[dict[str, Any], list[str]]:
        """Validate the parameters of a method call.

        Returns the decoded parameters (form strings turned into ints/bools/objects) and a list
        of human-readable problems (empty when the request is valid).
        """
        spec = self.methods[method]
        errors: list[str] = []
        decoded: dict[str, Any] = {}
        for name, value in params.items():
            fspec = spec.fields.get(name)
            if fspec is None:
                errors.append(f"{method}: unknown parameter {name!r}")
                continue
            result, errs = self.check_value(value, fspec.types, f"{method}.{name}", coerce=coerce)
            errors.extend(errs)
            if not errs:
                decoded[name] = result
        for fspec in spec.fields.values():
            if fspec.required and fspec.name not in params:
                errors.append(f"{method}: missing required parameter {fspec.name!r}")
        return decoded, errors

    # ------------------------------------------------------------------ values

    def check_value(
        self, value: object, types: Sequence[str], path: str, *, coerce: bool = False
    ) -> tuple[Any, list[str]]:
        """Check ``value`` against alternatives like ``["Integer", "String"]``.

        The first alternative that matches wins; when none does, the errors of the closest one
        are reported.
        """
        attempts: list[tuple[str, list[str]]] = []
        for type_name in types:
            result, errs = self._check_one(value, type_name, path, coerce=coerce)
            if not errs:
                return result, []
            attempts.append((type_name, errs))
        if len(attempts) == 1:
            return None, attempts[0][1]
        best_type, best_errs = min(attempts, key=lambda a: len(a[1]))
        alternatives = " or ".join(types)
        return None, [
            f"{path}: {_short(value)} is not {alternatives}; closest is {best_type}: "
            + "; ".join(best_errs[:_MAX_SHOWN_ERRORS])
        ]

    def check_object(self, value: object, type_name: str, path: str = "") -> list[str]:
        """Strictly check a JSON value against a named Bot API type (or ``Array of ...``)."""
        return self._check_one(value, type_name, path or type_name, coerce=False)[1]

    def _check_one(
        self, value: object, type_name: str, path: str, *, coerce: bool
    ) -> tuple[Any, list[str]]:
        if type_name.startswith(_ARRAY_PREFIX):
            if coerce:
                if not isinstance(value, str):
                    return None, [f"{path}: expected a JSON-encoded array, got {_short(value)}"]
                try:
                    value = json.loads(value)
                except ValueError:
                    return None, [f"{path}: can't parse JSON array {_short(value)}"]
            if not isinstance(value, list):
                return None, [f"{path}: expected {type_name}, got {_short(value)}"]
            inner = type_name[len(_ARRAY_PREFIX) :]
            items: list[Any] = []
            errors: list[str] = []
            for index, item in enumerate(value):
                result, errs = self._check_one(item, inner, f"{path}[{index}]", coerce=False)
                items.append(result)
                errors.extend(errs)
            return items, errors
        if type_name in _PRIMITIVES:
            return _check_primitive(value, type_name, path, coerce=coerce)
        if type_name == "InputFile":
            if isinstance(value, Upload):
                return value, []
            return None, [f"{path}: expected an uploaded file (InputFile), got {_short(value)}"]
        tspec = self.types.get(type_name)
        if tspec is None:
            return None, [f"{path}: the spec has no type {type_name!r}"]
        if coerce:
            if not isinstance(value, str):
                return None, [f"{path}: expected a JSON-encoded {type_name}, got {_short(value)}"]
            try:
                value = json.loads(value)
            except ValueError:
                return None, [f"{path}: can't parse JSON object {_short(value)}"]
        if tspec.subtypes:
            return self._check_union(value, tspec, path)
        return self._check_fields(value, tspec, path)

    def _check_union(self, value: object, tspec: TypeSpec, path: str) -> tuple[Any, list[str]]:
        if not isinstance(value, dict):
            return None, [f"{path}: expected a {tspec.name} object, got {_short(value)}"]
        # Prefer the subtype selected by a discriminator such as {"type": "chat"}.
        candidates = list(tspec.subtypes)
        keyed = {
            sub: disc
            for sub in candidates
            if (disc := self._discriminator_of(sub)) is not None and disc[0] in value
        }
        if keyed:
            chosen = [sub for sub, (key, expected) in keyed.items() if value.get(key) == expected]
            if not chosen:
                key = next(iter(keyed.values()))[0]
                allowed = sorted({disc[1] for disc in keyed.values()})
                return None, [
                    f"{path}.{key}: {value.get(key)!r} is not a valid {tspec.name} "
                    f"(expected one of {allowed})"
                ]
            candidates = chosen
        return self.check_value(value, candidates, path, coerce=False)

    def _discriminator_of(self, type_name: str) -> tuple[str, str] | None:
        sub = self.types.get(type_name)
        return sub.discriminator if sub is not None else None

    def _check_fields(self, value: object, tspec: TypeSpec, path: str) -> tuple[Any, list[str]]:
        if not isinstance(value, dict):
            return None, [f"{path}: expected a {tspec.name} object, got {_short(value)}"]
        errors: list[str] = []
        result: dict[str, Any] = {}
        for key, item in value.items():
            fspec = tspec.fields.get(key)
            if fspec is None:
                errors.append(f"{path}: unknown field {key!r} for {tspec.name}")
                continue
            checked, errs = self.check_value(item, fspec.types, f"{path}.{key}", coerce=False)
            errors.extend(errs)
            result[key] = checked
        for fspec in tspec.fields.values():
            if fspec.required and fspec.name not in value:
                errors.append(f"{path}: missing required field {fspec.name!r} of {tspec.name}")
        return result, errors


def _check_primitive(
    value: object, type_name: str, path: str, *, coerce: bool
) -> tuple[Any, list[str]]:
    if type_name == "String":
        if isinstance(value, str):
            return value, []
    elif type_name == "Integer":
        if isinstance(value, int) and not isinstance(value, bool):
            return value, []
        if coerce and isinstance(value, str) and _INT_RE.fullmatch(value):
            return int(value), []
    elif type_name == "Float":
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value), []
        if coerce and isinstance(value, str):
            try:
                return float(value), []
            except ValueError:
                pass
    elif type_name == "Boolean":
        if isinstance(value, bool):
            return value, []
        if coerce and isinstance(value, str) and value.lower() in {"true", "false", "1", "0"}:
            return value.lower() in {"true", "1"}, []
    return None, [f"{path}: expected {type_name}, got {_short(value)}"]


def _short(value: object) -> str:
    if isinstance(value, Upload):
        return f"<file {value.filename!r}>"
    text = repr(value)
    kind = type(value).__name__
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{kind} {text}"


@functools.cache
def default_spec() -> BotApiSpec:
    """The spec from tests/data/bot-api.json, parsed once per test session on first use."""
    return BotApiSpec.load()
