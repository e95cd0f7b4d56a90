"""The chapters of a rule book, in the order published books print them (dsl.vocabulary.RULE_SECTIONS): which rules
it follows, equipment, setup, play, winning, the end of a hand, dealer rotation and the end of the match, scoring,
irregularities and penalties, referee procedure, glossary. Each holds the spec's own prose (`rules KIND ...:`) in
Chinese and English, then what the spec's model says of it in words (kong payments under play, draw checks under
the end of a hand, `next hand sets` under dealer rotation, penalties under penalties)."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.book.round_prose import RuleGroup
from dsl.frontend import ir
from dsl.vocabulary import RULE_SECTIONS

# The heading of a chapter the spec does not write itself.
TITLES = {
    "source": ("依据", "The rules this book follows"),
    "equipment": ("牌具", "Equipment"),
    "setup": ("准备", "Setup"),
    "play": ("行牌", "Play"),
    "winning": ("和牌", "Winning"),
    "end": ("流局", "The end of a hand"),
    "rotation": ("连庄与轮庄", "Dealer rotation and the end of the match"),
    "scoring": ("计分与结算", "Scoring and settlement"),
    "penalties": ("罚则", "Irregularities and penalties"),
    "referee": ("裁判", "Referee procedure"),
    "glossary": ("术语", "Glossary"),
}


@dataclass(frozen=True)
class Block:
    """A paragraph (one item) or a bulleted list of the spec's own text."""

    kind: str  # "p" or "ul"
    items: tuple[str, ...]


@dataclass(frozen=True)
class Chapter:
    kind: str  # one of RULE_SECTIONS, also the chapter's anchor
    title: str
    english: str
    zh: tuple[Block, ...]  # the spec's text in Chinese
    en: tuple[Block, ...]  # and in English
    groups: tuple[RuleGroup, ...]  # what the spec's model says of this chapter

    @property
    def written(self) -> bool:
        """Whether the chapter says anything: a book leaves out a chapter neither the prose nor the model fills."""
        return bool(self.zh or self.en or self.groups)


def chapters(spec: ir.Spec, groups: tuple[RuleGroup, ...]) -> dict[str, Chapter]:
    """Every chapter by kind, in book order; one the spec does not write has the default heading and no text."""
    written = {section.kind: section for section in spec.rule_sections}
    book: dict[str, Chapter] = {}
    for kind in RULE_SECTIONS:
        section = written.get(kind)
        title, english = (section.title, section.english) if section is not None else TITLES[kind]
        book[kind] = Chapter(kind, title, english, paragraphs(section.zh if section else None),
                             paragraphs(section.en if section else None),
                             tuple(g for g in groups if g.chapter == kind and g.rules))
    return book


def paragraphs(text: str | None) -> tuple[Block, ...]:
    """Text as paragraphs and `- ` lists (indented lines continue a list item)."""
    blocks: list[Block] = []
    for chunk in (text or "").strip().split("\n\n"):
        lines: list[str] = []
        items: list[str] = []
        for line in chunk.splitlines():
            if line.startswith("- "):
                items.append(line[2:].strip())
            elif items and line.startswith(" "):
                items[-1] = joined(items[-1], line.strip())
            elif line.strip():
                lines.append(line.strip())
        if lines:
            paragraph = lines[0]
            for line in lines[1:]:
                paragraph = joined(paragraph, line)
            blocks.append(Block("p", (paragraph,)))
        if items:
            blocks.append(Block("ul", tuple(items)))
    return tuple(blocks)


def joined(text: str, line: str) -> str:
    """Two lines of one paragraph: a space between words, none where Chinese text runs on (between two Chinese
    characters, or beside a full-width punctuation mark)."""
    runs_on = (_chinese(text[-1]) and _chinese(line[0])) or _full_width(text[-1]) or _full_width(line[0])
    return text + ("" if runs_on else " ") + line


def _chinese(char: str) -> bool:
    return "\u2e80" <= char <= "\u9fff"


def _full_width(char: str) -> bool:
    return "\u3000" <= char <= "\u303f" or "\uff00" <= char <= "\uffef"
