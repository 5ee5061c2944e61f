"""Deprecated alias of :mod:`rallyc.compilation.pipeline` (moved in issue 30); it goes in the next release.

Importing it warns (``DeprecationWarning``) and gives the new module's public names.
"""

from __future__ import annotations

import warnings

from rallyc.compilation.pipeline import *  # noqa: F401,F403 - the alias re-exports every public name
from rallyc.compilation.pipeline import __all__  # noqa: F401

warnings.warn("rallyc.pipeline is deprecated: import rallyc.compilation.pipeline (moved in rallyc's issue 30)",
              DeprecationWarning, stacklevel=2)
