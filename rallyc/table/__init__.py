"""The referee at the table: the rally sheet (:mod:`rallyc.table.sheet`, printed by
:mod:`rallyc.table.sheet_render`) and the browser surface of a live game (:mod:`rallyc.table.server`)."""
