"""SVG pages to one multi-page PDF, or to PNG, through cairosvg (the optional ``rallyc[pdf]`` extra).

PDF bytes are the same for the same input: cairo stamps the creation date into the document
information, so it is set here to a fixed date and the creator to ``rallyc``. PNG bytes depend on
the fonts installed, so the same SVG can give different PNGs on two machines.
"""

from __future__ import annotations

import io
from typing import Sequence

__all__ = ["ExportUnavailable", "svgs_to_pdf", "svg_to_png", "MISSING"]

MISSING = ("PDF and PNG output need cairosvg (and the cairo library): pip install 'rallyc[pdf]' "
           "(on Debian: apt-get install libcairo2)")
#: the date every PDF says it was made (a fixed one: same input, same bytes)
FIXED_DATE = "2000-01-01T00:00:00Z"


class ExportUnavailable(RuntimeError):
    """cairosvg or the cairo library is missing."""


def _cairo():
    try:
        import cairocffi
        import cairosvg.parser
        import cairosvg.surface
    except (ImportError, OSError) as e:  # OSError: the Python package is there, libcairo is not
        raise ExportUnavailable(MISSING) from e
    return cairocffi, cairosvg.parser, cairosvg.surface


def svgs_to_pdf(pages: Sequence[str], title: str = "") -> bytes:
    """One PDF with one page per SVG document, each page the size its SVG says."""
    cairo, parser, surface = _cairo()
    out = io.BytesIO()
    shared = cairo.PDFSurface(out, 1, 1)
    shared.set_metadata(cairo.PDF_METADATA_CREATE_DATE, FIXED_DATE)
    shared.set_metadata(cairo.PDF_METADATA_CREATOR, "rallyc")
    if title:
        shared.set_metadata(cairo.PDF_METADATA_TITLE, title)

    class _Page(surface.PDFSurface):  # type: ignore[name-defined]  # cairosvg ships no type information
        """cairosvg's PDF surface drawing onto the one shared PDF, a new page each time."""

        def _create_surface(self, width, height):
            shared.set_size(width, height)
            return shared, width, height

        def finish(self):  # the shared surface is finished once, after the last page
            pass

    for svg in pages:
        tree = parser.Tree(bytestring=svg.encode("utf-8"))
        _Page(tree, None, 96)
        shared.show_page()
    shared.finish()
    return out.getvalue()


def svg_to_png(svg: str, dpi: float = 150.0) -> bytes:
    """One SVG page as a PNG at ``dpi`` dots per inch, on white."""
    _, parser, surface = _cairo()
    out = io.BytesIO()
    tree = parser.Tree(bytestring=svg.encode("utf-8"))
    png = surface.PNGSurface(tree, out, dpi, background_color="#ffffff")
    png.finish()
    return out.getvalue()
