"""The inline Markdown a spec's `doc` text may hold (`code`, *emphasis*, **strong**, [links](url)), as HTML. The
text is escaped first, so nothing the spec writes becomes markup but these four; a link whose target is not a
web address, a fragment or a relative path stays text."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

_CODE = re.compile(r"`([^`]+)`")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")
_LINK = re.compile(r"\[([^\]]+)\]\(([^()\s]+)\)")
_SAFE_TARGET = re.compile(r"(https?://|#)[^\s]*|[\w][\w./#-]*")


def inline_html(text: str) -> Markup:
    """`text` with its inline Markdown as HTML; a code span keeps its asterisks and brackets as written."""
    pieces = _CODE.split(str(text))
    return Markup("").join(Markup("<code>{}</code>").format(p) if i % 2 else _styled(p) for i, p in enumerate(pieces))


def _styled(text: str) -> Markup:
    html = str(escape(text))
    html = _STRONG.sub(r"<strong>\1</strong>", html)
    html = _EM.sub(r"<em>\1</em>", html)
    return Markup(_LINK.sub(_link, html))


def _link(match: re.Match[str]) -> str:
    words, target = match.groups()
    return f'<a href="{target}">{words}</a>' if _SAFE_TARGET.fullmatch(target) else match.group(0)
