"""No circle of imports inside a layer: each of the package's parts reads from the top down, so
a module can be understood (and tested) with only what it imports."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import grimp
import pytest

PARTS = (
    "gaple_bot.service",
    "gaple_bot.bot",
    "gaple_bot.web",
    "gaple_bot.store",
    "gaple_bot.games",
)


def circles(edges: Mapping[str, set[str]]) -> Iterator[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), and every
    module that imports itself."""
    order: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = lowest[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(edges.get(module, ())):
            if imported not in order:
                visit(imported)
                lowest[module] = min(lowest[module], lowest[imported])
            elif imported in on_stack:
                lowest[module] = min(lowest[module], order[imported])
        if lowest[module] == order[module]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1 or module in edges.get(module, ()):
                found.append(sorted(group))

    for module in sorted(edges):
        if module not in order:
            visit(module)
    yield from found


def test_the_circle_finder_finds_a_circle_and_nothing_else() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert sorted(circles(edges)) == [["a", "b", "c"], ["e"]]
    assert list(circles({"a": {"b"}, "b": set()})) == []


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("gaple_bot", exclude_type_checking_imports=True)


@pytest.mark.parametrize("part", PARTS)
def test_no_part_of_the_package_imports_in_a_circle(graph: grimp.ImportGraph, part: str) -> None:
    modules = {module for module in graph.modules if module.startswith(f"{part}.")}
    edges = {
        module: {
            imported
            for imported in graph.find_modules_directly_imported_by(module)
            if imported in modules
        }
        for module in modules
    }
    assert modules, f"{part} has no modules"
    assert list(circles(edges)) == []
