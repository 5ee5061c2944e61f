"""rallyc: Rallyman: DIRT tracks as code.

A text language for tiles, stages, rallies and RX circuits; a compiler to a
graph of every space a car can drive; a rules referee for recorded games; and
printable SVG maps.
"""

__version__ = "0.1.0"
