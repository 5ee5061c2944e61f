"""Design help at scale: stages generated from the tiles you own (``rallyc generate``).

``Generator(catalogue, Request(...), base_dir).designs()`` grows, tunes and times stages; see
:mod:`rallyc.design.generate` and docs/generate.md.
"""

from rallyc.design.generate import (CLASSES, GenerateError, GeneratedDesign, GeneratedStage, Generator, Request,
                                    class_tiles, design_text)
from rallyc.design.pieces import FEATURES

__all__ = ["CLASSES", "FEATURES", "GenerateError", "GeneratedDesign", "GeneratedStage", "Generator", "Request",
           "class_tiles", "design_text"]
