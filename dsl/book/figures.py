"""SVG drawn by the rule reference: mahjong tiles and the exclusion graph of a spec.

Everything is plain SVG text built here (no graphviz, no external service, no fonts to fetch), laid
out deterministically so that the generated pages are byte-for-byte stable.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, replace
from html import escape

from dsl.book import chrome
from dsl.book.options import option_value_text
from dsl.frontend import ir

# Suits are coloured by their position in the spec (万 red, 筒 blue, 条 green in the usual order).
_SUIT_COLOURS = ("#b3261e", "#1f5fa8", "#2e7d32", "#6a3d9a", "#8a5a00")
_HONOR_COLOURS = {"中": "#b3261e", "发": "#2e7d32", "白": "#1f5fa8"}
_INK = "#1d2433"
TILE_WIDTH, TILE_HEIGHT = 30, 40


# ---------------------------------------------------------------- tiles


def tile_label(tile: ir.Tile) -> str:
    """The text a screen reader or a failed image shows for a tile."""
    return f"{tile.name} {tile.code}"


def red_tiles(spec: ir.Spec) -> dict[str, ir.Tile]:
    """The red fives of a spec (`0m`), each drawn and named as its own tile though it plays as a 5."""
    return {code: replace(spec.tiles[index], code=code, name="赤" + spec.tiles[index].name,
                          english="red " + spec.tiles[index].english) for code, index in spec.red_tiles}


def tile_symbols(spec: ir.Spec) -> str:
    """One hidden <svg> defining a <symbol> per tile of the spec; tile() refers to them."""
    suit_colour = {s.code: _SUIT_COLOURS[i % len(_SUIT_COLOURS)] for i, s in enumerate(spec.suits)}
    symbols = "".join(_tile_symbol(t, spec, suit_colour.get(t.suit, _INK)) for t in spec.tiles)
    symbols += "".join(_tile_symbol(t, spec, _HONOR_COLOURS["中"], red=True) for t in red_tiles(spec).values())
    return (f'<svg class="tile-defs" width="0" height="0" aria-hidden="true" focusable="false">'
            f"<defs>{symbols}</defs></svg>")


def _tile_symbol(tile: ir.Tile, spec: ir.Spec, colour: str, red: bool = False) -> str:
    face = (f'<rect x="1" y="1" width="{TILE_WIDTH - 2}" height="{TILE_HEIGHT - 2}" rx="4" '
            f'fill="#fbf8ef" stroke="#8a8170" stroke-width="1.2"/>')
    suit_name = next((s.name for s in spec.suits if s.code == tile.suit), "")
    if tile.numbered and tile.name.endswith(suit_name) and len(tile.name) > len(suit_name):
        rank = tile.name[: -len(suit_name)].removeprefix("赤")
        text = (_text(15, 18, 15, colour if red else _INK, rank) + _text(15, 34, 12, colour, suit_name))
    else:
        text = _text(15, 26, 17 if len(tile.name) == 1 else 10, _HONOR_COLOURS.get(tile.name, colour), tile.name)
    return (f'<symbol id="{tile_id(tile)}" viewBox="0 0 {TILE_WIDTH} {TILE_HEIGHT}">'
            f"{face}{text}</symbol>")


def _text(x: int, y: int, size: int, colour: str, text: str) -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="middle" fill="{colour}" '
            f'font-family="serif">{escape(text)}</text>')


def tile_id(tile: ir.Tile) -> str:
    return f"tile-{tile.code}"


def tile(tile: ir.Tile, css_class: str = "tile") -> str:
    """An inline tile image: a reference to its symbol, named for screen readers and tooltips."""
    # The page's CSS sizes the image and the symbol scales to fill it: a hand of tiles stays small.
    label = escape(tile_label(tile))
    return (f'<svg class="{css_class}" role="img" aria-label="{label}">'
            f'<title>{label} · {escape(tile.english)}</title><use href="#{tile_id(tile)}"/></svg>')


# ---------------------------------------------------------------- the exclusion graph
# An arc diagram: each connected part of the graph is one column of patterns, most valuable on top;
# a 不计 edge is an arc on the right of its column and an exclusive group a dashed box around its
# members. Arcs never cross a pattern's box, whatever the spec declares.

_FONT = 13
_NODE_HEIGHT = 26
_ROW = 36
_PAD = 14
_BOX_PAD = 8
_BOX_HEAD = 24  # room for the group's name above its members
_MAX_WIDTH = 720  # columns wrap below this width, so the figure stays legible on a phone
# Past this many arcs and group memberships (mcr has 118 arcs) no figure is drawn: it could no longer be read,
# and its size would grow with each arc's length; the book lists every exclusion in its text all the same.
MAX_FIGURE_LINKS = 500


@dataclass(frozen=True)
class _Node:
    pattern: ir.Pattern
    left: float
    top: float
    width: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def middle(self) -> float:
        return self.top + _NODE_HEIGHT / 2


@dataclass(frozen=True)
class _Box:
    group: ir.ExclusiveGroup
    left: float
    top: float
    width: float
    height: float


@dataclass
class _Drawing:
    nodes: dict[str, _Node]
    boxes: list[_Box]
    width: float = 0
    height: float = 0


def times_text(exclusion: ir.Exclusion) -> str:
    """` ×n` for an exclusion of n occurrences, nothing for the whole pattern."""
    return f" ×{exclusion.times}" if exclusion.times is not None else ""


def exclusion_edges(spec: ir.Spec) -> list[tuple[ir.Pattern, ir.Exclusion]]:
    """Every 不计 edge of the spec, in declaration order of the excluding pattern."""
    return [(p, x) for p in sorted_patterns(spec) for x in p.excludes]


def sorted_patterns(spec: ir.Spec) -> list[ir.Pattern]:
    """Hand patterns then loser patterns, each in declaration order."""
    return sorted(spec.patterns, key=_order) + sorted(spec.loser_patterns, key=_order)


def _order(p: ir.Pattern) -> int:
    return p.order


def edge_label(pattern: ir.Pattern, exclusion: ir.Exclusion, excludes: str = "不计") -> str:
    """`excludes` is the word in the book's script."""
    return f"{pattern.name} {excludes} {exclusion.target}{times_text(exclusion)}"


def exclusion_graph(spec: ir.Spec) -> str | None:
    """The 不计 edges and exclusive groups as a standalone SVG figure; None when the spec has neither, or more of
    them than MAX_FIGURE_LINKS."""
    edges = exclusion_edges(spec)
    if len(edges) + sum(len(g.members) for g in spec.exclusive_groups) > MAX_FIGURE_LINKS:
        return None
    columns = _columns(spec, edges)
    if not columns:
        return None
    drawing = _Drawing({}, [])
    x, y, row_height = _PAD, _PAD, 0.0
    for column in columns:
        width, height = _column_size(spec, column, edges)
        if x > _PAD and x + width > _MAX_WIDTH:
            x, y, row_height = _PAD, y + row_height + _ROW, 0.0
        _place_column(spec, column, x, y, drawing)
        x += width + _ROW
        row_height = max(row_height, height)
        drawing.width = max(drawing.width, x - _ROW + _PAD)
    drawing.height = y + row_height + _PAD
    return _svg(spec, drawing, edges)


def _columns(spec: ir.Spec, edges: list[tuple[ir.Pattern, ir.Exclusion]]) -> list[list[ir.Pattern]]:
    """The connected parts of the graph, each as the patterns of one column, in drawing order."""
    patterns = {p.name: p for p in sorted_patterns(spec)}
    links = [(p.name, x.target) for p, x in edges]
    links += [(g.members[0], m) for g in spec.exclusive_groups for m in g.members]
    part: dict[str, str] = {}  # union-find over pattern names

    def root(name: str) -> str:
        while part.setdefault(name, name) != name:
            name = part[name]
        return name

    for a, b in links:
        part[root(b)] = root(a)
    members: dict[str, list[ir.Pattern]] = {}
    for name, p in patterns.items():
        if name in part:
            members.setdefault(root(name), []).append(p)
    return [_column_order(spec, ps) for ps in members.values()]


def _column_order(spec: ir.Spec, patterns: list[ir.Pattern]) -> list[ir.Pattern]:
    """Each exclusive group's members together (so its box is one block), then the rest; by value."""
    names = {p.name for p in patterns}
    ordered: list[ir.Pattern] = []
    for group in spec.exclusive_groups:
        block = [p for p in patterns if p.name in group.members and p not in ordered]
        ordered += _by_value(block) if names & set(group.members) else []
    return ordered + _by_value([p for p in patterns if p not in ordered])


def _by_value(patterns: list[ir.Pattern]) -> list[ir.Pattern]:
    return sorted(patterns, key=lambda p: (-(p.value.amount or 0), p.order))


def _groups_in(spec: ir.Spec, column: list[ir.Pattern]) -> list[ir.ExclusiveGroup]:
    names = {p.name for p in column}
    return [g for g in spec.exclusive_groups if names & set(g.members)]


def _column_size(spec: ir.Spec, column: list[ir.Pattern],
                 edges: list[tuple[ir.Pattern, ir.Exclusion]]) -> tuple[float, float]:
    node_width = max(_node_width(p) for p in column)
    rows = {p.name: i for i, p in enumerate(column)}
    spans = [abs(rows[x.target] - rows[p.name]) for p, x in edges if p.name in rows]
    arcs = _arc_reach(max(spans, default=0)) + 20 if spans else 0
    groups = len(_groups_in(spec, column))
    height = len(column) * _ROW - (_ROW - _NODE_HEIGHT) + groups * (_BOX_HEAD + 2 * _BOX_PAD)
    return 2 * _BOX_PAD + node_width + arcs, height


def _arc_reach(rows: int) -> float:
    """How far right an arc spanning so many rows bulges: longer arcs outside shorter ones, growing
    slower than the span so that a spec with a hundred exclusions still fits a page."""
    return 10 + 24 * math.sqrt(rows)


def _place_column(spec: ir.Spec, column: list[ir.Pattern], left: float, top: float, drawing: _Drawing) -> None:
    node_width = max(_node_width(p) for p in column)
    boxed = {m: g for g in reversed(_groups_in(spec, column)) for m in g.members}
    y = top
    current: ir.ExclusiveGroup | None = None
    box_top = 0.0
    for p in column:
        group = boxed.get(p.name)
        if group is not current:
            if current is not None:
                drawing.boxes.append(_Box(current, left, box_top, node_width + 2 * _BOX_PAD, y - box_top + _BOX_PAD))
                y += _BOX_PAD + (_ROW - _NODE_HEIGHT)
            if group is not None:
                box_top = y
                y += _BOX_HEAD
            current = group
        drawing.nodes[p.name] = _Node(p, left + _BOX_PAD, y, node_width)
        y += _ROW
    if current is not None:
        y -= _ROW - _NODE_HEIGHT
        drawing.boxes.append(_Box(current, left, box_top, node_width + 2 * _BOX_PAD, y - box_top + _BOX_PAD))


def node_text(p: ir.Pattern) -> str:
    amount = str(p.value.amount) if p.value.expr is None else option_value_text(p.value.expr) or "n"
    return f"{p.name} {amount}{' each' if p.value.per_occurrence else ''}"


def _node_width(p: ir.Pattern) -> float:
    return _text_width(node_text(p)) + 20


def _text_width(text: str) -> float:
    return sum(_FONT if unicodedata.east_asian_width(c) in "WF" else _FONT * 0.6 for c in text)


_LEGEND = ("→ {excludes}: the fan at the arc's start excludes the one at its arrow",
           "dashed box: an exclusive group, only its most valuable fan counts",
           "tinted: a loser fan, worked out for each loser's share")


def _svg(spec: ir.Spec, drawing: _Drawing, edges: list[tuple[ir.Pattern, ir.Exclusion]]) -> str:
    marker = f"arrow-{spec.name}"
    excludes = chrome.word(spec.language, "不计")
    legend = [line.format(excludes=excludes) for line, shown in zip(_LEGEND, _legend_needs(drawing), strict=True)
              if shown]
    width = max(drawing.width, max(_text_width(line) * 11 / _FONT for line in legend) + 2 * _PAD)
    height = drawing.height + 16 * len(legend) + 4
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="exclusion-graph" width="{width:.0f}" '
             f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
             f'aria-labelledby="{marker}-title" font-family="sans-serif" font-size="{_FONT}">',
             f'<title id="{marker}-title">{escape(spec.title)}: {excludes} exclusions and exclusive groups</title>',
             f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
             f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#9a3412"/>'
             f"</marker></defs>"]
    parts += [_box_svg(box) for box in drawing.boxes]
    parts += [_node_svg(node) for node in drawing.nodes.values()]
    parts += [_edge_svg(drawing.nodes[p.name], drawing.nodes[x.target], edge_label(p, x, excludes), x.times,
                        marker)
              for p, x in edges]
    for i, line in enumerate(legend):
        parts.append(f'<text x="{_PAD}" y="{drawing.height + 12 + 16 * i:.0f}" fill="#4b5563" font-size="11">'
                     f"{escape(line)}</text>")
    parts.append("</svg>")
    return "".join(parts)


def _legend_needs(drawing: _Drawing) -> tuple[bool, bool, bool]:
    """Which legend lines the figure needs: arcs, group boxes, loser fans."""
    return (any(n.pattern.excludes for n in drawing.nodes.values()), bool(drawing.boxes),
            any(n.pattern.scope == "loser" for n in drawing.nodes.values()))


def _box_svg(box: _Box) -> str:
    label = f"{box.group.name} {box.group.english or ''}".strip()
    return (f'<g class="group"><title>{escape(label)}</title>'
            f'<rect x="{box.left:.1f}" y="{box.top:.1f}" width="{box.width:.1f}" height="{box.height:.1f}" rx="8" '
            f'fill="#f3f6fb" stroke="#1f5fa8" stroke-dasharray="6 4"/>'
            f'<text x="{box.left + _BOX_PAD:.1f}" y="{box.top + 17:.1f}" fill="#1f5fa8" font-weight="bold">'
            f"{escape(box.group.name)}</text></g>")


def _node_svg(node: _Node) -> str:
    p = node.pattern
    fill = "#fff7ed" if p.scope == "loser" else "#ffffff"
    title = f"{p.name} {p.english or ''}".strip()
    return (f'<g class="node"><title>{escape(title)}</title>'
            f'<rect x="{node.left:.1f}" y="{node.top:.1f}" width="{node.width:.1f}" height="{_NODE_HEIGHT}" rx="5" '
            f'fill="{fill}" stroke="#374151"/>'
            f'<text x="{node.left + 10:.1f}" y="{node.middle + 4.5:.1f}" fill="{_INK}">'
            f"{escape(node_text(p))}</text></g>")


def _edge_svg(source: _Node, target: _Node, label: str, times: int | None, marker: str) -> str:
    """An arc from the right side of the excluding fan to the right side of the excluded one."""
    rows = round(abs(target.top - source.top) / _ROW)
    reach = source.right + _arc_reach(rows)
    y1, y2 = source.middle, target.middle
    path = (f"M{source.right:.1f},{y1:.1f} C{reach:.1f},{y1:.1f} {reach:.1f},{y2:.1f} "
            f"{target.right + 1:.1f},{y2:.1f}")
    mark = "" if times is None else (f'<text x="{source.right + 0.75 * _arc_reach(rows) + 3:.1f}" '
                                     f'y="{(y1 + y2) / 2 + 4:.1f}" fill="#9a3412" font-size="11">×{times}</text>')
    return (f'<g class="edge"><title>{escape(label)}</title>'
            f'<path d="{path}" fill="none" stroke="#9a3412" stroke-width="1.3" stroke-opacity="0.75" '
            f'marker-end="url(#{marker})"/>'
            f"{mark}</g>")
