"""Markdown as plain text, for an editor whose hover advertises only ``plaintext``
(``contentFormat``; Emacs's Eglot without markdown-mode): the words without their marks, code
blocks as their lines, and a blank line between parts, so nothing runs into what follows."""

from __future__ import annotations

import re

_FENCE = re.compile(r"^\s*```")
_RULE = re.compile(r"^\s*(?:---+|\*\*\*+|___+)\s*$")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(
    r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<![\w])_(?!\s)(.+?)(?<!\s)_(?!\w)"
)
_CODE = re.compile(r"`([^`]*)`")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!<>|])")


def _inline(line: str) -> str:
    spans: list[str] = []

    def keep(m: re.Match) -> str:  # code keeps its characters: no other mark applies inside it
        spans.append(m.group(1))
        return f"\x00{len(spans) - 1}\x00"

    line = _CODE.sub(keep, line)
    line = _LINK.sub(r"\1", line)
    line = _BOLD.sub(lambda m: m.group(1) or m.group(2), line)
    line = _ITALIC.sub(lambda m: m.group(1) or m.group(2), line)
    line = _ESCAPE.sub(r"\1", line)
    return re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], line)


def markdown_to_plain(text: str) -> str:
    """``text`` (Markdown) as plain text a reader takes in without a renderer."""
    out: list[str] = []
    in_code = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_code = not in_code
            if out and out[-1] != "":
                out.append("")
            continue
        if in_code:
            out.append(line)
        elif _RULE.match(line):
            if out and out[-1] != "":
                out.append("")
        else:
            out.append(_inline(line).rstrip())
    # one blank line at most between paragraphs, none at the ends
    joined = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", joined).strip("\n")
