"""The core turn: one turn engine for every game form (:mod:`.engine`), laying dice (:mod:`.plans`), rolling
(:mod:`.rolling`), the turn as recorded (:mod:`.turn`), the step machine (:mod:`.machine`), and the game forms it plays
as they stand in the core and RX books: a stage (:mod:`.stage`, its End of the Turn :mod:`.timecards`) and an RX
race (:mod:`.race`, its order of play :mod:`.rx_order`). A variant plugs into the typed hooks of :mod:`.hooks`;
nothing here imports :mod:`rallyc.rules.variants` (``.importlinter``). Importing the package imports none of its
modules."""
