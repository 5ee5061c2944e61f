"""``rallyc replay RECORD``: check a recorded game against the rules and print what happened.

Exit codes: 0 every event legal, 1 an illegal event or a bad record (located: ``file:line:column``
and the JSON path), 2 usage or I/O error (unreadable record, bad ``--rules`` file, bad option).

A journal of ``rallyc play`` (JSON Lines) is replayed too: every step through the rules again, then its game's
record reported; an unfinished game is replayed as far as it goes and said ``unfinished`` (exit 0: every step
legal so far; ``--format json`` has ``"unfinished": true``); a line the rules refuse is ``file:line`` (exit 1).
"""

from __future__ import annotations

import enum
import json
import re
import sys
import tomllib
from contextlib import nullcontext
from pathlib import Path

from typing import Any

import typer

from rallyc.commands.errors import error_line, handles_errors, record_error_line
from rallyc.commands.render import write_viewer
from rallyc.project.fileio import decode_utf8

REPLAY_EPILOG = """\b
Examples:
  rallyc replay examples/games/rally-4-full.json
  rallyc replay game.json --format json > result.json
  rallyc replay game.json --rules my-rules.toml      # other Time-card seconds, readings...
  rallyc replay game.json --explain                  # the rule IDs each turn applied
  cat game.json | rallyc replay -                    # - reads standard input (track relative to here)
  rallyc replay game.jsonl                           # a journal of rallyc play, finished or not
\b
Exit codes: 0 every event legal, 1 an illegal event or a bad record, 2 usage or I/O error."""

class ReplayFormat(str, enum.Enum):
    text = "text"
    json = "json"


_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def _rules_problem(path: Path) -> tuple[str, str] | None:
    """Why a ``--rules`` file is not TOML, as (``FILE:LINE:COLUMN``, message) (None: it reads, or cannot be read)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None  # load_components says why, with the file name

    text, bad = decode_utf8(data)
    if text is None:
        assert bad is not None  # where the text stops being UTF-8
        return f"{path}:{bad[0]}:{bad[1]}", "not UTF-8 text (a --rules file is TOML text)"
    try:
        tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as e:
        m = _TOML_AT.search(str(e))
        if m:
            return f"{path}:{m.group(1)}:{m.group(2)}", f"not valid TOML: {str(e)[: m.start()]}"
        return str(path), f"not valid TOML: {e}"
    return None


def _where(file: str, text: str | None, path: str) -> str:
    # start-up: the referee and the record schema (jsonschema) only for replays
    from rallyc.records.load import locate

    """``file:line:column`` of a JSON path in the record (just ``file`` without the text)."""
    if text is None or not path:
        return file
    line, column = locate(text, path)
    return f"{file}:{line}:{column}"


def _tour_out(report, fmt: str, explain: bool, file: str, text: str | None) -> None:
    """Print a tour's report (``rallyc replay tour.json``) and exit: 0 when every event is legal, else 1. An error
    in an event's own record file is located in that file."""
    # start-up: the referee and the record schema (jsonschema) only for replays
    from rallyc.records.load import locate, read_record_text

    e = report.error
    where = file
    if e is not None:
        try:
            where = _where(e.file, read_record_text(e.file), e.path) if e.file else _where(file, text, e.path)
        except Exception:  # the event file was read a moment ago; never a traceback
            where = e.file or file
    if fmt == "json":
        out = report.to_json(explain=explain)
        if e is not None:
            out["error"]["file"] = e.file or file
            src = None
            if e.file:
                try:
                    src = read_record_text(e.file)
                except Exception:
                    src = None
            else:
                src = text
            if src is not None:
                out["error"]["line"], out["error"]["column"] = locate(src, e.path)
        typer.echo(json.dumps(out, indent=2, sort_keys=True))
    else:
        out_text = report.to_text(explain=explain)
        if e is not None:
            body, _, _ = out_text.rstrip("\n").rpartition("\n")
            typer.echo(body)
            typer.echo(error_line(where, f"{e.path}: {e.message}", e.rule_id), err=True)
        else:
            typer.echo(out_text, nl=False)
    raise typer.Exit(0 if report.ok else 1)


def _is_journal(text: str) -> bool:
    # start-up: the journal's first line only, not the table
    from rallyc.table.format import is_journal

    return is_journal(text)


def _journal_out(path: Path, fmt: str, explain: bool, components) -> None:
    """Replay a journal of ``rallyc play`` (every step through the rules again), print the report of its record and
    exit: 0 when every step is legal (an unfinished game is replayed as far as it goes and said unfinished), 1 at a
    line the rules refuse, 2 when its setup is refused."""
    # start-up: the table only for a journal
    from rallyc.records.replay import replay_record
    from rallyc.table.journal import JournalError, replay_journal
    from rallyc.table.setup import SetupError

    try:
        game, read = replay_journal(path, components)
    except JournalError as exc:
        typer.echo(error_line(f"{exc.path}:{exc.line}", exc.message, exc.rule_id), err=True)
        raise typer.Exit(1)
    except SetupError as exc:
        typer.echo(error_line(str(path), f"the game's setup: {exc}"), err=True)
        raise typer.Exit(2)
    if read.torn:
        typer.echo(f"warning: {read.torn}", err=True)
    report = replay_record(game.record(), path.parent, components, explain=explain)
    unfinished = not game.is_over()
    e = report.error
    if unfinished and e is not None and e.rule_id in ("CORE-STAGEEND-01", "RX-END-03") and e.path.endswith(".turns"):
        report.error = None  # the record stops where the game is: unfinished, not illegal
    where = f"unfinished: the journal stops at step {game.version}" + (
        f", {game.whose_turn()} to answer" if game.whose_turn() else "")
    if fmt == "json":
        out = report.to_json(explain=explain)
        out["unfinished"] = unfinished
        out["steps"] = game.version
        typer.echo(json.dumps(out, indent=2, sort_keys=True))
    else:
        typer.echo(report.to_text(explain=explain), nl=False)
        if unfinished:
            typer.echo(where)
    raise typer.Exit(0 if report.ok else 1)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""

    @app.command("replay", epilog=REPLAY_EPILOG)
    @handles_errors("rallyc replay")
    def replay(
        record: Path = typer.Argument(..., help="game record (JSON, schemas/game.schema.json), or - for "
                                                "standard input"),
        fmt: ReplayFormat = typer.Option(ReplayFormat.text, "--format", "-f", help="text or json."),
        rules: Path = typer.Option(None, "--rules", help="TOML file merged over the bundled component data "
                                                          "(assumptions, readings)"),
        html_out: Path = typer.Option(None, "--html", help="Also write a replay viewer: one self-contained HTML "
                                                           "file to step through the game in a browser."),
        explain: bool = typer.Option(False, "--explain", help="under each turn, the rule IDs it applied "
                                                              "(`rallyc explain RULE-ID` prints a rule)"),
        check_invariants: bool = typer.Option(False, "--check-invariants",
                                              help="after every turn, check what the rules guarantee (one car a "
                                                   "space, the Damage bag, Time cards only added, the game ends); "
                                                   "exit 3 naming the first one broken (docs/referee.md)"),
    ) -> None:
        """Replay a recorded game: order of play, each turn, stage times, rally classification.

        Exit 0 when every event is legal, 1 at the first illegal event or a bad record, 2 on usage errors.
        """
        # start-up: the referee and the record schema (jsonschema) only for replays
        from rallyc.data.components import ComponentsError, load_components
        from rallyc.records.load import RecordError, decode_record, locate, parse_record, read_record_text
        from rallyc.records.replay import replay_record
        from rallyc.records.tour import is_tour_text, parse_tour, replay_tour
        from rallyc.rules.core.invariants import InvariantBroken, checking_invariants

        form = fmt.value
        if rules is not None:
            problem = _rules_problem(rules)
            if problem is not None:
                typer.echo(error_line(*problem), err=True)
                raise typer.Exit(2)
        try:
            components = load_components(rules)
        except ComponentsError as exc:
            typer.echo(f"rallyc replay: --rules: {exc}", err=True)
            raise typer.Exit(2)
        stdin = str(record) == "-"
        file = "<stdin>" if stdin else str(record)
        text: str | None = None
        try:
            if stdin:
                raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
                text = decode_record(raw, file)
            else:
                text = read_record_text(record)
            if not stdin and _is_journal(text):  # a game at the table's journal (rallyc.table.journal)
                _journal_out(record, form, explain, components)
            tour = is_tour_text(text)  # an Auto Tour record (rallyc.records.tour): its events replayed in turn
            data = parse_tour(text, file) if tour else parse_record(text, file)
            base = Path.cwd() if stdin else record.parent
            # without --explain (or a viewer that shows them) the rule IDs are never worked out
            with checking_invariants() if check_invariants else nullcontext():
                report = replay_tour(data, base, components) if tour else \
                    replay_record(data, base, components, explain=explain or html_out is not None)
        except InvariantBroken as exc:
            typer.echo(error_line(file, str(exc), f"invariant-{exc.name}"), err=True)
            raise typer.Exit(3)
        except RecordError as exc:
            if not exc.file:
                exc.file = file
            if exc.line is None and exc.path and text is not None:
                exc.line, exc.column = locate(text, exc.path)
            if form == "json":
                out: dict[str, Any] = {"ok": False, "error": {
                    "file": exc.file, "path": exc.path, "line": exc.line, "column": exc.column,
                    "message": exc.message, "rule": exc.rule_id}}
                typer.echo(json.dumps(out, indent=2, sort_keys=True))
            else:
                typer.echo(record_error_line(exc), err=True)
            raise typer.Exit(1 if exc.path or exc.line else 2)
        if tour:
            _tour_out(report, fmt, explain, file, text)
        if html_out is not None:
            write_viewer(html_out, data, report, Path.cwd() if stdin else record.parent, [record])
        # start-up: the referee and the record schema (jsonschema) only for replays
        from rallyc.records.game_options import unrefereed_in_force, unrefereed_warning

        for spec in unrefereed_in_force(data, Path.cwd() if stdin else record.parent):
            typer.echo(unrefereed_warning(spec), err=True)
        if form == "json":
            out = report.to_json(explain=explain)
            if report.error is not None:
                out["error"]["file"] = file
                out["error"]["line"], out["error"]["column"] = locate(text, report.error.path)
            typer.echo(json.dumps(out, indent=2, sort_keys=True))
        else:
            out_text = report.to_text(explain=explain)
            if report.error is not None:
                body, _, _ = out_text.rstrip("\n").rpartition("\n")
                typer.echo(body)
                e = report.error
                typer.echo(error_line(_where(file, text, e.path), f"{e.path}: {e.message}", e.rule_id), err=True)
            else:
                typer.echo(out_text, nl=False)
        raise typer.Exit(0 if report.ok else 1)
