"""The one walker over nested containers (named tuples, lists, tuples, dicts).

Building case arguments, describing results, finding the tensors to poke and the leaves to
back-propagate into all walk the same containers the same way. Types are matched exactly (a
named tuple is recognised by its ``_fields``): a learner's subclass of ``list`` or ``dict`` could
lie about its items, so it counts as a leaf, not as a container.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def is_namedtuple(obj) -> bool:
    """Whether ``obj`` is a named tuple (a tuple with ``_fields``)."""
    return isinstance(obj, tuple) and hasattr(obj, "_fields")


def items(obj) -> list[tuple[Any, Any]] | None:
    """The (key, value) pairs inside a container: field names, indices or dict keys; None for a leaf."""
    if is_namedtuple(obj):
        return list(zip(obj._fields, obj))
    if type(obj) in (list, tuple):
        return list(enumerate(obj))
    if type(obj) is dict:
        return list(obj.items())
    return None


def step(obj, key) -> str:
    """The path suffix of ``key`` inside ``obj``: ``.name`` in a named tuple, ``[0]`` or ``['k']`` otherwise."""
    return f".{key}" if is_namedtuple(obj) else f"[{key!r}]"


def leaves(obj, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every value inside ``obj`` that is not a container, with its path (``obj`` itself for a leaf)."""
    inner = items(obj)
    if inner is None:
        yield path, obj
        return
    for key, value in inner:
        yield from leaves(value, path + step(obj, key))


def rebuild(obj, leaf: Callable[[Any], Any]):
    """A copy of ``obj``'s containers with every leaf replaced by ``leaf(value)``."""
    inner = items(obj)
    if inner is None:
        return leaf(obj)
    if is_namedtuple(obj):
        return type(obj)(*(rebuild(value, leaf) for _, value in inner))
    if type(obj) is dict:
        return {key: rebuild(value, leaf) for key, value in inner}
    return type(obj)(rebuild(value, leaf) for _, value in inner)
