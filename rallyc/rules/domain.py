"""Deprecated: ``rallyc.rules.domain`` moved to :mod:`rallyc.rules.core.domain` (issue 30: the core turn, the variants
and the drivers in folders of their own); this alias goes in the next release."""

import sys
import warnings

from rallyc.rules.core import domain as _moved

warnings.warn("rallyc.rules.domain is deprecated: import rallyc.rules.core.domain", DeprecationWarning, stacklevel=2)
# the module itself, not a copy: its names, its private ones and what a test patches on it are the moved module's
sys.modules[__name__] = _moved
