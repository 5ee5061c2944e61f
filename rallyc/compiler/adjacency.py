"""The one place rallyc reads networkx's private attributes: the node and adjacency dicts of a graph being built.

A ``networkx.DiGraph`` keeps its data in three dicts (networkx's documented "dict of dicts of dicts" layout):
``_node[n]`` is node ``n``'s attribute dict, ``_succ[u][v]`` is ``_pred[v][u]`` is the attribute dict of the
edge ``u -> v``, and ``_succ[n]``/``_pred[n]`` exist for every node. :mod:`rallyc.compiler.graph` writes a
track's spaces and moves into these dicts directly, for two reasons the public API cannot serve:

- a road laid again from its template (and a join repeated between two templates) *shares* one attribute dict
  per move of the template; ``add_edge``/``add_edges_from`` copy every attribute dict, and ``add_edge`` on a move
  that is there writes into its dict, which would change every move sharing it (hence
  :func:`rallyc.compiler.graph.replace_move`, which gives a move a dict of its own without reordering its
  neighbours, as removing and adding it again would);
- ``add_node``/``add_edge`` check their arguments and clear the graph's cache at every call, for the ~7 spaces
  and ~13 moves of every tile (nothing is cached on a graph being built).

What it saves, counted by callgrind (instructions, stable under load): compiling every ``examples/*.rally``
and a 1,990-tile stage (``rallyc.compilation.compiled.compile_path``, checks included) takes 1.52 G instructions with
the build writing these dicts and 2.33 G (+53%) with the same build through ``add_node``, ``add_edge`` and
``add_edges_from`` (tree 49018eb, networkx 3.6.1). Everything outside the build reads a compiled track
through networkx's public API only (``graph.nodes``, ``graph.successors``, ``graph.edges``...).

networkx has kept these three attributes since 2.0 (``pyproject.toml`` asks for >= 3.2);
``tests/test_graph_builder.py`` and the compiler's tests exercise every path that writes them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import networkx as nx

__all__ = ["GraphDicts", "graph_dicts"]

#: a space's (node's) or a move's (edge's) attribute dict
Attributes = dict[str, Any]


class GraphDicts(NamedTuple):
    """A ``DiGraph``'s own dicts (not copies): write a node into all three, an edge into ``succ`` and ``pred``
    (the same dict on both sides)."""

    #: node -> its attribute dict
    nodes: dict[str, Attributes]
    #: node -> {successor: the edge's attribute dict}
    succ: dict[str, dict[str, Attributes]]
    #: node -> {predecessor: the edge's attribute dict}
    pred: dict[str, dict[str, Attributes]]


def graph_dicts(graph: nx.DiGraph) -> GraphDicts:
    """The node, successor and predecessor dicts of ``graph`` itself, for the build to write (see the module's
    docstring for why). A graph written through them has no cached views to clear: call this on a graph
    being built, never on a compiled track."""
    return GraphDicts(graph._node, graph._succ, graph._pred)
