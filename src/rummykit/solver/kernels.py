"""Compiled or plain: the solver's searches, loaded once as numba functions or left as Python.

The solver's inner loops are written as plain Python on flat sequences of
integers, in *kernel modules* (:mod:`.programme.search` and its neighbours,
:mod:`.suit_search`, :mod:`.rank_search`). The same source runs two ways:

- **plain**: the functions as they are, on lists - what an install without
  numba runs, and what ``RUMMYKIT_PURE_PYTHON=1`` forces;
- **compiled**: every function of the kernel modules compiled by numba
  (``njit``, cached on disk), each calling the compiled versions of the others.

A :class:`Programme` is chosen once, on its first use (importing numba costs
about half a second, so a process that never solves does not pay for it), and
gives its :class:`Kernels`. Compiling never touches the kernel modules: each
function is copied with a namespace of its own, in which the names of the
other kernels are bound to their compiled versions, and numba compiles the
copy. The modules keep their plain functions, so both versions can run side
by side (the tests compare them).

A kernel module lists its functions in ``KERNELS`` (a test checks that every
function of the module is there) and calls the other kernels by the names it
imported them under (``from .search import depth_first``, not ``search.depth_first``).
It may list in ``INLINE`` the small functions numba should inline into their
callers: a call between compiled functions that pass named tuples of arrays
costs more than a step of the search (measured: 65 ns a state called, 34 ns
inlined).
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import threading
import types
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["COMPILE", "Kernels", "Programme"]

COMPILE = (
    importlib.util.find_spec("numba") is not None
    and importlib.util.find_spec("numpy") is not None
    and os.environ.get("RUMMYKIT_PURE_PYTHON", "") in ("", "0")
)
"""Whether the searches run compiled: numba and numpy installed, and
``RUMMYKIT_PURE_PYTHON`` not set."""


@dataclass(frozen=True)
class Kernels:
    """The functions of a programme's kernel modules, by name, compiled or plain."""

    compiled: bool
    """Whether numba compiled them (else they are the plain Python functions)."""
    functions: Mapping[str, Callable[..., Any]]

    def __getitem__(self, name: str) -> Callable[..., Any]:
        """The function called ``name``."""
        return self.functions[name]


class Programme:
    """One programme's kernels: its kernel modules, loaded once, compiled where possible.

    ``warm_up`` runs the loaded kernels once on a blank question, so that numba
    loads (or compiles) them before any clock starts; a failure there (numba
    cannot compile on this machine) leaves the programme plain, with a warning.

    ``allocates``: the kernels make arrays of their own (numpy), so numba counts
    the references to arrays. Kernels that only work in the arrays they are given
    are compiled without that count (numba's ``_nrt=False``): counting the
    references to the arrays of a named tuple at every call made the search twice
    as slow (measured); the arrays live as long as the Python call that passes them.
    """

    def __init__(
        self,
        modules: Sequence[str],
        warm_up: Callable[[Kernels], None],
        *,
        allocates: bool = False,
    ) -> None:
        """``modules``: the kernel modules' names; ``warm_up``: a first call of the kernels."""
        self.modules = tuple(modules)
        self.warm_up = warm_up
        self.allocates = allocates
        self._lock = threading.Lock()
        self._loaded: Kernels | None = None

    def get(self) -> Kernels:
        """The kernels: compiled when :data:`COMPILE`, else plain (chosen on the first call)."""
        loaded = self._loaded
        if loaded is None:
            with self._lock:
                if self._loaded is None:
                    self._loaded = self._load()
                loaded = self._loaded
        return loaded

    def plain(self) -> Kernels:
        """The plain Python functions, whatever is installed (for tests and comparisons)."""
        functions: dict[str, Callable[..., Any]] = {}
        for module in self._import():
            functions.update({name: getattr(module, name) for name in module.KERNELS})
        return Kernels(False, functions)

    def _import(self) -> list[types.ModuleType]:
        """The kernel modules, imported."""
        return [importlib.import_module(name) for name in self.modules]

    def _load(self) -> Kernels:
        """Compile the kernels (numba's on-disk cache first, then without it), else plain."""
        if COMPILE:
            for cache in (True, False):
                try:
                    functions = _compile(self._import(), cache=cache, nrt=self.allocates)
                    kernels = Kernels(True, functions)
                    self.warm_up(kernels)
                except Exception as exc:  # pragma: no cover - depends on the machine
                    warnings.warn(f"numba could not compile the solver: {exc}", stacklevel=3)
                else:
                    # numba leaves a great many new objects behind; collect them now,
                    # once, rather than in the middle of some later solve
                    gc.collect()
                    return kernels
        return self.plain()


def _compile(
    modules: Sequence[types.ModuleType], *, cache: bool, nrt: bool
) -> dict[str, Callable[..., Any]]:
    """Every function named in the modules' ``KERNELS``, compiled by numba.

    Each function is copied into a namespace of its own (a copy of its module's),
    where the names of the other kernels are bound to their compiled versions;
    numba resolves those names when it first compiles the function, so a compiled
    kernel calls compiled kernels only. The modules themselves are left as they are.
    """
    numba = importlib.import_module("numba")
    plain: dict[int, str] = {}
    for module in modules:
        for name in module.KERNELS:
            plain[id(getattr(module, name))] = name
    compiled: dict[str, Callable[..., Any]] = {}
    namespaces: list[dict[str, Any]] = []
    for module in modules:
        namespace = dict(vars(module))
        namespaces.append(namespace)
        inline = set(getattr(module, "INLINE", ()))
        for name in module.KERNELS:
            source = getattr(module, name)
            copy = types.FunctionType(
                source.__code__, namespace, source.__name__, source.__defaults__
            )
            copy.__qualname__ = source.__qualname__
            copy.__module__ = source.__module__
            copy.__doc__ = source.__doc__
            compiled[name] = numba.njit(
                cache=cache,
                nogil=True,
                inline="always" if name in inline else "never",
                _nrt=nrt,
            )(copy)
    for namespace in namespaces:
        for key, value in namespace.items():
            name = plain.get(id(value))
            if name is not None:
                namespace[key] = compiled[name]
    return compiled
