"""Deprecated alias of :mod:`rallyc.project.config` (moved in issue 30); it goes in the next release.

Importing it warns (``DeprecationWarning``) and gives the new module's public names.
"""

from __future__ import annotations

import warnings

from rallyc.project.config import *  # noqa: F401,F403 - the alias re-exports every public name
from rallyc.project.config import __all__  # noqa: F401

warnings.warn("rallyc.config is deprecated: import rallyc.project.config (moved in rallyc's issue 30)",
              DeprecationWarning, stacklevel=2)
