"""Spec text -> syntax tree (dsl.frontend.ast), with positions; syntax errors become diagnostics."""

from __future__ import annotations

import ast as python_ast
import warnings
from dataclasses import replace
from functools import cache

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from dsl.frontend import ast
from dsl.frontend.source import Diagnostic, Source, Span, SpecError, error
from dsl.paths import GRAMMAR_DIR

GRAMMAR = GRAMMAR_DIR / "mjdsl.lark"


class SpecIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@cache
def _lark() -> Lark:
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        postlex=SpecIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
    )


# Friendly names for the terminals an error message may say were expected.
_TERMINAL_NAMES = {
    "NAME": "a name", "STRING": "a quoted string", "INT": "a number", "TILE_RUN": "tiles such as 123m",
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block", "TIMES": "'×'",
    "COMP_OP": "a comparison", "ARROW": "'->'", "GROUP_KIND": "'honors', 'flowers'", "$END": "end of file",
}


def _terminal_name(name: str) -> str:
    if name in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[name]
    try:
        pattern = _lark().get_terminal(name).pattern
    except KeyError:
        return name
    return repr(pattern.value) if pattern.type == "str" else name.lower()


def _describe(token: Token) -> str:
    if token.type == "$END":
        return "end of file"
    if token.type == "_NL":
        return "end of line"
    if token.type in ("_INDENT", "_DEDENT"):
        return "indentation"
    return repr(str(token))


def _expected(names: set[str]) -> str:
    words = sorted({_terminal_name(n) for n in names})
    if len(words) > 8:
        return ""
    return " (expected " + ", ".join(words) + ")"


def _end_of_text(source: Source) -> tuple[int, int]:
    line = len(source.text.splitlines()) or 1
    return line, len(source.line(line)) + 1


def _syntax_error(source: Source, exc: UnexpectedInput) -> SpecError:
    line = getattr(exc, "line", None) or 1
    column = getattr(exc, "column", None) or 1
    width = 1
    if isinstance(exc, UnexpectedCharacters):
        char = source.line(line)[column - 1 : column] or "?"
        message = f"unexpected character {char!r}"
        if "\uff00" <= char <= "\uffef" or "\u3000" <= char <= "\u303f":
            message += " (a full-width punctuation mark; use ASCII , : ( ) = instead)"
    elif isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "$END" or token.line is None:
            line, column = _end_of_text(source)
        elif token.type in ("_INDENT", "_DEDENT"):
            # The indenter dates these tokens at the end of the previous line; point at the line itself.
            line = token.end_line or line
            text = source.line(line)
            column = len(text) - len(text.lstrip()) + 1
        elif token.type != "_NL":
            width = max(1, len(str(token)))
        message = f"unexpected {_describe(token)}{_expected(set(exc.expected))}"
    elif isinstance(exc, UnexpectedEOF):
        line, column = _end_of_text(source)
        message = f"unexpected end of file{_expected(set(exc.expected))}"
    else:
        message = "syntax error"
    span = Span(source, line, column, line, column + width)
    return SpecError([Diagnostic("error", message, span)])


def _dedent_error(source: Source) -> Diagnostic:
    """Find the line whose indentation matches no enclosing block (the indenter does not say where)."""
    levels = [0]
    in_string = False
    for number, text in enumerate(source.text.splitlines(), start=1):
        stripped = text.strip()
        starts_in_string = in_string
        in_string ^= text.count('"""') % 2 == 1
        if starts_in_string or not stripped or stripped.startswith("#"):
            continue
        indent = len(text.expandtabs(SpecIndenter.tab_len)) - len(text.expandtabs(SpecIndenter.tab_len).lstrip())
        if indent > levels[-1]:
            levels.append(indent)
            continue
        while indent < levels[-1]:
            levels.pop()
        if indent != levels[-1]:
            span = Span(source, number, 1, number, indent + 1)
            allowed = " or ".join(str(n) for n in levels)
            return Diagnostic("error", f"this line is indented {indent} spaces, which matches no enclosing "
                              f"block (indent it {allowed} spaces)", span)
    return Diagnostic("error", "inconsistent indentation", None)


def parse(source: Source) -> ast.Module:
    source.check_size()
    text = source.text if source.text.endswith("\n") else source.text + "\n"
    try:
        tree = _lark().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(source, exc) from None
    except DedentError:
        raise SpecError([_dedent_error(source)]) from None
    _check_limits(tree, source)
    try:
        return ToAst(source).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, SpecError):
            raise exc.orig_exc from None
        raise


def parse_file(path: str) -> ast.Module:
    return parse(Source.read(path))


# Every later stage walks expressions recursively: a deeper tree is refused here, with its position. The
# bundled specs nest at most 20 levels, counting from the top of the file.
MAX_NESTING = 100
MAX_DIGITS = 18  # a number of a spec fits a 64-bit integer
# Text a spec gives reaches the checker module, the rule book and every message: its length is bounded. The
# bundled specs' longest doc has 5,500 characters, their longest title or description 110, their longest name 18.
MAX_DOC = 20_000  # characters of a `doc` string
MAX_TITLE = 200  # characters of any other string: a title, an English name, a description
MAX_NAME = 1000  # characters of a name (a case's strings are shorter: a spec may name what no case can)
DOCS = ("doc", "example_doc", "preset_source", "rule_text")  # the rules whose string is a doc (or a citation)


def _check_limits(tree: Tree, source: Source) -> None:
    """Refuse, with a position, what would make a later stage fail: deep nesting, huge numbers, bad strings."""
    pending = [(tree, 1)]
    while pending:
        node, depth = pending.pop()
        if depth > MAX_NESTING:
            span = Span(source, node.meta.line, node.meta.column, node.meta.end_line, node.meta.end_column)
            raise error(f"this expression nests more than {MAX_NESTING} levels deep", span,
                        "split it into named parts with `let NAME = ...`")
        for child in node.children:
            if isinstance(child, Tree):
                pending.append((child, depth + 1))
            elif isinstance(child, Token):
                _check_token(child, source, node.data in DOCS)


def _check_token(token: Token, source: Source, doc: bool) -> None:
    problem = None
    if token.type == "INT" and len(token) > MAX_DIGITS:
        problem = f"a number of {len(token)} digits is too large (at most {MAX_DIGITS} digits)"
    elif token.type == "NAME" and len(token) > MAX_NAME:
        problem = f"a name of {len(token):,} characters is too long (at most {MAX_NAME:,})"
    elif token.type == "STRING":
        try:
            _check_length(_string(token), MAX_DOC if doc else MAX_TITLE, "doc" if doc else "string")
        except ValueError as exc:
            problem = str(exc)
    if problem is not None:
        span = Span(source, token.line, token.column, token.end_line, token.end_column)
        raise error(problem, span)


def _check_length(text: str, limit: int, what: str) -> None:
    if len(text) > limit:
        raise ValueError(f"a {what} of {len(text):,} characters is too long (at most {limit:,})")


def _string(token: Token) -> str:
    """The text of a string literal; escapes as in Python. A ValueError says what is wrong with it."""
    text = str(token)
    if text.startswith('"""'):
        return text[3:-3]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # an unknown escape such as \q only warns in Python; in a spec it is wrong
            value = python_ast.literal_eval(text)
    except (SyntaxError, ValueError, DeprecationWarning, SyntaxWarning) as exc:
        reason = str(exc.msg if isinstance(exc, SyntaxError) else exc).removeprefix("(unicode error) ")
        raise ValueError(f"bad escape in this string: {reason.split(': ', 1)[-1]}") from None
    if bad := next((ch for ch in value if "\ud800" <= ch <= "\udfff"), None):
        raise ValueError(f"the escape \\u{ord(bad):04x} is half of a surrogate pair, not a character")
    return value


def _indentation(line: str) -> int:
    return len(line) - len(line.lstrip())


def _comment_at(line: str, indent: int) -> bool:
    """A comment line written at this indentation."""
    return line.lstrip().startswith("#") and _indentation(line) == indent


@v_args(meta=True)
class ToAst(Transformer):
    """Parse tree -> dsl.frontend.ast nodes. One method per grammar rule."""

    def __init__(self, source: Source):
        super().__init__()
        self.source = source

    # -- helpers

    def _span(self, meta) -> Span:
        return Span(self.source, meta.line, meta.column, meta.end_line, meta.end_column)

    def _token_span(self, token: Token) -> Span:
        return Span(self.source, token.line, token.column, token.end_line, token.end_column)

    def _name(self, token: Token) -> ast.Name:
        return ast.Name(str(token), self._token_span(token))

    def _seat(self, token: Token | None) -> ast.Seat | None:
        return ast.Seat(self._token_span(token), int(token)) if token is not None else None

    def _strings(self, items) -> list[str]:
        return [_string(t) for t in items if isinstance(t, Token) and t.type == "STRING"]

    def _names(self, items) -> list[ast.Name]:
        return [self._name(t) for t in items if isinstance(t, Token) and t.type == "NAME"]

    # -- top level

    def start(self, meta, children):
        return ast.Module(self.source.path, tuple(children))

    def variant(self, meta, c):
        strings = self._strings(c)
        return ast.Variant(self._span(meta), self._name(c[0]), strings[0], strings[1] if len(strings) > 1 else None)

    def extends(self, meta, c):
        return ast.Extends(self._span(meta), self._name(c[0]))

    def import_(self, meta, c):
        return ast.Import(self._span(meta), self._name(c[0]))

    def doc(self, meta, c):
        return ast.Doc(self._span(meta), _string(c[0]))

    def example_doc(self, meta, c):
        return ("fields", {"doc": _string(c[0])})

    def players(self, meta, c):
        return ast.Players(self._span(meta), int(c[0]))

    def hand_size(self, meta, c):
        return ast.HandSize(self._span(meta), int(c[0]))

    # -- tiles

    def tiles(self, meta, c):
        return ast.Tiles(self._span(meta), tuple(c))

    def copies(self, meta, c):
        return int(c[1])

    def suit(self, meta, c):
        code, name, english, low, high, copies = c
        return ast.Suit(self._span(meta), self._name(code), self._name(name), _string(english),
                        int(low), int(high), copies)

    def honor_group(self, meta, c):
        kind, code, name, english, copies, *tiles, seats = c
        return ast.HonorGroup(self._span(meta), str(kind), self._name(code), self._name(name), _string(english),
                              copies, tuple(tiles), seats)

    def flower_seats(self, meta, c):
        return ast.FlowerSeats(self._span(meta), tuple(int(seat) for seat in c))

    def named_tile(self, meta, c):
        name, english, copies = c
        return ast.NamedTile(self._name(name), _string(english) if english else None, copies)

    def tileset(self, meta, c):
        name, english, tiles = c
        return ast.TileSet(self._span(meta), self._name(name), _string(english) if english else None, tiles)

    def tile_literal(self, meta, c):
        return ast.TileLiteral(self._span(meta), str(c[0]))

    def tile_name(self, meta, c):
        return ast.TileName(self._span(meta), str(c[0]))

    def tile_ranks(self, meta, c):
        return ast.TileRanks(self._span(meta), tuple(int(t) for t in c))

    def tile_call(self, meta, c):
        return ast.TileCall(self._span(meta), self._name(c[0]), c[1])

    def tile_union(self, meta, c):
        return ast.TileSetOp(self._span(meta), "+", c[0], c[1])

    def tile_difference(self, meta, c):
        return ast.TileSetOp(self._span(meta), "-", c[0], c[1])

    def order(self, meta, c):
        return ast.Order(self._span(meta), tuple(name for name, _ in c), tuple(skipped for _, skipped in c))

    def order_item(self, meta, c):
        return self._name(c[0]), False

    def skipped_tile(self, meta, c):
        return self._name(c[0]), True

    def red_fives(self, meta, c):
        return ast.RedFives(self._span(meta), c[0])

    def supersede(self, meta, c):
        return ast.Supersede(self._span(meta), int(c[0]), _string(c[1]) if c[1] else None)

    def pot_rule(self, meta, c):
        return ("pot", c[0])

    def wild(self, meta, c):
        name, english, tiles = c
        return ast.Wild(self._span(meta), self._name(name), _string(english) if english else None, tiles)

    # -- melds, shapes, context

    def melds(self, meta, c):
        return ast.Melds(self._span(meta), tuple(self._names(c)))

    def meld_kind(self, meta, c):
        name, english, tiles = c
        return ast.MeldKind(self._span(meta), self._name(name), _string(english) if english else None, tiles)

    def one_of_meld(self, meta, c):
        name, english, tileset = c
        tiles = ast.TileName(self._token_span(tileset), str(tileset))
        return ast.MeldKind(self._span(meta), self._name(name), _string(english) if english else None, tiles,
                            one_of=True)

    def shapes(self, meta, c):
        return ast.Shapes(self._span(meta), tuple(c))

    def shape_item(self, meta, c):
        return ast.ShapeItem(self._name(c[0]), self._name(c[1]) if c[1] else None)

    def context(self, meta, c):
        return ast.Context(self._span(meta), tuple(self._names(c)))

    def int_context(self, meta, c):
        name, low, high, description = c
        return ast.Flag(self._span(meta), self._name(name), _string(description), kind="int", low=int(low),
                        high=int(high))

    def unit(self, meta, c):
        return ast.Unit(self._span(meta), self._name(c[0]), _string(c[1]) if c[1] else None)

    def language(self, meta, c):
        return ast.Language(self._span(meta), str(c[0]))

    def cap(self, meta, c):
        amount, description, unless_more = c
        return ast.Cap(self._span(meta), int(amount), _string(description) if description else None,
                       unless_more is not None)

    def unless_more(self, meta, c):
        return True

    def shape_rule(self, meta, c):
        name, english, condition = c
        return ast.ShapeRule(self._span(meta), self._name(name), _string(english) if english else None, condition)

    def flag(self, meta, c):
        return ast.Flag(self._span(meta), self._name(c[0]), _string(c[1]))

    def player(self, meta, c):
        return ast.Flag(self._span(meta), self._name(c[0]), _string(c[1]), kind="seat")

    def option(self, meta, c):
        name, description, english, default = c
        return ast.Option(self._span(meta), self._name(name), _string(description), default,
                          _string(english) if english else None)

    def preset(self, meta, c):
        name, title, english, parent, *lines = c
        docs = [line.text for line in lines if isinstance(line, ast.Doc)]
        return ast.Preset(self._span(meta), self._name(name), _string(title), _string(english) if english else None,
                          self._name(parent) if parent else None,
                          tuple(line for line in lines if isinstance(line, ast.Setting)),
                          tuple(line[1] for line in lines if isinstance(line, tuple)), "\n\n".join(docs) or None)

    def setting(self, meta, c):
        return ast.Setting(self._span(meta), self._name(c[0]), c[1])

    def preset_source(self, meta, c):
        return ("source", _string(c[0]))

    def int_literal(self, meta, c):
        return int(c[0])

    def name_literal(self, meta, c):
        text = str(c[0])
        return {"true": True, "false": False}.get(text, text)

    def tiles_literal(self, meta, c):
        return str(c[0])

    # -- requirements and patterns

    def require(self, meta, c):
        name, english, condition = c
        return ast.Require(self._span(meta), self._name(name), _string(english) if english else None, condition)

    def minimum(self, meta, c):
        value = int(c[0]) if c[0].type == "INT" else self._name(c[0])
        return ast.Minimum(self._span(meta), value, tuple(c[1] or ()))

    def principles(self, meta, c):
        return ast.Principles(self._span(meta), tuple(c[0]))

    def prefer(self, meta, c):
        return ast.Prefer(self._span(meta), tuple(c[0]))

    def name_list(self, meta, c):
        return [self._name(t) for t in c]

    def fixed_value(self, meta, c):
        return ast.Value("fixed", amount=int(c[0]))

    def each_value(self, meta, c):
        return ast.Value("each", amount=int(c[0]))

    def computed_value(self, meta, c):
        return ast.Value("computed", expr=c[0])

    def computed_each_value(self, meta, c):
        return ast.Value("computed_each", expr=c[0])

    def exclusion(self, meta, c):
        return ast.Exclusion(self._name(c[0]), int(c[2]) if c[2] is not None else None)

    def exclude(self, meta, c):
        return ("exclude", tuple(c))

    def alias(self, meta, c):
        return ("alias", tuple(c[0]))

    def definition(self, meta, c):
        return ("definition", (_string(c[0]), _string(c[1])), self._span(meta))

    def identity(self, meta, c):
        return ("id", self._name(c[0]))

    def _pattern(self, meta, name, english, value, condition, clauses):
        excludes, aliases, docs, ids = [], [], [], []
        definition = None
        for clause in clauses:
            if isinstance(clause, ast.Doc):
                docs.append(clause.text)
            elif clause[0] == "exclude":
                excludes.extend(clause[1])
            elif clause[0] == "definition":
                if definition is not None:
                    raise error('a fan has one `doc "中文" "English"` definition', clause[2])
                definition = clause[1]
            elif clause[0] == "id":
                ids.append(clause[1])
            else:
                aliases.extend(clause[1])
        if len(ids) > 1:
            raise error(f"fan {name!s} has two ids; a fan is one pattern", ids[1].span)
        return ast.Pattern(self._span(meta), self._name(name), _string(english) if english else None, value,
                           condition, tuple(excludes), tuple(aliases), "\n".join(docs) or None,
                           definition=definition, identity=ids[0] if ids else None)

    def pattern(self, meta, c):
        name, english, value, condition, *clauses = c
        return self._pattern(meta, name, english, value, condition, [x for x in clauses if x is not None])

    def pattern_block(self, meta, c):
        name, english, value, condition, *clauses = c
        return self._pattern(meta, name, english, value, condition, clauses)

    def fan(self, meta, c):
        return c[0]

    def loser_fan(self, meta, c):
        return replace(c[0], scope="loser")

    def replace(self, meta, c):
        return replace(c[0], replaces=True)

    def remove(self, meta, c):
        return ast.Remove(self._span(meta), tuple(c[0]))

    def exclusive(self, meta, c):
        name, english, members = c
        return ast.Exclusive(self._span(meta), self._name(name), _string(english) if english else None,
                             tuple(members))

    # -- scoring and settlement

    def binding(self, meta, c):
        return ast.Binding(self._span(meta), self._name(c[0]), c[1])

    def score(self, meta, c):
        return ast.Score(self._span(meta), tuple(c))

    def settle(self, meta, c):
        bindings = tuple(x for x in c if isinstance(x, ast.Binding))
        rules = tuple(x for x in c if isinstance(x, ast.PaymentRule))
        pots = [x[1] for x in c if isinstance(x, tuple) and x[0] == "pot"]
        liable = [x[1] for x in c if isinstance(x, tuple) and x[0] == "liable"]
        requirements = tuple(x for x in c if isinstance(x, ast.Require))
        return ast.Settle(self._span(meta), bindings, rules, pots[-1] if pots else None,
                          liable[-1] if liable else None, requirements)

    def liable_rule(self, meta, c):
        return ("liable", c[0])

    def payment_rule(self, meta, c):
        return ast.PaymentRule(self._span(meta), self._name(c[0]), tuple(c[1:]))

    def payment(self, meta, c):
        each, payer = c[0]
        return ast.Payment(self._span(meta), each, payer, c[1])

    def each_payer(self, meta, c):
        return (True, self._name(c[0]))

    def one_payer(self, meta, c):
        return (False, self._name(c[0]))

    # -- the rules of play, in prose

    def rule_section(self, meta, c):
        kind, title, english, *texts = c
        return ast.RuleSection(self._span(meta), self._name(kind), _string(title), _string(english), tuple(texts))

    def rule_text(self, meta, c):
        return (str(c[0]), _string(c[1]), self._span(meta))

    # -- examples

    def example(self, meta, c):
        return self._example(meta, _string(c[0]), c[1:], self._explained_lines(meta))

    def _explained_lines(self, meta) -> tuple[str, ...]:
        """The lines of a worked example or round with the comments that explain it: the comment lines right
        above its first line (no blank line between) and the lines of its block. The parser's block runs on
        over the comments below it, which are about what follows."""
        first = meta.line
        indent = _indentation(self.source.line(first))
        last, in_string = first, self.source.line(first).count('"""') % 2 == 1
        for number in range(first + 1, meta.end_line + 1):
            line = self.source.line(number)
            if not in_string and line.strip() and _indentation(line) <= indent:
                break  # back at the block's own level: the block has ended
            if in_string or line.strip():
                last = number
            in_string ^= line.count('"""') % 2 == 1
        while first > 1 and _comment_at(self.source.line(first - 1), indent):
            first -= 1
        return tuple(self.source.line(n) for n in range(first, last + 1))

    def _example(self, meta, title: str, items: list, lines: tuple[str, ...] = ()) -> ast.Example:
        fields: dict = {"title": title}
        context: list = []
        others: list = []
        options: list = []
        for kind, value in items:
            if kind == "options":
                options.extend(value)
            elif kind == "preset":
                fields["preset"] = value
            elif kind == "win":
                fields["win"], items = value
                context.extend(items)
            elif kind == "context":
                context.extend(value)
            elif kind == "other":
                others.append(value)
            else:
                fields.update(value)
        return ast.Example(self._span(meta), context=tuple(context), others=tuple(others), options=tuple(options),
                           lines=lines, **fields)

    # -- a whole hand of play

    def round_rules(self, meta, c):
        def of(kind):
            return tuple(x for x in c if isinstance(x, kind))
        leave = [x[1] for x in c if isinstance(x, tuple) and x[0] == "leave"]
        per_discard = [x[1] for x in c if isinstance(x, tuple) and x[0] == "per_discard"]
        return ast.RoundRules(self._span(meta), of(ast.Binding), leave[-1] if leave else None,
                              per_discard[-1] if per_discard else None, of(ast.KongRule), of(ast.TransferRule),
                              of(ast.DrawCheck), of(ast.PenaltyRule), of(ast.DeclareRule), of(ast.NextHandSet))

    def winners_leave(self, meta, c):
        return ("leave", int(c[0]))

    def one_winner(self, meta, c):
        return ("per_discard", ast.Number(self._span(meta), 1))

    def most_winners(self, meta, c):
        return ("per_discard", c[0])

    def kong_rule(self, meta, c):
        return ast.KongRule(self._span(meta), self._name(c[0]), tuple(c[1:]))

    def transfer_rule(self, meta, c):
        return ast.TransferRule(self._span(meta), self._name(c[0]))

    def draw_check(self, meta, c):
        name, english, payer, amount, receiver = c
        return ast.DrawCheck(self._span(meta), self._name(name), _string(english) if english else None,
                             payer, amount, receiver)

    def draw_refund(self, meta, c):
        name, english, payer = c
        return ast.DrawCheck(self._span(meta), self._name(name), _string(english) if english else None,
                             payer, None, None)

    def penalty_rule(self, meta, c):
        name, english, amount = c
        return ast.PenaltyRule(self._span(meta), self._name(name), _string(english) if english else None, amount)

    def declare_rule(self, meta, c):
        name, english, next_hand, flag = c
        return ast.DeclareRule(self._span(meta), self._name(name), _string(english) if english else None,
                               next_hand is not None, self._name(flag))

    def next_hand(self, meta, c):
        return True

    def next_hand_sets(self, meta, c):
        return ast.NextHandSet(self._span(meta), self._name(c[0]), c[1])

    def round_example(self, meta, c):
        fields: dict = {"doc": None, "dealer": None, "options": (), "context": (), "carried": (), "total": None,
                        "next_context": None}
        events: list[ast.RoundEvent] = []
        for kind, value in c[1:]:
            if kind == "event":
                events.append(value)
            elif kind == "fields" and "payments" in value:
                if not events:
                    raise error("`payments` gives the payments of the event above it; this one has none",
                                self._span(meta))
                events[-1] = replace(events[-1], payments=value["payments"])
            elif kind == "fields":
                fields.update(value)
            else:
                fields[kind] = value
        lines = self._explained_lines(meta)
        return ast.RoundExample(self._span(meta), _string(c[0]), events=tuple(events), lines=lines, **fields)

    def dealer_line(self, meta, c):
        return ("dealer", self._seat(c[0]))

    def carried_line(self, meta, c):
        return ("carried", tuple(self._name(n) for n in c))

    def next_context_line(self, meta, c):
        return ("next_context", tuple(c))

    def total_line(self, meta, c):
        return ("total", ast.Payments(self._span(meta), tuple(c)))

    def _event(self, meta, kind: str, **fields) -> tuple[str, ast.RoundEvent]:
        items = tuple((k, v) for k, v in fields.items() if v is not None)
        return ("event", ast.RoundEvent(self._span(meta), kind, items))

    def kong_event(self, meta, c):
        seat, kind, tiles, source = c
        return self._event(meta, "kong", seat=self._seat(seat), kong=str(kind), tiles=str(tiles),
                           **{"from": self._seat(source)})

    def declare_event(self, meta, c):
        return self._event(meta, "declare", declare=str(c[0]), seat=self._seat(c[1]))

    def penalty_event(self, meta, c):
        return self._event(meta, "penalty", penalty=str(c[0]), seat=self._seat(c[1]))

    def win_event(self, meta, c):
        case = self._example(meta, "", c[2:])
        kind, event = self._event(meta, "win", seat=self._seat(c[0]), **{"from": self._seat(c[1])})
        return (kind, replace(event, case=case))

    def draw_event(self, meta, c):
        kind, event = self._event(meta, "draw")
        return (kind, replace(event, hands=tuple(c)))

    def final_hand(self, meta, c):
        return (self._seat(c[0]), self._example(meta, "", c[1:]))

    def hand_line(self, meta, c):
        return ("fields", {"hand": "".join(str(t) for t in c)})

    def meld_lit(self, meta, c):
        return ast.MeldLiteral(self._span(meta), str(c[0]), "".join(str(t) for t in c[1:]))

    def melds_line(self, meta, c):
        return ("fields", {"melds": tuple(c)})

    def other_line(self, meta, c):
        return ("other", (self._seat(c[0]), tuple(c[1:])))

    def win_line(self, meta, c):
        return ("win", (str(c[0]), tuple(c[1:])))

    def with_line(self, meta, c):
        return ("context", tuple(c))

    def options_line(self, meta, c):
        return ("options", tuple(c))

    def example_preset(self, meta, c):
        return ("preset", self._name(c[0]))

    def context_item(self, meta, c):
        return (self._name(c[0]), True if c[1] is None else c[1])

    def expected_fan(self, meta, c):
        name, value, _, times = c
        return ast.ExpectedFan(self._name(name), int(value) if value is not None else None,
                               int(times) if times is not None else 1)

    def expect_fans(self, meta, c):
        fans = tuple(x for x in c if isinstance(x, ast.ExpectedFan))
        totals = [int(x) for x in c if isinstance(x, Token) and x.type == "INT"]
        return ("fields", {"fans": fans, "total": totals[0] if totals else None})

    def expect_total(self, meta, c):
        return ("fields", {"total": int(c[0])})

    def expect_no_win(self, meta, c):
        return ("fields", {"no_win": _string(c[0]) if c[0] else ""})

    def expect_error(self, meta, c):
        return ("fields", {"error": _string(c[0])})

    def reading_line(self, meta, c):
        return ("fields", {"reading": ast.Reading(self._span(meta), tuple(c))})

    def reading_group(self, meta, c):
        return "".join(str(t) for t in c)

    def payments_line(self, meta, c):
        return ("fields", {"payments": ast.Payments(self._span(meta), tuple(c))})

    def signed_int(self, meta, c):
        return int(c[0])

    def negative_int(self, meta, c):
        return -int(c[0])

    # -- expressions

    def number(self, meta, c):
        return ast.Number(self._span(meta), int(c[0]))

    def ref(self, meta, c):
        return ast.Ref(self._span(meta), str(c[0]))

    def attribute(self, meta, c):
        return ast.Attribute(self._span(meta), self._name(c[0]), self._name(c[1]))

    def call(self, meta, c):
        return ast.Call(self._span(meta), self._name(c[0]), tuple(a for a in c[1:] if a is not None))

    def _binary(op):  # noqa: N805 - a factory used in the class body
        def method(self, meta, c):
            return ast.Binary(self._span(meta), op, c[0], c[-1])
        return method

    add, sub, mul, div, pow = _binary("+"), _binary("-"), _binary("*"), _binary("/"), _binary("^")
    and_, or_ = _binary("and"), _binary("or")

    def compare(self, meta, c):
        return ast.Binary(self._span(meta), str(c[1]), c[0], c[2])

    def member(self, meta, c):
        return ast.Member(self._span(meta), c[0], self._name(c[1]))

    def not_(self, meta, c):
        return ast.Not(self._span(meta), c[0])

    def neg(self, meta, c):
        return ast.Negate(self._span(meta), c[0])

    def conditional(self, meta, c):
        return ast.Conditional(self._span(meta), c[0], c[1], c[2])

    def table(self, meta, c):
        return ast.Table(self._span(meta), c[0], tuple(c[1:]))

    def table_row(self, meta, c):
        low, high, _, value = c
        return ast.TableEntry(self._span(meta), low, high, value)

    def table_else(self, meta, c):
        return ast.TableEntry(self._span(meta), None, None, c[0])
