"""The rule systems this site installs, by dotted path: the project's wiring, not the core's. Plain Python,
so the command line reads it with no Django settings; settings may name others as RULE_SYSTEMS (the tests
add a toy one)."""

INSTALLED_SYSTEMS = ("arsmagica.system.ArsMagica", "d6.system.D6Fatigue")
