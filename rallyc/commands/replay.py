"""``rallyc replay RECORD``: check a recorded game against the rules and print what happened."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from rallyc.data.components import ComponentsError, load_components
from rallyc.records.load import RecordError, load_record
from rallyc.records.replay import replay_record


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""

    @app.command("replay")
    def replay(
        record: Path = typer.Argument(..., help="game record (JSON, schemas/game.schema.json)"),
        fmt: str = typer.Option("text", "--format", help="text or json"),
        rules: Path = typer.Option(None, "--rules", help="TOML file merged over the bundled component data "
                                                          "(assumptions, readings)"),
    ) -> None:
        """Replay a recorded game: order of play, each turn, stage times, rally classification.

        Exit 0 when every event is legal, 1 at the first illegal event or a bad record, 2 on usage errors.
        """
        if fmt not in ("text", "json"):
            typer.echo(f"error: --format must be text or json, not {fmt!r}", err=True)
            raise typer.Exit(2)
        try:
            components = load_components(rules)
        except ComponentsError as exc:
            typer.echo(f"error: --rules: {exc}", err=True)
            raise typer.Exit(2)
        try:
            data = load_record(record)
            report = replay_record(data, record.parent, components)
        except RecordError as exc:
            if not exc.file:
                exc.file = str(record)
            if fmt == "json":
                out = {"ok": False, "error": {"file": exc.file, "path": exc.path, "line": exc.line,
                                              "column": exc.column, "message": exc.message, "rule": exc.rule_id}}
                typer.echo(json.dumps(out, indent=2, sort_keys=True))
            else:
                typer.echo(f"error: {exc.located()}", err=True)
            raise typer.Exit(1 if exc.path or exc.line else 2)
        if fmt == "json":
            out = report.to_json()
            if report.error is not None:
                out["error"]["file"] = str(record)
            typer.echo(json.dumps(out, indent=2, sort_keys=True))
        else:
            text = report.to_text()
            if report.error is not None:
                body, _, _ = text.rstrip("\n").rpartition("\n")
                typer.echo(body)
                e = report.error
                typer.echo(f"{record}: {e.path}: {e.rule_id}: {e.message}", err=True)
            else:
                typer.echo(text, nl=False)
        raise typer.Exit(0 if report.ok else 1)
