"""The version of rallyc, in a module of its own so that any layer can read it without importing the package's facade."""

__version__ = "0.1.0"
