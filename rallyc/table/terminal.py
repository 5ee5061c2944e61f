"""``rallyc play`` in a terminal: the game at the table as a conversation, one question at a time.

Each turn shows the road around the car, the cars, then asks the player's questions in the rules' order: the dice
laid one by one (the legal next dice numbered), roll / secure / stop / re-plan before each die, the face each die
shows as the player rolls the physical dice, and what the rolls caused (Damage tokens, the Time card's "0" side);
then what happened in the rulebook's words with the rule IDs, and whose turn is next. At any prompt: ``u`` takes
back to the previous question a person answered, ``b`` shows the board, ``t`` the times, ``q`` leaves (the journal
keeps the game: ``--resume``), ``?`` helps.

The questions are read by :class:`Terminal` through a ``read`` function: prompt-toolkit's prompt in a terminal
(with completion of the legal answers, and hidden typing for a secret choice), plain lines otherwise (a script
piped in). Nothing here decides a rule: every answer goes to :class:`~rallyc.table.session.TableGame`.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

from rallyc.table.answers import read_dice
from rallyc.table.session import Happened, Prompt, Refused, TableGame
from rallyc.rules.core.machine import Plan, Question

__all__ = ["Terminal", "prompt_reader", "line_reader", "HELP"]

#: read(question, secret, words to complete) -> the line typed; EOFError when the input is closed
Reader = Callable[[str, bool, list[str]], str]

HELP = """\
At any prompt: u = undo (back to the previous question a person answered), b = board, t = times,
q = quit (the journal keeps the game: rallyc play --resume JOURNAL), ? = this help.
Laying dice: the number of the next die, d = done (roll one by one), f = done and go Flat Out,
sisu = use the SISU token this turn, x = take the last die back; or type the whole plan
(gear2@1.1.in gear3@1.2.out ... [flat] [sisu]). A die's face: o = no Warning, w = a Warning symbol."""


class Quit(Exception):
    """The person left the table (``q``, end of input): the journal keeps the game."""


class Terminal:
    """The conversation at the table over one :class:`TableGame` (see the module docstring)."""

    def __init__(self, game: TableGame, read: Reader, write: Callable[[str], None]) -> None:
        self.game = game
        self.read = read
        self.write = write

    def run(self) -> bool:
        """Play until the game is over (True) or the person quits (False)."""
        game = self.game
        self.write(f"{game.form.header['title']} ({len(game.setup.seats)} player(s), dice {game.setup.dice})")
        self._show(game.advance())
        try:
            while not game.is_over():
                p = game.prompt()
                assert p is not None
                if p.bot:  # a resumed game whose bot is to move
                    self._show(game.advance())
                    continue
                if p.kind == Question.PLAN:
                    self.write("")
                    self.write(game.board(p.who))
                    self.write("  " + "\n  ".join(game.standings()))
                    self._lay_plan(p)
                else:
                    self._ask(p)
        except Quit:
            self.write(f"Left the table at step {game.version}; the journal keeps the game.")
            return False
        self.write("")
        self.write("The game is over.")
        for line in game.standings():
            self.write("  " + line)
        return True

    # -- one question
    def _ask(self, p: Prompt) -> None:
        self.write(p.words)
        for i, c in enumerate(p.choices, start=1):
            self.write(f"  {i}. [{c.key}] {c.label}")
        while True:
            text = self._line(f"{p.who}> ", p.secret, [c.key for c in p.choices])
            if text is None:
                return  # a table command was run: ask again from the start
            try:
                happened = self.game.answer(text)
            except Refused as exc:
                self._refused(exc)
                continue
            self._show(happened)
            return

    def _lay_plan(self, p: Prompt) -> None:
        """The dice laid die by die (or typed whole), then one by one or Flat Out."""
        self.write(p.words + " (d = done, f = Flat Out, x = take back, ? = help)")
        laid: list[Any] = []
        sisu = False
        while True:
            nxt, whole = self.game.plan_dice(laid)
            if laid:
                self.write("  laid: " + " ".join(str(d) for d in laid) + ("  (a whole plan: d or f)" if whole else ""))
            elif whole:
                self.write("  no die laid is a plan here (d)")
            for i, die in enumerate(nxt, start=1):
                self.write(f"  {i}. {die}")
            text = self._line(f"{p.who} lays> ", False, [str(d) for d in nxt] + ["d", "f", "x", "sisu"])
            if text is None:
                return
            word = text.strip().casefold()
            if word.isdigit() and 1 <= int(word) <= len(nxt):
                laid.append(nxt[int(word) - 1])
                continue
            if word == "x":
                if laid:
                    laid.pop()
                continue
            if word == "sisu":
                sisu = not sisu
                self.write(f"  SISU {'used' if sisu else 'kept'} this turn (CORE-ADV-12)")
                continue
            if word in ("d", "f", "done", "flat"):
                plan = Plan(tuple(laid), word in ("f", "flat"), sisu)
            elif word.isdigit():
                self._refused(Refused(f"there are {len(nxt)} dice to choose from, not {word}", "CORE-DICE-01"))
                continue
            else:
                try:
                    plan = _typed_plan(text)
                except Refused as exc:
                    self._refused(exc)
                    continue
            try:
                happened = self.game.apply(plan)
            except Refused as exc:
                self._refused(exc)
                continue
            self._show(happened)
            return

    def _line(self, question: str, secret: bool, words: list[str]) -> str | None:
        """A line typed; None when it was a table command (undo, board, times, help), which is run here."""
        try:
            text = self.read(question, secret, words + ["u", "b", "t", "q", "?"])
        except (EOFError, KeyboardInterrupt):
            raise Quit() from None
        word = text.strip().casefold()
        if word in ("q", "quit"):
            raise Quit()
        if word in ("?", "help"):
            self.write(HELP)
            return None
        if word in ("b", "board"):
            self.write(self.game.board())
            return None
        if word in ("t", "times"):
            self.write("  " + "\n  ".join(self.game.standings()))
            return None
        if word in ("u", "undo"):
            try:
                taken = self.game.undo_to_person()
            except Refused as exc:
                self._refused(exc)
                return None
            self.write(f"Undone: {len(taken)} step(s) taken back; the game is at step {self.game.version}.")
            return None
        return text

    def _refused(self, exc: Refused) -> None:
        rule = f"[{exc.rule_id}] " if exc.rule_id else ""
        self.write(f"  refused {rule}{exc.message} (nothing changed)")

    def _show(self, happened: list[Happened]) -> None:
        """What the steps caused, in the rulebook's words and rule IDs, then whose turn is next."""
        for h in happened:
            self.write(f"* {h.text}")
            if h.rules:
                self.write(f"    rules: {', '.join(h.rules)}")
        if happened and not self.game.is_over():
            nxt = self.game.whose_turn()
            if nxt is not None:
                self.write(f"Next: {nxt}")


def _typed_plan(text: str) -> Plan:
    """A whole plan typed: dice words, ``flat`` for a Flat Out, ``sisu``."""
    words = text.split()
    flat = any(w.casefold() in ("flat", "flat-out") for w in words)
    sisu = any(w.casefold() == "sisu" for w in words)
    dice = read_dice(" ".join(w for w in words if w.casefold() not in ("flat", "flat-out", "sisu")))
    return Plan(dice, flat, sisu)


def line_reader(stream: Any = None, echo: Callable[[str], None] | None = None) -> Reader:
    """Plain lines from ``stream`` (standard input): a script piped in; each line echoed after its question."""
    source = stream if stream is not None else sys.stdin

    def read(question: str, secret: bool, words: list[str]) -> str:
        line = source.readline()
        if not line:
            raise EOFError()
        if echo is not None:
            echo(question + ("*" * len(line.strip()) if secret else line.rstrip("\n")))
        return line.rstrip("\n")

    return read


def prompt_reader() -> Reader:
    """prompt-toolkit's prompt: completion of the legal answers (Tab), history, hidden typing for a secret."""
    # start-up: prompt-toolkit (the `play` extra) only for a game in a terminal
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter

    session: PromptSession[str] = PromptSession()

    def read(question: str, secret: bool, words: list[str]) -> str:
        return session.prompt(question, is_password=secret, completer=WordCompleter(words, sentence=True))

    return read
