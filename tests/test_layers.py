"""The import contracts (.importlinter) hold and cover every module; no import circle; docs/layers.md shows the
layers as .importlinter has them; below the entry layer rallyc is imported only at module level."""

from __future__ import annotations

import ast
import configparser
import functools
import re
from pathlib import Path

import grimp
import networkx as nx
from importlinter.cli import EXIT_STATUS_SUCCESS, lint_imports

ROOT = Path(__file__).resolve().parent.parent

#: The entry layer: the command line, the language server and the library facade (``import rallyc``, rallyc/api.py).
#: Lazy imports that keep start-up cheap live here only: each carries a comment (on its line, or on the line above
#: its run of imports), and none dodges a cycle.
ENTRY = ("rallyc/__main__.py", "rallyc/commands", "rallyc/lsp", "rallyc/__init__.py", "rallyc/api.py")

#: Function-level imports allowed outside the entry layer, each with why, keyed by (file, module imported):
#: none today. An entry that is gone fails the test, so that the list only shrinks: delete its line.
PENDING: dict[tuple[str, str], str] = {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _in_entry_layer(rel: str) -> bool:
    return any(rel == e or rel.startswith(e + "/") for e in ENTRY)


def _function_level_imports(path: Path):
    """(line, modules imported) of every import of rallyc inside a function of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {}
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [f"rallyc.{a.name}" for a in node.names] if node.module == "rallyc" else [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            names = [n for n in names if n == "rallyc" or n.startswith("rallyc.")]
            if names:
                found[node] = names
    return sorted(((node, names) for node, names in found.items()), key=lambda item: item[0].lineno)


def _all_function_level_imports():
    for path in sorted((ROOT / "rallyc").rglob("*.py")):
        for node, names in _function_level_imports(path):
            yield path, node, names


def _has_comment(lines: list[str], node: ast.stmt) -> bool:
    """A comment on the import's lines, or on the line just above the run of import lines it belongs to."""
    if any("#" in lines[i - 1] for i in range(node.lineno, (node.end_lineno or node.lineno) + 1)):
        return True
    i = node.lineno - 1  # 1-based number of the line above
    while i >= 1 and lines[i - 1].strip().startswith(("from ", "import ")):
        i -= 1
    return i >= 1 and lines[i - 1].strip().startswith("#")


def test_import_contracts_are_kept(monkeypatch):
    monkeypatch.chdir(ROOT)
    status = lint_imports(config_filename=str(ROOT / ".importlinter"), no_cache=True, no_logo=True)
    assert status == EXIT_STATUS_SUCCESS


def test_no_function_level_import_of_rallyc_outside_the_entry_layer():
    """Below the CLI, the language server and the facade, an import inside a function would only dodge a cycle."""
    found, seen_pending = [], set()
    for path, node, names in _all_function_level_imports():
        rel = path.relative_to(ROOT).as_posix()
        if _in_entry_layer(rel):
            continue
        for name in names:
            if (rel, name) in PENDING:
                seen_pending.add((rel, name))
            else:
                found.append(f"{rel}:{node.lineno} imports {name} inside a function")
    assert found == []
    gone = sorted(set(PENDING) - seen_pending)
    assert gone == [], f"no longer imported inside a function (delete these lines from PENDING): {gone}"


def test_lazy_imports_of_the_entry_layer_are_commented():
    """Each lazy import of the entry layer says why it is lazy."""
    missing = []
    for path, node, _ in _all_function_level_imports():
        rel = path.relative_to(ROOT).as_posix()
        if _in_entry_layer(rel) and not _has_comment(path.read_text(encoding="utf-8").splitlines(), node):
            missing.append(f"{rel}:{node.lineno}")
    assert missing == []


def test_no_lazy_import_dodges_a_cycle():
    """A lazy import is only for start-up: the module it imports never imports the module importing it, directly
    or through others (imports for annotations only aside), so it could move to the top of the file."""
    graph = _import_graph(type_checking=False)
    cycles = []
    for path, node, names in _all_function_level_imports():
        rel = path.relative_to(ROOT).as_posix()
        importer = _module_name(path)
        for name in names:
            if (rel, name) in PENDING:
                continue
            while name not in graph.modules:  # `from rallyc.x import y` where y is a name, not a module
                name = name.rsplit(".", 1)[0]
            chain = graph.find_shortest_chain(importer=name, imported=importer) if name != importer else None
            if chain:
                cycles.append(f"{rel}:{node.lineno}: {' -> '.join(chain)}")
    assert cycles == []


@functools.cache
def _import_graph(type_checking: bool = True) -> grimp.ImportGraph:
    """grimp's graph of the package, with the imports under ``if TYPE_CHECKING:`` (as lint-imports counts them) or
    without; read it only."""
    return grimp.build_graph("rallyc", exclude_type_checking_imports=not type_checking, cache_dir=None)


def _contracts() -> configparser.ConfigParser:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter", encoding="utf-8")
    return config


def _listed(config: configparser.ConfigParser, contract: str, key: str) -> list[str]:
    return [line.strip() for line in config[f"importlinter:contract:{contract}"][key].splitlines() if line.strip()]


def _layers() -> list[list[str]]:
    """The layers of the ``layers`` contract, top to bottom, each a list of modules (side by side)."""
    return [[m.strip() for m in line.split("|")] for line in _listed(_contracts(), "layers", "layers")]


def _in(module: str, layer_module: str) -> bool:
    return module == layer_module or module.startswith(layer_module + ".")


def test_every_module_is_in_a_layer():
    """Every module of the package (but the package itself, the root of every layer) lies in a layer."""
    layered = [m for layer in _layers() for m in layer]
    graph = _import_graph()
    loose = sorted(m for m in graph.modules if m != "rallyc" and not any(_in(m, lm) for lm in layered))
    assert loose == []


def test_the_interop_contract_names_every_layer_below_the_facade():
    """Nothing below the facade imports interop: the contract's sources are every layer below rallyc.api."""
    layers = [m for layer in _layers() for m in layer]
    below = layers[layers.index("rallyc.api") + 1:]
    sources = _listed(_contracts(), "interop-from-the-top", "source_modules")
    assert sorted(sources) == sorted(m for m in below if m != "rallyc.interop")


#: import circles still in the code, type-only imports included, by the package that holds the whole circle, with
#: why; an entry whose package has no circle any more fails the test, so that the list only shrinks
KNOWN_CIRCLES = {
    "rallyc.rules": "the referee's modules name each other's types (issue 30: broken by the referee's restructuring)",
}


def test_no_import_circle_type_only_imports_included():
    """No two modules import each other, directly or through others, counting imports for annotations only."""
    imports = _import_graph()
    graph = nx.DiGraph()
    for module in imports.modules:
        graph.add_node(module)
        graph.add_edges_from((module, imported) for imported in imports.find_modules_directly_imported_by(module))
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    known = {p for p in KNOWN_CIRCLES if any(all(_in(m, p) for m in c) for c in circles)}
    assert [c for c in circles if not any(all(_in(m, p) for m in c) for p in KNOWN_CIRCLES)] == []
    assert sorted(set(KNOWN_CIRCLES) - known) == [], "no circle left there: delete its line from KNOWN_CIRCLES"


def test_names_the_compiler_loads_on_first_use_are_edges_of_the_contracts_graph():
    """``rallyc.compiler`` loads its names lazily (PEP 562); its type-only imports keep each edge in the graph."""
    from rallyc.compiler import _HOME

    imported = _import_graph().find_modules_directly_imported_by("rallyc.compiler")
    assert sorted({f"rallyc.compiler.{m}" for m in _HOME.values()} - imported) == []


def test_docs_layers_md_shows_the_layers_of_importlinter():
    """docs/layers.md's block lists the layers of .importlinter, top to bottom, ``rallyc.`` left out."""
    text = (ROOT / "docs" / "layers.md").read_text(encoding="utf-8")
    block = re.search(r"```text\n(.*?)```", text, re.S)
    assert block is not None
    shown = [[m.strip() for m in re.split(r"\s{2,}", line, maxsplit=1)[0].split("|")]
             for line in block.group(1).splitlines() if line and not line[0].isspace()]
    assert shown == [[m.removeprefix("rallyc.") for m in layer] for layer in _layers()]
