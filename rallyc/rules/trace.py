"""Deprecated: ``rallyc.rules.trace`` moved to :mod:`rallyc.rules.core.trace` (issue 30: the core turn, the variants
and the drivers in folders of their own); this alias goes in the next release."""

import sys
import warnings

from rallyc.rules.core import trace as _moved

warnings.warn("rallyc.rules.trace is deprecated: import rallyc.rules.core.trace", DeprecationWarning, stacklevel=2)
# the module itself, not a copy: its names, its private ones and what a test patches on it are the moved module's
sys.modules[__name__] = _moved
