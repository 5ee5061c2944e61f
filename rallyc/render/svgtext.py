"""SVG text of an svgwrite drawing, written straight from its elements.

``svgwrite``'s ``tostring`` builds a whole ElementTree copy of the drawing and then serialises it;
on a long stage that is a large part of the render time. This writes the same bytes in one walk:
attributes sorted by name with ``None`` and empty values left out (as ``BaseElement.get_xml``),
escaped by ElementTree's own escaping functions, ``<tag ... />`` for an element without text or
children (ElementTree's short empty elements). Any element this module does not know (an
animation, a style sheet's CDATA, ...) makes it hand the whole drawing to ``svgwrite`` instead, so
the text is always what ``svgwrite`` would write (tests/test_render_svgtext.py compares them).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import svgwrite
from svgwrite.base import Title
from svgwrite.container import Defs, Group
from svgwrite.path import Path
from svgwrite.shapes import Circle, Rect
from svgwrite.text import Text
from svgwrite.utils import strlist

__all__ = ["svg_text", "TextGroup", "attr", "element_text"]

#: element classes whose XML is BaseElement.get_xml's (attributes only, or Path's ``d``, or Text's text)
_PLAIN = (Group, Defs, Circle, Rect)
_ESCAPE_ATTRIB = ET._escape_attrib  # type: ignore[attr-defined]
_ESCAPE_CDATA = ET._escape_cdata  # type: ignore[attr-defined]
#: a character ``_ESCAPE_ATTRIB`` replaces (a value without one is written as it is: one scan, no call)
_SPECIAL = re.compile('[&<>"\r\n\t]').search


class _Unknown(Exception):
    """An element this writer does not reproduce byte for byte."""


def attr(value: str) -> str:
    """An attribute value as written between double quotes (escaped as ElementTree escapes it)."""
    return _ESCAPE_ATTRIB(value) if _SPECIAL(value) else value


def element_text(el) -> str:
    """The text ``svg_text`` writes for one element of a drawing (and its children)."""
    out: list[str] = []
    _child(el, out)
    return "".join(out)


class TextGroup:
    """A ``<g>`` written as text as its children are added: an svgwrite element is written when it is added
    (it must be complete by then), ready-written element text is added with :meth:`raw`. ``svg_text`` copies
    the text as it is; ``get_xml`` parses it back, so ``svgwrite``'s own ``tostring`` writes the same.

    The map of a long stage has tens of thousands of elements: writing the common ones from a format string
    instead of building objects and writing them later is much faster.
    """

    __slots__ = ("_head", "_parts")
    elementname = "g"

    def __init__(self, **attrs: str) -> None:
        # attribute names as scene._attrs gives them (class_ -> class, data_q -> data-q), sorted, empty left out
        items = sorted((k.rstrip("_").replace("_", "-"), v) for k, v in attrs.items())
        self._head = "<g" + "".join(f' {name}="{attr(value)}"' for name, value in items if value)
        self._parts: list[str] = []

    def add(self, el):
        """Write ``el`` (an svgwrite element or another ``TextGroup``) into the group; returns it."""
        _child(el, self._parts)
        return el

    def raw(self, text: str) -> None:
        """Add ready-written element text (as ``svg_text`` would write the element)."""
        self._parts.append(text)

    def placeholder(self) -> int:
        """Reserve a place for an element written later (:meth:`fill`)."""
        self._parts.append("")
        return len(self._parts) - 1

    def fill(self, at: int, el) -> None:
        """Write ``el`` at a place reserved by :meth:`placeholder`."""
        self._parts[at] = element_text(el)

    def text(self) -> str:
        """The group's SVG text."""
        if not self._parts:
            return self._head + " />"
        return self._head + ">" + "".join(self._parts) + "</g>"

    def get_xml(self):
        return ET.fromstring(self.text())


def svg_text(dwg: svgwrite.Drawing) -> str:
    """The drawing as ``dwg.tostring()`` writes it (same text)."""
    out: list[str] = []
    try:
        _drawing(dwg, out)
    except _Unknown:
        return dwg.tostring()
    return "".join(out)


def _drawing(dwg: svgwrite.Drawing, out: list[str]) -> None:
    if type(dwg) is not svgwrite.Drawing:
        raise _Unknown
    # what Drawing.get_xml adds before writing
    dwg.attribs["xmlns"] = "http://www.w3.org/2000/svg"
    dwg.attribs["xmlns:xlink"] = "http://www.w3.org/1999/xlink"
    dwg.attribs["xmlns:ev"] = "http://www.w3.org/2001/xml-events"
    dwg.attribs["baseProfile"] = dwg.profile
    dwg.attribs["version"] = dwg.version
    if dwg.debug:
        raise _Unknown
    _element(dwg, "", out)


def _element(el, text: str, out: list[str]) -> None:
    if el.debug:
        raise _Unknown
    attribs = el.attribs
    parts = ["<", el.elementname]
    for name, value in sorted(attribs.items()):
        if value is None:
            continue
        if type(value) is not str:  # value_to_string of a str is the str itself
            value = el.value_to_string(value)
        if value:
            parts.append(f' {name}="{_ESCAPE_ATTRIB(value) if _SPECIAL(value) else value}"')
    children = el.elements
    if text or children:
        parts.append(">")
        if text:
            parts.append(_ESCAPE_CDATA(text))
        out.append("".join(parts))
        for child in children:
            _child(child, out)
        out.append(f"</{el.elementname}>")
    else:
        parts.append(" />")
        out.append("".join(parts))


def _child(el, out: list[str]) -> None:
    kind = type(el)
    if kind in _PLAIN:
        _element(el, "", out)
    elif kind is Path:
        commands = el.commands
        # strlist of one string is that string
        el.attribs["d"] = commands[0] if len(commands) == 1 and type(commands[0]) is str \
            else str(strlist(commands, " "))
        _element(el, "", out)
    elif kind is Text:
        if el.elements:
            raise _Unknown
        _element(el, str(el.text), out)
    elif kind is TextGroup:
        out.append(el.text())
    elif kind is Title:
        xml = el.xml
        if len(xml) or xml.attrib or xml.tail:
            raise _Unknown
        out.append(f"<title>{_ESCAPE_CDATA(xml.text)}</title>" if xml.text else "<title />")
    else:
        raise _Unknown
