"""`config.prepared`: a read compiled once gives what Django's own read gives, for any values, and refuses
what would need other SQL (on the suite's database: SQLite by default, PostgreSQL in `make test`)."""

import pytest
from django.db import connection, transaction
from django.db.models import Prefetch, Q

from campaign.models import Character
from combat import services
from combat.errors import NotAllowed
from combat.models import Combatant, Encounter
from combat.services.log import LOCKED, lock_encounter
from combat.views import CHECKED
from config.prepared import Prepared
from tests.coinduel import KEY
from tests.combat.conftest import Table


def combatants(encounter):
    """A read with joins, a deferred column and an equality on a key, as the command's table read is."""
    rows = Combatant.objects.filter(encounter=encounter).order_by("pk")
    return rows.select_related("character", "character__owner").defer("character__owner__password")


COMBATANTS = Prepared(combatants, "encounter")


@pytest.fixture
def tables(table):
    """The duel, and a second encounter of the saga with Bruno alone."""
    other = services.create_encounter(table.storyguide, table.saga.pk, "Second duel", KEY)
    services.add_combatants(table.storyguide, other.pk, other.version, [table.bruno_character.pk], "Alone")
    return table.encounter, other


def test_a_prepared_read_gives_the_rows_djangos_gives_for_each_value(tables, django_assert_num_queries):
    """The same rows, fields and joined rows as the ORM's read, for either encounter, in one query: the
    joined character and player come with each row, the deferred column stays deferred."""
    for encounter in tables:
        expected = list(combatants(encounter.pk))
        with django_assert_num_queries(1):
            rows = list(COMBATANTS(encounter=encounter.pk))
            seen = [(c.pk, c.side, c.character.name, c.character.owner_id) for c in rows]
            owners = [c.character.owner.username for c in rows if c.character.owner_id]
        assert seen == [(c.pk, c.side, c.character.name, c.character.owner_id) for c in expected]
        assert owners == [c.character.owner.username for c in expected if c.character.owner_id]
        assert all("password" in c.character.owner.get_deferred_fields() for c in rows if c.character.owner)
        assert {c.encounter_id for c in rows} == {encounter.pk}
    assert list(COMBATANTS(encounter=0)) == []


def test_its_prefetches_run_as_djangos_do(table, django_assert_num_queries):
    """`prefetch_related` on the built read runs after it, as usual (a query for each)."""
    with_characters = Prepared(
        lambda saga: Character.objects.filter(saga=saga).prefetch_related(Prefetch("combatants")), "saga"
    )
    with django_assert_num_queries(2):
        characters = list(with_characters(saga=table.saga.pk))
        assert sorted(len(c.combatants.all()) for c in characters) == [1, 1]


def test_it_refuses_what_would_need_other_sql(table):
    """A count, an exists or a values() of a prepared read would need another SQL than the compiled one: it
    says so instead of reading its rows wrongly. A value the build uses twice, or changes on its way to
    the SQL, is refused when it is compiled."""
    rows = COMBATANTS(encounter=table.encounter.pk)
    for other in (rows.count, rows.exists, lambda: list(rows.values("pk"))):
        with pytest.raises(TypeError, match="only iterated"):
            other()
    twice = Prepared(lambda value: Combatant.objects.filter(Q(pk=value) | Q(encounter=value)), "value")
    with pytest.raises(ValueError, match="once"):
        list(twice(value=1))


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_needs_its_transaction():
    """As Django's `select_for_update`: outside a transaction it is refused where the database locks rows
    (PostgreSQL; SQLite locks the whole database as the transaction begins); inside, it reads the row."""
    table = Table()
    djangos = Encounter.objects.select_for_update().filter(pk=table.encounter.pk)
    for read in (lambda: list(djangos), lambda: list(LOCKED(pk=table.encounter.pk))):
        if connection.features.has_select_for_update:
            with pytest.raises(transaction.TransactionManagementError):
                read()
        else:
            assert len(read()) == 1
    with transaction.atomic():
        (encounter,) = LOCKED(pk=table.encounter.pk)
        assert (encounter.pk, encounter.saga.name) == (table.encounter.pk, "Test saga")


@pytest.mark.parametrize("wrong", ["x", None, -1, 0, 2**63, 10**30, "1.5", [], float("inf")])
def test_a_command_on_no_encounter_of_ours_is_refused_as_before(table, wrong):
    """An id that is no encounter's (not a number, out of a key's range) is the same refusal as a missing
    one, with nothing read wrongly."""
    with transaction.atomic(), pytest.raises(NotAllowed):
        lock_encounter(wrong, None)


def test_a_command_takes_an_id_as_the_key_field_takes_it(table):
    """A number written as text is the encounter it names, as with Django's own lookup."""
    with transaction.atomic():
        assert lock_encounter(str(table.encounter.pk), table.encounter.version).pk == table.encounter.pk
    assert Encounter.objects.filter(pk=str(table.encounter.pk)).exists()


def test_a_prepared_values_list_gives_djangos_tuples(table):
    """A `values_list` read (a command's check, `combat.views.CHECKED`) gives the tuples Django's gives."""
    fields = ("saga_id", "seat_holder_id", "saga__rule_system", "saga__storyguide_id")
    expected = list(Encounter.objects.filter(pk=table.encounter.pk).values_list(*fields))
    guide = table.storyguide.pk
    assert list(CHECKED(pk=table.encounter.pk)) == expected == [(table.saga.pk, guide, KEY, guide)]
    assert list(CHECKED(pk=table.encounter.pk + 1000)) == []
