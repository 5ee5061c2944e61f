"""The rulebooks' ready-to-play designs in examples/: they parse, follow the published layouts
and use exactly the tiles the rulebooks list; once compiled, every stage runs from start to finish
through all its tiles and every tile sits where the published layout puts it.

Sources transcribed here as data (the rulebook pages only list tiles; the layouts come from the
Tabletop Simulator module github leberschnitzel/RallymanDirtTTS, converted to the hex grid in the
shared data file published-layouts.tsv):

- ``RULEBOOK_TILES``: Rallyman: DIRT rulebook, "Ready to Play" (Rally 1-6) and Rallyman: DIRT RX
  rulebook, "Ready to Play" pp. 21-28 (RX 1, RX 2, Auto Tour 1, Ice Track 1).
- ``PUBLISHED``: published-layouts.tsv (design, route step, tile, q, r, rotation).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rallyc.geometry.hexgrid import neighbour, opposite, own_to_world, rotation_for
from rallyc.compiler.roads import driven_turn
from rallyc.project.loader import load
from rallyc.syntax import ast
from rallyc.syntax.parser import parse
from rallyc.tiles.catalogue import Catalogue

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FILES = sorted(p.name for p in EXAMPLES.glob("*.rally"))
#: the rulebook's designs and the two of our own: the parameter lists below are never empty
assert len(FILES) == 13, FILES
#: examples of our own, not from a rulebook
OWN_DESIGNS = {"area-1.rally"}

#: (file, stage or None for a circuit) -> (where in the rulebook, the tiles it lists, one per copy)
RULEBOOK_TILES: dict[tuple[str, str | None], tuple[str, str]] = {
    ("rally-1.rally", "SS1"): ("DIRT rulebook, Ready to Play, Rally 1, Special Stage 1",
                               "201a 202a 203a 205a 208a 210b 213a 216a 217a 219a 227a"),
    ("rally-1.rally", "SS2"): ("DIRT rulebook, Ready to Play, Rally 1, Special Stage 2",
                               "201a 202a 203a 205a 208a 210b 213a 216a 217a 219a 227a"),
    ("rally-1.rally", "SS3"): ("DIRT rulebook, Ready to Play, Rally 1, Special Stage 3",
                               "202b 203a 205a 208a 210a 213a 216a 217a 219a 227a"),
    ("rally-2.rally", "SS1"): ("DIRT rulebook, Ready to Play, Rally 2, Special Stage 1",
                               "201a 202a 203a 204a 207a 209a 212b 214b 219b 223b 224a 228a 229a"),
    ("rally-2.rally", "SS2"): ("DIRT rulebook, Ready to Play, Rally 2, Special Stage 2",
                               "201b 202a 203b 206a 208a 215b 218a 220a 222b 225a 227b 231a 232b"),
    ("rally-2.rally", "SS3"): ("DIRT rulebook, Ready to Play, Rally 2, Special Stage 3",
                               "202a 203b 205a 210a 211b 213b 216a 217b 221b 226b 230b"),
    ("rally-3.rally", "SS1"): ("DIRT rulebook, Ready to Play, Rally 3, Special Stage 1",
                               "201a 202a 203a 208a 209b 211a 214a 216a 217a 218a 221b 223b 224b 225a 227a"),
    ("rally-3.rally", "SS2"): ("DIRT rulebook, Ready to Play, Rally 3, Special Stage 2",
                               "201a 202b 203b 206a 209a 212b 213b 214a 216b 219a 220a 221b 222a 224b 228a"),
    ("rally-3.rally", "SS3"): ("DIRT rulebook, Ready to Play, Rally 3, Special Stage 3",
                               "202a 203b 208a 209b 210a 211b 212a 213b 216a 217b 218a 222b 230b 231b"),
    ("rally-4.rally", "SS1"): ("DIRT rulebook, Ready to Play, Rally 4, Special Stage 1",
                               "202a 203a 204a 208a 209b 214a 224b 227a 231b"),
    ("rally-4.rally", "SS2"): ("DIRT rulebook, Ready to Play, Rally 4, Special Stage 2",
                               "201a 202b 203a 206b 209b 210b 213b 218a 220a 224b 226a 227a 231b"),
    ("rally-4.rally", "SS3"): ("DIRT rulebook, Ready to Play, Rally 4, Special Stage 3",
                               "202a 203a 206b 208a 213b 214a 218a 220a 226a 229a"),
    ("rally-5.rally", "SS1"): ("DIRT rulebook, Ready to Play, Rally 5, Special Stage 1",
                               "201a 202a 203a 204a 205a 207b 208b 210a 217a 218a 219a"),
    ("rally-5.rally", "SS2"): ("DIRT rulebook, Ready to Play, Rally 5, Special Stage 2",
                               "201a 202a 203a 204b 205b 207a 208a 210a 217a 218a 219a"),
    ("rally-5.rally", "SS3"): ("DIRT rulebook, Ready to Play, Rally 5, Special Stage 3",
                               "202a 203a 204a 205a 207a 208a 210a 217b 218b 219a"),
    ("rally-6.rally", "SS1"): ("DIRT rulebook, Ready to Play, Rally 6, Special Stage 1",
                               "201a 202b 203a 204a 208b 218a 219a 220a 222a 223a 226a 229b"),
    ("rally-6.rally", "SS2"): ("DIRT rulebook, Ready to Play, Rally 6, Special Stage 2",
                               "201a 202a 203a 205b 209b 210a 211b 214b 221b 225a 227a 231b 232b"),
    ("rally-6.rally", "SS3"): ("DIRT rulebook, Ready to Play, Rally 6, Special Stage 3",
                               "202a 203b 206b 207b 208a 212b 215a 217b 219b 220b 222a 229b"),
    ("rx-1.rally", None): ("RX rulebook, Ready to Play p. 21, RX 1",
                           "204a 205b 208a 209b 210a 218a 401b 404a 408a 410a 411a 415a"),
    ("rx-2.rally", None): ("RX rulebook, Ready to Play p. 22, RX 2",
                           "207a 208b 209a 216b 226b 229b 307a 315a 316a 401a 404b 405a 408a 411a"),
    ("auto-tour-1.rally", "SS1"): ("RX rulebook, Ready to Play p. 23, Auto Tour 1 - SS 1",
                                   "115b 201b 301a 302a 309a 313a 315a 324a 412a"),
    ("track-1.rally", None): ("RX rulebook, Ready to Play p. 24, Auto Tour 1 - Track 1",
                              "101a 104b 106a 106b 109a 111a 112a 119a 120b 136a 313a 401b 411a"),
    ("auto-tour-1.rally", "SS2"): ("RX rulebook, Ready to Play p. 25, Auto Tour 1 - SS 2",
                                   "111b 112b 201b 301a 302a 313b 314b 316a 324a"),
    ("track-2.rally", None): ("RX rulebook, Ready to Play p. 26, Auto Tour 1 - Track 2",
                              "101a 102b 105b 106b 114b 116b 116b 305a 308a 313a 320a"),
    ("auto-tour-1.rally", "SS3"): ("RX rulebook, Ready to Play p. 27, Auto Tour 1 - SS 3",
                                   "202b 203b 212b 215b 410b 414b"),
    ("ice-track-1.rally", None): ("RX rulebook, Ready to Play p. 28, Ice Track 1",
                                  "301b 304b 307b 308b 309b 310b 312b 316b 318b 322b 323b 324b"),
}

#: (file, stage) -> design name in PUBLISHED; designs whose layout is our own are not here
PUBLISHED_DESIGNS: dict[tuple[str, str | None], str] = {
    **{(f"rally-{n}.rally", f"SS{s}"): f"Rally {n} SS{s}" for n in range(1, 7) for s in (1, 2, 3)},
    ("auto-tour-1.rally", "SS3"): "Auto Tour 1 SS3",
    ("rx-1.rally", None): "RX 1",
    ("rx-2.rally", None): "RX 2",
    ("ice-track-1.rally", None): "Ice Track 1",
}
OWN_LAYOUTS = [("auto-tour-1.rally", "SS1"), ("auto-tour-1.rally", "SS2"), ("track-1.rally", None),
               ("track-2.rally", None)]

#: where the rulebook's list and the module's layout disagree on the side of a tile, the example
#: follows the rulebook; both sides have the same road edges, so the layout stays as published
SIDE_FROM_RULEBOOK = {("Rally 2 SS1", "203b"): "203a", ("Rally 3 SS2", "224a"): "224b"}

#: start and finish straights: the published positions do not tell which way round they were laid
START_FINISH = ("202", "203", "301", "302")
#: scenery fillers the layouts add around the roads (the rulebook lists do not count them)
FILLERS = ("901", "902", "903", "904", "905")

_PUBLISHED_TEXT = """\
Auto Tour 1 SS3|1|202b|-2|1|0
Auto Tour 1 SS3|7|203b|-3|3|5
Auto Tour 1 SS3|4|212b|0|1|1
Auto Tour 1 SS3|6|215b|-2|2|5
Auto Tour 1 SS3|3|410b|0|0|5
Auto Tour 1 SS3|2|414b|-1|1|3
Auto Tour 1 SS3|5|414b|-1|1|3
Auto Tour 1 SS3|-|901a|-2|0|3
Auto Tour 1 SS3|-|902b|-3|1|3
Auto Tour 1 SS3|-|903a|-1|0|3
Auto Tour 1 SS3|-|904a|-3|2|2
Auto Tour 1 SS3|-|905a|1|0|3
Ice Track 1|1|301b|0|1|4
Ice Track 1|7|304b|-2|2|2
Ice Track 1|4|307b|-2|1|2
Ice Track 1|12|308b|0|2|1
Ice Track 1|3|309b|-1|0|5
Ice Track 1|6|310b|-3|3|2
Ice Track 1|8|312b|-1|1|5
Ice Track 1|9|316b|-1|2|1
Ice Track 1|10|318b|-2|3|3
Ice Track 1|2|322b|0|0|0
Ice Track 1|5|323b|-3|2|4
Ice Track 1|11|324b|-1|3|2
RX 1|-|204a|0|2|2
RX 1|-|205b|-1|0|5
RX 1|-|208a|-2|3|3
RX 1|-|209b|-1|2|4
RX 1|-|210a|0|-1|5
RX 1|-|218a|-2|1|4
RX 1|-|401b|-1|1|2
RX 1|-|404a|-2|2|4
RX 1|-|408a|-1|3|0
RX 1|-|410a|1|1|0
RX 1|-|411a|0|0|1
RX 1|-|415a|0|1|1
RX 2|-|207a|-3|2|5
RX 2|-|208b|-2|1|5
RX 2|-|209a|-3|4|2
RX 2|-|216b|-1|1|1
RX 2|-|226b|-1|2|5
RX 2|-|229b|-1|0|4
RX 2|-|307a|-3|3|0
RX 2|-|315a|0|-1|5
RX 2|-|316a|-4|4|3
RX 2|-|401a|0|2|4
RX 2|-|404b|-2|3|2
RX 2|-|405a|0|1|1
RX 2|-|408a|-4|3|2
RX 2|-|411a|0|0|1
RX 2|-|904b|-2|2|2
Rally 1 SS1|11|201a|3|-2|0
Rally 1 SS1|1|202a|-1|1|2
Rally 1 SS1|10|203a|2|-2|3
Rally 1 SS1|3|205a|-1|0|3
Rally 1 SS1|6|208a|-1|-1|2
Rally 1 SS1|2|210b|0|0|0
Rally 1 SS1|5|213a|-2|-1|4
Rally 1 SS1|7|216a|0|-2|5
Rally 1 SS1|9|217a|1|-2|5
Rally 1 SS1|8|219a|0|-1|2
Rally 1 SS1|4|227a|-2|0|3
Rally 1 SS1|-|904a|1|0|3
Rally 1 SS1|-|903a|0|1|3
Rally 1 SS1|-|901a|-2|1|3
Rally 1 SS1|-|902a|-1|-2|3
Rally 1 SS1|-|905a|1|-1|3
Rally 1 SS2|11|201a|2|-3|5
Rally 1 SS2|1|202a|-2|-1|3
Rally 1 SS2|10|203a|1|-2|5
Rally 1 SS2|7|205a|-1|1|5
Rally 1 SS2|5|208a|-2|1|4
Rally 1 SS2|3|210b|-2|0|3
Rally 1 SS2|6|213a|-2|2|2
Rally 1 SS2|4|216a|-1|0|0
Rally 1 SS2|8|217a|0|0|1
Rally 1 SS2|2|219a|-1|-1|0
Rally 1 SS2|9|227a|0|-1|4
Rally 1 SS2|-|901b|1|-1|3
Rally 1 SS2|-|902a|-3|2|3
Rally 1 SS2|-|903a|2|-2|3
Rally 1 SS2|-|904b|0|-2|3
Rally 1 SS2|-|905a|-3|1|3
Rally 1 SS3|1|202b|1|-1|3
Rally 1 SS3|10|203a|1|0|3
Rally 1 SS3|4|205a|-1|-1|2
Rally 1 SS3|2|208a|0|-1|3
Rally 1 SS3|5|210a|-2|0|3
Rally 1 SS3|7|213a|-2|1|3
Rally 1 SS3|3|216a|0|-2|5
Rally 1 SS3|9|217a|0|0|5
Rally 1 SS3|6|219a|-1|0|0
Rally 1 SS3|8|227a|-1|1|2
Rally 1 SS3|-|901a|0|1|3
Rally 1 SS3|-|902a|-1|-2|3
Rally 1 SS3|-|903a|2|-1|3
Rally 1 SS3|-|904b|-3|1|3
Rally 1 SS3|-|905a|-2|2|3
Rally 2 SS1|13|201a|-3|0|3
Rally 2 SS1|1|202a|2|-3|0
Rally 2 SS1|12|203b|-2|0|3
Rally 2 SS1|5|204a|3|-1|2
Rally 2 SS1|2|207a|3|-3|3
Rally 2 SS1|3|209a|4|-3|0
Rally 2 SS1|10|212b|0|-1|5
Rally 2 SS1|6|214b|2|0|2
Rally 2 SS1|7|219b|1|1|2
Rally 2 SS1|11|223b|-1|0|2
Rally 2 SS1|4|224a|4|-2|1
Rally 2 SS1|8|228a|1|0|0
Rally 2 SS1|9|229a|0|0|3
Rally 2 SS2|13|201b|0|-2|3
Rally 2 SS2|1|202a|-3|2|5
Rally 2 SS2|12|203b|1|-2|3
Rally 2 SS2|11|206a|2|-2|3
Rally 2 SS2|4|208a|-1|2|2
Rally 2 SS2|6|215b|1|1|3
Rally 2 SS2|10|218a|3|-2|0
Rally 2 SS2|2|220a|-2|1|5
Rally 2 SS2|7|222b|2|1|2
Rally 2 SS2|3|225a|-2|2|3
Rally 2 SS2|8|227b|3|0|1
Rally 2 SS2|9|231a|3|-1|1
Rally 2 SS2|5|232b|0|1|5
Rally 2 SS3|1|202a|-3|1|5
Rally 2 SS3|11|203b|1|-1|2
Rally 2 SS3|8|205a|2|-1|2
Rally 2 SS3|6|210a|0|1|2
Rally 2 SS3|5|211b|0|0|5
Rally 2 SS3|9|213b|3|-2|0
Rally 2 SS3|4|216a|-1|1|2
Rally 2 SS3|10|217b|2|-2|5
Rally 2 SS3|2|221b|-2|0|5
Rally 2 SS3|7|226b|1|0|2
Rally 2 SS3|3|230b|-1|0|0
Rally 3 SS1|15|201a|2|-3|4
Rally 3 SS1|1|202a|-3|1|1
Rally 3 SS1|14|203a|2|-2|1
Rally 3 SS1|2|208a|-3|2|3
Rally 3 SS1|13|209b|2|-1|3
Rally 3 SS1|11|211a|4|-2|5
Rally 3 SS1|4|214a|-1|1|2
Rally 3 SS1|7|216a|1|1|2
Rally 3 SS1|5|217a|0|0|5
Rally 3 SS1|10|218a|4|-1|1
Rally 3 SS1|3|221b|-2|2|2
Rally 3 SS1|8|223b|2|0|5
Rally 3 SS1|9|224b|3|0|2
Rally 3 SS1|6|225a|1|0|0
Rally 3 SS1|12|227a|3|-1|2
Rally 3 SS2|15|201a|2|-2|4
Rally 3 SS2|1|202b|-3|0|4
Rally 3 SS2|14|203b|2|-1|4
Rally 3 SS2|2|206a|-3|1|4
Rally 3 SS2|11|209a|1|0|0
Rally 3 SS2|6|212b|-2|0|4
Rally 3 SS2|9|213b|1|-1|0
Rally 3 SS2|5|214a|-2|1|1
Rally 3 SS2|4|216b|-2|2|1
Rally 3 SS2|12|219a|1|1|2
Rally 3 SS2|10|220a|0|0|3
Rally 3 SS2|13|221b|2|0|1
Rally 3 SS2|8|222a|0|-1|5
Rally 3 SS2|3|224a|-3|2|3
Rally 3 SS2|7|228a|-1|0|2
Rally 3 SS3|1|202a|-1|-2|5
Rally 3 SS3|14|203b|-2|1|0
Rally 3 SS3|3|208a|1|-3|2
Rally 3 SS3|10|209b|1|0|1
Rally 3 SS3|6|210a|3|-4|5
Rally 3 SS3|11|211b|0|1|2
Rally 3 SS3|4|212a|2|-4|5
Rally 3 SS3|12|213b|0|0|5
Rally 3 SS3|5|216a|2|-3|2
Rally 3 SS3|2|217b|0|-3|5
Rally 3 SS3|9|218a|1|-1|4
Rally 3 SS3|13|222b|-1|1|2
Rally 3 SS3|7|230b|3|-3|1
Rally 3 SS3|8|231b|2|-2|2
Rally 4 SS1|1|202a|3|-2|5
Rally 4 SS1|9|203a|-3|3|5
Rally 4 SS1|4|204a|0|-1|3
Rally 4 SS1|2|208a|2|-1|2
Rally 4 SS1|8|209b|-2|2|1
Rally 4 SS1|3|214a|1|-1|3
Rally 4 SS1|5|224b|-1|-1|5
Rally 4 SS1|6|227a|-2|0|4
Rally 4 SS1|7|231b|-2|1|4
Rally 4 SS1|-|901a|-3|2|3
Rally 4 SS1|-|902a|1|-2|3
Rally 4 SS1|-|903a|2|-2|3
Rally 4 SS1|-|904a|-2|-1|3
Rally 4 SS1|-|905a|-1|0|3
Rally 4 SS2|13|201a|2|-4|4
Rally 4 SS2|1|202b|-3|2|0
Rally 4 SS2|12|203a|2|-3|4
Rally 4 SS2|7|206b|2|0|2
Rally 4 SS2|2|209b|-2|2|2
Rally 4 SS2|6|210b|1|1|2
Rally 4 SS2|10|213b|3|-3|5
Rally 4 SS2|8|218a|3|-1|1
Rally 4 SS2|11|220a|2|-2|2
Rally 4 SS2|5|224b|1|0|0
Rally 4 SS2|9|226a|3|-2|4
Rally 4 SS2|4|227a|0|0|5
Rally 4 SS2|3|231b|-1|1|2
Rally 4 SS2|-|901b|3|-4|3
Rally 4 SS2|-|902a|2|-1|3
Rally 4 SS2|-|903a|-2|1|3
Rally 4 SS2|-|904b|1|-1|3
Rally 4 SS2|-|905a|0|1|3
Rally 4 SS3|1|202a|-3|3|5
Rally 4 SS3|10|203a|3|-3|4
Rally 4 SS3|6|206b|0|0|3
Rally 4 SS3|9|208a|3|-2|1
Rally 4 SS3|3|213b|-3|2|3
Rally 4 SS3|8|214a|2|-1|5
Rally 4 SS3|5|218a|-1|0|5
Rally 4 SS3|2|220a|-2|2|0
Rally 4 SS3|4|226a|-2|1|2
Rally 4 SS3|7|229a|1|0|2
Rally 4 SS3|-|901a|1|-1|3
Rally 4 SS3|-|902a|-1|1|3
Rally 4 SS3|-|903a|0|-1|3
Rally 4 SS3|-|904a|2|-2|3
Rally 4 SS3|-|905a|-3|1|3
Rally 5 SS1|11|201a|-2|2|2
Rally 5 SS1|1|202a|-2|1|5
Rally 5 SS1|10|203a|-1|1|2
Rally 5 SS1|2|204a|-1|0|2
Rally 5 SS1|9|205a|0|0|2
Rally 5 SS1|8|207b|1|-1|5
Rally 5 SS1|5|208b|1|-2|2
Rally 5 SS1|6|210a|2|-3|5
Rally 5 SS1|3|217a|0|-1|1
Rally 5 SS1|7|218a|2|-2|1
Rally 5 SS1|4|219a|0|-2|4
Rally 5 SS1|-|901a|-3|2|3
Rally 5 SS1|-|902a|-1|-1|3
Rally 5 SS1|-|903a|-2|0|3
Rally 5 SS1|-|904a|2|-1|3
Rally 5 SS1|-|905a|1|0|3
Rally 5 SS2|11|201a|-1|0|0
Rally 5 SS2|1|202a|2|-2|1
Rally 5 SS2|10|203a|-2|0|0
Rally 5 SS2|5|204b|0|1|3
Rally 5 SS2|6|205b|-1|1|3
Rally 5 SS2|7|207a|-2|1|3
Rally 5 SS2|3|208a|1|0|4
Rally 5 SS2|4|210a|1|1|1
Rally 5 SS2|8|217a|-3|1|3
Rally 5 SS2|2|218a|2|-1|1
Rally 5 SS2|9|219a|-3|0|4
Rally 5 SS2|-|901a|0|0|3
Rally 5 SS2|-|902a|-2|2|3
Rally 5 SS2|-|903a|1|-1|3
Rally 5 SS2|-|904a|2|0|3
Rally 5 SS2|-|905a|-1|2|3
Rally 5 SS3|1|202a|2|-3|2
Rally 5 SS3|10|203a|1|0|2
Rally 5 SS3|8|204a|-1|1|3
Rally 5 SS3|5|205a|-1|-1|2
Rally 5 SS3|2|207a|1|-2|2
Rally 5 SS3|7|208a|-2|1|3
Rally 5 SS3|4|210a|0|-2|5
Rally 5 SS3|9|217b|0|1|2
Rally 5 SS3|6|218b|-2|0|4
Rally 5 SS3|3|219a|0|-1|2
Rally 5 SS3|-|901a|2|-1|3
Rally 5 SS3|-|902a|0|0|3
Rally 5 SS3|-|903a|1|-1|3
Rally 5 SS3|-|904a|-1|0|3
Rally 5 SS3|-|905a|-3|1|3
Rally 6 SS1|12|201a|-2|2|2
Rally 6 SS1|1|202b|-3|1|5
Rally 6 SS1|11|203a|-1|1|2
Rally 6 SS1|10|204a|0|0|2
Rally 6 SS1|5|208b|0|-2|5
Rally 6 SS1|7|218a|2|-2|0
Rally 6 SS1|3|219a|-1|0|1
Rally 6 SS1|8|220a|2|-1|1
Rally 6 SS1|2|222a|-2|0|5
Rally 6 SS1|4|223a|-1|-1|4
Rally 6 SS1|6|226a|1|-2|3
Rally 6 SS1|9|229b|1|-1|5
Rally 6 SS1|-|901a|-1|2|3
Rally 6 SS1|-|902a|1|0|3
Rally 6 SS1|-|903a|0|1|3
Rally 6 SS1|-|904a|0|-1|3
Rally 6 SS1|-|905a|-2|1|3
Rally 6 SS2|13|201a|3|1|0
Rally 6 SS2|1|202a|-4|0|4
Rally 6 SS2|12|203a|2|1|0
Rally 6 SS2|11|205b|1|1|3
Rally 6 SS2|3|209b|-3|1|2
Rally 6 SS2|7|210a|0|0|1
Rally 6 SS2|8|211b|-1|0|4
Rally 6 SS2|4|214b|-2|0|5
Rally 6 SS2|2|221b|-4|1|3
Rally 6 SS2|5|225a|-1|-1|5
Rally 6 SS2|6|227a|0|-1|0
Rally 6 SS2|10|231b|0|1|3
Rally 6 SS2|9|232b|-1|1|3
Rally 6 SS2|-|901a|3|0|3
Rally 6 SS2|-|902a|-3|0|3
Rally 6 SS2|-|903a|2|0|3
Rally 6 SS2|-|904a|-2|1|3
Rally 6 SS2|-|905a|1|0|3
Rally 6 SS3|1|202a|3|-1|0
Rally 6 SS3|12|203b|-3|2|4
Rally 6 SS3|9|206b|-2|1|4
Rally 6 SS3|5|207b|0|0|5
Rally 6 SS3|2|208a|2|-1|3
Rally 6 SS3|10|212b|-2|0|5
Rally 6 SS3|4|215a|1|-1|2
Rally 6 SS3|8|217b|-2|2|3
Rally 6 SS3|3|219b|2|-2|5
Rally 6 SS3|7|220b|-1|2|1
Rally 6 SS3|11|222a|-3|1|4
Rally 6 SS3|6|229b|-1|1|4
Rally 6 SS3|-|901a|-3|3|3
Rally 6 SS3|-|902a|0|-1|3
Rally 6 SS3|-|903a|1|0|3
Rally 6 SS3|-|904a|0|1|3
Rally 6 SS3|-|905a|-1|0|3
"""


def _published() -> dict[str, list[tuple[str, str, int, int, int]]]:
    out: dict[str, list[tuple[str, str, int, int, int]]] = {}
    for line in _PUBLISHED_TEXT.splitlines():
        design, step, tile, q, r, rot = line.split("|")
        out.setdefault(design, []).append((step, tile, int(q), int(r), int(rot)))
    return out


PUBLISHED = _published()


# ------------------------------------------------------------------ helpers

def _loaded(name: str):
    return load(EXAMPLES / name)


def _design_node(doc: ast.Document):
    nodes = [n for n in doc.items if isinstance(n, (ast.Rally, ast.Circuit, ast.Stage))]
    assert len(nodes) == 1, "one design per example file"
    return nodes[0]


def _part(name: str, stage: str | None):
    """The stage (or the circuit) of an example, as written."""
    loaded = _loaded(name)
    node = _design_node(loaded.root)
    if stage is None:
        assert isinstance(node, ast.Circuit)
        return node, loaded
    assert isinstance(node, ast.Rally)
    return next(s for s in node.stages if s.name.text == stage), loaded


def _physical_tiles(part) -> Counter:
    """The tiles a design uses, one per physical tile: a tile driven on two of its roads counts once."""
    seen: dict[str, set] = {}
    count: Counter = Counter()
    for step in part.steps:
        tile = step.tile.text
        roads = seen.setdefault(tile, set())
        if step.road is not None and roads and step.road not in roads:
            roads.add(step.road)  # the same tile again, on another of its roads
            continue
        roads.add(step.road)
        count[tile] += 1
    for sc in part.scenery:
        if not sc.tile.text.startswith(FILLERS):
            count[sc.tile.text] += 1
    return count


def _catalogue(loaded) -> Catalogue:
    return Catalogue.from_tilesets(loaded.tilesets)


def _walk(steps: list[ast.Step], catalogue: Catalogue) -> list[tuple[str, int, int, int]]:
    """Lay a route on the grid by hand, independently of the compiler: (tile, q, r, rot) per step.

    The first step starts at its ``at`` cell (or 0 0 rot 0); each next step enters by the edge
    facing the previous exit; the turn word or ``reversed`` picks which way its road is driven.
    """
    out = []
    cell, entry_world = None, None
    for step in steps:
        info = catalogue.get(step.tile.text)
        road = info.roads[(step.road or 1) - 1]
        forward = not step.reversed
        if step.turn in ("left", "right"):
            forward = driven_turn(road, True).startswith(step.turn)
        own_in, own_out = (road.entry, road.exit) if forward else (road.exit, road.entry)
        if cell is None:
            pos = step.position
            cell, rot = ((pos.q, pos.r), pos.rot) if pos else ((0, 0), 0)
        else:
            rot = rotation_for(own_in, entry_world)
        out.append((info.id, cell[0], cell[1], rot))
        if own_out == "end":
            break
        exit_world = own_to_world(own_out, rot)
        cell, entry_world = tuple(neighbour(cell, exit_world)), opposite(exit_world)
    return out


def _same_placement(got: list[tuple[str, int, int, int]], want: list[tuple[str, int, int, int]]) -> None:
    """Equal up to one translation of the grid; start/finish straights may be 180 degrees off."""
    assert [t for t, *_ in got] == [t for t, *_ in want]
    dq, dr = want[0][1] - got[0][1], want[0][2] - got[0][2]
    for (tile, q, r, rot), (_, wq, wr, wrot) in zip(got, want):
        assert (q + dq, r + dr) == (wq, wr), f"{tile} at {q} {r}, published at {wq} {wr}"
        if tile.startswith(START_FINISH):
            assert rot % 3 == wrot % 3, f"{tile} rot {rot}, published rot {wrot} (or 180 degrees off)"
        else:
            assert rot == wrot, f"{tile} at {wq} {wr}: rot {rot}, published rot {wrot}"


def _published_steps(design: str) -> list[tuple[str, int, int, int]]:
    rows = sorted((int(s), t, q, r, rot) for s, t, q, r, rot in PUBLISHED[design] if s != "-")
    return [(SIDE_FROM_RULEBOOK.get((design, t), t), q, r, rot) for _, t, q, r, rot in rows]


def _published_scenery(design: str) -> set[tuple[str, int, int, int]]:
    return {(t, q, r, rot) for s, t, q, r, rot in PUBLISHED[design] if t.startswith(FILLERS)}


# ------------------------------------------------------------------ the files as written

@pytest.mark.parametrize("name", FILES)
def test_example_parses_and_loads_without_diagnostics(name):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    _, diagnostics = parse(text, name)
    assert diagnostics == []
    assert _loaded(name).diagnostics == []


def test_every_rulebook_design_has_an_example():
    """Rally 1-6 (core rulebook), RX 1, RX 2, Auto Tour 1 with its two tracks, Ice Track 1; the other
    examples are our own designs (a rally area)."""
    assert {f for f, _ in RULEBOOK_TILES} == set(FILES) - OWN_DESIGNS


@pytest.mark.parametrize("name", sorted(set(FILES) - OWN_DESIGNS))
def test_example_names_its_source_author_and_layout_origin(name):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    node = _design_node(_loaded(name).root)
    assert node.author, "the author as the rulebook credits them"
    assert any(m.key == "source" and "rulebook" in m.value for m in node.meta)
    assert "github leberschnitzel/RallymanDirtTTS" in text
    own = [s for f, s in OWN_LAYOUTS if f == name]
    if own:
        assert text.count("OUR OWN LAYOUT") >= len(own), "an own layout says so"


@pytest.mark.parametrize("key", sorted(RULEBOOK_TILES, key=str), ids=lambda k: f"{k[0]}:{k[1] or 'circuit'}")
def test_design_uses_exactly_the_tiles_the_rulebook_lists(key):
    """TRACK-TILE-01: tiles named by number and side, as in the rulebooks' Ready to Play lists."""
    where, listed = RULEBOOK_TILES[key]
    part, _ = _part(*key)
    assert _physical_tiles(part) == Counter(listed.split()), where


@pytest.mark.parametrize("key", [k for k in PUBLISHED_DESIGNS if k[1] is not None],
                         ids=lambda k: f"{k[0]}:{k[1]}")
def test_route_words_lay_the_stage_as_published(key):
    """The turn words and `reversed` of each step, walked by hand, give the published cells and rotations."""
    part, loaded = _part(*key)
    design = PUBLISHED_DESIGNS[key]
    _same_placement(_walk(part.steps, _catalogue(loaded)), _published_steps(design))
    got = {(s.tile.text, s.position.q, s.position.r, s.position.rot) for s in part.scenery}
    assert got == _published_scenery(design)


@pytest.mark.parametrize("key", [k for k in PUBLISHED_DESIGNS if k[1] is None], ids=lambda k: k[0])
def test_circuit_tiles_sit_where_published(key):
    """Absolute form: every tile line is at its published cell and rotation (start tile maybe 180 off)."""
    part, _ = _part(*key)
    design = PUBLISHED_DESIGNS[key]
    want = {t: (q, r, rot) for _, t, q, r, rot in PUBLISHED[design] if not t.startswith(FILLERS)}
    for step in part.steps:
        q, r, rot = want[step.tile.text]
        pos = step.position
        assert (pos.q, pos.r) == (q, r), step.tile.text
        if step.tile.text.startswith(START_FINISH):
            assert pos.rot % 3 == rot % 3
        else:
            assert pos.rot == rot, step.tile.text
    assert {(s.tile.text, s.position.q, s.position.r, s.position.rot) for s in part.scenery} == \
        _published_scenery(design)


@pytest.mark.parametrize("key", [k for k in OWN_LAYOUTS if k[1] is not None], ids=lambda k: f"{k[0]}:{k[1]}")
def test_own_stage_layout_is_a_legal_chain(key):
    """TRACK-STAGE-07: our own layouts run start -> finish -> assistance with no two tiles on one cell
    (a tile driven on its two roads is the one tile on its cell)."""
    part, loaded = _part(*key)
    walked = _walk(part.steps, _catalogue(loaded))
    assert len(walked) == len(part.steps)
    cells: dict[tuple[int, int], tuple[str, int]] = {}
    for tile, q, r, rot in walked:
        assert cells.setdefault((q, r), (tile, rot)) == (tile, rot), f"two tiles at {q} {r}"
    assert walked[0][0].startswith(("301", "202")) and walked[-2][0].startswith(("302", "203"))
    assert walked[-1][0].startswith("201")


# ------------------------------------------------------------------ compiled

def _compile(name: str):
    from rallyc.compilation.pipeline import compile_loaded

    loaded = _loaded(name)
    result = compile_loaded(loaded)
    return loaded, result


def _errors(result):
    return [d for d in result.diagnostics if d.severity == "error"]


@pytest.mark.parametrize("name", FILES)
def test_example_compiles_without_errors(name):
    _, result = _compile(name)
    assert [f"{d.code} {d.span.line if d.span else ''}: {d.message}" for d in _errors(result)] == []
    assert len(result.designs) == 1


def _track(name: str, stage: str | None):
    _, result = _compile(name)
    assert not _errors(result)
    design = result.designs[0]
    return design.track(stage) if stage else design.tracks[0]


@pytest.mark.parametrize("key", [k for k in RULEBOOK_TILES if k[1] is not None], ids=lambda k: f"{k[0]}:{k[1]}")
def test_compiled_stage_runs_from_start_to_finish_through_every_listed_tile(key):
    """TRACK-STAGE-07, TRACK-STAGE-08: one start, a finish reachable from it, every listed tile on the way
    (the Assistance tile after the finish)."""
    import networkx as nx

    track = _track(*key)
    where, listed = RULEBOOK_TILES[key]
    placed = [p for p in track.placed if not p.scenery]
    tiles = Counter()
    seen = set()
    for p in placed:
        if (p.tile, p.q, p.r) not in seen:
            tiles[p.tile] += 1
        seen.add((p.tile, p.q, p.r))
    tiles.update(p.tile for p in track.placed if p.scenery and not p.tile.startswith(FILLERS))
    assert tiles == Counter(Catalogue_id(t) for t in listed.split()), where
    starts, finishes = track.start_spaces, track.finish_spaces
    assert starts and finishes
    reach = set().union(*(nx.descendants(track.graph, s) | {s} for s in starts))
    assert any(f in reach for f in finishes)
    steps_reached = {track.graph.nodes[s]["step"] for s in reach}
    driven = {p.step for p in placed if not p.tile.startswith("201")}  # Assistance: a place, not a road
    assert driven <= steps_reached, "every tile of the stage is driven"
    assert track.has_assistance == ("201a" in listed or "201b" in listed)


def Catalogue_id(tile: str) -> str:  # noqa: N802 - the catalogue's canonical id (101a -> 101)
    from rallyc.tiles.catalogue import normalize_id

    return normalize_id(tile)


@pytest.mark.parametrize("key", sorted(PUBLISHED_DESIGNS, key=str), ids=lambda k: f"{k[0]}:{k[1] or 'circuit'}")
def test_compiled_placement_equals_the_published_layout(key):
    """Cells and rotations of the compiled design = published-layouts.tsv, up to one translation."""
    track = _track(*key)
    design = PUBLISHED_DESIGNS[key]
    got = [(p.tile, p.q, p.r, p.rot) for p in track.placed if not p.scenery]
    if key[1] is None:
        want_by_tile = {t: (t, q, r, rot) for _, t, q, r, rot in PUBLISHED[design] if not t.startswith(FILLERS)}
        want = [want_by_tile[t] for t, *_ in got]
    else:
        want = _published_steps(design)
    _same_placement(got, want)
    dq, dr = want[0][1] - got[0][1], want[0][2] - got[0][2]
    scenery = {(p.tile, p.q + dq, p.r + dr, p.rot) for p in track.placed if p.scenery}
    assert scenery == _published_scenery(design)
