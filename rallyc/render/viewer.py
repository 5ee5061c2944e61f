"""The replay viewer: one self-contained HTML file to step through a recorded game in a browser.

``rallyc replay GAME --html game.html`` writes it. The page holds everything it shows: the map of
each stage (or the circuit) as inline SVG, and the replay as JSON data; a small script moves the
cars. It loads nothing from the network and runs no script but its own.

What it shows comes from the rules interpreter's replay (``rallyc.records.replay_record``) and the
record itself (the dice faces it read): per turn the player, dice with faces, the spaces driven, the
gear and Time card, seconds gained or spent, the rule IDs the replay reports for the turn (when it
reports them), and the standings after the turn. Nothing here re-applies the rules.

Record text (names, titles) goes into the page as JSON inside ``<script type="application/json">``
with ``<``, ``>``, ``&``, U+2028 and U+2029 written as ``\\u`` escapes, so no record can close the
script element or break the script that reads it; the SVG's text is XML-escaped by the renderer.
"""

from __future__ import annotations

import html
import json
import math
from typing import Mapping, Sequence

from rallyc.compiler.track import Track
from rallyc.data import rulebook
from rallyc.render import style
from rallyc.render.document import MapOptions, render_map
from rallyc.render.geometry import HexLayout
from rallyc.render.shapes import track_shapes

__all__ = ["viewer_data", "viewer_html", "script_json", "turn_words", "rule_groups", "space_points", "map_svg",
           "TILE_MM"]

TILE_MM = 200.0


def script_json(value: object) -> str:
    """``value`` as JSON safe inside an HTML ``<script>`` element (no ``</script>``, no line separators)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def space_points(track: Track, catalogue) -> dict[str, list[float]]:
    """Where a car stands on each space of the viewer's map (its label point, map units)."""
    shapes = track_shapes(track, HexLayout(TILE_MM / math.sqrt(3)), catalogue)
    return {sid: [round(sh.label[0], 2), round(sh.label[1], 2)] for sid, sh in shapes.spaces.items()}


def _tile_of(track: Track, sid: str | None) -> str:
    """``tile #3 (202a)`` of a space, or an empty string."""
    space = track.spaces.get(sid) if sid else None
    return f"tile #{space.step} ({space.tile})" if space is not None else ""


def turn_words(turn: Mapping, track: Track) -> list[str]:
    """One turn in the rulebook's words: who drove how far in which Gear, the Time card, seconds, damage, a
    Loss of Control, the end of the stage; no space ids."""
    who = turn["player"]
    path = [p for p in turn.get("path") or [] if p]
    gear = turn.get("gear")
    gear_text = f"in Gear {gear}" if gear is not None else "without a Gear"
    if path:
        span = _tile_of(track, turn.get("start")), _tile_of(track, path[-1])
        where = f" from {span[0]} to {span[1]}" if span[0] and span[1] and span[0] != span[1] else \
            (f" on {span[1]}" if span[1] else "")
        words = [f"{who} drives {len(path)} space{'s' if len(path) != 1 else ''} {gear_text}{where}."]
    else:
        words = [f"{who} does not move ({gear_text})."]
    card = turn.get("card") or {}
    if card.get("seconds") is not None:
        words.append(f"Time card: {card['seconds']} seconds.")
    if turn.get("seconds_gained"):
        words.append(f"Gains {turn['seconds_gained']} seconds (tokens).")
    if turn.get("seconds_spent"):
        words.append(f"Spends {turn['seconds_spent']} seconds.")
    loc = turn.get("loss_of_control")
    if loc:
        words.append(f"Loss of Control ({loc.get('cause')}) in Gear {loc.get('gear')} on {_tile_of(track, loc.get('space'))}.")
    if turn.get("damage"):
        words.append("Damage: " + ", ".join(str(d) for d in turn["damage"]) + ".")
    for key, text in (("finished", "Crosses the finish line."), ("retired", "Retires."), ("disqualified", "Disqualified.")):
        if turn.get(key):
            words.append(text)
    return words


def rule_groups(rule_ids: Sequence[str]) -> list[dict]:
    """The rule IDs of a turn grouped by the rulebook chapter that has them, in order of first use."""
    groups: dict[str, list[str]] = {}
    for rid in dict.fromkeys(rule_ids):
        found = rulebook.get(rid)
        # the chapter: "Core: Corners > Speed Limitations" and "Core: Corners" are one group
        chapter = found.section.split(">")[0].split(";")[0].strip() if found is not None else "Other"
        groups.setdefault(chapter, []).append(rid)
    return [{"section": section, "ids": ids} for section, ids in groups.items()]


def _turn_view(turn: Mapping, recorded: Mapping | None) -> dict:
    """What the page shows of one turn: the replay's outcome and the dice the record gives."""
    recorded = recorded or {}
    card = turn.get("card") or recorded.get("card") or {}
    dice = [{"die": str(d.get("die", "")), "face": str(d.get("face", "")), "to": str(d.get("to") or "")}
            for d in recorded.get("dice", []) if isinstance(d, Mapping)]
    rules = turn.get("rules") or turn.get("rule_ids") or turn.get("applied") or []
    return {
        "player": turn["player"], "start": turn.get("start"), "path": list(turn.get("path") or []),
        "end": turn.get("end"), "gear": turn.get("gear"), "mode": recorded.get("mode"),
        "card": {"gear": card.get("gear"), "seconds": card.get("seconds")} if card else None,
        "gained": turn.get("seconds_gained") or 0, "spent": turn.get("seconds_spent") or 0,
        "damage": list(turn.get("damage") or []), "dice": dice, "rules": [str(r) for r in rules],
        "text": turn.get("text", ""),
    }


def _standings(state: dict[str, dict], track: Track, race: bool) -> list[dict]:
    """The cars in race order: the one furthest along the road (most laps on a circuit) first."""
    def key(name: str):
        car = state[name]
        space = track.spaces.get(car["space"]) if car["space"] else None
        progress = space.progress if space is not None else -1.0
        done = 0 if car.get("finished") else 1
        return (done, car.get("position") or 0, -(car.get("laps") or 0), -progress, name)

    return [dict(state[name], name=name, tile=_tile_of(track, state[name]["space"])) for name in sorted(state, key=key)]


def _contact(state: dict[str, dict], car: dict, turn: Mapping) -> None:
    """Full Contact: who pushed whom (RX-PUSH, RX-THROUGH): the cars pushed move and take their damage."""
    for ev in turn.get("contact") or ():
        for hit in ev.get("cars", ()):
            other = state.setdefault(hit["car"], {"space": None, "gear": None, "damage": 0, "seconds": 0,
                                                  "laps": 0, "joker": "todo", "status": ""})
            other["space"] = hit.get("to") or other["space"]
            other["damage"] += len(hit.get("damage") or ())
        car["damage"] += len(ev.get("impact") or ())


def _stage_view(name: str, label: str, track: Track, catalogue, rounds: Sequence[Mapping],
                recorded_turns: Sequence[Mapping], players: Sequence[Mapping], grid: Sequence[Mapping] | None,
                laps: int | None, title: str, author: str | None) -> dict:
    colours = {p["name"]: p["colour"] for p in players}
    state: dict[str, dict] = {}
    for g in grid or ():
        state[g["player"]] = {"space": g["space"], "gear": None, "damage": 0, "seconds": 0, "laps": 0,
                              "joker": "todo", "status": ""}
    initial = _standings(state, track, grid is not None) if state else []
    queue = list(recorded_turns)
    steps = []
    for rnd in rounds:
        for turn in rnd.get("turns", []):
            recorded = None
            for i, rt in enumerate(queue):
                if rt.get("player") == turn["player"] and rt.get("round", rnd["round"]) == rnd["round"]:
                    recorded = queue.pop(i)
                    break
            view = _turn_view(turn, recorded)
            view["round"] = rnd["round"]
            view["words"] = turn_words(turn, track)
            view["groups"] = rule_groups(view["rules"])
            car = state.setdefault(turn["player"], {"space": None, "gear": None, "damage": 0, "seconds": 0,
                                                    "laps": 0, "joker": "todo", "status": ""})
            car["space"] = turn.get("end") or car["space"]
            car["gear"] = turn.get("gear")
            car["damage"] += len(turn.get("damage") or ())
            if view["card"] and view["card"].get("seconds") is not None:
                car["seconds"] += int(view["card"]["seconds"])
            if "laps" in turn:
                car["laps"] = turn.get("laps") or 0
                car["joker"] = turn.get("joker") or car["joker"]
            _contact(state, car, turn)
            view["contact"] = [dict(ev) for ev in turn.get("contact") or ()]
            status = ("finished" if turn.get("finished") else "DSQ" if turn.get("disqualified")
                      else "retired" if turn.get("retired") else "")
            car["status"] = status
            car["finished"] = bool(turn.get("finished"))
            car["position"] = turn.get("position")
            view["standings"] = _standings(state, track, grid is not None)
            steps.append(view)
    svg = map_svg(track, catalogue, title, author, label)
    return {"name": name, "label": label, "svg": svg, "points": space_points(track, catalogue),
            "colours": {n: style.CAR_COLOURS.get(c.lower(), c if c.startswith("#") else "#8a8a8a")
                        for n, c in colours.items()},
            "initial": initial, "steps": steps, "laps": laps, "unit": round(TILE_MM / math.sqrt(3), 3)}


def map_svg(track: Track, catalogue, title: str, author: str | None, label: str) -> str:
    """The viewer's map of a track: the screen-size map, as an inline ``<svg>`` (no XML declaration)."""
    svg = render_map(track, catalogue, title=title, author=author, stage_label=label, options=MapOptions())[0]
    return svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg


def viewer_data(data: Mapping, report, tracks: Sequence[Track], catalogue) -> dict:
    """Everything the page shows, as plain data: per stage the map, the points of its spaces and the turns."""
    players = data["players"]
    title = str(data.get("design") or data.get("title") or getattr(report, "title", "") or "Replay")
    stages = []
    if "race" in data:
        track = tracks[0]
        stages.append(_stage_view(track.name, f"{track.name} - RX race", track, catalogue, report.rounds,
                                  data["race"].get("turns", []), players, report.grid, report.laps, title, None))
    else:
        for i, entry in enumerate(report.stages):
            track = tracks[i] if i < len(tracks) else tracks[-1]
            recorded = data["stages"][i].get("turns", []) if i < len(data.get("stages", [])) else []
            stages.append(_stage_view(entry["stage"], f"Stage {entry['stage']}", track, catalogue,
                                      entry.get("rounds", []), recorded, players, None, None, title, None))
    error = None
    if getattr(report, "error", None) is not None:
        e = report.error
        error = f"the replay stops at {e.path}: [{e.rule_id}] {e.message}"
    used = sorted({rid for st in stages for t in st["steps"] for rid in t["rules"]})
    rules = {rid: found.statement for rid in used if (found := rulebook.get(rid)) is not None}
    return {"title": title, "stages": stages, "error": error, "rules": rules,
            "players": [{"name": p["name"], "colour": p["colour"]} for p in players]}


def viewer_html(data: Mapping, report, tracks: Sequence[Track], catalogue) -> str:
    """The replay viewer page (see the module docstring)."""
    view = viewer_data(data, report, tracks, catalogue)
    return (_PAGE.replace("@TITLE@", html.escape(view["title"]))
            .replace("@DATA@", script_json(view))
            .replace("@SCRIPT@", _SCRIPT))


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>@TITLE@ - rallyc replay</title>
<style>
body { font-family: DejaVu Sans, Arial, Helvetica, sans-serif; margin: 0; color: #111; background: #fafafa; }
header { padding: 8px 14px; background: #1f3a5f; color: #fff; }
header h1 { font-size: 20px; margin: 0; display: inline-block; margin-right: 16px; }
#stages button { margin-right: 4px; }
main { display: flex; gap: 12px; padding: 10px; align-items: flex-start; }
#map { flex: 1 1 60%; min-width: 320px; background: #fff; border: 1px solid #ccc; }
#map svg { width: 100%; height: auto; display: block; }
aside { flex: 0 0 380px; font-size: 14px; }
.controls { display: flex; gap: 4px; align-items: center; margin-bottom: 6px; flex-wrap: wrap; }
.controls button { font-size: 15px; min-width: 36px; }
#slider { width: 100%; }
#where { font-weight: bold; margin: 6px 0; }
#turn { background: #fff; border: 1px solid #ccc; padding: 6px 8px; min-height: 90px; }
#turn .dice span { display: inline-block; border: 1px solid #333; border-radius: 4px; padding: 1px 5px; margin: 2px;
  font-family: DejaVu Sans Mono, monospace; font-size: 13px; background: #fff; }
#turn .dice span.bad { background: #ffd9d9; border-color: #b00; }
table { border-collapse: collapse; width: 100%; margin-top: 8px; background: #fff; }
th, td { border: 1px solid #ccc; padding: 3px 5px; text-align: left; font-size: 13px; }
.swatch { display: inline-block; width: 14px; height: 10px; border: 1px solid #000; margin-right: 4px; }
#error { color: #b00; font-weight: bold; }
.help { color: #555; font-size: 12px; }
#turn .words { font-size: 15px; margin-bottom: 4px; }
details.rules { margin-top: 4px; font-size: 13px; }
details.rules div { margin: 2px 0 2px 8px; }
details.rules abbr { text-decoration: underline dotted; cursor: help; }
</style>
</head>
<body>
<header><h1 id="title"></h1><span id="stages"></span></header>
<main>
<div id="map"></div>
<aside>
<div class="controls">
<button id="round-back" title="previous round (Page Up / Arrow Up)">&laquo; round</button>
<button id="back" title="previous turn (Arrow Left)">&lsaquo; turn</button>
<button id="forward" title="next turn (Arrow Right)">turn &rsaquo;</button>
<button id="round-forward" title="next round (Page Down / Arrow Down)">round &raquo;</button>
<button id="play" title="play / pause (Space)" aria-pressed="false">&#9654; play</button>
<label>speed <select id="speed" title="turns a second">
<option value="2000">0.5 &times;</option><option value="1000" selected>1 &times;</option>
<option value="500">2 &times;</option><option value="250">4 &times;</option></select></label>
<span id="counter"></span>
</div>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="turn">
<div id="where"></div>
<div id="turn"></div>
<table id="standings"><thead><tr><th>#</th><th>car</th><th>gear</th><th>damage</th><th>time</th><th>tile</th></tr></thead><tbody></tbody></table>
<p id="error"></p>
<p class="help">Space: play / pause. Arrow keys: turn by turn (left/right), round by round (up/down). Made by rallyc from the record and its replay.</p>
</aside>
</main>
<script type="application/json" id="replay-data">@DATA@</script>
<script>@SCRIPT@</script>
</body>
</html>
"""

_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var SVGNS = "http://www.w3.org/2000/svg";
  var stage = 0, step = 0;  // step 0: before the first turn; step k: after turn k
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    return e;
  }
  function time(s) {
    if (s === null || s === undefined) { return "-"; }
    var m = Math.floor(s / 60), r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }
  function textColour(c) { return /^#(f|e|d)/i.test(c) ? "#000" : "#fff"; }
  document.getElementById("title").textContent = data.title;
  if (data.error) { document.getElementById("error").textContent = data.error; }
  var stagesBox = document.getElementById("stages");
  data.stages.forEach(function (s, i) {
    var b = el("button", {"data-stage": String(i)}, s.name);
    b.addEventListener("click", function () { showStage(i); });
    stagesBox.appendChild(b);
  });
  var slider = document.getElementById("slider");
  var overlay = null;
  function showStage(i) {
    stage = i; step = 0;
    var s = data.stages[i];
    var box = document.getElementById("map");
    box.innerHTML = s.svg;
    var svg = box.querySelector("svg");
    overlay = svgEl("g", {id: "cars"});
    svg.appendChild(overlay);
    slider.max = String(s.steps.length);
    show();
  }
  function standingsAt(s, k) { return k === 0 ? s.initial : s.steps[k - 1].standings; }
  function show() {
    var s = data.stages[stage];
    slider.value = String(step);
    var rows = standingsAt(s, step);
    var turn = step > 0 ? s.steps[step - 1] : null;
    while (overlay.firstChild) { overlay.removeChild(overlay.firstChild); }
    var u = s.unit;
    if (turn && turn.path.length) {
      var pts = [turn.start].concat(turn.path).filter(function (id) { return id && s.points[id]; })
        .map(function (id) { return s.points[id].join(","); });
      if (pts.length > 1) {
        overlay.appendChild(svgEl("polyline", {"class": "turn-path", points: pts.join(" "), fill: "none",
          stroke: s.colours[turn.player] || "#888", "stroke-width": String(0.04 * u), "stroke-dasharray": (0.08 * u) + "," + (0.04 * u),
          "stroke-opacity": "0.9"}));
      }
    }
    rows.forEach(function (car) {
      var p = car.space && s.points[car.space];
      if (!p) { return; }
      var colour = s.colours[car.name] || "#888";
      var w = 0.26 * u, h = 0.16 * u;
      var g = svgEl("g", {"class": "car", "data-player": car.name, "data-space": car.space,
        "data-x": String(p[0]), "data-y": String(p[1])});
      g.appendChild(svgEl("rect", {x: String(p[0] - w / 2), y: String(p[1] - h / 2), width: String(w), height: String(h),
        rx: String(0.03 * u), fill: colour, stroke: "#000", "stroke-width": String(0.015 * u)}));
      var t = svgEl("text", {x: String(p[0]), y: String(p[1] + 0.045 * u), "font-size": String(0.12 * u),
        "text-anchor": "middle", "font-weight": "bold", fill: textColour(colour)});
      t.textContent = car.name.charAt(0).toUpperCase() + (car.gear === null || car.gear === undefined ? "" : car.gear);
      g.appendChild(t);
      overlay.appendChild(g);
    });
    var tbody = document.querySelector("#standings tbody");
    tbody.innerHTML = "";
    rows.forEach(function (car, i) {
      var tr = el("tr", {"data-player": car.name});
      tr.appendChild(el("td", {}, String(i + 1)));
      var td = el("td", {});
      td.appendChild(el("span", {"class": "swatch", style: "background:" + (s.colours[car.name] || "#888")}));
      td.appendChild(document.createTextNode(car.name + (car.status ? " (" + car.status + ")" : "")));
      tr.appendChild(td);
      tr.appendChild(el("td", {}, car.gear === null || car.gear === undefined ? "-" : String(car.gear)));
      tr.appendChild(el("td", {}, String(car.damage)));
      tr.appendChild(el("td", {}, s.laps ? (car.laps + "/" + s.laps + " laps, Joker " + car.joker) : time(car.seconds)));
      tr.appendChild(el("td", {title: car.space || ""}, car.tile || "-"));
      tbody.appendChild(tr);
    });
    var where = document.getElementById("where");
    var box = document.getElementById("turn");
    box.innerHTML = "";
    document.getElementById("counter").textContent = "turn " + step + " of " + s.steps.length;
    if (!turn) {
      where.textContent = s.label + " - before the first turn";
      box.appendChild(el("div", {}, s.laps ? "Cars on the grid." : "No car has started yet."));
      return;
    }
    where.textContent = s.label + " - round " + turn.round + " - " + turn.player;
    var words = el("div", {"class": "words"});
    turn.words.forEach(function (w) { words.appendChild(el("div", {}, w)); });
    box.appendChild(words);
    var dice = el("div", {"class": "dice"});
    dice.appendChild(document.createTextNode("dice: "));
    turn.dice.forEach(function (d) {
      dice.appendChild(el("span", {"class": d.face === "ok" ? "ok" : "bad", title: d.to ? "to " + d.to : ""},
        d.die + " " + d.face));
    });
    if (!turn.dice.length) { dice.appendChild(document.createTextNode("-")); }
    box.appendChild(dice);
    var more = el("details", {"class": "rules"});
    more.appendChild(el("summary", {}, turn.rules.length ? "Rules applied: " + turn.rules.length + " in " +
      turn.groups.length + " chapters (click)" : "Rules applied: not reported"));
    turn.groups.forEach(function (g) {
      var line = el("div", {"class": "rule-group"});
      line.appendChild(el("b", {}, g.section + ": "));
      g.ids.forEach(function (id, i) {
        if (i) { line.appendChild(document.createTextNode(", ")); }
        line.appendChild(el("abbr", {title: data.rules[id] || ""}, id));
      });
      more.appendChild(line);
    });
    more.appendChild(el("div", {"class": "path"}, "path: " + ([turn.start].concat(turn.path).filter(Boolean).join(" > ") || "-")));
    box.appendChild(more);
  }
  function go(k) {
    var n = data.stages[stage].steps.length;
    step = Math.max(0, Math.min(n, k));
    show();
  }
  function roundJump(dir) {
    var steps = data.stages[stage].steps;
    var current = step > 0 ? steps[step - 1].round : 0;
    var endOf = function (r) { var k = 0; steps.forEach(function (t, i) { if (t.round <= r) { k = i + 1; } }); return k; };
    if (dir < 0) {
      var k = 0;
      steps.forEach(function (t, i) { if (t.round < current) { k = i + 1; } });
      go(k);
      return;
    }
    if (step > 0 && endOf(current) > step) { go(endOf(current)); return; }
    var next = null;
    steps.forEach(function (t) { if (t.round > current && (next === null || t.round < next)) { next = t.round; } });
    go(next === null ? steps.length : endOf(next));
  }
  var timer = null;
  var playButton = document.getElementById("play");
  var speed = document.getElementById("speed");
  function pause() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    playButton.innerHTML = "&#9654; play";
    playButton.setAttribute("aria-pressed", "false");
  }
  function play() {
    pause();
    if (step >= data.stages[stage].steps.length) { go(0); }
    timer = setInterval(function () {
      if (step >= data.stages[stage].steps.length) { pause(); return; }
      go(step + 1);
    }, parseInt(speed.value, 10));
    playButton.innerHTML = "&#10074;&#10074; pause";
    playButton.setAttribute("aria-pressed", "true");
  }
  function toggle() { if (timer === null) { play(); } else { pause(); } }
  playButton.addEventListener("click", toggle);
  speed.addEventListener("change", function () { if (timer !== null) { play(); } });
  document.getElementById("back").addEventListener("click", function () { go(step - 1); });
  document.getElementById("forward").addEventListener("click", function () { go(step + 1); });
  document.getElementById("round-back").addEventListener("click", function () { roundJump(-1); });
  document.getElementById("round-forward").addEventListener("click", function () { roundJump(1); });
  slider.addEventListener("input", function () { go(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider || e.target === speed) { return; }
    if (e.key === " " || e.key === "Spacebar") { toggle(); e.preventDefault(); }
    else if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
    else if (e.key === "ArrowDown" || e.key === "PageDown") { roundJump(1); e.preventDefault(); }
    else if (e.key === "ArrowUp" || e.key === "PageUp") { roundJump(-1); e.preventDefault(); }
  });
  showStage(0);
})();
"""
