"""A hot read's SQL built and compiled once a process, then run with other values: Django builds a
queryset (its filters, joins and deferred columns) and compiles its SQL anew every time it runs, which was
most of a small read's CPU on the command's path (the combatants with their characters and players 1.10 ms,
0.37 ms prepared; docs/performance.md, "A command's CPU").

`Prepared(build, "name", ...)` calls `build(name=marker, ...)` once for each database, with a marker for
each named value: an integer no real row uses, which must reach the SQL's parameters as it is (an equality
on an integer column or a key). Each call then gives a queryset of the same SQL with the values given in
place of the markers, whose rows Django turns into models (or tuples, for `values_list`) as it does its own
(`select_related` included; `prefetch_related` runs as usual). Only for reads whose SQL does not change
with the values: no `__in` list, no value that Django would turn into another condition (None). A value
goes to the database as it is given (an id from a URL, an `int`), not through its field's conversion.

It relies on the compiler's state that `as_sql` leaves for the rows' reading (asserted in
tests/test_django_internals.py, so an upgrade that changes it fails there by name).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable

from django.db import connections, transaction
from django.db.models import QuerySet
from django.db.models.sql.query import Query

# What `as_sql` leaves on the compiler that the rows' reading uses (`ModelIterable`, `results_iter`).
COMPILED_STATE = ("select", "klass_info", "annotation_col_map", "col_count", "has_extra_select")
_MARKERS = itertools.count(1_987_654_321)  # within a 32-bit integer column's range, as a filter needs
_lock = threading.Lock()


class Prepared:
    """A read built by `build` from the named values, compiled once for each database alias."""

    def __init__(self, build: Callable[..., QuerySet], *names: str) -> None:
        self.build, self.names = build, names
        self.compiled: dict[str, tuple] = {}

    def __call__(self, using: str = "default", **values) -> QuerySet:
        """The read with these values, as a queryset to iterate (its SQL as compiled the first time)."""
        base, sql, params, slots, state = self.compiled.get(using) or self._compile(using)
        query = base.query.clone()
        query.prepared = (
            sql,
            [values[slot] if slot else param for slot, param in zip(slots, params, strict=True)],
            state,
        )
        database = connections[using]
        if query.select_for_update and database.features.has_select_for_update and database.get_autocommit():
            # As Django's compiler refuses it (SQLite locks the whole database as its transaction begins).
            raise transaction.TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        rows = QuerySet(base.model, query=query, using=using)
        rows._prefetch_related_lookups = base._prefetch_related_lookups
        rows._iterable_class, rows._fields = base._iterable_class, base._fields  # values_list() as built
        return rows

    def _compile(self, using: str) -> tuple:
        """The read built with a marker for each value and compiled: its SQL, its parameters with where each
        value goes, and the compiler's state for reading its rows."""
        with _lock:
            markers = {name: next(_MARKERS) for name in self.names}
        base = self.build(**markers)
        compiler = base.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        named = {marker: name for name, marker in markers.items()}
        slots = [named.get(param) if isinstance(param, int) else None for param in params]
        if sorted(filter(None, slots)) != sorted(self.names):
            raise ValueError(f"each of {self.names} must reach the SQL once, as it is: {params}")
        base.query.__class__ = PreparedQuery
        state = {name: getattr(compiler, name) for name in COMPILED_STATE}
        state["shape"] = shape(base.query)
        self.compiled[using] = entry = (base, sql, list(params), slots, state)
        return entry


def shape(query: Query) -> tuple:
    """What decides a query's columns: the same for every call of one prepared read."""
    return (
        query.default_cols,
        query.values_select,
        tuple(query.annotations),
        tuple(query.extra),
        query.select,
        query.combinator,
        query.subquery,
        query.distinct,
    )


class PreparedQuery(Query):
    """A query whose SQL is compiled already (`prepared`: the SQL, its parameters, the compiler's state)."""

    prepared: tuple

    def get_compiler(self, using=None, connection=None, elide_empty=True):
        """Django's compiler for it, which gives the compiled SQL instead of compiling it again."""
        compiler = super().get_compiler(using, connection, elide_empty)
        sql, params, state = self.prepared
        if shape(self) != state["shape"]:  # a count, an exists, values(): other SQL than the compiled one
            raise TypeError("a prepared read is only iterated (or got); anything else would need other SQL")
        compiler.__dict__.update({name: state[name] for name in COMPILED_STATE})
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        return compiler
