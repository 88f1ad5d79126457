"""`manage.py check` on the rule systems: each installed system's role classes against the core's
(`combat.systems.role_problems`: an unknown member, other parameters, a member left out, a log with secrets
that does not say what players see, an override without `@override`), and each of its event kinds against
`combat.events.EventKind` (`combat.systems.kind_problems`: a member the base does not have, say), each problem
an Error."""

from django.core import checks

from . import systems


@checks.register()
def rule_systems(app_configs=None, **kwargs) -> list[checks.Error]:
    """Every problem of every installed rule system's roles, as an Error with its `covenant.E…` id."""
    return [
        checks.Error(problem.message, hint=problem.hint or None, obj=type(system), id=problem.id)
        for system in systems.all_systems()
        for problem in type(system).problems()
    ]
