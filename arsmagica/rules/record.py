"""Result records turn into plain JSON-ready dictionaries; `quick_init` builds them faster."""

from __future__ import annotations

import dataclasses
from enum import Enum
from fractions import Fraction
from typing import Any, TypeVar

T = TypeVar("T")


def plain(value: Any) -> Any:
    """A record, enum or tuple as plain JSON values (enums by `.value`, fractions as "1/10")."""
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if isinstance(value, Fraction):
        return str(value)
    return value


class Record:
    """Mixin for frozen result records: `to_dict()` gives plain JSON values."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return plain(self)


def quick_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted dataclass an `__init__` that is several times quicker.

    The `__init__` that `dataclass(frozen=True)` writes sets each field through
    `object.__setattr__`, a slow call per field; a round builds hundreds of records, so
    that was a large share of the engine's time. This one has the same parameters and
    defaults and calls `__post_init__` the same way, but switches the new object for a
    moment to a private subclass with the same slots and plain attribute assignment, sets
    the fields as ordinary stores, and switches it back. The object ends up an ordinary,
    frozen instance of `cls`: equality, hashing, `repr`, `dataclasses.replace` and
    `to_dict()` are untouched.
    """
    fields = dataclasses.fields(cls)
    awkward = [
        field.name
        for field in fields
        if field.default_factory is not dataclasses.MISSING
        or (not field.init and field.default is not dataclasses.MISSING)
    ]
    if awkward or not cls.__dataclass_params__.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"quick_init takes a frozen, slotted dataclass without factories: {cls.__name__}")
    builder = type(
        f"_Building{cls.__name__}",
        (cls,),
        {"__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__},
    )
    names: dict[str, Any] = {"_builder": builder, "_cls": cls, "_set": object.__setattr__}
    parameters = []
    body = ["    _set(self, '__class__', _builder)"]
    for field in fields:
        if not field.init:
            continue  # derived in __post_init__
        if field.default is dataclasses.MISSING:
            parameters.append(field.name)
        else:
            names[f"_default_{field.name}"] = field.default
            parameters.append(f"{field.name}=_default_{field.name}")
        body.append(f"    self.{field.name} = {field.name}")
    body.append("    self.__class__ = _cls")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + "\n".join(body) + "\n"
    # The source is built above from the field names only; the file name shows in profiles.
    exec(compile(source, f"<quick_init {cls.__name__}>", "exec"), names)  # noqa: S102
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[misc]
    return cls
