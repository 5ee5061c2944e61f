"""Name checks: every name a file uses must exist, and names that must be unique are.

``check_names(loaded, catalogue)`` looks at every document of a loaded project
(the root file and its includes) and reports, with a located diagnostic each:

- RC120 two stages with one name (in one rally, or among a file's one-off stages);
- RC121 two tilesets with one name defined in the project;
- RC122 one tile id defined twice in a tileset;
- RC130 a tile id no tileset in scope defines (with a did-you-mean);
- RC131 a tile id that is not written like a tile (three digits and a side: ``210b``);
- RC140 a ``boxes`` name that is no tileset in scope;
- RC141 an unknown option; RC142 an option given twice; RC143 an option value that option does not take;
- RC144 ``laps`` given more than once in a circuit;
- RC160 (warning) an option no referee variant plays yet (the registry says which);
- RC161 (warning) an option the referee plays, but not in this kind of design (SISU on a circuit);
- RC162 (warning) the custom race a design's options make is one no referee plays (a Time Trial under Speed Track
  rules, CUSTOM-13; Time cards with a Damage set other than DIRT, CUSTOM-19).

The option names the language knows are declared once, in :mod:`rallyc.model.options`.
"""

from __future__ import annotations

from difflib import get_close_matches
from typing import Iterable

from rallyc.diagnostics import Diagnostic, Span
from rallyc.model import codes as rc
from rallyc.model.options import OPTIONS as ALL_OPTIONS
from rallyc.model.options import OptionSpec, Variant, canonical, rule_span
from rallyc.model.pairings import CHOICES, pairing_problem
from rallyc.project.loader import Loaded
from rallyc.syntax import ast
from rallyc.tiles.catalogue import Catalogue, normalize_id

__all__ = ["check_names", "OPTIONS", "OptionSpec"]


#: Every option a design's ``options`` line may name; declared once in :mod:`rallyc.model.options`.
OPTIONS: dict[str, OptionSpec] = {n: o for n, o in ALL_OPTIONS.items() if o.in_options_line}


def _did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    close = get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


def check_names(loaded: Loaded, catalogue: Catalogue) -> list[Diagnostic]:
    """Name diagnostics (RC12x-RC14x) of every document of ``loaded`` (a :class:`rallyc.project.loader.Loaded`)."""
    diags: list[Diagnostic] = []
    diags += _duplicate_tilesets(loaded.documents)
    for doc in loaded.documents:
        for ts in doc.tilesets:
            diags += _tileset_ids(ts)
        for boxes in doc.boxes:
            diags += _boxes(boxes, loaded.tilesets)
        diags += _duplicate_stages(doc.stages, "this file")
        for rally in doc.rallies:
            diags += _duplicate_stages(rally.stages, "this rally")
            for stage in rally.stages:
                diags += _route_tiles(stage.items, catalogue)
            diags += _options(rally.options, RALLY_VARIANTS)
            diags += _pairing(rally.options, "stage")
        for stage in doc.stages:
            diags += _route_tiles(stage.items, catalogue)
        for area in doc.areas:
            diags += _route_tiles(area.items, catalogue)
        for circuit in doc.circuits:
            diags += _route_tiles(circuit.items, catalogue)
            diags += _options(circuit.options, CIRCUIT_VARIANTS)
            diags += _pairing(circuit.options, "circuit")
            diags += _laps(circuit.laps)
    return diags


def _first_note(span: Span | None, what: str) -> tuple[tuple[Span, str], ...]:
    return ((span, what),) if span is not None else ()


def _duplicate_tilesets(documents: list[ast.Document]) -> list[Diagnostic]:
    diags = []
    seen: dict[str, ast.Tileset] = {}
    for doc in documents:
        for ts in doc.tilesets:
            first = seen.get(ts.name.text)
            if first is None:
                seen[ts.name.text] = ts
                continue
            diags.append(Diagnostic.of(
                rc.RC121, f"tileset `{ts.name.text}` is defined twice", ts.name.span,
                "give one of them another name (a project tileset may replace a bundled one, but only once)",
                _first_note(first.name.span, "first defined here")))
    return diags


def _tileset_ids(ts: ast.Tileset) -> list[Diagnostic]:
    diags = []
    seen: dict[str, ast.TileDef] = {}
    for tile in ts.tiles:
        tid = normalize_id(tile.id.text)
        if tid is None:
            diags.append(_malformed(tile.id))
            continue
        first = seen.get(tid)
        if first is None:
            seen[tid] = tile
            continue
        diags.append(Diagnostic.of(
            rc.RC122, f"tile {tile.id.text} is defined twice in tileset `{ts.name.text}`", tile.id.span,
            "remove one definition, or correct the side (a or b) of one of them",
            _first_note(first.id.span, "first defined here")))
    return diags


def _malformed(ident: ast.Ident, catalogue: Catalogue | None = None) -> Diagnostic:
    close = catalogue.suggest(ident.text) if catalogue is not None else []
    hint = "a tile id is the three-digit number printed on the tile and its side, like 210b (101 has one face)"
    if close:
        hint = "did you mean " + " or ".join(f"`{c}`" for c in close[:3]) + "? " + hint
    return Diagnostic.of(rc.RC131, f"`{ident.text}` is not a tile id", ident.span, hint)


def _boxes(boxes: ast.Boxes, tilesets: dict[str, ast.Tileset]) -> list[Diagnostic]:
    diags = []
    seen: set[str] = set()
    for name in boxes.names:
        if name.text in seen:
            diags.append(Diagnostic.of(rc.RC145, f"box `{name.text}` is listed twice: its tiles count twice "
                                            "(two boxes owned)", name.span,
                                            "list it once if you own one box"))
        seen.add(name.text)
        if name.text not in tilesets:
            hint = _did_you_mean(name.text, tilesets) or ("boxes in scope: " + ", ".join(sorted(tilesets)))
            diags.append(Diagnostic.of(rc.RC140, f"no box (tileset) named `{name.text}`", name.span, hint))
    return diags


def _duplicate_stages(stages: list[ast.Stage], where: str) -> list[Diagnostic]:
    diags = []
    seen: dict[str, ast.Stage] = {}
    for stage in stages:
        first = seen.get(stage.name.text)
        if first is None:
            seen[stage.name.text] = stage
            continue
        diags.append(Diagnostic.of(
            rc.RC120, f"stage `{stage.name.text}` appears twice in {where}", stage.name.span,
            "give every stage its own name (SS1, SS2, ...)", _first_note(first.name.span, "first stage of that name")))
    return diags


def _route_tiles(items: list, catalogue: Catalogue) -> list[Diagnostic]:
    diags = []
    for item in items:
        if not isinstance(item, (ast.Step, ast.Scenery)):
            continue
        ident = item.tile
        if normalize_id(ident.text) is None:
            diags.append(_malformed(ident, catalogue))
        elif catalogue.get(ident.text) is None:
            close = catalogue.suggest(ident.text)
            if close:
                hint = "did you mean " + " or ".join(f"`{c}`" for c in close[:3]) + "?"
            else:
                hint = "no tileset in scope defines it: add its box with `use BOX` or define it in a tileset"
            diags.append(Diagnostic.of(rc.RC130, f"unknown tile {ident.text}", ident.span, hint))
    return diags


#: the referee variants that play the games of a rally (or stage), and of a circuit
RALLY_VARIANTS = frozenset({Variant.RALLY})
CIRCUIT_VARIANTS = frozenset({Variant.RX, Variant.ICE})


def _options(options: list[ast.Option], variants: frozenset[Variant]) -> list[Diagnostic]:
    diags = []
    seen: dict[str, ast.Option] = {}
    for opt in options:
        spec = OPTIONS.get(opt.name)
        if spec is None:
            hint = _did_you_mean(opt.name, OPTIONS) or ("known options: " + ", ".join(OPTIONS))
            diags.append(Diagnostic.of(rc.RC141, f"unknown option `{opt.name}`", opt.span, hint))
            continue
        if opt.name in seen:
            diags.append(Diagnostic.of(rc.RC142, f"option `{opt.name}` is given twice", opt.span,
                                          "keep one", _first_note(seen[opt.name].span, "first given here")))
            continue
        seen[opt.name] = opt
        value_diags = _option_value(opt, spec)
        diags += value_diags
        if not value_diags and not spec.refereed:
            diags.append(Diagnostic.of(
                rc.RC160, f"option `{opt.name}` is not refereed: `rallyc replay` does not check "
                         f"{rule_span(spec.rules)}", opt.span,
                "games on this design are refereed without these rules; `rallyc explain RULE-ID` prints a rule"))
        elif not value_diags and not spec.variants & variants:
            kind = "a circuit's races" if variants == CIRCUIT_VARIANTS else "a rally's stages"
            plays = " and ".join(sorted(v.value for v in spec.variants))
            diags.append(Diagnostic.of(
                rc.RC161, f"option `{opt.name}` is no rule of {kind}: only the {plays} referee plays it, and "
                         f"`rallyc replay` refuses its games with it on", opt.span,
                f"remove it, or move it to a design it belongs to ({rule_span(spec.rules)})"))
    return diags


def _pairing(options: list[ast.Option], racetrack: str) -> list[Diagnostic]:
    """RC162: the custom race the design's options make (a rally's stages, or a circuit) is one no referee plays."""
    named: dict[str, ast.Option] = {}
    for o in options:  # the valid choices only: a bad value is RC143's
        name = canonical(o.name)
        if name in CHOICES + ("repairs",) and name not in named and str(o.value) in (ALL_OPTIONS[name].values or ()):
            named[name] = o
    values = {name: str(o.value) for name, o in named.items()}
    problem = pairing_problem(racetrack, values)
    if problem is None:
        return []
    blame, why = problem
    opt = named.get(blame) or next(iter(named.values()))
    return [Diagnostic.of(rc.RC162, why, opt.span, "`rallyc replay` refuses the games of this race (docs/custom-races.md "
                                                     "lists the pairings it plays)")]


def _option_value(opt: ast.Option, spec: OptionSpec) -> list[Diagnostic]:
    if spec.values is None:
        if opt.value is not None:
            return [Diagnostic.of(rc.RC143, f"option `{opt.name}` takes no value, got `{opt.value}`", opt.span,
                                     f"write just `{opt.name}`")]
        return []
    choices = ", ".join(spec.values)
    if opt.value is None:
        if spec.value_optional:
            return []
        return [Diagnostic.of(rc.RC143, f"option `{opt.name}` needs a value: {choices}", opt.span,
                                 f"e.g. `{opt.name} {spec.values[0]}`")]
    if str(opt.value) not in spec.values:
        hint = _did_you_mean(str(opt.value), spec.values) or f"write one of: {choices}"
        return [Diagnostic.of(rc.RC143, f"option `{opt.name}` takes {choices}, not `{opt.value}`", opt.span,
                                 hint)]
    return []


def _laps(laps: list[ast.Laps]) -> list[Diagnostic]:
    return [Diagnostic.of(rc.RC144, "`laps` is given more than once", extra.span,
                             "give the number of laps once", _first_note(laps[0].span, "first given here"))
            for extra in laps[1:]]
