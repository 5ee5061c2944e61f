"""Deprecated: ``rallyc.rules.driver`` moved to :mod:`rallyc.rules.core.driver` (issue 30: the core turn, the variants
and the drivers in folders of their own); this alias goes in the next release."""

import sys
import warnings

from rallyc.rules.core import driver as _moved

warnings.warn("rallyc.rules.driver is deprecated: import rallyc.rules.core.driver", DeprecationWarning, stacklevel=2)
# the module itself, not a copy: its names, its private ones and what a test patches on it are the moved module's
sys.modules[__name__] = _moved
