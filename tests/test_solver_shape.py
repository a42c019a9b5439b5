"""The solver's code stays readable: small functions, few parameters, each typed and documented.

Read with :mod:`ast` over every module of ``rummykit.solver``: no function
longer than :data:`MAX_LINES` lines or taking more than :data:`MAX_PARAMETERS`
parameters (the search's state travels in named tuples, see
``rummykit.solver.programme.state``); every function and class has a
docstring and every function's parameters and return are annotated; and every
function of a kernel module is listed in its ``KERNELS`` (the registry compiles
only those, and a compiled kernel can call only compiled ones).
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

import rummykit.solver

MAX_LINES = 199
"""Most lines of one function, its signature and docstring included (under 200)."""
MAX_PARAMETERS = 10
"""Most parameters of one function (``self`` counted)."""
ROOT = Path(rummykit.solver.__file__).parent
KERNEL_MODULES = (
    "rummykit.solver.programme.step",
    "rummykit.solver.programme.search",
    "rummykit.solver.programme.layout",
    "rummykit.solver.programme.question",
    "rummykit.solver.suit_search",
    "rummykit.solver.rank_search",
)

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _modules() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def _functions(tree: ast.Module) -> Iterator[Function]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _parameters(fn: Function) -> list[ast.arg]:
    a = fn.args
    out = [*a.posonlyargs, *a.args, *a.kwonlyargs]
    out += [x for x in (a.vararg, a.kwarg) if x is not None]
    return out


def _where(path: Path, fn: Function) -> str:
    return f"{path.relative_to(ROOT.parent)}:{fn.lineno} {fn.name}"


def _parsed() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in _modules()]


def test_solver_functions_are_under_200_lines_and_take_at_most_10_parameters() -> None:
    long = []
    wide = []
    for path, tree in _parsed():
        for fn in _functions(tree):
            assert fn.end_lineno is not None
            lines = fn.end_lineno - fn.lineno + 1
            if lines > MAX_LINES:
                long.append(f"{_where(path, fn)}: {lines} lines")
            if len(_parameters(fn)) > MAX_PARAMETERS:
                wide.append(f"{_where(path, fn)}: {len(_parameters(fn))} parameters")
    assert not long, long
    assert not wide, wide


def test_solver_functions_and_classes_are_typed_and_documented() -> None:
    missing = []
    for path, tree in _parsed():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and ast.get_docstring(node) is None:
                missing.append(f"{path.name}:{node.lineno} class {node.name}: no docstring")
        for fn in _functions(tree):
            if ast.get_docstring(fn) is None and not _is_overload(fn):
                missing.append(f"{_where(path, fn)}: no docstring")
            if fn.returns is None and fn.name != "__init__":
                missing.append(f"{_where(path, fn)}: no return type")
            for arg in _parameters(fn):
                if arg.annotation is None and arg.arg not in ("self", "cls"):
                    missing.append(f"{_where(path, fn)}: {arg.arg} not typed")
    assert not missing, missing


def _is_overload(fn: Function) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "overload" for d in fn.decorator_list)


@pytest.mark.parametrize("name", KERNEL_MODULES)
def test_every_function_of_a_kernel_module_is_compiled(name: str) -> None:
    """A function left out of ``KERNELS`` would stay plain Python, which compiled code
    cannot call: numba would refuse the whole programme."""
    pytest.importorskip("numpy")
    module = importlib.import_module(name)
    path = Path(module.__file__ or "")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert sorted(defined) == sorted(module.KERNELS)
    assert set(getattr(module, "INLINE", ())) <= set(module.KERNELS)


def test_the_limits_catch_a_function_of_200_lines_or_11_parameters() -> None:
    """The checks above can fail: a function of 200 lines and 11 parameters is caught."""
    body = "\n".join(f"    x{i} = {i}" for i in range(198))
    source = f'def f(a, b, c, d, e, f, g, h, i, j, k):\n    """doc"""\n{body}\n'
    (fn,) = _functions(ast.parse(source))
    assert fn.end_lineno is not None
    assert fn.end_lineno - fn.lineno + 1 == 200 > MAX_LINES
    assert len(_parameters(fn)) == 11 > MAX_PARAMETERS
