"""The variants of the core turn: RX Full Contact (:mod:`.full_contact`, over the typed hooks of
:mod:`rallyc.rules.core.hooks`), the Yellow Flags (:mod:`.yellow_flags`), the Monte-Carlo weather (:mod:`.weather`),
the custom races (:mod:`.custom` and the game forms it picks: :mod:`.circuit_trial`, :mod:`.speed_trial`,
:mod:`.stage_race`, :mod:`.technical_h2h`) and the Auto Tour (:mod:`.tour`). A new custom race goes here. Importing
the package imports none of its modules."""
