"""The house reads top-down: no import circle under ``src/rummykit``.

Every import counts, also one inside a function (a deferred import is still a
dependency), except those under ``if TYPE_CHECKING:`` (types only, never run).
``from package import name`` depends on the submodule when ``name`` is one,
else on the package itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, tuple[Path, list[str]]]:
    """Module name -> its file and the package its relative imports start from."""
    found: dict[str, tuple[Path, list[str]]] = {}
    for path in sorted((SRC / "rummykit").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
            package = parts
        else:
            package = parts[:-1]
        found[".".join(parts)] = (path, package)
    return found


def _imports(nodes: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in nodes:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _imports(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _imports([n for n in inner if isinstance(n, ast.stmt)])
        for handler in getattr(node, "handlers", []):
            yield from _imports(handler.body)
        for case in getattr(node, "cases", []):
            yield from _imports(case.body)


def import_graph() -> dict[str, set[str]]:
    """Each module of rummykit -> the modules of rummykit it imports."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, (path, package) in modules.items():
        deps: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")).body):
            if isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
                continue
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                deps.add(sub if sub in modules else source)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_the_graph_sees_deferred_imports_and_skips_type_checking_ones() -> None:
    graph = import_graph()
    assert "rummykit.solver" in graph["rummykit.games.vatikanen.game"]  # inside a method
    assert "rummykit.server.room" not in graph["rummykit.server.driver"]  # for its types only


def test_no_import_circle_under_src_rummykit() -> None:
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    args = node.args
    names = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    if names and names[0].arg in ("self", "cls"):
        names = names[1:]
    return len(names)


def test_no_function_takes_more_than_ten_parameters() -> None:
    """Settings that belong together travel as one value (a position, a bot's search)."""
    crowded = []
    for path in sorted((SRC / "rummykit").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _parameters(node) > 10:
                crowded.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name}")
    assert not crowded, crowded


GAME_NAMES = {"vatikanen", "kontrakt"}


def _names_a_game(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in GAME_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(e) for e in node.elts)
    return False


def _guards(tree: ast.AST) -> set[int]:
    """The comparisons that only refuse another game's input (``if record.game !=
    "kontrakt": raise ...`` in a module of one game's): a check, not a branch."""
    return {
        id(node.test)
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and len(node.body) == 1
        and isinstance(node.body[0], ast.Raise)
        and not node.orelse
    }


def game_branches(tree: ast.AST) -> list[int]:
    """Lines that branch on a game's name: a comparison with it, a table keyed by it, a
    ``case`` on it. Passing a name (``make_bot("vatikanen", ...)``) is no branch, nor is a
    guard that refuses another game's input."""
    guards = _guards(tree)
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and id(node) not in guards:
            named = [node.left, *node.comparators]
        elif isinstance(node, ast.Dict):
            named = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.MatchValue):
            named = [node.value]
        else:
            continue
        if any(_names_a_game(e) for e in named):
            lines.append(node.lineno)
    return lines


def test_game_branches_are_found() -> None:
    code = 'if game != "kontrakt": pass\nT = {"vatikanen": 1}\nf("vatikanen")\n'
    guard = 'if record.game != "kontrakt":\n    raise ValueError(record.game)\n'
    assert game_branches(ast.parse(code)) == [1, 2]
    assert game_branches(ast.parse(guard)) == []


def test_no_game_name_is_branched_on_outside_games() -> None:
    """Each game's words, syntax and facts live in its package, reached through its spec
    (:mod:`rummykit.games`); nothing else asks which game it holds."""
    games = SRC / "rummykit" / "games"
    found = []
    for path in sorted((SRC / "rummykit").rglob("*.py")):
        if games in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(SRC)}:{line}" for line in game_branches(tree)]
    assert not found, found


def _function_lines(path: Path, name: str) -> int:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            assert node.end_lineno is not None
            return node.end_lineno - node.lineno + 1
    raise LookupError(name)


def test_create_app_only_assembles_the_areas() -> None:
    """Each area's routes live in a module of their own (``server/routes/``): the app only
    puts them and the middleware together (issue 41)."""
    assert _function_lines(SRC / "rummykit" / "server" / "app.py", "create_app") < 60
    routes = SRC / "rummykit" / "server" / "routes"
    long = [p.name for p in routes.glob("*.py") if len(p.read_text().splitlines()) > 400]
    assert not long, long


def test_no_store_module_is_over_600_lines() -> None:
    store = SRC / "rummykit" / "server" / "store"
    long = [p.name for p in store.glob("*.py") if len(p.read_text().splitlines()) > 600]
    assert not long, long
