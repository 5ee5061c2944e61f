"""Deprecated: ``rallyc.rules.bot`` moved to :mod:`rallyc.rules.drivers.bot` (issue 30: the core turn, the variants and
the drivers in folders of their own); this alias goes in the next release."""

import sys
import warnings

from rallyc.rules.drivers import bot as _moved

warnings.warn("rallyc.rules.bot is deprecated: import rallyc.rules.drivers.bot", DeprecationWarning, stacklevel=2)
# the module itself, not a copy: its names, its private ones and what a test patches on it are the moved module's
sys.modules[__name__] = _moved
