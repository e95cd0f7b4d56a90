# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The runtime every compiled checker shares, compiled once: reading cases, the search over
decompositions (wilds included), exclusions, scoring, settlement and results.

A checker module fills a Tables (core.pxd) with its spec's tables and rule functions and wraps it in a
Checker, whose methods are the interpreter's API: evaluate, evaluate_many, is_winning, waits, and the
compact batch entry point score_many.

Cases that are not plainly valid are read by dsl.cases.case.read_case, so errors are worded exactly as the
interpreter words them; a plainly valid case that no table can produce is refused in C by the rules of
dsl.cases.case.refuse_impossible, in their order and in their words (that module is imported with the
checker). A case whose arithmetic leaves exact 64-bit integers (a fraction, an overflow, a division by zero)
is answered by the reference interpreter, run on the IR the checker module embeds, imported only when a case
needs it. Neither imports the front end: a checker needs none of the compiler and no spec file.
"""

import gc
from array import array
from time import perf_counter_ns

from cpython cimport array as carray
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp
from cpython.dict cimport PyDict_Copy, PyDict_Next
from cpython.list cimport PyList_GET_ITEM, PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.unicode cimport (PyUnicode_1BYTE_KIND, PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND,
                              PyUnicode_READ_CHAR)

from dsl.cases.scores import Scores, compact
from dsl.notation import HandError
from dsl.vocabulary import WINDS

# ================================================================ helpers the rules call


cdef long long power(Ctx* c, long long base, long long exponent) noexcept nogil:
    """base ^ exponent when it is a whole number within LIMIT."""
    cdef long long result = 1
    if exponent < 0:
        if base == 1 or base == -1:
            return -1 if base == -1 and exponent % 2 else 1
        c.inexact = True
        return 0
    while exponent > 0 and not c.inexact:
        if exponent & 1:
            result = times(c, result, base)
        exponent >>= 1
        if exponent:
            base = times(c, base, base)
    return result


cdef long long count_held(const Ctx* c, unsigned long long tiles) noexcept nogil:
    """count(tiles, SET): the tiles held in a tile set, each copy counted."""
    cdef long long n = 0
    cdef unsigned long long left = tiles & c.held_tiles
    while left:
        n += c.held[lowest_tile(left)]
        left &= left - 1
    return n


cdef inline long long floor_divide(long long a, long long b) noexcept nogil:
    return a // b - (1 if a % b != 0 and (a < 0) != (b < 0) else 0)


cdef long long roundup(Ctx* c, long long value, long long step) noexcept nogil:
    """roundup(value, step): value rounded up to a multiple of step."""
    if step <= 0:
        c.inexact = True  # the interpreter refuses such a step; let it say so
        return 0
    return times(c, -floor_divide(-value, step), step)


cdef long long wilds_held(const Ctx* c) noexcept nogil:
    """`wilds`: the wild tiles among the concealed tiles, the winning tile included."""
    cdef long long n = 0
    cdef unsigned long long left = c.h.wild & c.concealed_tiles
    while left:
        n += c.counts[lowest_tile(left)]
        left &= left - 1
    return n


cdef long long indicated(const Ctx* c, int key) noexcept nogil:
    """indicated(KEY): how many tiles of the hand the indicators of a context key point at."""
    cdef long long n = 0
    cdef int k
    for k in range(c.h.n_indicators[key]):
        n += c.held[c.t.next_tile[c.h.indicators[key][k]]]
    return n


cdef long long hand_waits(Ctx* c, bint any_copy) noexcept nogil:
    """`waits` (or `shape_waits`): how many tiles complete the hand before its winning tile, once per hand."""
    if c.waits[any_copy] < 0:
        c.waits[any_copy] = find_waits(c.t, c.h, any_copy, NULL, &c.inexact, c.trial)
    return c.waits[any_copy]

# ================================================================ reading a case
# The fast reader accepts only plainly valid cases and fills the same values dsl.cases.case.read_case would;
# anything else (an error, an unusual type, a null, an over-long string, flags that contradict the hand) goes
# to read_case itself. tests/test_case_parity.py gives both readers every key with every wrong type.


cdef void clear(const Tables* t, Hand* h) noexcept nogil:
    """An empty hand: only the fields a case fills are reset (Hand is large: most of it is meld room)."""
    cdef int k
    memset(h.counts, 0, sizeof(h.counts))
    h.win = -1
    h.n_melds = 0
    h.n_sets = 0
    h.self_drawn = False
    h.seat = 0
    h.dealer = 0
    h.discarder = -1
    h.seat_wind = 0
    h.round_wind = 0
    h.red = 0
    h.wild = 0
    memset(h.context, 0, sizeof(h.context))
    memset(h.opened, 0, sizeof(h.opened))
    memset(h.out, 0, sizeof(h.out))
    memset(h.n_indicators, 0, sizeof(h.n_indicators))
    memset(h.n_other, 0, sizeof(h.n_other))
    memset(h.sets, 0, sizeof(h.sets))
    for k in range(t.n_options):
        h.options[k] = t.option_default[k]
    for k in range(t.n_context):
        if t.no_seat[k]:
            h.context[k] = -1  # no seat
        elif t.context_low != NULL:
            h.context[k] = t.context_low[k]  # an integer key left out is the low end of its range


cdef int parse(const Tables* t, str text, bint flowers, int* out, int limit, int* reds) except -2:
    """Tiles of an mpsz string (`123m4p`, a red five `0m`) in text order into out (unless NULL), red
    fives counted per suit into reds (unless NULL); how many tiles, or -1 when dsl.notation.parse_tiles
    must read it: an unknown tile, another character, more than `limit` tiles, more than MAX_TEXT characters."""
    if PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND:  # a character beyond Latin-1: not a tile string
        return -1
    if PyUnicode_GET_LENGTH(text) > MAX_TEXT:  # spaces make a long text of few tiles: read_case refuses it
        return -1
    return parse_bytes(t, <const unsigned char*>PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text), flowers, out,
                       limit, reds)


cdef int parse_bytes(const Tables* t, const unsigned char* text, Py_ssize_t length, bint flowers, int* out,
                     int limit, int* reds) noexcept nogil:
    """parse over the characters of a one-byte string."""
    cdef unsigned char ch
    cdef int digits[16]
    cdef int n_digits = 0, n = 0, k, suit, tile
    cdef Py_ssize_t i
    for i in range(length):
        ch = text[i]
        if ch == 32:  # a space
            continue
        if 48 <= ch <= 57:  # a digit
            if n_digits == 16:
                return -1
            digits[n_digits] = ch - 48
            n_digits += 1
        elif 97 <= ch <= 122 and n_digits > 0:  # a lower-case letter: the suit of the digits before it
            suit = ch - 97
            for k in range(n_digits):
                if digits[k] == 0 and t.red_five[suit] >= 0:
                    tile = t.red_five[suit]
                    if reds != NULL:
                        reds[suit] += 1
                elif t.code_low[suit] <= digits[k] <= t.code_high[suit] and (flowers or not t.code_flowers[suit]):
                    tile = t.code_base[suit] + digits[k]
                else:
                    return -1
                if out != NULL:
                    if n == limit:
                        return -1
                    out[n] = tile
                n += 1
            n_digits = 0
        else:
            return -1
    return -1 if n_digits else n


cdef bint meld_shape_ok(const Tables* t, int kind, const int* tiles, int n, const Hand* h) noexcept nogil:
    """Whether sorted tiles have the meld kind's shape (dsl.cases.case._meld_shape_ok; tests/test_case_parity.py)."""
    cdef int shape = t.meld_shape[kind], k
    if shape == SHAPE_ONE_OF:
        return n == 1 and has_tile(h.sets[t.meld_per_hand[kind]] if t.meld_per_hand[kind] >= 0
                                   else t.meld_fixed[kind], tiles[0])
    if shape == SHAPE_FIXED:
        if n != t.meld_size[kind]:
            return False
        for k in range(n):
            if not has_tile(t.meld_fixed[kind], tiles[k]) or (k > 0 and tiles[k] == tiles[k - 1]):
                return False
        return True
    if shape == SHAPE_CHOW:
        if n != 3 or not t.tile_numbered[tiles[0]]:
            return False
        for k in range(1, 3):
            if t.tile_suit[tiles[k]] != t.tile_suit[tiles[0]] or t.tile_rank[tiles[k]] != t.tile_rank[tiles[0]] + k:
                return False
        return True
    if n != (4 if shape == SHAPE_KONG else 3):
        return False
    for k in range(1, n):
        if tiles[k] != tiles[0]:
            return False
    return True


cdef void tiles_read(const Tables* t, const Hand* h, int* counts) noexcept nogil:
    """Every copy of each tile a case shows: the concealed tiles, the winning tile and the declared melds."""
    cdef int k, tile
    memcpy(counts, h.counts, t.n_tiles * sizeof(int))
    if h.win >= 0:
        counts[h.win] += 1
    for k in range(h.n_melds):
        for tile in range(h.melds[k].size):
            counts[h.melds[k].tiles[tile]] += 1


cdef bint within_copies(const Tables* t, const int* counts) noexcept nogil:
    cdef int tile
    for tile in range(t.n_tiles):
        if counts[tile] > t.tile_copies[tile]:
            return False
    return True


cdef int plain_meld_kind(dict kinds, str text, int* space) noexcept:
    """The meld kind of `KIND TILES` written plainly (one-byte characters, one space between two words, no other
    whitespace), found without making the words as strings; -1 for any other text, which str.split reads."""
    cdef const unsigned char* data
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text), i, at = -1, position = 0
    cdef PyObject* name
    cdef PyObject* number
    if PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND or length > 32:
        return -1
    data = <const unsigned char*>PyUnicode_DATA(text)
    for i in range(length):
        if data[i] == 32:
            if at >= 0:
                return -1
            at = i
        elif data[i] <= 32 or data[i] >= 127:  # other whitespace, control characters, Latin-1 spaces
            return -1
    if at <= 0 or at == length - 1:
        return -1
    while PyDict_Next(kinds, &position, &name, &number):
        if PyUnicode_KIND(<object>name) == PyUnicode_1BYTE_KIND and PyUnicode_GET_LENGTH(<object>name) == at \
                and memcmp(PyUnicode_DATA(<object>name), data, at) == 0:
            space[0] = <int>at
            return <int><object>number
    return -1


cdef bint read_meld(const Tables* t, dict kinds, object text, Meld* meld, int* reds, const Hand* h) except -1:
    """A declared meld such as `pung 555p` when it is plainly valid (tests/test_case_parity.py)."""
    cdef int kind, n, k, j, tile
    if type(text) is not str or PyUnicode_GET_LENGTH(text) > MAX_TEXT:
        return False
    kind = plain_meld_kind(kinds, <str>text, &k)
    if kind >= 0:  # `KIND TILES` with one space: the tiles are read where they are
        n = parse_bytes(t, <const unsigned char*>PyUnicode_DATA(text) + k + 1, PyUnicode_GET_LENGTH(text) - k - 1,
                        True, meld.tiles, MELD_TILES, reds)
    else:
        parts = (<str>text).split()
        if len(parts) != 2:
            return False
        kind = kinds.get(parts[0], -1)
        if kind < 0:
            return False
        n = parse(t, parts[1], True, meld.tiles, MELD_TILES, reds)
    if n < 0:
        return False
    for k in range(1, n):  # insertion sort: at most MELD_TILES tiles
        tile = meld.tiles[k]
        j = k
        while j > 0 and meld.tiles[j - 1] > tile:
            meld.tiles[j] = meld.tiles[j - 1]
            j -= 1
        meld.tiles[j] = tile
    if not meld_shape_ok(t, kind, meld.tiles, n, h):
        return False
    meld.kind = kind
    meld.size = n
    return True


cdef bint read_melds(const Tables* t, dict kinds, object melds, Hand* h, int* reds) except -1:
    if type(melds) is not list and type(melds) is not tuple:
        return False
    if len(melds) > MAX_MELDS:
        return False
    for item in melds:
        if not read_meld(t, kinds, item, &h.melds[h.n_melds], reds, h):
            return False
        h.n_sets += not t.meld_aside[h.melds[h.n_melds].kind]
        h.n_melds += 1
    return True


cdef bint read_other_melds(const Tables* t, dict kinds, object others, Hand* h, int* counts) except -1:
    """other_melds: seat -> melds. Counts their tiles, keeps them by seat and notes which seats have opened."""
    cdef Meld meld
    cdef int seat, k
    cdef bint seen[MAX_PLAYERS]
    if type(others) is not dict:
        return False
    memset(seen, 0, sizeof(seen))
    for key, melds in (<dict>others).items():
        if type(key) is int and 0 <= key < t.n_players:
            seat = key
        elif type(key) is str and len(<str>key) == 1 and u"0" <= (<str>key)[0] <= u"9":
            seat = <int>(<str>key)[0] - 48
        else:
            return False
        if seat >= t.n_players or seen[seat]:
            return False
        seen[seat] = True
        if type(melds) is not list and type(melds) is not tuple:
            return False
        for item in melds:
            if not read_meld(t, kinds, item, &meld, NULL, h):
                return False
            if h.n_other[seat] == MAX_MELDS:
                return False
            h.other[seat][h.n_other[seat]] = meld
            h.n_other[seat] += 1
            h.opened[seat] = h.opened[seat] or t.meld_opens[meld.kind]
            for k in range(meld.size):
                counts[meld.tiles[k]] += 1
    return True


cdef int cached_number(NameCache* cache, dict numbers, list holder, object name) except -2:
    """numbers.get(name, -1), by the name's address when it was seen before."""
    cdef size_t address = <size_t><PyObject*>name
    cdef size_t slot = ((address >> 4) ^ (address >> 12)) & (NAME_CACHE - 1)
    cdef size_t other = slot ^ 1  # the second place a name may take
    cdef int number
    if cache.names[slot] == <PyObject*>name:
        return cache.numbers[slot]
    if cache.names[other] == <PyObject*>name:
        return cache.numbers[other]
    number = numbers.get(name, -1)
    if type(name) is not str or number < 0:
        return number
    if PyUnicode_GET_LENGTH(name) > MAX_TEXT:  # a spec's over-long name: read_case refuses the case holding it
        return -1
    if cache.names[slot] != NULL:
        slot = other
    if cache.names[slot] == NULL:
        holder.append(name)
        cache.names[slot] = <PyObject*>name
        cache.numbers[slot] = number
    return number


cdef bint read_indicators(const Tables* t, str text, int key, Hand* h) except -1:
    """Indicator tiles (dora, ura) of a context key, kept for `indicated(KEY)`."""
    cdef int slot = t.key_indicator[key]
    cdef int* out = &h.indicators[slot][0] if slot >= 0 else NULL
    cdef int n = parse(t, text, True, out, MAX_INDICATORS, NULL)
    if slot >= 0:
        h.n_indicators[slot] = n
    return n >= 0


cdef int wind_number(object value) noexcept:
    """0..3 for "E" "S" "W" "N", -1 for anything else."""
    cdef Py_UCS4 letter
    if type(value) is not str or PyUnicode_GET_LENGTH(value) != 1:
        return -1
    letter = PyUnicode_READ_CHAR(value, 0)
    return 0 if letter == u"E" else 1 if letter == u"S" else 2 if letter == u"W" else 3 if letter == u"N" else -1


cdef bint read_number(object value, long long low, long long high, long long* out) noexcept:
    """An int (not a bool) within low..high into out."""
    cdef int overflow = 0
    cdef long long number
    if type(value) is not int:
        return False
    number = PyLong_AsLongLongAndOverflow(value, &overflow)
    if overflow or not low <= number <= high:
        return False
    out[0] = number
    return True


cdef bint read_context(const Tables* t, int key, object value, Hand* h) except -1:
    """One context key's value when it is plainly valid (tests/test_case_parity.py)."""
    cdef int kind = t.key_kind[key], slot = t.key_slot[key], wind
    if kind == KEY_FLAG:
        if value is True:
            h.context[slot] = 1
        elif value is False:
            h.context[slot] = 0
        else:
            return False
    elif kind == KEY_COUNT:
        return read_number(value, 0, LIMIT, &h.context[slot])
    elif kind == KEY_SEAT:
        return read_number(value, 0, t.n_players - 1, &h.context[slot])
    elif kind == KEY_WIND:
        wind = wind_number(value)
        if wind < 0:
            return False
        if slot == t.ctx_seat_wind:
            h.seat_wind = wind
        else:
            h.round_wind = wind
    elif kind == KEY_TILES:
        return type(value) is str and read_indicators(t, value, key, h)
    elif kind == KEY_INT:  # out of range: read_case says so
        if type(value) is not int or not t.context_low[slot] <= value <= t.context_high[slot]:
            return False
        h.context[slot] = value
    else:
        return False
    return True


cdef void choose_sets(const Tables* t, Hand* h) noexcept nogil:
    """The tile sets the indicators choose (dsl.cases.case.hand_tilesets), and the wild tiles among them."""
    cdef int k, j, i, tile, step, key
    cdef unsigned long long tiles
    for k in range(t.n_hand_sets):
        tiles = t.hand_set_tiles[k]
        for j in range(t.hand_set_n_terms[k]):
            key = t.hand_set_terms[(k * MAX_SET_TERMS + j) * 2]
            for i in range(h.n_indicators[key]):
                tile = t.indicator_tile[h.indicators[key][i]]
                step = t.hand_set_terms[(k * MAX_SET_TERMS + j) * 2 + 1]
                while step > 0:
                    tile = t.next_tile[tile]
                    step -= 1
                while step < 0:
                    tile = t.previous_tile[tile]
                    step += 1
                tiles |= 1ULL << tile
        h.sets[k] = tiles & ~t.hand_set_removed[k]
    h.wild = 0
    for k in range(t.n_wild_sets):
        h.wild |= h.sets[t.wild_sets[k]]


cdef void read_seats(const Tables* t, bint seat_given, bint discarder_given, Hand* h) noexcept nogil:
    """The winner, the dealer and the discarder, defaulted as read_case defaults them (tests/test_parity.py,
    test_conditions_read_seat_dealer_and_discarder_with_their_defaults). Whether they can be is left to the
    rules (Checker.refused_by)."""
    h.self_drawn = h.context[t.ctx_self_drawn]
    h.dealer = h.context[t.ctx_dealer]
    h.seat = h.context[t.ctx_seat] if seat_given else (h.dealer + h.seat_wind) % t.n_players
    if h.self_drawn:
        h.discarder = -1
    else:
        h.discarder = h.context[t.ctx_discarder] if discarder_given else (h.seat + t.n_players - 1) % t.n_players


# ================================================================ contexts that cannot happen
# The rules of dsl.cases.case.refuse_impossible, decided in C from what the reader has read, so that a refused
# case costs about what a scored one does; Checker.refusal words a refusal with read_case's own words.


cdef enum:
    # What Checker.read made of a case: UNREAD, READ, or a refusal (Refused).
    UNREAD = 0  # left to dsl.cases.case.read_case
    READ = 1  # read, and it can happen
    MAX_RULES = 16  # rules Checker.refuse_by keeps (Checker.rule_order)


cdef enum Refused:
    # Each refusal of refuse_impossible's rules that C decides, in the rules' order (Checker.refusal words it).
    WIND_NOT_AT_TABLE = 2
    SEATS_DISAGREE
    OWN_SEAT_IN_OTHER_MELDS
    DISCARDER_ON_SELF_DRAW
    DISCARDER_IS_WINNER
    TOO_MANY_FLOWERS
    KONG_REPLACEMENT_ON_A_DISCARD
    KONG_REPLACEMENT_WITHOUT_A_KONG
    ROBBING_KONG_SELF_DRAWN
    ROBBED_TILE_HELD
    ROBBED_TILE_SHOWN
    LAST_TILE_ON_THE_FIRST_TURN
    IPPATSU_WITHOUT_RIICHI
    RIICHI_ON_AN_OPEN_HAND
    RIICHI_ON_THE_FIRST_TURN


cdef enum Rule:
    # refuse_impossible's rules that C decides, in the order of RULES_IN_C.
    RULE_UNKNOWN = -1
    RULE_SEATS = 0
    RULE_DISCARDER
    RULE_FLOWERS
    RULE_KONG_WIN
    RULE_TURNS
    RULE_RIICHI


cdef int possible_seats(Checker c, const Hand* h, bint seat_given, bint wind_given,
                        PyObject* others) except -1 nogil:
    """dsl.cases.case.possible_seats. `others` is the case's other_melds as the reader took it, NULL when it has
    none: a dict keyed by each seat once, as an int or one digit."""
    cdef int players = c.t.n_players
    if wind_given:
        if h.seat_wind >= players:
            return WIND_NOT_AT_TABLE
        if seat_given and (h.seat - h.dealer + players) % players != h.seat_wind:
            return SEATS_DISAGREE
    if others != NULL:
        with gil:
            if <object>others and (h.seat in <object>others or str(h.seat) in <object>others):
                return OWN_SEAT_IN_OTHER_MELDS
    return READ


cdef int possible_discarder(Checker c, const Hand* h, bint discarder_given) noexcept nogil:
    """dsl.cases.case.possible_discarder of a case without `out`: the reader leaves `out` to read_case."""
    if h.self_drawn and discarder_given:
        return DISCARDER_ON_SELF_DRAW
    if h.discarder == h.seat:
        return DISCARDER_IS_WINNER
    if c.t.n_players < 2:  # no player to pay even with nobody out: read_case words it
        return UNREAD
    return READ


cdef int possible_kong_win(Checker c, const Hand* h, PyObject* others) except -1 nogil:
    """dsl.cases.case.possible_kong_win."""
    if c.flag(h, SLOT_KONG_REPLACEMENT):
        if not h.self_drawn:
            return KONG_REPLACEMENT_ON_A_DISCARD
        if not c.has_kong(h):
            return KONG_REPLACEMENT_WITHOUT_A_KONG
    if c.flag(h, SLOT_ROBBING_KONG):
        if h.self_drawn:
            return ROBBING_KONG_SELF_DRAWN
        if h.win >= 0 and c.shows(h, h.win):
            return ROBBED_TILE_HELD
        if h.win >= 0 and others != NULL:
            with gil:
                if <object>others and seat_showing(c, h, <object>others, h.win) >= 0:
                    return ROBBED_TILE_SHOWN
    return READ


cdef int possible_riichi(Checker c, const Hand* h) noexcept nogil:
    """dsl.cases.case.possible_riichi."""
    cdef bint declared = c.flag(h, SLOT_RIICHI) or c.flag(h, SLOT_DOUBLE_RIICHI)
    if c.flag(h, SLOT_IPPATSU) and not declared:
        return IPPATSU_WITHOUT_RIICHI
    if declared and c.opened(h):
        return RIICHI_ON_AN_OPEN_HAND
    if declared and c.flag(h, SLOT_FIRST_TURN):
        return RIICHI_ON_THE_FIRST_TURN
    return READ


cdef int seat_showing(Checker c, const Hand* h, dict others, int tile) except -2:
    """The first seat of other_melds, in the case's order, that shows the tile and is not the discarder's; -1
    when none does. The melds are read again: the reader keeps them by seat, and the case's order of seats
    decides."""
    cdef Meld meld
    cdef int seat
    for key, melds in others.items():
        seat = key if type(key) is int else <int>(<str>key)[0] - 48  # as read_other_melds took it
        if seat == h.discarder:
            continue
        for item in melds:
            read_meld(&c.t, c.meld_kinds, item, &meld, NULL, h)
            if count_of(&meld, tile):
                return seat
    return -1


cdef inline int count_of(const Meld* meld, int tile) noexcept:
    cdef int k, n = 0
    for k in range(meld.size):
        n += meld.tiles[k] == tile
    return n


# ================================================================ facts of a hand


cdef void prepare(Ctx* c, const Tables* t, const Hand* h, int win, int mode) noexcept nogil:
    """The facts of a hand with this winning tile (evaluation.HandFacts; -1: none yet) and an empty search."""
    cdef int tile, k, j
    cdef const Meld* meld
    cdef Group* g
    c.t = t
    c.h = h
    c.mode = mode
    c.inexact = False
    memcpy(c.counts, h.counts, t.n_tiles * sizeof(int))
    memcpy(c.held, c.counts, t.n_tiles * sizeof(int))
    c.konged = 0
    c.opened = False
    for k in range(h.n_melds):
        meld = &h.melds[k]
        g = &c.d.groups[k]
        meld_group(t, meld, g)
        if not g.aside:  # a tile laid aside is not one of the hand's tiles
            for j in range(meld.size):
                c.held[meld.tiles[j]] += 1
        if t.meld_shape[meld.kind] == SHAPE_KONG:
            c.konged |= 1ULL << meld.tiles[0]
        c.opened = c.opened or t.meld_opens[meld.kind]
    cdef int n_concealed = 0
    cdef unsigned long long hand_tiles = 0, held_tiles = 0, held_bit
    cdef unsigned int suit_bits = 0
    for tile in range(t.n_tiles):  # without branches: a hand holds few of the tiles
        n_concealed += c.counts[tile]
        hand_tiles |= (<unsigned long long>(c.counts[tile] != 0)) << tile
        held_bit = c.held[tile] != 0
        held_tiles |= held_bit << tile
        suit_bits |= t.suit_bit[tile] & -(<unsigned int>held_bit)
    c.n_concealed = n_concealed
    c.hand_tiles = hand_tiles
    c.held_tiles = held_tiles
    c.suit_bits = suit_bits
    c.concealed_tiles = c.hand_tiles
    c.n_declared = h.n_melds
    c.free = t.all_tiles & ~t.flowers & ~h.wild  # what a wild may stand for
    c.jokers = 0
    c.joker_win = False
    c.substituted = 0
    c.waits[0] = -1
    c.waits[1] = -1
    c.stamp = 1
    memset(c.let_stamp, 0, sizeof(c.let_stamp))
    c.n = c.fan_store[0]
    c.v = c.fan_store[1]
    c.cnt = c.fan_store[2]
    c.best_n = c.fan_store[3]
    c.best_v = c.fan_store[4]
    c.best_cnt = c.fan_store[5]
    if not t.computed_values:  # every value is fixed: nothing writes them
        c.v = <long long*>t.fan_amount
        c.best_v = c.v
    elif mode == SEARCH_BEST:  # fixed values in both: value_fans sets the computed ones of the fans that occur
        memcpy(c.v, t.fan_amount, t.n_fans * sizeof(long long))
        memcpy(c.best_v, t.fan_amount, t.n_fans * sizeof(long long))
    set_win(c, win)


cdef void set_win(Ctx* c, int win) noexcept nogil:
    """Add the winning tile to the hand (none: -1), and start a new search."""
    c.win = win
    if win >= 0:
        c.counts[win] += 1
        c.held[win] += 1
        c.n_concealed += 1
        c.concealed_tiles |= 1ULL << win
        c.held_tiles |= 1ULL << win
    c.suits = popcount(c.suit_bits | (c.t.suit_bit[win] if win >= 0 else 0))
    c.n_decompositions = 0
    c.first_unmet = -1
    c.found = False
    c.have_best = False


cdef void unset_win(Ctx* c) noexcept nogil:
    """Take the winning tile out of the hand again."""
    cdef int win = c.win
    c.counts[win] -= 1
    c.held[win] -= 1
    c.n_concealed -= 1
    if c.counts[win] == 0:
        c.concealed_tiles &= ~(1ULL << win)
    if c.held[win] == 0:
        c.held_tiles &= ~(1ULL << win)


cdef unsigned long long completing(const Tables* t, const Hand* h, unsigned long long held,
                                  unsigned long long near, bint with_standard) noexcept nogil:
    """The tiles that may complete this hand (held: its concealed tiles, near: every tile within two ranks of
    one of them): a superset of its waits, so that the others need no search.

    Sets and a pair: every run of tiles chows connect (a numbered suit; an honor alone) then holds 0 or 2 tiles
    modulo 3, one of them 2: the winning tile goes to the run at 1, or to one of two runs at 2. Seven pairs:
    the one tile held an odd number of times, beside no declared set. Thirteen orphans: an orphan, every tile held one. Honors and knitted
    tiles: a special tile, no tile held twice. A knitted straight: with eight of its tiles held, its ninth,
    or any near tile for the set and the pair beside it."""
    cdef unsigned long long tiles = 0, orphans = 0, odd, run_tiles[MAX_TILES]
    cdef int run_count[MAX_TILES]
    cdef int k, number, run, at_one = 0, at_two = 0
    for number in range(t.n_shapes):
        if t.shapes[number] == T_standard and with_standard:
            for run in range(t.n_runs):  # each run's tiles and count
                run_tiles[run] = 0
                run_count[run] = 0
                for k in range(t.run_first[run], t.run_first[run] + t.run_length[run]):
                    run_tiles[run] |= 1ULL << k
                    run_count[run] += h.counts[k]
                at_one += run_count[run] % 3 == 1
                at_two += run_count[run] % 3 == 2
            for run in range(t.n_runs):
                if (run_count[run] % 3 == 1 and at_one == 1 and at_two == 0) \
                        or (run_count[run] % 3 == 2 and at_one == 0 and at_two == 2):
                    tiles |= run_tiles[run] & near
        elif t.shapes[number] == T_seven_pairs and h.n_sets == 0:
            odd = 0
            for k in range(t.n_tiles):
                if h.counts[k] % 2:
                    odd |= 1ULL << k
            if popcount(odd) == 1:  # six pairs and a single: the single's pair
                tiles |= odd
        elif t.shapes[number] == T_thirteen_orphans and h.n_sets == 0:
            for k in range(t.n_orphans):
                orphans |= 1ULL << t.orphans[k]
            if held & ~orphans == 0:
                tiles |= orphans & t.always_near
        elif t.shapes[number] == T_honors_and_knitted and h.n_sets == 0:
            for k in range(t.n_tiles):
                if h.counts[k] > 1:
                    break
            else:
                tiles |= t.always_near
        elif t.shapes[number] == T_knitted_straight and h.n_sets <= 1:
            for k in range(t.n_knitted):
                if popcount(t.knitted[k] & held) >= 8:
                    tiles |= (t.knitted[k] & t.always_near) | near
        elif t.shapes[number] == T_loose:  # a loose reading: any tile
            tiles |= t.all_tiles
    return tiles


cdef int find_waits(const Tables* t, const Hand* h, bint any_copy, int* out, bint* inexact, Ctx* room) noexcept nogil:
    """Tiles that complete the hand and meet every requirement (Interpreter._waits), into out unless NULL;
    returns how many. With any_copy, a tile whose every copy is held
    counts too (a wait of the shape). The search runs in `room`, or in room of its own when that is NULL."""
    cdef Ctx* trial = room
    cdef int before[MAX_TILES]
    cdef int tile, k, n = 0
    cdef unsigned long long near = 0  # the tiles worth trying: the others complete nothing
    cdef unsigned long long held = 0
    cdef unsigned long long allowed = t.all_tiles & ~t.flowers, waits = 0, unknown = 0
    cdef bint by_table = t.runs_fit and not (h.wild or t.loose or t.n_own_shapes or t.has_requirements)
    memcpy(before, h.counts, t.n_tiles * sizeof(int))
    for tile in range(t.n_tiles):
        if h.counts[tile]:
            near |= t.near[tile]
            held |= 1ULL << tile
    for k in range(h.n_melds):
        for tile in range(h.melds[k].size):
            before[h.melds[k].tiles[tile]] += 1
    for tile in range(t.n_tiles if not any_copy else 0):
        if before[tile] >= t.tile_copies[tile]:
            allowed &= ~(1ULL << tile)
    if by_table:  # the standard shape by table, the other shapes by search on the tiles that may complete them
        waits = standard_waits(t, h, near & allowed, &unknown)
        near = (completing(t, h, held, near, False) | unknown) & ~waits
    else:
        near = completing(t, h, held, near, True)
        if h.wild or t.loose or t.n_own_shapes:
            near = t.all_tiles  # a wild, a loose reading or a spec's own shape can take any tile
    near &= allowed
    if near and trial == NULL:
        trial = <Ctx*>malloc(sizeof(Ctx))
        if trial == NULL:  # no room to search in: the interpreter answers
            inexact[0] = True
            return 0
        trial.trial = NULL
    if near:
        prepare(trial, t, h, -1, SEARCH_ANY)
    for tile in range(t.n_tiles):
        if not has_tile(near, tile):
            continue
        set_win(trial, tile)  # the search stops at the first decomposition that meets the requirements
        search(trial)
        unset_win(trial)
        if trial.found:
            waits |= 1ULL << tile
    if near and trial.inexact:
        inexact[0] = True
    if trial != room:
        free(trial)
    while waits:
        if out != NULL:
            out[n] = lowest_tile(waits)
        n += 1
        waits &= waits - 1
    return n


cdef unsigned long long standard_waits(const Tables* t, const Hand* h, unsigned long long candidates,
                                       unsigned long long* unknown) noexcept nogil:
    """The candidate tiles that make the concealed tiles read as sets and a pair, run by run through
    RUN_SHAPES: the run the tile joins must read anew, every other run as it is, one pair in all. A candidate
    the table cannot decide (a fifth copy) goes to `unknown`."""
    cdef int run, tile, tiles, shape, pairs = 0, wrong = 0
    cdef int keys[MAX_TILES]
    cdef int run_tiles[MAX_TILES]
    cdef bint run_right[MAX_TILES]
    cdef bint chows = False
    cdef unsigned long long waits = 0
    for shape in range(t.n_shapes):
        if t.shapes[shape] == T_standard:
            break
    else:
        return 0
    chows = t.shape_chows[shape]
    tiles = 0
    for run in range(t.n_runs):
        keys[run] = run_key(t, h.counts, run, &run_tiles[run])
        if keys[run] < 0:  # beyond the table: the search decides every candidate
            unknown[0] |= candidates
            return 0
        tiles += run_tiles[run]
    if (t.sets - h.n_sets) * 3 + 1 != tiles:
        return 0
    for run in range(t.n_runs):
        run_right[run] = run_reads(keys[run], run_tiles[run], chows)
        wrong += not run_right[run]
        pairs += run_tiles[run] % 3 == 2
    while candidates:
        tile = lowest_tile(candidates)
        candidates &= candidates - 1
        run = t.run_of[tile]
        if h.counts[tile] >= RUN_COPIES:
            unknown[0] |= 1ULL << tile
            continue
        if wrong - (not run_right[run]) != 0:
            continue
        tiles = run_tiles[run] + 1
        if pairs - (run_tiles[run] % 3 == 2) + (tiles % 3 == 2) == 1 and \
                run_reads(keys[run] + RUN_DIGIT[tile - t.run_first[run]], tiles, chows):
            waits |= 1ULL << tile
    return waits


# ================================================================ decompositions
# Every decomposition, in the order of dsl.interp.decompose: shapes as the spec lists them; sets and a pair by
# recursion over tile counts, lowest tile first, trying pair, pung, chow; then one decomposition per
# distinct group that can hold the winning tile. The order matters: the first of equal totals wins.


cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    /* In huge pages where the kernel gives them (transparent huge pages; a refused hint costs nothing). */
    static void* mjdsl_huge_zeroed(size_t size) {
        const size_t huge = 2u * 1024u * 1024u;
        void* memory = NULL;
        size = (size + huge - 1) / huge * huge;
        if (posix_memalign(&memory, huge, size) != 0)
            return NULL;
        madvise(memory, size, MADV_HUGEPAGE);
        memset(memory, 0, size);
        return memory;
    }
    #else
    static void* mjdsl_huge_zeroed(size_t size) { return calloc(1, size); }
    #endif
    """
    void* huge_zeroed "mjdsl_huge_zeroed" (size_t size) nogil
    # Zeroed memory, freed with free(): in huge pages on Linux. A call reads all over its room and the table of
    # runs, and in 4 KiB pages the TLB misses cost a fifth of a call (measured).


cdef Scratch* new_scratch() noexcept nogil:
    """A zeroed room for calls, its waits' room linked in."""
    cdef Scratch* s = <Scratch*>huge_zeroed(sizeof(Scratch))
    if s != NULL:
        s.ctx.trial = &s.trial
    return s


# ---------------------------------------------------------------- runs read as sets and a pair, by table
# Whether the tiles of one run read as sets alone (bit 0) or as sets and one pair (bit 1), chows allowed;
# bits 2 and 3 the same without chows. The key of a run is its counts in base RUN_COPIES + 1, its first tile
# the lowest digit. A lookup per run decides what a search over the run's readings would find.

cdef enum:
    RUN_KEYS = 1953125  # (RUN_COPIES + 1) ** RUN_TILES
    RUN_SET_KINDS = 16  # pungs on each of the 9 tiles of a run, then chows starting at its first 7

cdef unsigned char* RUN_SHAPES = <unsigned char*>huge_zeroed(RUN_KEYS)  # looked up all over: in huge pages
cdef int[RUN_TILES] RUN_DIGIT = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625]


cdef void mark_runs(int* counts, int key, int first_kind, int sets_left, int shift) noexcept nogil:
    """Mark the run of these counts (and key) and every run with sets of kinds first_kind.. added to it, up to
    sets_left more, as sets alone and, with each pair added, as sets and a pair."""
    cdef int tile, kind, low
    RUN_SHAPES[key] |= 1 << shift
    for tile in range(RUN_TILES):
        if counts[tile] + 2 <= RUN_COPIES:
            RUN_SHAPES[key + 2 * RUN_DIGIT[tile]] |= 2 << shift
    if sets_left == 0:
        return
    for kind in range(first_kind, RUN_SET_KINDS if shift == 0 else RUN_TILES):
        if kind < RUN_TILES:
            if counts[kind] + 3 <= RUN_COPIES:
                counts[kind] += 3
                mark_runs(counts, key + 3 * RUN_DIGIT[kind], kind, sets_left - 1, shift)
                counts[kind] -= 3
            continue
        low = kind - RUN_TILES
        if counts[low] < RUN_COPIES and counts[low + 1] < RUN_COPIES and counts[low + 2] < RUN_COPIES:
            for tile in range(low, low + 3):
                counts[tile] += 1
            mark_runs(counts, key + RUN_DIGIT[low] + RUN_DIGIT[low + 1] + RUN_DIGIT[low + 2], kind,
                      sets_left - 1, shift)
            for tile in range(low, low + 3):
                counts[tile] -= 1


cdef void build_run_shapes() noexcept nogil:
    cdef int[RUN_TILES] counts
    memset(counts, 0, sizeof(counts))
    mark_runs(counts, 0, 0, MAX_SETS, 0)
    mark_runs(counts, 0, 0, MAX_SETS, 2)


build_run_shapes()


cdef void find_runs(Tables* t) noexcept nogil:
    """The runs of tiles that chows connect (a tile joins the run before it when a chow holds both), and
    whether RUN_SHAPES covers them: at most RUN_TILES tiles, a chow at each start but the last two, at most
    RUN_COPIES copies of each tile."""
    cdef int k, p, run
    t.n_runs = 0
    t.runs_fit = True
    for k in range(t.n_tiles):
        if k == 0 or not (t.chow_start[k - 1] or (k >= 2 and t.chow_start[k - 2])):
            t.run_first[t.n_runs] = k
            t.run_length[t.n_runs] = 0
            t.n_runs += 1
        t.run_length[t.n_runs - 1] += 1
        t.run_of[k] = t.n_runs - 1
        t.runs_fit = t.runs_fit and t.tile_copies[k] <= RUN_COPIES
    for run in range(t.n_runs):
        t.runs_fit = t.runs_fit and t.run_length[run] <= RUN_TILES
        for p in range(t.run_length[run]):
            t.runs_fit = t.runs_fit and (t.chow_start[t.run_first[run] + p] != 0) == (p + 2 < t.run_length[run])


cdef inline bint run_reads(int key, int tiles, bint chows) noexcept nogil:
    """The run reads as sets (a multiple of 3 tiles) or as sets and a pair (2 more)."""
    if tiles % 3 == 1:
        return False
    return tiles == 0 or (RUN_SHAPES[key] >> (0 if chows else 2)) & (1 if tiles % 3 == 0 else 2)


cdef int run_key(const Tables* t, const int* counts, int run, int* tiles) noexcept nogil:
    """A run's key into RUN_SHAPES (its counts in base RUN_COPIES + 1, its first tile the lowest digit), its
    tiles into `tiles`; -1 when a count is beyond the table."""
    cdef int k, count, key = 0
    tiles[0] = 0
    for k in range(t.run_length[run] - 1, -1, -1):
        count = counts[t.run_first[run] + k]
        if count > RUN_COPIES:
            return -1
        key = key * (RUN_COPIES + 1) + count
        tiles[0] += count
    return key


cdef int standard_complete(const Tables* t, const int* counts, bint chows) noexcept nogil:
    """Whether the concealed tiles read as sets and one pair: 1 or 0 by RUN_SHAPES, -1 when the table does not
    cover this spec's runs or counts."""
    cdef int run, key, tiles, pairs = 0
    if not t.runs_fit:
        return -1
    for run in range(t.n_runs):
        key = run_key(t, counts, run, &tiles)
        if key < 0:
            return -1
        if not run_reads(key, tiles, chows):
            return 0
        pairs += tiles % 3 == 2
    return pairs == 1


cdef void search(Ctx* c) noexcept nogil:
    cdef const Tables* t = c.t
    cdef int k, shape
    cdef bint stop
    for k in range(t.n_shapes):
        shape = t.shapes[k]
        c.d.shape = shape
        c.jokers = 0  # the standard shape's last split of the wilds is no part of the next shape
        c.joker_win = False
        if shape == T_standard:
            stop = standard(c, t.shape_chows[k])
        elif shape == T_seven_pairs:
            stop = seven_pairs(c)
        elif shape == T_thirteen_orphans:
            stop = thirteen_orphans(c)
        elif shape == T_honors_and_knitted:
            stop = honors_and_knitted(c)
        elif shape == T_knitted_straight:
            stop = knitted_straight(c, t.shape_chows[k])
        else:
            stop = loose(c)
        if stop:
            return
    if t.n_own_shapes > 0:
        own_shapes(c)


cdef bint own_shapes(Ctx* c) noexcept nogil:
    """A spec's own shapes (Interpreter._own_shapes): the declared melds, then every concealed tile a single in
    tile order, the first copy of the winning tile holding it; a decomposition for each shape whose condition
    holds. True stops the search."""
    cdef const Tables* t = c.t
    cdef int tile, j, k, n = c.n_declared
    cdef bint win_placed = False
    for tile in range(t.n_tiles):
        for j in range(c.counts[tile]):
            hand_group(t, &c.d.groups[n], SINGLE, tile, 0)
            if tile == c.win and not win_placed:
                c.d.groups[n].with_win = True
                win_placed = True
            n += 1
    c.d.n_groups = n
    c.d.kinds = 1ULL << SINGLE if n > c.n_declared else 0
    for k in range(c.n_declared):
        c.d.kinds |= 1ULL << c.d.groups[k].kind
    c.d.wait = t.text_none  # no group completes a wait
    if t.group_masks:
        fill_group_tiles(c)
    for k in range(t.n_own_shapes):
        c.d.shape = t.own_shape_text[k]
        if t.extended:
            read_tiles(c)
        if t.own_shape(c, k) and visit(c):
            return True
    return False


cdef inline void push(Ctx* c, int kind, int tile, int mask) noexcept nogil:
    """A group on the stack; the places in `mask` are filled by wilds."""
    c.stack_kind[c.n_stack] = kind
    c.stack_tile[c.n_stack] = tile
    c.stack_mask[c.n_stack] = mask
    c.n_stack += 1


cdef void record(Ctx* c, Readings* found) noexcept nogil:
    """The groups on the stack as one more reading; too many readings leave the hand to the interpreter."""
    cdef int r = found.n, k
    if r == MAX_READINGS:
        c.inexact = True
        return
    found.n += 1
    found.size[r] = c.n_stack - c.stack_base
    for k in range(c.stack_base, c.n_stack):
        found.kind[r][k - c.stack_base] = c.stack_kind[k]
        found.tile[r][k - c.stack_base] = c.stack_tile[k]
        found.mask[r][k - c.stack_base] = c.stack_mask[k]


cdef bint sets_and_pair(Ctx* c, Readings* found, int start, int sets, bint paired, bint chows) noexcept nogil:
    """Every reading of c.left as `sets` sets and a pair (decompose._standard), taking the lowest tile
    first so each reading is found once; the groups found so far are on c.stack from `c.stack_base`.
    Readings go into `found`, or with found NULL are placed at once (True: the search may stop)."""
    cdef int i = start, n_tiles = c.t.n_tiles
    while i < n_tiles and c.left[i] == 0:
        i += 1
    if i == n_tiles:
        if sets != 0 or not paired:
            return False
        if found == NULL:
            return place_win(c)
        record(c, found)
        return False
    if not paired and c.left[i] >= 2:
        push(c, PAIR, i, 0)
        c.left[i] -= 2
        if sets_and_pair(c, found, i, sets, True, chows):
            return True
        c.left[i] += 2
        c.n_stack -= 1
    if sets > 0 and c.left[i] >= 3:
        push(c, PUNG, i, 0)
        c.left[i] -= 3
        if sets_and_pair(c, found, i, sets - 1, paired, chows):
            return True
        c.left[i] += 3
        c.n_stack -= 1
    if sets > 0 and chows and c.t.chow_start[i] and c.left[i + 1] > 0 and c.left[i + 2] > 0:
        push(c, CHOW, i, 0)
        c.left[i] -= 1
        c.left[i + 1] -= 1
        c.left[i + 2] -= 1
        if sets_and_pair(c, found, i, sets - 1, paired, chows):
            return True
        c.left[i] += 1
        c.left[i + 1] += 1
        c.left[i + 2] += 1
        c.n_stack -= 1
    return False


cdef bint place_readings(Ctx* c, const Readings* found, const int* order) noexcept nogil:
    """Each reading, in the given order; True stops the search."""
    cdef int r, k
    for r in range(found.n):
        c.n_stack = c.stack_base
        for k in range(found.size[order[r]]):
            push(c, found.kind[order[r]][k], found.tile[order[r]][k], found.mask[order[r]][k])
        if place_win(c):
            return True
    return False


cdef bint standard(Ctx* c, bint chows) noexcept nogil:
    """Sets and one pair, for every split of the wild tiles held."""
    cdef int complete
    if c.h.wild == 0:  # no wild tiles: the one split is the hand itself
        complete = standard_complete(c.t, c.counts, chows)
        if complete == 0:
            return False  # no reading at all: nothing to search
        if complete == 1 and c.mode == SEARCH_ANY and not c.t.has_requirements:
            c.found = True  # any reading is a win, and there is one
            return True
        memcpy(c.split, c.counts, c.t.n_tiles * sizeof(int))
        c.jokers = 0
        c.joker_win = False
        return standard_split(c, chows)
    return each_split(c, chows, False)


cdef bint standard_split(Ctx* c, bint chows) noexcept nogil:
    """Sets and one pair of c.split with c.jokers wilds, readings tried set by set in tile order, a pung
    before a chow on the same tile (decompose._reading_order), each once; True when the search may stop."""
    cdef Readings* found = &c.readings
    cdef int* order = c.reading_order
    cdef int sets = c.t.sets - c.h.n_sets
    cdef int r, j
    if sets < 0 or c.n_concealed != 3 * sets + 2:
        return False  # the tile count alone rules the shape out
    memcpy(c.left, c.split, c.t.n_tiles * sizeof(int))
    c.n_stack = 0
    c.stack_base = 0
    found.n = 0
    if c.jokers == 0:
        if c.mode == SEARCH_ANY:  # any reading will do: no need to order them
            return sets_and_pair(c, NULL, 0, sets, False, chows)
        sets_and_pair(c, found, 0, sets, False, chows)
    else:
        sets_and_pair_wild(c, found, 0, sets, False, chows, c.jokers)
        drop_repeats(c.t, found)
    for r in range(found.n):
        reading_key(found, r, c.reading_keys[r])
        j = r  # a stable insertion sort by key
        while j > 0 and key_before(c.reading_keys[r], c.reading_keys[order[j - 1]], sets):
            order[j] = order[j - 1]
            j -= 1
        order[j] = r
    return place_readings(c, found, order)


cdef void reading_key(const Readings* found, int r, int* key) noexcept nogil:
    """The sets of a reading as (tile, is chow) pairs, sorted: tile * 2 + (1 for a chow)."""
    cdef int k, j, value, n = 0
    for k in range(found.size[r]):
        if found.kind[r][k] == PAIR:
            continue
        value = found.tile[r][k] * 2 + (found.kind[r][k] == CHOW)
        j = n
        while j > 0 and key[j - 1] > value:
            key[j] = key[j - 1]
            j -= 1
        key[j] = value
        n += 1


cdef bint key_before(const int* a, const int* b, int sets) noexcept nogil:
    cdef int k
    for k in range(sets):
        if a[k] != b[k]:
            return a[k] < b[k]
    return False


cdef bint knitted_straight(Ctx* c, bint chows) noexcept nogil:
    """A knitted straight (147 / 258 / 369 over three suits), then sets and a pair from the rest, the
    straights in order and the readings as found."""
    cdef const Tables* t = c.t
    cdef int number
    cdef unsigned long long tiles
    if c.h.n_sets > 1:
        return False
    for number in range(t.n_knitted):
        if t.knitted[number] & ~c.concealed_tiles:
            continue
        memcpy(c.left, c.counts, t.n_tiles * sizeof(int))
        tiles = t.knitted[number]
        while tiles:  # each tile of the straight, lowest first
            c.left[lowest_tile(tiles)] -= 1
            tiles &= tiles - 1
        c.n_stack = 0
        push(c, KNITTED, number, 0)
        c.stack_base = 1
        if sets_and_pair(c, NULL, 0, 1 - c.h.n_sets, False, chows):
            return True
    return False


cdef bint honors_and_knitted(Ctx* c) noexcept nogil:
    """Fourteen different tiles: numbered ones all from one knitted straight, and some honors."""
    cdef const Tables* t = c.t
    cdef int number
    cdef unsigned long long numbered = c.concealed_tiles & t.numbered, honors = c.concealed_tiles & ~t.numbered
    if c.h.n_sets != 0 or c.n_concealed != 14 or popcount(c.concealed_tiles) != 14 or honors == 0:
        return False  # fourteen tiles, all different
    for number in range(t.n_knitted):
        if (numbered & ~t.knitted[number]) == 0:
            break
    else:
        return False
    c.n_stack = 0
    while numbered:  # the numbered tiles, lowest first, then the honors
        push(c, SINGLE, lowest_tile(numbered), 0)
        numbered &= numbered - 1
    while honors:
        push(c, SINGLE, lowest_tile(honors), 0)
        honors &= honors - 1
    return place_win(c)


cdef bint seven_pairs(Ctx* c) noexcept nogil:
    """Seven pairs: no declared sets (tiles laid aside may be), 14 tiles, every count even (four of a kind is
    two pairs)."""
    cdef int tile, k
    cdef unsigned long long left = c.concealed_tiles
    if c.h.n_sets != 0 or c.n_concealed != 14:
        return False
    while left:  # the tiles held, lowest first
        if c.counts[lowest_tile(left)] % 2:
            return False
        left &= left - 1
    c.n_stack = 0
    left = c.concealed_tiles
    while left:
        tile = lowest_tile(left)
        for k in range(c.counts[tile] // 2):
            push(c, PAIR, tile, 0)
        left &= left - 1
    return place_win(c)


cdef bint thirteen_orphans(Ctx* c) noexcept nogil:
    """Thirteen orphans: one of each terminal and honor and a pair of one of them, no declared sets."""
    cdef const int* orphans = c.t.orphans
    cdef int tile, k, pair = -1
    if c.t.n_orphans != 13 or c.h.n_sets != 0 or c.n_concealed != 14:
        return False
    for k in range(13):
        tile = orphans[k]
        if c.counts[tile] == 2 and pair < 0:
            pair = tile
        elif c.counts[tile] != 1:
            return False
    if pair < 0:
        return False
    c.n_stack = 0
    push(c, PAIR, pair, 0)
    for k in range(13):
        if orphans[k] != pair:
            push(c, SINGLE, orphans[k], 0)
    return place_win(c)

# ---------------------------------------------------------------- wild tiles (dsl.interp.decompose)


cdef bint each_split(Ctx* c, bint chows, bint loose_shape) noexcept nogil:
    """Every split of the wild tiles held (decompose._wild_splits): of each wild tile, lowest first, none
    to all of its copies set apart as wilds, the last wild tile's number changing fastest."""
    cdef int held[MAX_TILES]
    cdef int used[MAX_TILES]
    cdef int n_held = 0, tile, k
    for tile in range(c.t.n_tiles):
        if has_tile(c.h.wild, tile) and c.counts[tile] > 0:
            held[n_held] = tile
            used[n_held] = 0
            n_held += 1
    while True:
        memcpy(c.split, c.counts, c.t.n_tiles * sizeof(int))
        c.jokers = 0
        for k in range(n_held):
            c.split[held[k]] -= used[k]
            c.jokers += used[k]
        c.joker_win = c.win >= 0 and has_tile(c.h.wild, c.win) and c.split[c.win] == 0
        if loose_readings(c) if loose_shape else standard_split(c, chows):
            return True
        k = n_held - 1
        while k >= 0 and used[k] == c.counts[held[k]]:
            used[k] = 0
            k -= 1
        if k < 0:
            return False
        used[k] += 1


cdef bint loose(Ctx* c) noexcept nogil:
    """No shape at all (乱风乱将): every tile held a single, every wild set apart a group of its own."""
    return each_split(c, False, True)


cdef bint loose_readings(Ctx* c) noexcept nogil:
    cdef int sets = c.t.sets - c.h.n_sets, tile, k, n = 0
    for tile in range(c.t.n_tiles):
        n += c.split[tile]
    if sets < 0 or n + c.jokers != 3 * sets + 2:
        return False
    c.n_stack = 0
    for tile in range(c.t.n_tiles):
        for k in range(c.split[tile]):
            push(c, SINGLE, tile, 0)
    for tile in range(c.t.n_tiles):
        for k in range(c.counts[tile] - c.split[tile]):
            push(c, WILD, tile, 1)
    return place_win(c)


cdef void sets_and_pair_wild(Ctx* c, Readings* found, int start, int sets, bint paired, bint chows,
                             int jokers) noexcept nogil:
    """Every reading of c.left and `jokers` wilds as sets and a pair (decompose._standard_wild): each group
    holds the lowest tile left; its other places are held tiles or wilds (pair, then pung: most held
    first; then chows starting at, one below and two below that tile)."""
    cdef int i = start, held, k, low, place, mask, filled, need, p
    cdef bint ok
    while i < c.t.n_tiles and c.left[i] == 0:
        i += 1
    if i == c.t.n_tiles:
        wilds_alone(c, found, sets, paired, chows, jokers, 0)
        return
    if not paired:
        for held in range(2, 0, -1):
            if c.left[i] >= held and jokers >= 2 - held and (held == 2 or has_tile(c.free, i)):
                push(c, PAIR, i, (1 << (2 - held)) - 1)
                c.left[i] -= held
                sets_and_pair_wild(c, found, i, sets, True, chows, jokers - (2 - held))
                c.left[i] += held
                c.n_stack -= 1
    if sets > 0:
        for held in range(3, 0, -1):
            if c.left[i] >= held and jokers >= 3 - held and (held == 3 or has_tile(c.free, i)):
                push(c, PUNG, i, (1 << (3 - held)) - 1)
                c.left[i] -= held
                sets_and_pair_wild(c, found, i, sets - 1, paired, chows, jokers - (3 - held))
                c.left[i] += held
                c.n_stack -= 1
    if sets == 0 or not chows:
        return
    for k in range(3):
        low = i - k
        if low < 0 or not c.t.chow_start[low]:
            continue
        place = k
        for mask in range(1 << (2 - place)):  # the places above the held tile: a set bit is a wild
            filled = ((1 << place) - 1) | (mask << (place + 1))
            need = popcount(filled)
            ok = need <= jokers
            for p in range(3):
                if (filled >> p) & 1 and not has_tile(c.free, low + p):
                    ok = False
                elif p > place and not (filled >> p) & 1 and c.left[low + p] == 0:
                    ok = False
            if not ok:
                continue
            for p in range(place, 3):
                if p == place or not (filled >> p) & 1:
                    c.left[low + p] -= 1
            push(c, CHOW, low, filled)
            sets_and_pair_wild(c, found, i, sets - 1, paired, chows, jokers - need)
            c.n_stack -= 1
            for p in range(place, 3):
                if p == place or not (filled >> p) & 1:
                    c.left[low + p] += 1


cdef void wilds_alone(Ctx* c, Readings* found, int sets, bint paired, bint chows, int jokers, int lowest) noexcept nogil:
    """Groups of wilds alone once every held tile is placed (decompose._wilds_alone): a pair of any tile
    first, then sets in order (a pung of a tile before a chow starting on it)."""
    cdef int tile, key
    cdef bint chow
    if jokers != 3 * sets + (0 if paired else 2):
        return
    if not paired:
        for tile in range(c.t.n_tiles):
            if has_tile(c.free, tile):
                push(c, PAIR, tile, 3)
                wilds_alone(c, found, sets, True, chows, jokers - 2, 0)
                c.n_stack -= 1
        return
    if sets == 0:
        record(c, found)
        return
    for key in range(lowest, 2 * c.t.n_tiles):
        tile = key >> 1
        chow = key & 1
        if chow and not (chows and c.t.chow_start[tile] and has_tile(c.free, tile) and has_tile(c.free, tile + 1)
                         and has_tile(c.free, tile + 2)):
            continue
        if not chow and not has_tile(c.free, tile):
            continue
        push(c, CHOW if chow else PUNG, tile, 7)
        wilds_alone(c, found, sets - 1, True, chows, jokers - 3, key)
        c.n_stack -= 1


cdef void drop_repeats(const Tables* t, Readings* found) noexcept nogil:
    """Keep the first of readings with the same groups (decompose._unique): wilds can form them in
    another order."""
    cdef int codes[MAX_READINGS][MAX_SETS + 1]
    cdef int r, k, j, value, n = 0
    cdef bint repeat
    for r in range(found.n):
        for k in range(found.size[r]):  # the groups as sorted codes
            value = (found.kind[r][k] * t.n_tiles + found.tile[r][k]) * 8 + found.mask[r][k]
            j = k
            while j > 0 and codes[n][j - 1] > value:
                codes[n][j] = codes[n][j - 1]
                j -= 1
            codes[n][j] = value
        repeat = False
        for j in range(n):
            if found.size[j] == found.size[r]:
                repeat = True
                for k in range(found.size[r]):
                    if codes[j][k] != codes[n][k]:
                        repeat = False
                        break
                if repeat:
                    break
        if repeat:
            continue
        found.size[n] = found.size[r]
        for k in range(found.size[r]):
            found.kind[n][k] = found.kind[r][k]
            found.tile[n][k] = found.tile[r][k]
            found.mask[n][k] = found.mask[r][k]
        n += 1
    found.n = n


cdef void read_tiles(Ctx* c) noexcept nogil:
    """The tiles as this reading reads them (decompose.reading_tiles): wilds as the tiles they stand for,
    loose wilds and tiles laid aside left out; and how many wilds it substitutes."""
    cdef int k, tile
    cdef const Group* g
    cdef unsigned long long left
    memset(c.held, 0, sizeof(c.held))
    c.held_tiles = 0
    c.suit_bits = 0
    c.substituted = 0
    for k in range(c.d.n_groups):
        g = &c.d.groups[k]
        c.substituted += popcount(g.mask)
        if g.aside or g.kind == WILD:
            continue
        if popcount(g.tiles) == g.size:
            left = g.tiles
            while left:
                c.held[lowest_tile(left)] += 1
                left &= left - 1
        else:
            c.held[g.tile] += g.size
    for tile in range(c.t.n_tiles):
        if c.held[tile]:
            c.held_tiles |= 1ULL << tile
            c.suit_bits |= c.t.suit_bit[tile]
    c.suits = popcount(c.suit_bits)

# ---------------------------------------------------------------- placing the winning tile


cdef inline bint holds_tile(const Group* g, int tile) noexcept nogil:
    """The tile is one of the group's held tiles, not a wild standing for it (decompose._held_part)."""
    if not has_tile(g.tiles, tile):
        return False
    if g.mask == 0:
        return True
    if g.kind == CHOW:
        return not (g.mask >> (tile - g.tile)) & 1
    return popcount(g.mask) < g.size


cdef bint place_win(Ctx* c) noexcept nogil:
    """The decompositions of one reading of the concealed tiles: one per distinct group holding the
    winning tile, which is concealed only when self-drawn."""
    cdef int k, j, n_seen = 0, as_tile
    cdef int seen_kind[MAX_GROUPS]
    cdef int seen_tile[MAX_GROUPS]
    cdef int seen_mask[MAX_GROUPS]
    cdef Group* g
    cdef bint stop, seen
    c.d.n_groups = c.n_declared + c.n_stack
    c.d.kinds = 0
    for k in range(c.n_declared):
        c.d.kinds |= 1ULL << c.d.groups[k].kind
    for k in range(c.n_stack):
        hand_group(c.t, &c.d.groups[c.n_declared + k], c.stack_kind[k], c.stack_tile[k], c.stack_mask[k])
        c.d.kinds |= 1ULL << c.stack_kind[k]
    for k in range(c.n_stack):
        g = &c.d.groups[c.n_declared + k]
        if c.joker_win:  # a wild winning tile sits in a group of wilds (a loose wild of its own kind)
            if g.mask == 0 or (g.kind == WILD and g.tile != c.win):
                continue
            as_tile = g.tile + lowest_tile(g.mask) if g.kind == CHOW else g.tile
        elif not holds_tile(g, c.win):
            continue
        else:
            as_tile = c.win
        seen = False
        for j in range(n_seen):
            seen = seen or (seen_kind[j] == c.stack_kind[k] and seen_tile[j] == c.stack_tile[k]
                            and seen_mask[j] == c.stack_mask[k])
        if seen:
            continue
        seen_mask[n_seen] = c.stack_mask[k]
        seen_kind[n_seen] = c.stack_kind[k]
        seen_tile[n_seen] = c.stack_tile[k]
        n_seen += 1
        g.with_win = True
        g.concealed = c.h.self_drawn
        c.d.wait = wait_of(c.t, g, as_tile)
        stop = visit(c)
        g.with_win = False
        g.concealed = True
        if stop:
            return True
    return False


cdef inline void hand_group(const Tables* t, Group* g, int kind, int tile, int mask) noexcept nogil:
    """A group of the concealed tiles; a knitted straight comes as its number."""
    g.kind = kind
    g.declared = False
    g.concealed = True
    g.opens = False
    g.with_win = False
    g.mask = mask
    g.aside = False
    if kind == KNITTED:
        g.tiles = t.knitted[tile]
        g.tile = lowest_tile(g.tiles)
        g.size = 9
        return
    g.tile = tile
    g.size = 3 if kind == CHOW or kind == PUNG else 2 if kind == PAIR else 1
    g.tiles = (7ULL << tile) if kind == CHOW else (1ULL << tile)


cdef int wait_of(const Tables* t, const Group* g, int win) noexcept nogil:
    """The wait the winning tile completes (decompose._wait)."""
    if g.kind == KNITTED:
        return T_knitted
    if g.kind == PAIR or g.kind == SINGLE or g.kind == WILD:
        return T_single
    if g.kind == PUNG:
        return T_pung_wait
    if win == g.tile + 1:
        return T_closed
    if (win == g.tile and t.tile_rank[g.tile] == 7) or (win == g.tile + 2 and t.tile_rank[g.tile] == 1):
        return T_edge
    return T_two_sided

# ================================================================ scoring a decomposition


cdef bint visit(Ctx* c) noexcept nogil:
    """One decomposition with its winning tile placed; True stops the search."""
    cdef const Tables* t = c.t
    cdef int unmet
    c.n_decompositions += 1
    c.stamp += 1
    if t.extended:
        read_tiles(c)
    if t.group_masks:
        fill_group_tiles(c)
    if t.requirements_read_fans:
        t.count_fans(c)
    unmet = t.unmet_requirement(c)
    if c.mode == SEARCH_ANY:
        c.found = unmet < 0
        return c.found
    if unmet >= 0:
        if c.first_unmet < 0:
            c.first_unmet = unmet
        return False
    if not t.requirements_read_fans:
        c.stamp += 1  # a `let` the requirements read may read fans: counted only now
        t.count_fans(c)
    t.value_fans(c)
    c.total = resolve(t, c.n, c.v, c.cnt, 0, t.hand_fans, &c.inexact)
    c.stamp += 1  # a `let` may read the total and what counts: known only now
    if t.late_fans:
        c.counted_fans = fans_counted(c)
        c.total = plus(c, c.total, t.score_late_fans(c))
        c.stamp += 1
    if t.has_supersede:
        c.total = supersede(c)
        c.stamp += 1
    if t.score_reading != NULL:
        t.score_reading(c)
    c.rank = c.scores[t.rank_score] if t.rank_score >= 0 else c.total
    if not c.have_best or c.rank > c.best_rank or (c.rank == c.best_rank and has_preferred_fan(c)):
        c.have_best = True
        c.best_total = c.total
        c.best_rank = c.rank
        keep_decomposition(&c.best_d, &c.d)
        swap(&c.n, &c.best_n)
        swap(&c.v, &c.best_v)
        swap(&c.cnt, &c.best_cnt)
        memcpy(c.best_scores, c.scores, t.n_scores * sizeof(long long))
        if t.extended:
            memcpy(c.best_held, c.held, sizeof(c.held))
            c.best_held_tiles = c.held_tiles
            c.best_suits = c.suits
            c.best_substituted = c.substituted
    return False


cdef void fill_group_tiles(Ctx* c) noexcept nogil:
    """Ctx.group_tiles of the decomposition in c.d: each chow, pung, kong and pair adds its lowest tile to the
    first layer of its rows that lacks it (a kong is a pung too)."""
    cdef int k
    cdef const Group* g
    memset(c.group_tiles, 0, sizeof(c.group_tiles))
    for k in range(c.d.n_groups):
        g = &c.d.groups[k]
        if g.kind == CHOW:
            add_layered(c.group_tiles[0], g.tile)
        elif g.kind == PUNG or g.kind == KONG:
            add_layered(c.group_tiles[1], g.tile)
            if g.kind == KONG:
                add_layered(c.group_tiles[2], g.tile)
        elif g.kind == PAIR:
            add_layered(c.group_tiles[3], g.tile)


cdef inline void add_layered(unsigned long long* layers, int tile) noexcept nogil:
    cdef unsigned long long bit = 1ULL << tile
    cdef int k
    for k in range(4):
        if not layers[k] & bit:
            layers[k] |= bit
            return


cdef inline void swap(long long** a, long long** b) noexcept nogil:
    cdef long long* kept = a[0]
    a[0] = b[0]
    b[0] = kept


cdef inline void keep_decomposition(Decomposition* to, const Decomposition* d) noexcept nogil:
    """Copy a decomposition, only as many groups as it has (the struct has room for many more)."""
    to.shape = d.shape
    to.wait = d.wait
    to.kinds = d.kinds
    to.n_groups = d.n_groups
    memcpy(to.groups, d.groups, d.n_groups * sizeof(Group))


cdef long long supersede(Ctx* c) noexcept nogil:
    """When a fan worth `supersede` or more counts, only such fans count; the total after that."""
    cdef int i
    cdef long long total = 0
    for i in range(c.t.hand_fans):
        if c.cnt[i] > 0 and c.v[i] >= c.t.supersede:
            break
    else:
        return c.total
    for i in range(c.t.hand_fans):
        if c.cnt[i] > 0 and c.v[i] < c.t.supersede:
            c.cnt[i] = 0
        total = plus(c, total, times(c, c.v[i], c.cnt[i]))
    return total


cdef bint has_preferred_fan(const Ctx* c) noexcept nogil:
    cdef int k
    for k in range(c.t.n_preferred):
        if c.cnt[c.t.preferred[k]] > 0:
            return True
    return False


cdef inline bint outranks(const Tables* t, int a, int b, const long long* v) noexcept nogil:
    return v[a] > v[b] or (v[a] == v[b] and t.fan_order[a] < t.fan_order[b])


cdef int occurring(const long long* n, int first, int last, int* out) noexcept nogil:
    """The fans first..last-1 with n[fan] > 0, in fan order, into out; how many. Most fans do not occur, so
    four at a time are passed over at once."""
    cdef int i = first, j, found = 0
    while i + 4 <= last:
        if n[i] | n[i + 1] | n[i + 2] | n[i + 3]:
            for j in range(i, i + 4):
                out[found] = j
                found += n[j] > 0
        i += 4
    while i < last:
        out[found] = i
        found += n[i] > 0
        i += 1
    return found


cdef int counted_in_order(const Tables* t, const long long* cnt, int first, int last, int* out) noexcept nogil:
    """The fans first..last-1 that count, in declaration order (found in fan order, then a stable insertion
    sort of the few), into out; how many."""
    cdef int k, i, j, n = occurring(cnt, first, last, out)
    for k in range(1, n):
        i = out[k]
        j = k
        while j > 0 and t.fan_order[i] < t.fan_order[out[j - 1]]:
            out[j] = out[j - 1]
            j -= 1
        out[j] = i
    return n


cdef long long resolve(const Tables* t, const long long* n, const long long* v, long long* cnt, int first, int last,
                       bint* inexact) noexcept nogil:
    """不计 and exclusive groups over fans first..last-1 (evaluation.resolve_exclusions); the total.

    Fans that occur are taken from the most valuable down, declaration order breaking ties. One whose
    occurrences are not all taken away counts them, then removes the fans of its CUT mask and the
    occurrences of its partial exclusions; a fan that was removed removes nothing. A total beyond LIMIT
    sets `inexact`."""
    cdef int present[MAX_FANS]
    cdef long long remaining[MAX_FANS]
    cdef unsigned long long cut[MAX_MASK_WORDS]
    cdef int n_present = 0, i, j, k, fan, word
    cdef long long total = 0, amount
    memset(&cnt[first], 0, (last - first) * sizeof(long long))
    n_present = occurring(n, first, last, present)
    for k in range(n_present):  # partial exclusions take from these (and from fans absent, never read)
        remaining[present[k]] = n[present[k]]
    for k in range(1, n_present):  # an insertion sort, most valuable first
        fan = present[k]
        j = k
        while j > 0 and outranks(t, fan, present[j - 1], v):
            present[j] = present[j - 1]
            j -= 1
        present[j] = fan
    memset(cut, 0, sizeof(cut))
    for k in range(n_present):
        fan = present[k]
        if (cut[fan >> 6] >> (fan & 63)) & 1 or remaining[fan] <= 0:
            continue
        cnt[fan] = remaining[fan]
        if multiply_overflows(v[fan], cnt[fan], &amount) or add_overflows(total, amount, &total) \
                or not -LIMIT <= total <= LIMIT:
            inexact[0] = True
        for word in range(t.mask_words):
            cut[word] |= t.cut[fan * t.mask_words + word]
        for j in range(t.partial_from[fan], t.partial_from[fan + 1]):
            remaining[t.partial_target[j]] -= t.partial_times[j]
    return total


cdef long long fans_counted(const Ctx* c) noexcept nogil:
    """`counted_fans`: how many hand fans count after exclusions, those the minimum excludes aside."""
    cdef long long n = 0
    cdef int i, k, j, fan
    for i in range(c.t.hand_fans):
        n += c.cnt[i] > 0
    for k in range(c.t.n_minimum_excluded):
        fan = c.t.minimum_excluded[k]
        for j in range(k):  # each excluded fan once
            if c.t.minimum_excluded[j] == fan:
                break
        else:
            n -= fan < c.t.hand_fans and c.cnt[fan] > 0
    return n


cdef void restore_best(Ctx* c) noexcept nogil:
    keep_decomposition(&c.d, &c.best_d)
    if c.t.group_masks:
        fill_group_tiles(c)
    c.stamp += 1
    c.n = c.best_n
    c.v = c.best_v
    c.cnt = c.best_cnt
    c.total = c.best_total
    if c.t.extended:
        memcpy(c.held, c.best_held, sizeof(c.held))
        c.held_tiles = c.best_held_tiles
        c.suits = c.best_suits
        c.substituted = c.best_substituted


cdef long long counted_towards_minimum(Ctx* c) noexcept nogil:
    cdef long long total = c.total
    cdef int k, fan
    for k in range(c.t.n_minimum_excluded):
        fan = c.t.minimum_excluded[k]
        total = minus(c, total, times(c, c.v[fan], c.cnt[fan]))
    return total

# ================================================================ combinations of sets


cdef inline bint in_source(const Group* g, int source) noexcept nogil:
    if source == SOURCE_SETS:
        return is_set(g)
    if source == SOURCE_CHOWS:
        return g.kind == CHOW
    if source == SOURCE_PUNGS:
        return g.kind == PUNG or g.kind == KONG
    if source == SOURCE_KONGS:
        return g.kind == KONG
    if source == SOURCE_PAIRS:
        return g.kind == PAIR
    return True


cdef int select_groups(const Ctx* c, int source, const Group** out) noexcept nogil:
    """The groups of a source, in the decomposition's order."""
    cdef int k, n = 0
    for k in range(c.d.n_groups):
        if in_source(&c.d.groups[k], source):
            out[n] = &c.d.groups[k]
            n += 1
    return n


cdef inline int group_attr(const Ctx* c, const Group* g, int attr) noexcept nogil:
    if attr == ATTR_SUIT:
        return c.t.tile_suit[g.tile]
    if attr == ATTR_RANK:
        return c.t.tile_rank[g.tile]
    return g.tile


cdef bint combo_same(const Ctx* c, const Group** combo, int k, int attr) noexcept nogil:
    cdef int i
    for i in range(1, k):
        if group_attr(c, combo[i], attr) != group_attr(c, combo[0], attr):
            return False
    return True


cdef bint combo_distinct(const Ctx* c, const Group** combo, int k, int attr) noexcept nogil:
    cdef int i, j
    for i in range(k):
        for j in range(i + 1, k):
            if group_attr(c, combo[i], attr) == group_attr(c, combo[j], attr):
                return False
    return True


cdef long long combo_step(const Ctx* c, const Group** combo, int k) noexcept nogil:
    """`step`: the one rank difference between the sets in rank order, -1 when there is not one."""
    cdef int ranks[4]
    cdef int i, j, rank, step
    for i in range(k):  # insertion sort of at most four ranks
        rank = c.t.tile_rank[combo[i].tile]
        j = i
        while j > 0 and ranks[j - 1] > rank:
            ranks[j] = ranks[j - 1]
            j -= 1
        ranks[j] = rank
    step = ranks[1] - ranks[0]
    for i in range(2, k):
        if ranks[i] - ranks[i - 1] != step:
            return -1
    return step


cdef unsigned long long combo_tiles(const Group** combo, int k) noexcept nogil:
    cdef unsigned long long tiles = 0
    cdef int i
    for i in range(k):
        tiles |= combo[i].tiles
    return tiles


cdef bint combo_numbered(const Ctx* c, const Group** combo, int k) noexcept nogil:
    return (combo_tiles(combo, k) & ~c.t.numbered) == 0


cdef int group_tile_list(const Tables* t, const Group* g, int* out) noexcept nogil:
    """A group's tiles in order, as dsl.interp.decompose.Group.tiles holds them."""
    cdef int n = 0, tile
    if g.kind == CHOW:
        for n in range(3):
            out[n] = g.tile + n
        return 3
    if g.kind == PUNG or g.kind == KONG or g.kind == PAIR or g.kind == SINGLE:
        for n in range(g.size):
            out[n] = g.tile
        return g.size
    for tile in range(t.n_tiles):
        if has_tile(g.tiles, tile):
            out[n] = tile
            n += 1
    return n


cdef bint tiles_before(const Tables* t, const Group* a, const Group* b) noexcept nogil:
    """a's tiles come strictly before b's, compared as tuples."""
    cdef int ta[MAX_TILES]
    cdef int tb[MAX_TILES]
    cdef int na = group_tile_list(t, a, ta), nb = group_tile_list(t, b, tb), i
    for i in range(min(na, nb)):
        if ta[i] != tb[i]:
            return ta[i] < tb[i]
    return na < nb


cdef int sorted_groups(const Ctx* c, int source, const Group** out) noexcept nogil:
    """The groups of a source in tile order (a stable sort, as evaluation._sorted_sets)."""
    cdef int n = select_groups(c, source, out), i, j
    cdef const Group* g
    for i in range(1, n):
        g = out[i]
        j = i
        while j > 0 and tiles_before(c.t, g, out[j - 1]):
            out[j] = out[j - 1]
            j -= 1
        out[j] = g
    return n


cdef int first_pair_fan(const int* pair_fans, int n_pair_fans, const int* candidates, int n) noexcept nogil:
    """The first two-set fan, in the spec's order, among the candidates."""
    cdef int p, k
    for p in range(n_pair_fans):
        for k in range(n):
            if candidates[k] == pair_fans[p]:
                return pair_fans[p]
    return -1


cdef void combine(Ctx* c, int source, FanOf fan_of, const int* pair_fans, int n_pair_fans) noexcept nogil:
    """dsl.interp.combinations.combination_counts over the sets of one source, in tile order (套算一次, 不得相同).

    Four sets that make a fan: that fan alone. Else the first three sets (in order) that make a fan:
    that fan, and at most one two-set fan of the first other set with one of the three. Else the
    two-set fans, at most one fewer than the sets they involve (four sets: three), dropping repeats of
    the fans declared last first, down to one of each kind before any kind is dropped entirely."""
    cdef const Group* sets[MAX_GROUPS]
    cdef const Group* combo[4]
    cdef int candidates[3]
    cdef int table[MAX_FANS]
    cdef int n = sorted_groups(c, source, sets)
    cdef int i, j, l, p, fan, rest, keep, limit, total = 0
    cdef unsigned long long related = 0
    if n < 2:  # no combination (the caller has set the fans to 0)
        return
    if n == 4:
        for i in range(4):
            combo[i] = sets[i]
        fan = fan_of(c, combo, 4)
        if fan >= 0:
            c.n[fan] = 1
            return
    for i in range(n):
        for j in range(i + 1, n):
            for l in range(j + 1, n):
                combo[0] = sets[i]
                combo[1] = sets[j]
                combo[2] = sets[l]
                fan = fan_of(c, combo, 3)
                if fan < 0:
                    continue
                c.n[fan] = 1
                rest = 0
                while rest == i or rest == j or rest == l:
                    rest += 1
                if rest < n:
                    combo[1] = sets[rest]
                    combo[0] = sets[i]
                    candidates[0] = fan_of(c, combo, 2)
                    combo[0] = sets[j]
                    candidates[1] = fan_of(c, combo, 2)
                    combo[0] = sets[l]
                    candidates[2] = fan_of(c, combo, 2)
                    fan = first_pair_fan(pair_fans, n_pair_fans, candidates, 3)
                    if fan >= 0:
                        c.n[fan] = 1
                return
    for p in range(n_pair_fans):
        table[p] = 0
    for i in range(n):
        for j in range(i + 1, n):
            combo[0] = sets[i]
            combo[1] = sets[j]
            fan = fan_of(c, combo, 2)
            for p in range(n_pair_fans):
                if pair_fans[p] == fan:
                    table[p] += 1
                    total += 1
                    related |= (1ULL << i) | (1ULL << j)
    limit = n - 1 if n == 4 else min(n - 1, 2)
    if n == 4:
        limit -= n - popcount(related)
    for keep in range(1, -1, -1):
        for p in range(n_pair_fans - 1, -1, -1):
            while table[p] > keep and total > limit:
                table[p] -= 1
                total -= 1
    for p in range(n_pair_fans):
        c.n[pair_fans[p]] = table[p]

# ================================================================ settlement


cdef void settle(Ctx* c) noexcept nogil:
    """Losers in seat order, the fans of each one's share, then the payments (Interpreter._settle)."""
    cdef const Tables* t = c.t
    cdef int seat, k = 0
    cdef Loser* loser
    for seat in range(t.n_players):
        if seat == c.h.seat or c.h.out[seat]:
            continue
        loser = &c.losers[k]
        loser.seat = seat
        loser.dealer = seat == c.h.dealer
        loser.discarder = seat == c.h.discarder
        loser.opened = c.h.opened[seat]
        if t.extended:
            loser_melds(c, k, seat)
        k += 1
    c.n_losers = k
    for k in range(c.n_losers):
        share(c, k)
    c.stamp += 1  # a settlement `let` may read the shares: known only now
    memset(c.payments, 0, sizeof(c.payments))


cdef void loser_melds(Ctx* c, int loser, int seat) noexcept nogil:
    """`loser_melds`: a loser's declared melds as groups (decompose.declared_group)."""
    cdef int k
    c.n_loser_melds[loser] = c.h.n_other[seat]
    for k in range(c.h.n_other[seat]):
        meld_group(c.t, &c.h.other[seat][k], &c.loser_melds[loser][k])


cdef void meld_group(const Tables* t, const Meld* meld, Group* g) noexcept nogil:
    """A declared meld as a group (decompose.declared_group)."""
    cdef int j
    g.kind = t.meld_group[meld.kind]
    g.tile = meld.tiles[0]
    g.size = meld.size
    g.declared = True
    g.concealed = t.meld_concealed[meld.kind]
    g.opens = t.meld_opens[meld.kind]
    g.with_win = False
    g.mask = 0
    g.aside = t.meld_aside[meld.kind]
    g.tiles = 0
    for j in range(meld.size):
        g.tiles |= 1ULL << meld.tiles[j]


cdef int other_melds(const Hand* h) noexcept nogil:
    """How many melds the other players declared (`other_melds`)."""
    cdef int seat, n = 0
    for seat in range(MAX_PLAYERS):
        n += h.n_other[seat]
    return n


cdef void other_meld(const Ctx* c, int k, Group* g) noexcept nogil:
    """The k-th meld the other players declared, seat by seat, as a group (Evaluator._source)."""
    cdef int seat = 0
    while k >= c.h.n_other[seat]:
        k -= c.h.n_other[seat]
        seat += 1
    meld_group(c.t, &c.h.other[seat][k], g)


cdef void share(Ctx* c, int loser) noexcept nogil:
    """The loser fans of one loser's share, after their own exclusions."""
    cdef const Tables* t = c.t
    cdef long long* n = c.share_n[loser]
    cdef long long* v = c.share_v[loser]
    memcpy(v + t.hand_fans, t.fan_amount + t.hand_fans, (t.n_fans - t.hand_fans) * sizeof(long long))
    t.loser_fans(c, loser, n, v)
    c.share_total[loser] = resolve(t, n, v, c.share_cnt[loser], t.hand_fans, t.n_fans, &c.inexact)


cdef void pay_liable(Ctx* c, int liable) noexcept nogil:
    """`liable:`: this loser pays what every loser owes, the others nothing."""
    cdef int j
    cdef long long owed = 0
    for j in range(c.n_losers):
        owed = minus(c, owed, c.payments[c.losers[j].seat])
        c.payments[c.losers[j].seat] = 0
    c.payments[c.losers[liable].seat] = -owed

# ================================================================ results and the public API


# The context keys of the flags in dsl.cases.case.refuse_impossible's rules, by RuleFlag
RULE_FLAGS = ("kong_replacement", "robbing_kong", "last_tile", "first_turn", "ippatsu", "riichi", "double_riichi")
# The rules of refuse_impossible that C decides, by the names of dsl.cases.case's functions (by Rule)
RULES_IN_C = ("possible_seats", "possible_discarder", "possible_flowers", "possible_kong_win", "possible_turns",
              "possible_riichi")
cdef object WORDS = None  # dsl.cases.case, whose words a refusal is worded with (imported by Checker.link)


cdef class Checker:
    """One spec's compiled checker: the interpreter's API (docs/interface.md) over the tables of its module."""

    def __init__(self, str spec_name, str spec_hash, str spec_ir, tuple text_values,
                 tuple tile_codes, dict keys, dict meld_kinds, dict options, tuple fan_names, tuple fan_english,
                 tuple reasons, tuple settle_reasons, str no_shape, tuple score_names, tuple score_kinds,
                 bint shares):
        self.spec_name = spec_name
        self.spec_hash = spec_hash
        self.spec_ir = spec_ir
        self.text_values = text_values
        self.texts = {value: number for number, value in enumerate(text_values)}
        self.tile_codes = tile_codes
        self.keys = keys
        self.meld_kinds = meld_kinds
        self.options = options
        self.fan_names = fan_names
        self.fan_english = fan_english
        self.reasons = reasons
        self.settle_reasons = settle_reasons
        self.no_shape = no_shape
        self.score_names = score_names
        self.score_kinds = score_kinds
        self.shares = shares
        self._reference = None

    # -- the reference interpreter, imported only when a case needs it

    def reference_checker(self):
        """The reference interpreter of this spec: it reads the cases the fast reader leaves, and answers the
        rare case whose arithmetic leaves 64-bit integers. It runs on the IR the module embeds, so neither the
        spec file nor the front end is needed."""
        if self._reference is None:
            from dsl.frontend.ir_json import loads
            from dsl.interp.interpreter import Interpreter
            spec = loads(self.spec_ir)
            if spec.source_hash != self.spec_hash:  # the module was edited by hand
                raise RuntimeError(f"the IR embedded in the compiled checker of {self.spec_name} is of another "
                                   "version of the spec; run `mjdsl build`")
            self._reference = Interpreter(spec)
        return self._reference

    # -- reading

    cdef int read(self, object case, Hand* h, bint with_win) except -1:
        """Fill h from a plainly valid case: READ when the case can happen, the refusal (a Refused, which
        Checker.refusal words) when a rule of dsl.cases.case.refuse_impossible refuses it, UNREAD to leave the
        case to read_case (errors, unusual input, a context the rules in C cannot judge). with_win=False reads
        the case as if it had no "win" (Interpreter.waits)."""
        cdef const Tables* t = &self.t
        cdef int key, kind, n, k, tile
        cdef int tiles[MAX_HAND]
        cdef int counts[MAX_TILES]
        cdef int reds[26]
        cdef bint seat_given = False, discarder_given = False, wind_given = False
        cdef object hand_text = None, win_text = None, melds = None, options = None, others = None
        cdef PyObject* name
        cdef PyObject* value
        cdef Py_ssize_t position = 0
        if type(case) is not dict:
            return UNREAD
        clear(t, h)
        memset(reds, 0, sizeof(reds))
        while PyDict_Next(case, &position, &name, &value):
            key = cached_number(&self.key_cache, self.keys, self.cached_names, <object>name)
            if key < 0:
                return UNREAD
            kind = t.key_kind[key]
            if value == <PyObject*>None and (kind == KEY_MELDS or kind == KEY_OPTIONS or kind == KEY_OTHER_MELDS):
                return UNREAD  # null is not a key left out: read_case refuses it
            if kind == KEY_HAND:
                hand_text = <object>value
            elif kind == KEY_WIN:
                if with_win:
                    win_text = <object>value
            elif kind == KEY_MELDS:
                melds = <object>value
            elif kind == KEY_OPTIONS:
                options = <object>value
            elif kind == KEY_OTHER_MELDS:
                others = <object>value
            elif not read_context(t, key, <object>value, h):
                return UNREAD
            else:
                seat_given = seat_given or t.key_slot[key] == t.ctx_seat and kind == KEY_SEAT
                discarder_given = discarder_given or t.key_slot[key] == t.ctx_discarder and kind == KEY_SEAT
                wind_given = wind_given or t.key_slot[key] == t.ctx_seat_wind and kind == KEY_WIND
        if type(hand_text) is not str:
            return UNREAD
        if t.n_hand_sets:
            choose_sets(t, h)
        n = parse(t, hand_text, False, tiles, t.hand_size - 1, reds)
        if n < 0:
            return UNREAD
        for k in range(n):
            h.counts[tiles[k]] += 1
        if win_text is not None:
            if type(win_text) is not str or parse(t, win_text, False, tiles, 1, reds) != 1:
                return UNREAD
            h.win = tiles[0]
        if melds is not None and not read_melds(t, self.meld_kinds, melds, h, reds):
            return UNREAD
        if options is not None and not self.read_options(options, h):
            return UNREAD
        for k in range(self.n_red_suits):
            if reds[self.red_suits[k]] > t.red_copies:
                return UNREAD
            h.red += reds[self.red_suits[k]]
        tiles_read(t, h, counts)
        if others is not None and not read_other_melds(t, self.meld_kinds, others, h, counts):
            return UNREAD
        if not within_copies(t, counts):
            return UNREAD
        if n != t.hand_size - 1 - 3 * h.n_sets:
            return UNREAD
        read_seats(t, seat_given, discarder_given, h)
        return self.refused_by(h, seat_given, wind_given, discarder_given,
                               <PyObject*>others if others is not None else NULL)

    cdef bint read_options(self, object options, Hand* h) except -1:
        """The case's options when they are plainly valid (tests/test_case_parity.py)."""
        cdef const Tables* t = &self.t
        cdef PyObject* name
        cdef PyObject* value
        cdef Py_ssize_t position = 0
        cdef int slot, kind, text
        if type(options) is not dict:
            return False
        while PyDict_Next(options, &position, &name, &value):
            slot = cached_number(&self.option_cache, self.options, self.cached_names, <object>name)
            if slot < 0:
                return False
            kind = t.option_kind[slot]
            if kind == OPTION_BOOL and (<object>value is True or <object>value is False):
                h.options[slot] = <object>value is True
            elif kind == OPTION_INT:
                if not read_number(<object>value, -LIMIT, LIMIT, &h.options[slot]):
                    return False
            elif kind == OPTION_TEXT and type(<object>value) is str:
                text = cached_number(&self.text_cache, self.texts, self.cached_names, <object>value)
                if text < 0:
                    return False
                h.options[slot] = text
            else:
                return False
        return True

    cdef int refused_by(self, const Hand* h, bint seat_given, bint wind_given, bint discarder_given,
                        PyObject* others) except -1 nogil:
        """READ when the rules of dsl.cases.case.refuse_impossible let a plainly valid case be, else the first
        refusal, taking the rules in their order (refuse_by): read_case validates everything else first, and the
        reader only gets here with a case it found valid, so the first rule that fails is read_case's answer.
        UNREAD when read_case must answer: more indicator tiles than a key holds (read_case refuses that as it
        reads the key, before any rule), or a rule this runtime does not decide. tests/test_impossible_cases.py
        has a case for each rule, and sees the answers differ when either back end drops one."""
        cdef int k, why = READ
        for k in range(MAX_INDICATOR_KEYS):
            if h.n_indicators[k] > self.indicator_limit[k]:
                return UNREAD
        for k in range(self.n_rules):
            if self.rule_order[k] == RULE_SEATS:
                why = possible_seats(self, h, seat_given, wind_given, others)
            elif self.rule_order[k] == RULE_DISCARDER:
                why = possible_discarder(self, h, discarder_given)
            elif self.rule_order[k] == RULE_FLOWERS:
                why = TOO_MANY_FLOWERS if self.slot_flowers >= 0 and h.context[self.slot_flowers] > self.flower_limit \
                    else READ
            elif self.rule_order[k] == RULE_KONG_WIN:
                why = possible_kong_win(self, h, others)
            elif self.rule_order[k] == RULE_TURNS:
                why = LAST_TILE_ON_THE_FIRST_TURN if self.flag(h, SLOT_LAST_TILE) and self.flag(h, SLOT_FIRST_TURN) \
                    else READ
            elif self.rule_order[k] == RULE_RIICHI:
                why = possible_riichi(self, h)
            else:
                return UNREAD
            if why != READ:
                return why
        return READ

    cdef str refusal(self, int why, const Hand* h, dict case):
        """The words read_case refuses a case with (dsl.cases.case: the words of each refusal); `why` is the
        Refused that Checker.read returned for the case, h what it read."""
        cdef int players = self.t.n_players, k, held
        if why == WIND_NOT_AT_TABLE:
            return WORDS.wind_not_at_table(WINDS[h.seat_wind], players)
        if why == SEATS_DISAGREE:
            return WORDS.seats_disagree(h.seat, h.dealer, "dealer" in case, WINDS[h.seat_wind], players)
        if why == OWN_SEAT_IN_OTHER_MELDS:
            return WORDS.own_seat_in_other_melds(h.seat)
        if why == DISCARDER_ON_SELF_DRAW:
            return WORDS.discarder_on_self_draw(h.context[self.t.ctx_discarder])
        if why == DISCARDER_IS_WINNER:
            return WORDS.discarder_is_winner(h.seat)
        if why == TOO_MANY_FLOWERS:
            return WORDS.too_many_flowers(h.context[self.slot_flowers], self.flower_limit)
        if why == ROBBED_TILE_HELD:
            held = h.counts[h.win]
            for k in range(h.n_melds):
                held += count_of(&h.melds[k], h.win)
            return WORDS.robbed_tile_held(held, self.tile_codes[h.win])
        if why == ROBBED_TILE_SHOWN:
            return WORDS.robbed_tile_shown(seat_showing(self, h, case["other_melds"], h.win), self.tile_codes[h.win],
                                           h.discarder)
        if why == RIICHI_ON_AN_OPEN_HAND or why == RIICHI_ON_THE_FIRST_TURN:
            declared = [key for key in WORDS.RIICHI_KEYS if self.flag(h, RULE_FLAGS.index(key))]
            if why == RIICHI_ON_THE_FIRST_TURN:
                return WORDS.riichi_on_the_first_turn(declared)
            k = 0
            while not self.t.meld_opens[h.melds[k].kind]:
                k += 1
            return WORDS.riichi_on_an_open_hand(declared, self.meld_kind_name(h.melds[k].kind), self.codes(&h.melds[k]))
        return {KONG_REPLACEMENT_ON_A_DISCARD: WORDS.KONG_REPLACEMENT_ON_A_DISCARD,
                KONG_REPLACEMENT_WITHOUT_A_KONG: WORDS.KONG_REPLACEMENT_WITHOUT_A_KONG,
                ROBBING_KONG_SELF_DRAWN: WORDS.ROBBING_KONG_SELF_DRAWN,
                LAST_TILE_ON_THE_FIRST_TURN: WORDS.LAST_TILE_ON_THE_FIRST_TURN,
                IPPATSU_WITHOUT_RIICHI: WORDS.IPPATSU_WITHOUT_RIICHI}[why]

    cdef str meld_kind_name(self, int kind):
        for name, number in self.meld_kinds.items():
            if number == kind:
                return name

    cdef str codes(self, const Meld* meld):
        """A meld's tiles as read_case's Meld writes them: their codes in order."""
        cdef int k
        return "".join([self.tile_codes[meld.tiles[k]] for k in range(meld.size)])

    def refuse_by(self, rules):
        """Decide these rules of dsl.cases.case.refuse_impossible, in this order, in C: link gives it
        IMPOSSIBLE_RULES. A rule the runtime does not decide (not in RULES_IN_C) leaves every case that gets to
        it to read_case, so the answers stay read_case's whatever the rules are."""
        cdef int k
        rules = tuple(rules)
        self.n_rules = min(len(rules), MAX_RULES)
        for k in range(self.n_rules):
            name = getattr(rules[k], "__name__", None)
            self.rule_order[k] = RULES_IN_C.index(name) if name in RULES_IN_C else RULE_UNKNOWN
        if len(rules) > MAX_RULES:  # the rules past the room: none decided, so read_case answers
            self.rule_order[MAX_RULES - 1] = RULE_UNKNOWN

    cdef bint flag(self, const Hand* h, int which) noexcept nogil:
        """A flag of refuse_impossible's rules set in the case (false when the spec has no such key)."""
        return self.rule_slots[which] >= 0 and h.context[self.rule_slots[which]] != 0

    cdef bint has_kong(self, const Hand* h) noexcept nogil:
        cdef int k
        for k in range(h.n_melds):
            if self.t.meld_shape[h.melds[k].kind] == SHAPE_KONG or self.t.meld_aside[h.melds[k].kind]:
                return True
        return False

    cdef bint opened(self, const Hand* h) noexcept nogil:
        cdef int k
        for k in range(h.n_melds):
            if self.t.meld_opens[h.melds[k].kind]:
                return True
        return False

    cdef bint shows(self, const Hand* h, int tile) noexcept nogil:
        """The winner holds or shows a copy of the tile besides the winning tile."""
        cdef int k, j
        if tile < 0:
            return False
        if h.counts[tile]:
            return True
        for k in range(h.n_melds):
            for j in range(h.melds[k].size):
                if h.melds[k].tiles[j] == tile:
                    return True
        return False

    def find_columns(self):
        """The context keys encoded cases give as columns (flags, counts, seats, winds, whole numbers), and the
        tile keys they give as indicator rows, in the spec's order of keys."""
        scalar = (KEY_FLAG, KEY_COUNT, KEY_SEAT, KEY_WIND, KEY_INT)
        by_key = sorted(self.keys.items(), key=lambda item: item[1])
        columns = [(name, key) for name, key in by_key if self.t.key_kind[key] in scalar][:MAX_COLUMNS]
        tiles = [(name, key) for name, key in by_key if self.t.key_kind[key] == KEY_TILES][:MAX_INDICATOR_KEYS]
        self.context_columns = tuple(name for name, _ in columns)
        self.indicator_keys = tuple(name for name, _ in tiles)
        for k, (_, key) in enumerate(columns):
            self.column_key[k] = key
        for k, (_, key) in enumerate(tiles):
            self.indicator_key[k] = key

    cdef int context_slot(self, str name):
        """The context slot of a key of the spec, -1 when the spec has no such key."""
        key = self.keys.get(name)
        return -1 if key is None else self.t.key_slot[key]

    def link(self, str unit_word="fan"):
        """Called by the checker module once it has filled the tables."""
        cdef int k
        global WORDS
        from dsl.cases import case
        from dsl.vocabulary import FLOWERS_OF_A_FULL_SET, INDICATOR_LIMITS

        self.unit_word = unit_word
        find_runs(&self.t)
        self.scratch = new_scratch()
        if self.scratch == NULL:
            raise MemoryError("no memory for a checker's room to score in")
        WORDS = case
        self.refuse_by(case.IMPOSSIBLE_RULES)
        self.find_columns()
        for k, name in enumerate(RULE_FLAGS):
            self.rule_slots[k] = self.context_slot(name)
        self.slot_flowers = self.context_slot("flowers")
        self.flower_limit = sum(self.t.tile_copies[k] for k in range(self.t.n_tiles) if self.t.flowers >> k & 1) \
            or FLOWERS_OF_A_FULL_SET
        for k in range(MAX_INDICATOR_KEYS):
            self.indicator_limit[k] = MAX_INDICATORS
        for name, key in self.keys.items():
            if self.t.key_indicator[key] >= 0:
                self.indicator_limit[self.t.key_indicator[key]] = INDICATOR_LIMITS.get(name, MAX_INDICATORS)
        self.cached_names = []
        self.n_red_suits = 0
        for letter in range(26):
            if self.t.red_five[letter] >= 0:
                self.red_suits[self.n_red_suits] = letter
                self.n_red_suits += 1
        self.fan_results = [{"name": self.fan_names[fan], "en": self.fan_english[fan],
                             "value": self.t.fan_amount[fan], "count": count}
                            for fan in range(self.t.n_fans) for count in range(RESULT_COUNTS)]
        self.win_result = {"ok": True, "winning": True, "fans": None, "total": 0}
        if self.t.has_cap:
            self.win_result["paid"] = 0
        for name in self.score_names:  # the scores follow in the spec's order
            self.win_result[name] = None
        if self.t.has_settlement:  # then what the settlement adds
            self.win_result["payments"] = None
            if self.t.pot != NULL:
                self.win_result["pot"] = None
            if self.shares:
                self.win_result["shares"] = None

    cdef bint from_hand(self, object hand, Hand* h) except -1:
        """A dsl.cases.case.Hand (read by read_case) into h; False when a value does not fit the compiled checker."""
        cdef const Tables* t = &self.t
        cdef Meld* meld
        cdef int key, slot
        clear(t, h)
        for tile in hand.concealed:
            h.counts[tile] += 1
        h.win = -1 if hand.win is None else hand.win
        if len(hand.melds) > MAX_MELDS or hand.win_aside is not None:  # a winning flower: the interpreter reads it
            return False
        for declared in hand.melds:
            meld = &h.melds[h.n_melds]
            meld.kind = self.meld_kinds[declared.kind.name]
            meld.size = len(declared.tiles)
            for k, tile in enumerate(declared.tiles):
                meld.tiles[k] = tile
            h.n_sets += not t.meld_aside[meld.kind]
            h.n_melds += 1
        for name, value in hand.context.items():
            key = self.keys[name]
            slot = t.key_slot[key]
            if t.key_kind[key] == KEY_FLAG:
                h.context[slot] = bool(value)
            elif t.key_kind[key] in (KEY_COUNT, KEY_SEAT, KEY_INT):
                if not -LIMIT <= value <= LIMIT:
                    return False
                h.context[slot] = value
            elif t.key_kind[key] == KEY_WIND:
                if slot == t.ctx_seat_wind:
                    h.seat_wind = wind_number(value)
                else:
                    h.round_wind = wind_number(value)
            elif t.key_kind[key] == KEY_TILES and not read_indicators(t, value, key, h):
                return False
            elif t.key_kind[key] == KEY_SEATS:
                for seat in value:
                    h.out[seat] = True
        for name, value in hand.options.items():
            slot = self.options[name]
            if t.option_kind[slot] == OPTION_TEXT:
                if value not in self.texts:
                    return False
                h.options[slot] = self.texts[value]
            elif -LIMIT <= value <= LIMIT:
                h.options[slot] = value
            else:
                return False
        for seat, melds in hand.other_melds.items():
            h.opened[seat] = any(m.kind.opens for m in melds)
            if len(melds) > MAX_MELDS:
                return False
            for declared in melds:
                meld = &h.other[seat][h.n_other[seat]]
                meld.kind = self.meld_kinds[declared.kind.name]
                meld.size = len(declared.tiles)
                for k, tile in enumerate(declared.tiles):
                    meld.tiles[k] = tile
                h.n_other[seat] += 1
        choose_sets(t, h)
        h.self_drawn = hand.self_drawn
        h.red = hand.red
        h.seat = hand.seat
        h.dealer = hand.dealer
        h.discarder = -1 if hand.discarder is None else hand.discarder
        return True

    cdef bint read_any(self, object case, Hand* h, bint with_win) except -1:
        """Fill h from any valid case: the fast reader, else dsl.cases.case.read_case (which raises HandError on an
        invalid case). False when the case does not fit the compiled checker: the interpreter answers it."""
        cdef int read = self.read(case, h, with_win)
        if read == READ:
            return True
        if read != UNREAD:
            raise HandError(self.refusal(read, h, case))
        checker = self.reference_checker()
        from dsl.cases.case import read_case, without_win
        return self.from_hand(read_case(checker.spec, case if with_win else without_win(case)), h)

    # -- scoring

    cdef bint score(self, Ctx* c, const Hand* h) noexcept nogil:
        """Search and score a hand with its winning tile; False when the interpreter must answer it."""
        prepare(c, &self.t, h, h.win, SEARCH_BEST)
        search(c)
        if c.inexact:
            return False
        if c.have_best:
            restore_best(c)
        return True

    cdef long long minimum(self, const Hand* h) noexcept nogil:
        return h.options[self.t.minimum_option] if self.t.minimum_option >= 0 else self.t.minimum

    cdef list fans_of(self, const long long* v, const long long* cnt, int first, int last):
        """The counted fans first..last-1 as result objects, in declaration order."""
        cdef int counted[MAX_FANS]
        cdef int k, i, n = counted_in_order(&self.t, cnt, first, last, counted)
        cdef list fans = PyList_New(n)
        cdef object fan
        for k in range(n):
            i = counted[k]
            fan = self.fan_result(i, v[i], cnt[i])
            Py_INCREF(fan)
            PyList_SET_ITEM(fans, k, fan)
        return fans

    cdef dict fan_result(self, int fan, long long value, long long count):
        """A fan's result dict: a copy of the one made at link time when the value is the fixed one (the usual
        case), else a new one."""
        if value == self.t.fan_amount[fan] and count < RESULT_COUNTS:
            return PyDict_Copy(<object>PyList_GET_ITEM(self.fan_results, fan * RESULT_COUNTS + count))
        return {"name": self.fan_names[fan], "en": self.fan_english[fan], "value": value, "count": count}

    cdef object score_hand(self, Scratch* s):
        """The result of the valid case read into s.hand, or None when the reference interpreter must compute it."""
        cdef const Hand* h = &s.hand
        cdef Ctx* c = &s.ctx
        cdef long long counted, minimum
        cdef int unmet
        if h.win < 0:
            waits = self.wait_codes(s)
            if waits is None:
                return None
            return {"ok": True, "winning": False, "reason": "no winning tile given", "waits": waits}
        if not self.score(c, h):
            return None
        if not c.have_best:
            reason = self.no_shape if c.n_decompositions == 0 else self.reasons[c.first_unmet]
            return {"ok": True, "winning": False, "reason": reason}
        fans = self.fans_of(c.v, c.cnt, 0, self.t.hand_fans)
        counted = counted_towards_minimum(c)
        if c.inexact:
            return None
        minimum = self.minimum(h)
        if counted < minimum:
            return {"ok": True, "winning": False, "fans": fans, "total": c.total,
                    "reason": f"{counted} {self.unit_word} is below the minimum of {minimum}"}
        result = PyDict_Copy(self.win_result)
        result["fans"] = fans
        result["total"] = c.total
        if self.t.has_cap:
            result["paid"] = paid_amount(c)
        for k in range(self.t.n_scores):
            result[self.score_names[k]] = self.score_value(k, c.best_scores[k])
        if not self.t.has_settlement:
            return result
        settle(c)
        if self.t.unmet_settle_requirement != NULL:
            unmet = self.t.unmet_settle_requirement(c)
            if c.inexact:
                return None
            if unmet >= 0:
                return {"ok": True, "winning": False, "fans": fans, "total": c.total,
                        "reason": self.settle_reasons[unmet]}
        paid = self.t.pay(c)
        if c.inexact:
            return None
        if not paid:  # no rule for this win: no payments
            del result["payments"]
            if self.t.pot != NULL:
                del result["pot"]
            if self.shares:
                del result["shares"]
            return result
        result["payments"] = number_list(c.payments, self.t.n_players)
        if self.t.pot != NULL:
            result["pot"] = self.t.pot(c)
            if c.inexact:
                return None
        if self.shares:
            result["shares"] = [{"seat": c.losers[k].seat,
                                 "fans": self.fans_of(c.share_v[k], c.share_cnt[k], self.t.hand_fans, self.t.n_fans),
                                 "total": c.share_total[k]} for k in range(c.n_losers)]
        return result

    cdef object score_value(self, int k, long long value):
        cdef int kind = self.score_kinds[k]
        if kind == SCORE_BOOL:
            return value != 0
        if kind == SCORE_TEXT:
            return self.text_values[value]
        return value

    cdef object wait_codes(self, Scratch* s):
        cdef int tiles[MAX_TILES]
        cdef bint inexact = False
        cdef int n = find_waits(&self.t, &s.hand, False, tiles, &inexact, &s.trial)
        if inexact:
            return None
        return [self.tile_codes[tiles[k]] for k in range(n)]

    cdef object evaluate_one(self, object case):
        cdef Scratch* s = self.take_scratch()
        try:
            return self.evaluate_in(case, s)
        finally:
            self.give_back(s)

    cdef object evaluate_in(self, object case, Scratch* s):
        """evaluate, in the room s."""
        cdef int read = self.read(case, &s.hand, True)
        if read > READ:
            return {"ok": False, "error": self.refusal(read, &s.hand, case)}
        if read == UNREAD:
            try:
                if not self.read_any(case, &s.hand, True):
                    return self.reference_checker().evaluate(case)
            except HandError as exc:
                return {"ok": False, "error": str(exc)}
        result = self.score_hand(s)
        return self.reference_checker().evaluate(case) if result is None else result

    cdef Scratch* take_scratch(self) except NULL:
        """The checker's room for a call, or room of its own for a call that finds it in use."""
        cdef Scratch* s
        if self.scratch != NULL and not self.scratch_busy:
            self.scratch_busy = True
            return self.scratch
        s = new_scratch()
        if s == NULL:
            raise MemoryError("no memory to score a hand in")
        return s

    cdef void give_back(self, Scratch* s) noexcept:
        if s == self.scratch:
            self.scratch_busy = False
        else:
            free(s)

    def __dealloc__(self):
        free(self.scratch)

    # -- the interpreter's API

    def evaluate(self, case):
        """Score one case (docs/interface.md)."""
        return self.evaluate_one(case)

    def evaluate_many(self, cases):
        """Score many cases in one call: a list of results, in order, one per case the iterable held when the
        call began."""
        cdef list batch = list(cases)  # ours alone: no other thread or case can change its length meanwhile
        collecting = gc.isenabled()
        gc.disable()  # the results hold no reference cycles: no collection need look through them
        try:
            return [self.evaluate_one(case) for case in batch]
        finally:
            if collecting:
                gc.enable()

    def is_winning(self, case):
        return bool(self.evaluate_one(case).get("winning"))

    def explain(self, case, why_not=()):
        """Why the case scores what it scores (dsl.interp.explain): the reference interpreter scores it again
        and keeps the record of each step."""
        from dsl.interp.explain import explain
        return explain(self.reference_checker(), case, why_not)

    def waits(self, case):
        """Tiles that would complete the hand (the case without its winning tile); invalid cases raise
        HandError."""
        cdef Scratch* s = self.take_scratch()
        try:
            codes = self.wait_codes(s) if self.read_any(case, &s.hand, False) else None
        finally:
            self.give_back(s)
        return self.reference_checker().waits(case) if codes is None else codes

    def score_many(self, cases):
        """Score many cases into compact arrays, no result object per hand (for bulk users).

        Returns a dsl.cases.scores.Scores: per case `status` (1 winning, 0 not winning, -1 an error entry,
        its message in `errors[i]`) and `total`; the counted hand fans of case i are
        fans[offsets[i]:offsets[i + 1]] (indices into fan_names) with their `counts` and `values`. Each case
        is scored exactly as evaluate scores it; one case per case the iterable held when the call began.

        `cases` may also be encoded cases: a dict of arrays (docs/interface.md, "Encoded cases"), scored
        without the GIL, so that threads score batches on every core."""
        if type(cases) is dict:
            return self.score_encoded(cases)
        cdef list batch = list(cases)  # ours alone: the arrays are sized by it, and nothing else can resize it
        cdef Py_ssize_t n = len(batch), i, used = 0
        cdef Scratch* s = self.take_scratch()
        cdef carray.array status = array("b", bytes(n))
        cdef carray.array totals = array("q", bytes(8 * n))
        cdef carray.array offsets = array("q", bytes(8 * (n + 1)))
        cdef carray.array fans = array("h")
        cdef carray.array counts = array("q")
        cdef carray.array values = array("q")
        cdef dict errors = {}
        cdef const Tables* t = &self.t
        try:
            used = self.score_into(batch, s, status, totals, offsets, fans, counts, values, errors)
        finally:
            self.give_back(s)
        carray.resize(fans, used)
        carray.resize(counts, used)
        carray.resize(values, used)
        return Scores(self.fan_names, status, totals, offsets, fans, counts, values, errors)

    cdef Py_ssize_t score_into(self, list batch, Scratch* s, carray.array status, carray.array totals,
                               carray.array offsets, carray.array fans, carray.array counts, carray.array values,
                               dict errors) except -1:
        """score_many's loop: each case's outcome into the arrays; how many fan entries they hold."""
        cdef Py_ssize_t n = len(batch), i, used = 0
        cdef const Tables* t = &self.t
        cdef Ctx* c = &s.ctx
        cdef int k, won
        cdef int counted[MAX_FANS]
        for i in range(n):
            case = batch[i]
            offsets.data.as_longlongs[i] = used
            won = self.outcome(c, &s.hand) if self.read(case, &s.hand, True) == READ and s.hand.win >= 0 else -2
            if won >= 0:
                status.data.as_schars[i] = won
                totals.data.as_longlongs[i] = c.total if c.have_best else 0
                if c.have_best:
                    carray.resize_smart(fans, used + t.hand_fans + 1)  # room for one write past the last fan
                    carray.resize_smart(counts, used + t.hand_fans + 1)
                    carray.resize_smart(values, used + t.hand_fans + 1)
                    for k in range(counted_in_order(t, c.cnt, 0, t.hand_fans, counted)):
                        fans.data.as_shorts[used] = counted[k]
                        counts.data.as_longlongs[used] = c.cnt[counted[k]]
                        values.data.as_longlongs[used] = c.v[counted[k]]
                        used += 1
            else:  # unusual input or arithmetic: the full path, then its result in compact form
                used = keep_compact(compact(self.evaluate_in(case, s), self.fan_names), i, status, totals, fans,
                                    counts, values, errors, used)
        offsets.data.as_longlongs[n] = used
        return used

    # -- encoded cases: arrays in, arrays out, no Python object per case

    @property
    def encoded_columns(self):
        """The context keys of the `context` array of encoded cases, in column order."""
        return self.context_columns

    @property
    def indicator_columns(self):
        """The tile keys of the `indicators` array of encoded cases (dora, ura, indicator), in order."""
        return self.indicator_keys

    @property
    def meld_kind_names(self):
        """The meld kinds of the `melds` array of encoded cases, by number."""
        return tuple(sorted(self.meld_kinds, key=self.meld_kinds.get))

    def score_encoded(self, dict arrays):
        """score_many over encoded cases (docs/interface.md): each plainly valid case is read and scored in C
        without the GIL; any other is decoded to a case dict and scored as evaluate scores it."""
        cdef Encoded e
        cdef Py_ssize_t i, used = 0
        cdef Outcomes out
        views = self.encoded_views(arrays, &e)
        out.status = <signed char*>malloc(max(e.n, 1))
        out.totals = <long long*>malloc(max(e.n, 1) * sizeof(long long))
        out.ends = <Py_ssize_t*>malloc(max(e.n, 1) * sizeof(Py_ssize_t))
        out.entries = NULL
        out.room = 0
        cdef Scratch* s = new_scratch()  # this call's own: other threads may score meanwhile
        try:
            if s == NULL or out.status == NULL or out.totals == NULL or out.ends == NULL:
                raise MemoryError("no memory to score encoded cases in")
            with nogil:
                self.score_rows(&e, s, &out)
            if out.room < 0:
                raise MemoryError("no memory for the fans of encoded cases")
            return self.encoded_scores(arrays, &e, &out)
        finally:
            free(s)
            free(out.status)
            free(out.totals)
            free(out.ends)
            free(out.entries)
            del views

    cdef tuple encoded_views(self, dict arrays, Encoded* e):
        """Point e at the arrays, each checked for its shape (as the interpreter checks them) and type; the views
        that keep them readable."""
        from dsl.cases.encoded import check_shapes
        check_shapes(self.t.n_tiles, len(self.context_columns), len(self.indicator_keys), arrays)
        cdef const unsigned char[:, ::1] counts = arrays["counts"]
        cdef const short[::1] wins = arrays["win"]
        cdef const short[:, :, ::1] melds
        cdef const long long[:, ::1] context
        cdef const short[:, :, ::1] indicators
        e.n = counts.shape[0]
        e.counts = &counts[0, 0] if e.n else NULL
        e.wins = &wins[0] if e.n else NULL
        e.melds, e.context, e.indicators = NULL, NULL, NULL
        e.meld_columns = e.context_columns = e.indicator_columns = e.indicator_length = 0
        views = [counts, wins]
        if arrays.get("melds") is not None:
            melds = arrays["melds"]
            if melds.shape[1] > MAX_MELDS:
                raise ValueError(f"encoded cases: 'melds' has at most {MAX_MELDS} melds a case")
            e.meld_columns = melds.shape[1]
            e.melds = &melds[0, 0, 0] if e.n and e.meld_columns else NULL
            views.append(melds)
        if arrays.get("context") is not None:
            context = arrays["context"]
            e.context_columns = context.shape[1]
            e.context = &context[0, 0] if e.n and e.context_columns else NULL
            views.append(context)
        if arrays.get("indicators") is not None:
            indicators = arrays["indicators"]
            if indicators.shape[2] > MAX_INDICATORS:
                raise ValueError(f"encoded cases: 'indicators' has at most {MAX_INDICATORS} tiles a key")
            e.indicator_columns = indicators.shape[1]
            e.indicator_length = indicators.shape[2]
            e.indicators = &indicators[0, 0, 0] if e.n and e.indicator_columns and e.indicator_length else NULL
            views.append(indicators)
        return tuple(views)

    cdef void score_rows(self, const Encoded* e, Scratch* s, Outcomes* out) noexcept nogil:
        """Each case that reads plainly, scored as score_many scores it; the others marked ENCODED_LEFT."""
        cdef const Tables* t = &self.t
        cdef Ctx* c = &s.ctx
        cdef Py_ssize_t i
        cdef int k, won
        cdef int counted[MAX_FANS]
        cdef FanEntry* grown
        out.used = 0
        for i in range(e.n):
            won = self.outcome(c, &s.hand) if self.read_row(&s.hand, e, i) else -2
            out.status[i] = won if won >= 0 else ENCODED_LEFT
            out.totals[i] = c.total if won >= 0 and c.have_best else 0
            if won >= 0 and c.have_best:
                if out.used + t.hand_fans > out.room:
                    grown = <FanEntry*>realloc(out.entries, (2 * out.room + t.hand_fans) * sizeof(FanEntry))
                    if grown == NULL:
                        out.room = -1
                        return
                    out.entries = grown
                    out.room = 2 * out.room + t.hand_fans
                for k in range(counted_in_order(t, c.cnt, 0, t.hand_fans, counted)):
                    out.entries[out.used].fan = counted[k]
                    out.entries[out.used].count = c.cnt[counted[k]]
                    out.entries[out.used].value = c.v[counted[k]]
                    out.used += 1
            out.ends[i] = out.used

    cdef bint read_row(self, Hand* h, const Encoded* e, Py_ssize_t i) noexcept nogil:
        """Fill h from encoded case i when it is plainly valid, as Checker.read fills it from the same case
        written as a dict; False leaves it to the full path."""
        cdef const Tables* t = &self.t
        cdef const unsigned char* counts = e.counts + i * t.n_tiles
        cdef int tile, n = 0, held[MAX_TILES]
        cdef bint seat_given = False, discarder_given = False, wind_given = False
        clear(t, h)
        if not self.read_row_context(h, e, i, &seat_given, &discarder_given, &wind_given):
            return False
        if t.n_hand_sets:
            choose_sets(t, h)
        for tile in range(t.n_tiles):
            if counts[tile] and has_tile(t.flowers, tile):  # a flower is laid aside, never held
                return False
            h.counts[tile] = counts[tile]
            n += counts[tile]
        h.win = e.wins[i]
        if h.win < 0 or h.win >= t.n_tiles or has_tile(t.flowers, h.win):
            return False
        if e.melds != NULL and not self.read_row_melds(h, e, i):
            return False
        tiles_read(t, h, held)
        if not within_copies(t, held):
            return False
        if n != t.hand_size - 1 - 3 * h.n_sets:
            return False
        read_seats(t, seat_given, discarder_given, h)
        return self.refused_by(h, seat_given, wind_given, discarder_given, NULL) == READ

    cdef bint read_row_context(self, Hand* h, const Encoded* e, Py_ssize_t i, bint* seat_given,
                               bint* discarder_given, bint* wind_given) noexcept nogil:
        """The context columns of case i (a seat or wind below 0: left out) and its indicator tiles."""
        cdef const Tables* t = &self.t
        cdef const long long* row = e.context + i * e.context_columns
        cdef const short* tiles
        cdef int column, key, slot, kind, j, k
        cdef long long value
        for column in range(e.context_columns if e.context != NULL else 0):
            key = self.column_key[column]
            kind = t.key_kind[key]
            slot = t.key_slot[key]
            value = row[column]
            if (kind == KEY_SEAT or kind == KEY_WIND) and value < 0:
                continue
            if kind == KEY_FLAG and (value == 0 or value == 1) or kind == KEY_COUNT and 0 <= value <= LIMIT \
                    or kind == KEY_SEAT and value < t.n_players \
                    or kind == KEY_INT and t.context_low[slot] <= value <= t.context_high[slot]:
                h.context[slot] = value
            elif kind == KEY_WIND and value < 4:
                if slot == t.ctx_seat_wind:
                    h.seat_wind = <int>value
                    wind_given[0] = True
                else:
                    h.round_wind = <int>value
            else:
                return False
            seat_given[0] = seat_given[0] or kind == KEY_SEAT and slot == t.ctx_seat
            discarder_given[0] = discarder_given[0] or kind == KEY_SEAT and slot == t.ctx_discarder
        for j in range(e.indicator_columns if e.indicators != NULL else 0):
            tiles = e.indicators + (i * e.indicator_columns + j) * e.indicator_length
            slot = t.key_indicator[self.indicator_key[j]]
            for k in range(e.indicator_length):
                if tiles[k] < 0:
                    break
                if tiles[k] >= t.n_tiles:
                    return False
                if slot >= 0:
                    h.indicators[slot][k] = tiles[k]
                    h.n_indicators[slot] = k + 1
        return True

    cdef bint read_row_melds(self, Hand* h, const Encoded* e, Py_ssize_t i) noexcept nogil:
        """The declared melds of case i: (kind, tile), the tile a chow starts on, a pung's or kong's tile, the
        tile of a one-tile kind (a kind of fixed tiles ignores it)."""
        cdef const Tables* t = &self.t
        cdef const short* row = e.melds + i * e.meld_columns * 2
        cdef int column, kind, tile, shape, k, n
        cdef unsigned long long fixed
        cdef Meld* meld
        for column in range(e.meld_columns):
            kind = row[2 * column]
            tile = row[2 * column + 1]
            if kind < 0:
                continue
            if kind >= t.n_meld_kinds or not 0 <= tile < t.n_tiles:
                return False
            meld = &h.melds[h.n_melds]
            shape = t.meld_shape[kind]
            n = 3 if shape == SHAPE_CHOW or shape == SHAPE_PUNG else 4 if shape == SHAPE_KONG else 1
            if shape == SHAPE_CHOW and tile + 2 >= t.n_tiles:
                return False
            for k in range(n):
                meld.tiles[k] = tile + k if shape == SHAPE_CHOW else tile
            if shape == SHAPE_FIXED:
                fixed = t.meld_fixed[kind]
                n = 0
                while fixed and n < MELD_TILES:
                    meld.tiles[n] = lowest_tile(fixed)
                    fixed &= fixed - 1
                    n += 1
            if not meld_shape_ok(t, kind, meld.tiles, n, h):
                return False
            meld.kind = kind
            meld.size = n
            h.n_sets += not t.meld_aside[kind]
            h.n_melds += 1
        return True

    cdef object encoded_scores(self, dict arrays, const Encoded* e, Outcomes* out):
        """score_many's arrays from what score_rows found, the cases it left scored as evaluate scores them."""
        cdef Py_ssize_t n = e.n, i, k, start = 0, used = 0
        cdef carray.array status = array("b", bytes(n))
        cdef carray.array totals = array("q", bytes(8 * n))
        cdef carray.array offsets = array("q", bytes(8 * (n + 1)))
        cdef carray.array fans = array("h", bytes(2 * out.used))
        cdef carray.array counts = array("q", bytes(8 * out.used))
        cdef carray.array values = array("q", bytes(8 * out.used))
        cdef dict errors = {}
        for i in range(n):
            offsets.data.as_longlongs[i] = used
            if out.status[i] == ENCODED_LEFT:  # decoded to the case it stands for, and scored as evaluate scores it
                from dsl.cases.encoded import decode
                case = decode(self.reference_checker().spec, arrays, i)
                used = keep_compact(compact(self.evaluate_one(case), self.fan_names), i, status, totals, fans, counts,
                                    values, errors, used)
            else:
                status.data.as_schars[i] = out.status[i]
                totals.data.as_longlongs[i] = out.totals[i]
                carray.resize_smart(fans, used + out.ends[i] - start)
                carray.resize_smart(counts, used + out.ends[i] - start)
                carray.resize_smart(values, used + out.ends[i] - start)
                for k in range(start, out.ends[i]):
                    fans.data.as_shorts[used] = out.entries[k].fan
                    counts.data.as_longlongs[used] = out.entries[k].count
                    values.data.as_longlongs[used] = out.entries[k].value
                    used += 1
            start = out.ends[i]
        offsets.data.as_longlongs[n] = used
        carray.resize(fans, used)
        carray.resize(counts, used)
        carray.resize(values, used)
        return Scores(self.fan_names, status, totals, offsets, fans, counts, values, errors)

    def stage_times(self, cases, int repeats=3):
        """Where the time of evaluate goes, in nanoseconds per case (the best of `repeats` runs): reading the
        case, searching and scoring its decompositions, building the result (settlement included), and the
        whole of evaluate (its result freed at once). Only cases the fast reader takes (with a winning tile)
        are timed. For bench/bench.py."""
        readable = [case for case in cases if self.readable(case)]
        if not readable:
            return {}
        best = [float("inf")] * 4
        for _ in range(repeats):
            spans = self.time_parts(readable)
            started = perf_counter_ns()
            for case in readable:
                self.evaluate_one(case)
            spans.append(perf_counter_ns() - started)
            best = [min(b, span) for b, span in zip(best, spans)]
        n = len(readable)
        return {"read": best[0] / n, "search": (best[1] - best[0]) / n, "result": (best[2] - best[1]) / n,
                "evaluate": best[3] / n}

    def readable(self, case):
        """The fast reader takes the case and it has a winning tile."""
        cdef Scratch* s = self.take_scratch()
        try:
            return self.read(case, &s.hand, True) == READ and s.hand.win >= 0
        finally:
            self.give_back(s)

    cdef list time_parts(self, list readable):
        """Nanoseconds to read every case; to read and score them; to read, score and build their results."""
        cdef Scratch* s = self.take_scratch()
        try:
            started = perf_counter_ns()
            for case in readable:
                self.read(case, &s.hand, True)
            read = perf_counter_ns()
            for case in readable:
                self.read(case, &s.hand, True)
                self.score(&s.ctx, &s.hand)
            searched = perf_counter_ns()
            for case in readable:
                self.read(case, &s.hand, True)
                self.score_hand(s)
            return [read - started, searched - read, perf_counter_ns() - searched]
        finally:
            self.give_back(s)

    cdef int outcome(self, Ctx* c, const Hand* h) noexcept nogil:
        """Whether a hand with its winning tile wins (1) or not (0), deciding as score_hand does without
        building its result; -2 when the interpreter must answer it."""
        cdef long long counted
        cdef int unmet
        if not self.score(c, h):
            return -2
        if not c.have_best:
            return 0
        counted = counted_towards_minimum(c)
        if c.inexact:
            return -2
        if counted < self.minimum(h):
            return 0
        if not self.t.has_settlement:
            return 1
        settle(c)
        if self.t.unmet_settle_requirement != NULL:
            unmet = self.t.unmet_settle_requirement(c)
            if c.inexact:
                return -2
            if unmet >= 0:
                return 0
        if self.t.pay(c) and self.t.pot != NULL:
            self.t.pot(c)
        return -2 if c.inexact else 1


cdef list number_list(const long long* values, int n):
    cdef list numbers = PyList_New(n)
    cdef object number
    cdef int k
    for k in range(n):
        number = values[k]
        Py_INCREF(number)
        PyList_SET_ITEM(numbers, k, number)
    return numbers


cdef Py_ssize_t keep_compact(object kept, Py_ssize_t i, carray.array status, carray.array totals, carray.array fans,
                             carray.array counts, carray.array values, dict errors, Py_ssize_t used) except -1:
    """A result in compact form (dsl.cases.scores.compact, as the interpreter's score_many keeps it too) at
    place i of score_many's arrays; its fans end at the returned place."""
    if isinstance(kept, str):
        status.data.as_schars[i] = -1
        errors[i] = kept
        return used
    status.data.as_schars[i] = kept.status
    totals.data.as_longlongs[i] = kept.total
    for fan, count, value in kept.fans:
        carray.resize_smart(fans, used + 1)
        carray.resize_smart(counts, used + 1)
        carray.resize_smart(values, used + 1)
        fans.data.as_shorts[used] = fan
        counts.data.as_longlongs[used] = count
        values.data.as_longlongs[used] = value
        used += 1
    return used
