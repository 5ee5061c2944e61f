"""Deprecated: ``rallyc.rules.contact`` moved to :mod:`rallyc.rules.variants.full_contact` (issue 30: the core turn,
the variants and the drivers in folders of their own); this alias goes in the next release."""

import sys
import warnings

from rallyc.rules.variants import full_contact as _moved

warnings.warn("rallyc.rules.contact is deprecated: import rallyc.rules.variants.full_contact", DeprecationWarning,
              stacklevel=2)
# the module itself, not a copy: its names, its private ones and what a test patches on it are the moved module's
sys.modules[__name__] = _moved
