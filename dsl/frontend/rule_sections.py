"""The rules of play written in prose (`rules setup "准备" "Setup":`) -> IR: each chapter checked against the
chapters a rule book has, with its Chinese and English text, in the order the book prints them. Only the book
reads them; no checker does."""

from __future__ import annotations

import textwrap

from dsl.frontend import ast, ir
from dsl.frontend.source import error, suggest
from dsl.vocabulary import RULE_SECTIONS


def rule_sections(sections: dict[str, ast.RuleSection]) -> tuple[ir.RuleSection, ...]:
    """Every chapter the spec (or its parent) writes, in book order."""
    for decl in sections.values():
        if decl.kind.text not in RULE_SECTIONS:
            raise error(f"unknown chapter {decl.kind.text!r} (a rule book has: {', '.join(RULE_SECTIONS)})",
                        decl.kind.span, suggest(decl.kind.text, list(RULE_SECTIONS)))
    ordered = sorted(sections.values(), key=lambda d: RULE_SECTIONS.index(d.kind.text))
    return tuple(_section(decl) for decl in ordered)


def _section(decl: ast.RuleSection) -> ir.RuleSection:
    texts: dict[str, str] = {}
    for language, text, span in decl.texts:
        if language in texts:
            raise error(f"`rules {decl.kind.text}` gives its {language} text twice", span)
        if not text.strip():
            raise error(f"the {language} text of `rules {decl.kind.text}` is empty", span)
        texts[language] = textwrap.dedent(text).strip()
    return ir.RuleSection(decl.kind.text, decl.title, decl.english, texts.get("zh"), texts.get("en"), decl.span)
