"""A small JSON Schema validator for the subset docs/result.schema.json uses (type, enum, required,
properties, additionalProperties, items, minimum, $ref to $defs), so that the self-tests check
grade.py's real documents against the published schema without a dependency. A keyword outside the
subset is an error, never silently ignored: the schema cannot say more than this validator checks."""

from __future__ import annotations

import json
from pathlib import Path

RESULT_SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "result.schema.json"
_ANNOTATIONS = {"$schema", "$id", "title", "description", "$defs"}
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "integer": int}


def result_schema() -> dict:
    """docs/result.schema.json: the schema of ``grade.py --format json``'s document."""
    return json.loads(RESULT_SCHEMA.read_text(encoding="utf-8"))


def schema_errors(doc: object, schema: dict | None = None) -> list[str]:
    """Every place where ``doc`` breaks ``schema`` (the result schema by default), as
    ``"$.katas[0].functions[1].status: ..."`` lines; empty when it follows it."""
    root = schema if schema is not None else result_schema()
    errors: list[str] = []
    _check(doc, root, root, "$", errors)
    return errors


_KEYWORDS = {"type", "enum", "required", "properties", "additionalProperties", "items", "minimum", "$ref"}


def _check(value: object, schema: dict, root: dict, where: str, errors: list[str]) -> None:
    unknown = set(schema) - _ANNOTATIONS - _KEYWORDS
    if unknown:
        raise ValueError(f"{where}: schema keywords this validator does not check: {sorted(unknown)}")
    if "$ref" in schema:
        prefix = "#/$defs/"
        if not schema["$ref"].startswith(prefix):
            raise ValueError(f"{where}: only local $defs references are supported, not {schema['$ref']}")
        _check(value, root["$defs"][schema["$ref"][len(prefix):]], root, where, errors)
    if _check_value(value, schema, where, errors):
        _check_members(value, schema, root, where, errors)


def _check_value(value: object, schema: dict, where: str, errors: list[str]) -> bool:
    """type, enum and minimum; whether ``value`` has the type its members are checked for."""
    if "type" in schema:
        wanted = _TYPES[schema["type"]]
        # bool is an int in Python but not in JSON.
        if not isinstance(value, wanted) or (wanted is int and isinstance(value, bool)):
            errors.append(f"{where}: {value!r} is not of type {schema['type']}")
            return False
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if "minimum" in schema and isinstance(value, int) and value < schema["minimum"]:
        errors.append(f"{where}: {value!r} is below {schema['minimum']}")
    return True


def _check_members(value: object, schema: dict, root: dict, where: str, errors: list[str]) -> None:
    """required, properties, additionalProperties (objects) and items (arrays)."""
    if isinstance(value, dict):
        errors.extend(f"{where}: missing {name!r}" for name in schema.get("required", []) if name not in value)
        properties = schema.get("properties", {})
        for name, item in value.items():
            if name in properties:
                _check(item, properties[name], root, f"{where}.{name}", errors)
            elif schema.get("additionalProperties", True) is False:
                errors.append(f"{where}: unexpected {name!r}")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            _check(item, schema["items"], root, f"{where}[{index}]", errors)
