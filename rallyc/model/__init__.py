"""The model: the vocabulary every other layer shares (the options registry, diagnostic codes as symbols).

This is the lowest layer: nothing here imports anything else from rallyc, so the
language, the build, the checks, the records and the referee can all read it.
"""
