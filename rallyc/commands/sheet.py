"""``rallyc sheet RECORD -o sheet.svg|pdf|html``: the rally sheet of a recorded game or Auto Tour.

Exit codes: 0 written; 1 the record has an illegal event (the sheet of what was played before it is written all
the same, with the error under the table) or is not a valid record; 2 usage or I/O error.
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from rallyc.commands.errors import EXIT_PROBLEMS, EXIT_USAGE, error_line, fail, handles_errors, record_error_line
from rallyc.commands.inputs import refuse_output, write_or_print

SHEET_EPILOG = """\b
Examples:
  rallyc sheet examples/games/rally-4-full.json -o sheet.svg     # A4 landscape, one page per width
  rallyc sheet examples/games/rally-4-full.json -o sheet.pdf     # needs: pip install 'rallyc[pdf]'
  rallyc sheet examples/games/rx-1-race.json -o race.html        # one self-contained page
  rallyc sheet examples/games/tours/auto-tour-1.json -f html     # to standard output
\b
Exit codes: 0 written, 1 an illegal event (the sheet up to it is written) or a bad record, 2 usage or I/O error."""


class SheetFormat(str, enum.Enum):
    svg = "svg"
    pdf = "pdf"
    html = "html"


def _format_of(output: Path | None, given: SheetFormat | None) -> SheetFormat:
    """The format asked for, or the output file's suffix, or SVG."""
    if given is not None:
        return given
    if output is not None and str(output) != "-":
        suffix = output.suffix.lower().lstrip(".")
        if suffix in ("htm",):
            return SheetFormat.html
        try:
            return SheetFormat(suffix)
        except ValueError:
            raise fail(f"cannot tell the format of {output} from its name: use --format svg|pdf|html",
                       prog="rallyc sheet")
    return SheetFormat.svg


def problem_of(report: Any) -> Any:
    """The illegal event a replay stopped at (None: none; a tour's report has one too)."""
    return getattr(report, "error", None)


def _journal_record(path: Path) -> dict:
    """The record of the game a journal holds, every step replayed through the rules; exit 1 at a line they refuse
    (located), 2 when the setup is refused."""
    # start-up: the table only for a journal
    from rallyc.table.journal import JournalError, replay_journal
    from rallyc.table.setup import SetupError

    try:
        game, _ = replay_journal(path)
    except JournalError as exc:
        raise fail(str(exc), EXIT_PROBLEMS, prog="rallyc sheet")
    except SetupError as exc:
        raise fail(f"{path}: {exc}", EXIT_USAGE, prog="rallyc sheet")
    return dict(game.record())


def register(app: typer.Typer) -> None:
    """Add ``rallyc sheet`` to the app."""

    @app.command("sheet", epilog=SHEET_EPILOG)
    @handles_errors("rallyc sheet")
    def sheet_cmd(
        record: Path = typer.Argument(..., help="A game record or an Auto Tour record (JSON), or the journal of a "
                                                "game at the table (rallyc play, rallyc serve)."),
        output: Optional[Path] = typer.Option(None, "--output", "-o",
                                              help="File to write (.svg, .pdf or .html; default: standard output)."),
        fmt: Optional[SheetFormat] = typer.Option(None, "--format", "-f",
                                                  help="svg, pdf or html (default: from the output's name, else svg). "
                                                       "PDF needs: pip install 'rallyc[pdf]'."),
    ) -> None:
        """The rally sheet of a recorded game: stage times, penalties, positions after every stage (an RX race's
        finishing order, an Auto Tour's standings), printable."""
        # start-up: the referee and the record schema (jsonschema) only for replays
        from rallyc.records.load import RecordError, locate, parse_record, read_record_text
        from rallyc.records.replay import replay_record
        from rallyc.records.tour import is_tour_text, parse_tour, replay_tour
        from rallyc.table.format import is_journal
        from rallyc.table.sheet import record_sheet, under_way
        from rallyc.table.sheet_render import sheet_html, sheet_svgs

        form = _format_of(output, fmt)
        to_stdout = output is None or str(output) == "-"
        if form is SheetFormat.pdf:
            # optional dependency (cairo): only for PDF output
            from rallyc.render.export import ExportUnavailable, _cairo

            try:
                _cairo()
            except ExportUnavailable as e:
                raise fail(str(e), prog="rallyc sheet")
            if to_stdout and sys.stdout.isatty():
                raise fail("PDF is binary: name the output file with -o sheet.pdf", prog="rallyc sheet")
        if not record.exists():
            raise fail(f"no such record: {record}", prog="rallyc sheet")
        refuse_output([output], [record], prog="rallyc sheet")
        file = str(record)
        text = None
        report: Any
        try:
            text = read_record_text(record)
            if is_journal(text):  # a game at the table (rallyc play, rallyc serve): its record so far
                data, text = _journal_record(record), None
                report = replay_record(data, record.parent, explain=False)
            else:
                tour = is_tour_text(text)
                data = parse_tour(text, file) if tour else parse_record(text, file)
                report = replay_tour(data, record.parent) if tour else \
                    replay_record(data, record.parent, explain=False)
        except RecordError as exc:
            if not exc.file:
                exc.file = file
            if exc.line is None and exc.path and text is not None:
                exc.line, exc.column = locate(text, exc.path)
            typer.echo(record_error_line(exc), err=True)
            raise typer.Exit(1 if exc.path or exc.line else EXIT_USAGE)
        sheet = record_sheet(data, report)
        if text is None and problem_of(report) is not None:  # a journal's game under way: its record stops there
            sheet = under_way(sheet)
            report.error = None
        written: list[Path] = []
        if form is SheetFormat.html:
            write_or_print(output, sheet_html(sheet, record.name), prog="rallyc sheet")
            written = [output] if output is not None else []
        else:
            pages = sheet_svgs(sheet, record.name)
            if form is SheetFormat.pdf:
                # optional dependency (cairo): only for PDF output
                from rallyc.render.export import svgs_to_pdf

                pdf = svgs_to_pdf(pages, title=f"{sheet.title} - rally sheet")
                if to_stdout:
                    sys.stdout.buffer.write(pdf)
                    sys.stdout.flush()
                else:
                    # start-up: the pages writer only when there is a file to write
                    from rallyc.commands.render import write_pages

                    assert output is not None
                    written = write_pages(output, [pdf], prog="rallyc sheet")
            elif len(pages) > 1 and to_stdout:
                raise fail(f"the sheet has {len(pages)} pages: name the output file with -o sheet.svg "
                           "(or ask for one PDF)", prog="rallyc sheet")
            elif to_stdout:
                write_or_print(None, pages[0], prog="rallyc sheet")
            else:
                # start-up: the pages writer only when there is a file to write
                from rallyc.commands.render import write_pages

                assert output is not None
                written = write_pages(output, pages, prog="rallyc sheet")
        if not to_stdout:
            typer.echo(f"wrote {', '.join(str(p) for p in written)}", err=True)
        problem = problem_of(report)
        if problem is not None:
            where = file
            try:
                line, column = locate(text, problem.path) if text is not None and problem.path else (None, None)
                if line is not None:
                    where = f"{file}:{line}:{column}"
            except Exception:  # an event's own file (a tour): its path is not in this text
                pass
            typer.echo(error_line(where, f"{problem.path}: {problem.message}", problem.rule_id), err=True)
            raise typer.Exit(1)
