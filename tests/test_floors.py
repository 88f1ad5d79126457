"""One way down: every import, at a module's top or inside a function, runs to its own floor or below.

The floors (docs/architecture.md, "Floors"): `campaign` (people, sagas, characters) at the bottom, the
table core `combat` above it, the rule systems (`arsmagica`, `d6`, the toy `tests.coinduel`) on top,
none of which imports another. `config` and the tests may import anything. Within a package no
module reaches back to one that imports it, so no circle of imports is left for Python's import
order to settle.
"""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOORS = {"campaign": 0, "combat": 1, "arsmagica": 2, "d6": 2, "tests.coinduel": 2}
PACKAGES = ("campaign", "combat", "arsmagica", "d6", "tests/coinduel")


def module_name(path):
    """The dotted name of the module at path, relative to the repository."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules():
    """Every checked module's dotted name, with its file."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                found[module_name(path)] = path
    return found


def imported(name, path, known):
    """Every module the file imports, anywhere in it, as (dotted name, line)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                yield (whole if whole in known else base), node.lineno


def floor_of(name):
    """The floor's package a dotted name belongs to, or None when it is on no floor."""
    for package in sorted(FLOORS, key=len, reverse=True):
        if name == package or name.startswith(package + "."):
            return package
    return None


def graph():
    """Each checked module's imports, each with the lines that import it, and the checked modules' files."""
    known = modules()
    edges = {}
    for name, path in known.items():
        edges[name] = {}
        for target, line in imported(name, path, known):
            edges[name].setdefault(target, []).append(line)
    return edges, known


def upward(edges, known):
    """Every import that runs up a floor, or across to another system, as readable lines."""
    wrong = []
    for name, targets in edges.items():
        here = floor_of(name)
        for target, lines in targets.items():
            there = floor_of(target)
            if there is not None and there != here and FLOORS[there] >= FLOORS[here]:
                wrong += [f"{known[name].relative_to(ROOT)}:{line} imports {target}" for line in lines]
    return sorted(wrong)


def circles(edges):
    """Every circle of imports among modules of one package (Tarjan's strongly connected parts)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in edges or floor_of(target) != floor_of(node):
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.append(member)
                if member == node:
                    break
            if len(part) > 1 or node in edges[node]:
                found.append(sorted(part))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def test_imports_run_one_way_down():
    """No module imports from a floor above its own, nor from another rule system."""
    edges, known = graph()
    assert upward(edges, known) == []


def test_no_circle_of_imports_within_a_package():
    """No module imports, even inside a function, one that imports it back, however far round."""
    edges, _ = graph()
    assert circles(edges) == []


def test_the_check_sees_what_it_must(tmp_path):
    """The check reads relative imports, at the top and inside a function, so it sees a circle like those
    issue 30 named (system -> panels -> services -> guard -> system) and an import that runs up."""
    files = {
        "arsmagica.system": "class ArsMagica:\n    def panels(self):\n        from .panels import state\n",
        "arsmagica.panels": "from .services import guard\n",
        "arsmagica.services": "from .guard import check\n",
        "arsmagica.services.guard": "KEY = 1\n\n\ndef check():\n    from ..system import ArsMagica\n",
        "arsmagica": "",
        "campaign.views": "def page():\n    from combat.archive import importer\n",
    }
    known = {}
    for name, text in files.items():
        package = name in ("arsmagica", "arsmagica.services")
        known[name] = tmp_path.joinpath(*name.split("."), "__init__.py" if package else "")
        if not package:
            known[name] = known[name].with_suffix(".py")
        known[name].parent.mkdir(parents=True, exist_ok=True)
        known[name].write_text(text)
    edges = {name: {} for name in known}
    for name, path in known.items():
        for target, line in imported(name, path, known):
            edges[name].setdefault(target, []).append(line)
    assert edges["arsmagica.services.guard"] == {"arsmagica.system": [5]}
    assert circles(edges) == [["arsmagica.panels", "arsmagica.services.guard", "arsmagica.system"]]
    known["campaign.views"] = ROOT / "campaign/views.py"
    assert upward(edges, known) == ["campaign/views.py:2 imports combat.archive"]


def test_the_table_answers_what_campaign_asks():
    """Each of campaign's questions to the table has its answer connected: with none, a saga with history
    would read as having none, and deleting it would lose that history."""
    from django.dispatch import Signal

    from campaign import signals

    asked = [value for value in vars(signals).values() if isinstance(value, Signal)]
    assert len(asked) == 6 and all(signal.has_listeners() for signal in asked)


# The core's tests play the coin duel (tests/combat/conftest.py, tests/campaign/conftest.py): a test of the
# core that needs a real system is a test of that system, in its own package (tests/arsmagica, tests/d6),
# and one that holds every system to one contract is in tests/systems.
CORE_TESTS = ("tests/combat", "tests/campaign")
REAL_SYSTEMS = ("arsmagica", "d6", "tests.arsmagica", "tests.d6", "tests.rules", "tests.systems")
REAL_SYSTEMS += ("tests.test_migrations",)  # its played sagas are an Ars Magica and a d6 one
# A core test module that truly needs a real system, with its reason: none today.
NEEDS_A_REAL_SYSTEM: dict[str, str] = {}


def real_system_imports(paths) -> list[str]:
    """Every import of a real rule system, or of a test package that plays one, in the files given."""
    found = []
    for path in paths:
        name = module_name(path)
        for target, line in imported(name, path, {}):
            if any(target == real or target.startswith(real + ".") for real in REAL_SYSTEMS):
                found.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    return found


def test_the_cores_tests_name_no_real_system():
    """No module of tests/combat or tests/campaign imports Ars Magica, d6, or a test package that plays
    them, at its top or inside a function (the coin duel stands for a system there)."""
    paths = [path for folder in CORE_TESTS for path in sorted((ROOT / folder).rglob("*.py"))]
    assert paths and all(path.exists() for path in map(ROOT.joinpath, NEEDS_A_REAL_SYSTEM))
    wrong = [line for line in real_system_imports(paths) if line.split(":")[0] not in NEEDS_A_REAL_SYSTEM]
    assert wrong == []


def test_the_core_tests_check_sees_a_real_system_however_it_is_imported(tmp_path, monkeypatch):
    """Relative, aliased or inside a function: each import of a real system is seen; the coin duel is not."""
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    folder = tmp_path / "tests" / "combat"
    folder.mkdir(parents=True)
    (folder / "test_x.py").write_text(
        "import arsmagica.rules as rules\nfrom tests.coinduel import KEY\nfrom ..d6 import conftest\n"
        "\n\ndef test_it():\n    from d6 import services\n"
    )
    assert real_system_imports([folder / "test_x.py"]) == [
        "tests/combat/test_x.py:1 imports arsmagica.rules",
        "tests/combat/test_x.py:3 imports tests.d6",
        "tests/combat/test_x.py:7 imports d6",
    ]
