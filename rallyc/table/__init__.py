"""The game at the table: a live game refereed step by step, one engine behind the terminal (``rallyc play``) and
the browser (``rallyc serve``), and the rally sheet.

- :mod:`rallyc.table.setup`: what a game is before its first step (design, stage, seats, options, dice);
- :mod:`rallyc.table.session`: :class:`~rallyc.table.session.TableGame`, the game and its questions in words;
- :mod:`rallyc.table.answers`: the answers typed at a prompt read as steps, refusals naming the rule;
- :mod:`rallyc.table.board`: the road around a car, as text;
- :mod:`rallyc.table.journal`: the journal (JSON Lines, one step a line, synced to disk), resume;
- :mod:`rallyc.table.format`: telling a journal from a record (no referee imported);
- :mod:`rallyc.table.terminal`: the conversation in a terminal (`rallyc play`);
- :mod:`rallyc.table.sheet`: the rally sheet (stage times, penalties, positions), printed by
  :mod:`rallyc.table.sheet_render`;
- :mod:`rallyc.table.server` (and its :mod:`~rallyc.table.page`): the game served to browsers (``rallyc serve``).
"""
