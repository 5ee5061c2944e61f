"""Deprecated: ``rallyc.rules.state`` moved to :mod:`rallyc.rules.core.state` (issue 30: the core turn, the variants
and the drivers in folders of their own); this alias goes in the next release."""

import sys
import warnings

from rallyc.rules.core import state as _moved

warnings.warn("rallyc.rules.state is deprecated: import rallyc.rules.core.state", DeprecationWarning, stacklevel=2)
# the module itself, not a copy: its names, its private ones and what a test patches on it are the moved module's
sys.modules[__name__] = _moved
