"""What ``rallyc explain CODE`` prints about a diagnostic code: the one text the command line and the language
server's hover show (:func:`explain_text`)."""

from __future__ import annotations

from rallyc.codes import CodeInfo, all_codes

__all__ = ["explain_text", "normalise_code"]

#: said of every error: a design with an error is not compiled, so nothing may hide one (:mod:`rallyc.project.config`)
_CANNOT_BE_IGNORED = ("An error cannot be ignored: `rallyc check` reports it and exits 1 whatever `--select`, "
                      "`--ignore`, the settings file or a `# rallyc: ignore` comment say (a design with an "
                      "error is not compiled, so it cannot be played).")

#: what the example's file is, after its name, by the example's kind
_EXAMPLE_TITLES = {"json": ", a Rekee editor track file"}


def normalise_code(raw: str) -> str:
    """A code as written by a user, as registered: ``rc130`` and ``130`` are ``RC130``."""
    code = raw.strip().upper()
    if code.isdigit():
        code = "RC" + code.zfill(3)
    return code


def explain_text(code: str) -> str | None:
    """What ``rallyc explain CODE`` prints (the code's severity and summary, what it means, an example that shows
    it, the fix and the rule IDs), or None for an unknown code. ``code`` as a user writes it (:func:`normalise_code`)."""
    info = all_codes().get(normalise_code(code))
    if info is None:
        return None
    out = [f"{info.code} ({info.severity}): {info.summary}", "", info.explanation, ""]
    if info.severity == "error":
        out += [_CANNOT_BE_IGNORED, ""]
    out += _example_lines(info) + ["", f"Fix: {info.fix}"]
    if info.rules:
        out += ["", "Rules: " + ", ".join(info.rules)]
    return "\n".join(out) + "\n"


def _example_lines(info: CodeInfo) -> list[str]:
    """The example of a code: its file(s), indented, and the command that shows the code."""
    if info.example_kind == "internal":
        return [f"Example: {info.example}"]
    files = info.example_files()
    if info.example_kind == "shell":
        out = [f"Example: {info.example}"]
    elif len(files) == 1:
        ((name, text),) = files.items()
        out = [f"Example: {name}{_EXAMPLE_TITLES.get(info.example_kind, '')}"] + _indented(text)
    else:
        out = [f"Example: {len(files)} files"]
        for n, (name, text) in enumerate(files.items()):
            out += ([""] if n else []) + [f"  {name}:"] + _indented(text)
    return out + [f"Run `{info.example_command()}` to see {info.code}."]


def _indented(text: str) -> list[str]:
    return [("    " + line).rstrip() for line in text.splitlines()]
