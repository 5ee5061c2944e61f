"""The page ``rallyc serve`` sends: the map of the stage with the cars, the question the game waits on with its
legal answers as buttons (a plan laid die by die, the dice faces entered as they are rolled), a box to type any
answer, undo, the turns in the rulebook's words and the rally sheet.

It loads nothing from the network and runs only its own script; it asks the server for the state once a second
and redraws when the game's revision changed (another page, a bot). Every text from the game is set with
``textContent``; only the sheet (HTML the server escaped) and the map (the renderer's SVG) are inserted as markup.
"""

from __future__ import annotations

from rallyc.table.sheet_render import SHEET_CSS

__all__ = ["PAGE"]

_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; connect-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>rallyc at the table</title>
<style>
body { font-family: DejaVu Sans, Arial, Helvetica, sans-serif; margin: 0; color: #111; background: #fafafa; }
header { padding: 8px 14px; background: #1f3a5f; color: #fff; }
header h1 { font-size: 20px; margin: 0; display: inline-block; margin-right: 16px; }
main { display: flex; gap: 12px; padding: 10px; align-items: flex-start; flex-wrap: wrap; }
#map { flex: 1 1 55%; min-width: 320px; background: #fff; border: 1px solid #ccc; }
#map svg { width: 100%; height: auto; display: block; }
aside { flex: 1 1 380px; font-size: 15px; }
#prompt { background: #fff; border: 2px solid #1f3a5f; padding: 8px; }
#words { font-weight: bold; margin-bottom: 6px; }
#choices button, #plan button { font-size: 16px; margin: 3px; padding: 6px 10px; min-width: 44px; }
#plan .laid { font-family: DejaVu Sans Mono, monospace; margin: 4px 0; }
#typed { margin-top: 6px; }
#typed input { font-size: 15px; width: 60%; }
#message { min-height: 1.2em; margin: 6px 0; }
#message.refused { color: #b00; font-weight: bold; }
#message.done { color: #1e7a34; }
#happened { background: #fff; border: 1px solid #ccc; padding: 4px 8px; max-height: 260px; overflow-y: auto; font-size: 13px; }
#happened div { margin: 2px 0; }
#happened .rules { color: #555; font-size: 11px; }
#standings { font-size: 13px; white-space: pre-wrap; background: #fff; border: 1px solid #ccc; padding: 4px 8px; }
#sheet { padding: 0 10px 16px 10px; }
.help { color: #555; font-size: 12px; }
@SHEET_CSS@
</style>
</head>
<body>
<header><h1 id="title">rallyc</h1><span id="stage"></span> <span id="counter"></span></header>
<main>
<div id="map"></div>
<aside>
<div id="prompt">
<div id="words"></div>
<div id="choices"></div>
<div id="plan" hidden>
<div class="laid">dice laid: <span id="laid">none</span></div>
<div id="next"></div>
<label><input type="checkbox" id="flat"> Flat Out</label>
<button id="lay" disabled>lay these dice</button>
<button id="clear">start again</button>
</div>
<form id="typed"><input id="answer" autocomplete="off" placeholder="or type the answer" aria-label="answer">
<button type="submit" id="send">send</button></form>
</div>
<div id="message" role="status"></div>
<button id="undo" title="take the last step back">undo</button>
<a id="sheet-link" target="_blank">rally sheet to print</a> - <a id="record-link" target="_blank">record so far</a>
<h3>What happened</h3>
<div id="happened"></div>
<h3>Cars</h3>
<div id="standings"></div>
<p class="help">Everyone at the table may open this page: each step is checked by the rules and applied once; a
page that had not seen the latest step is told to look again.</p>
</aside>
</main>
<section id="sheet"></section>
<script>
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var token = new URLSearchParams(location.search).get("token") || "";
  var state = null, mapStage = null, points = {}, laid = [];
  var colours = {red: "#d41e1e", blue: "#1f5fd0", green: "#1e9a3c", yellow: "#f2c200", white: "#ffffff",
    black: "#1a1a1a", orange: "#f07c00", purple: "#7b3fc4", grey: "#8a8a8a", gray: "#8a8a8a"};
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function url(path, params) {
    var q = new URLSearchParams(params || {});
    q.set("token", token);
    return path + "?" + q.toString();
  }
  function getJSON(path, params) {
    return fetch(url(path, params), {cache: "no-store"}).then(function (r) {
      return r.json().then(function (body) { if (!r.ok) { throw body; } return body; });
    });
  }
  function post(path, body) {
    return fetch(url(path), {method: "POST", headers: {"Content-Type": "application/json", "X-Rallyc-Token": token},
      body: JSON.stringify(body)}).then(function (r) { return r.json().then(function (b) { b.status = r.status; return b; }); });
  }
  function say(text, kind) { var m = $("message"); m.textContent = text; m.className = kind || ""; }
  function send(answer) {
    if (!state) { return; }
    post("/step", {revision: state.revision, answer: answer}).then(function (b) {
      if (b.ok) {
        say(b.happened.length ? b.happened.map(function (h) { return h.text; }).join(" ") : "done", "done");
      } else if (b.stale) {
        say("Not applied: " + b.error, "refused");
      } else {
        say("Refused" + (b.rule ? " [" + b.rule + "]" : "") + ": " + b.error, "refused");
      }
      refresh(true);
    });
  }
  function drawCars() {
    var svg = $("map").querySelector("svg");
    if (!svg || !state) { return; }
    var old = svg.querySelector("#cars");
    if (old) { old.parentNode.removeChild(old); }
    var g = document.createElementNS(SVGNS, "g");
    g.setAttribute("id", "cars");
    var u = 200 / Math.sqrt(3);
    state.cars.forEach(function (car) {
      var p = points[car.space];
      if (!p) { return; }
      var c = state.colours[car.name] || "grey";
      var fill = colours[c.toLowerCase()] || (c.charAt(0) === "#" ? c : "#8a8a8a");
      var w = 0.26 * u, h = 0.16 * u;
      var m = document.createElementNS(SVGNS, "g");
      m.setAttribute("class", "car");
      m.setAttribute("data-player", car.name);
      m.setAttribute("data-space", car.space);
      var r = document.createElementNS(SVGNS, "rect");
      var a = {x: p[0] - w / 2, y: p[1] - h / 2, width: w, height: h, rx: 0.03 * u, fill: fill, stroke: "#000",
        "stroke-width": 0.015 * u};
      for (var k in a) { r.setAttribute(k, String(a[k])); }
      m.appendChild(r);
      var t = document.createElementNS(SVGNS, "text");
      t.setAttribute("x", String(p[0]));
      t.setAttribute("y", String(p[1] + 0.045 * u));
      t.setAttribute("font-size", String(0.12 * u));
      t.setAttribute("text-anchor", "middle");
      t.setAttribute("font-weight", "bold");
      t.setAttribute("fill", /^#(f|e|d)/i.test(fill) ? "#000" : "#fff");
      t.textContent = car.name.charAt(0).toUpperCase() + (car.gear === null ? "" : car.gear);
      m.appendChild(t);
      g.appendChild(m);
    });
    svg.appendChild(g);
  }
  function showPlan() {
    $("laid").textContent = laid.length ? laid.join(" ") : "none";
    var next = $("next"), asked = laid.join(" ");
    next.textContent = "";
    next.removeAttribute("data-laid");
    getJSON("/plan", {dice: asked}).then(function (b) {
      if (laid.join(" ") !== asked) { return; }  // another die was laid (or taken back) meanwhile: its answer comes
      b.next.forEach(function (d) {
        var btn = el("button", {"class": "die", "data-die": d.die}, d.label);
        btn.addEventListener("click", function () { laid.push(d.die); showPlan(); });
        next.appendChild(btn);
      });
      $("lay").disabled = !(b.whole || b.none);
      $("lay").textContent = b.none ? "lay no die (none can be laid)" : "lay these dice";
      next.setAttribute("data-laid", asked);  // the dice offered after these are shown
    });
  }
  function render() {
    var s = state;
    $("title").textContent = s.title;
    $("stage").textContent = s.stage;
    $("counter").textContent = "step " + s.version;
    document.body.setAttribute("data-revision", s.revision);
    var p = s.prompt;
    var choices = $("choices");
    choices.textContent = "";
    $("plan").hidden = true;
    if (!p) {
      $("words").textContent = "The game is over.";
    } else {
      $("words").textContent = p.words + (p.bot ? " (rallyc answers)" : "");
      // a secret choice (a Checkpoints penalty, CORE-ADV-09) is typed unseen by the others at the table
      $("answer").type = p.secret ? "password" : "text";
      p.choices.forEach(function (c) {
        var b = el("button", {"class": "choice", "data-key": c.key}, c.label);
        b.addEventListener("click", function () { send(c.key); });
        choices.appendChild(b);
      });
      if (p.kind === "plan") {
        $("plan").hidden = false;
        laid = [];
        $("flat").checked = false;
        showPlan();
      }
    }
    var list = $("happened");
    list.textContent = "";
    s.happened.forEach(function (h) {
      var d = el("div", {"class": "turn"}, h.text);
      if (h.rules.length) {
        var more = el("details", {"class": "rules"});
        more.appendChild(el("summary", {}, "rules applied: " + h.rules.length));
        more.appendChild(el("div", {}, h.rules.join(", ")));
        d.appendChild(more);
      }
      list.appendChild(d);
    });
    list.scrollTop = list.scrollHeight;
    $("standings").textContent = s.standings.join("\n");
    getJSON("/sheet-table").then(function (t) { if (t.revision === state.revision) { $("sheet").innerHTML = t.html; } });
    if (mapStage !== s.stage) {
      mapStage = s.stage;
      getJSON("/map").then(function (m) { $("map").innerHTML = m.svg; points = m.points; drawCars(); });
    } else {
      drawCars();
    }
  }
  function refresh(force) {
    return getJSON("/revision").then(function (r) {
      if (force || !state || r.revision !== state.revision) {
        return getJSON("/state").then(function (s) { state = s; render(); });
      }
    }).catch(function (e) { say((e && e.error) || "the server does not answer", "refused"); });
  }
  $("lay").addEventListener("click", function () { send(($("flat").checked ? "flat " : "") + (laid.join(" ") || "none")); });
  $("clear").addEventListener("click", function () { laid = []; showPlan(); });
  $("typed").addEventListener("submit", function (e) {
    e.preventDefault();
    var a = $("answer").value;
    $("answer").value = "";
    send(a);
  });
  $("undo").addEventListener("click", function () {
    post("/undo", {revision: state.revision}).then(function (b) {
      say(b.ok ? "Taken back: " + b.undone : "Not taken back: " + b.error, b.ok ? "done" : "refused");
      refresh(true);
    });
  });
  $("sheet-link").setAttribute("href", url("/sheet"));
  $("record-link").setAttribute("href", url("/record"));
  refresh(true);
  setInterval(refresh, 1000);
})();
</script>
</body>
</html>
"""

#: the page, with the sheet's style shared with ``rallyc sheet``'s HTML
PAGE = _PAGE.replace("@SHEET_CSS@", SHEET_CSS)
