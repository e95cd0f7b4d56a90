# cython: language_level=3
"""The contract between the shared runtime (dsl.runtime.core) and each compiled checker.

A checker module (generated/<variant>.pyx) holds its spec's tables and one C function per fan, `let`
and requirement; it fills a `Tables` with pointers to them and hands it to `Checker`, which reads cases,
searches decompositions, applies exclusions, scores, settles and builds results for every spec.

Sizes are fixed upper bounds shared by every checker; codegen refuses (and the interpreter answers) a
spec beyond them. The enums below are also written in dsl/vocabulary.py, which tests/test_vocabulary.py
checks against this file.
"""

from cpython cimport array as carray
from cpython.object cimport PyObject
from libc.string cimport memcpy, memset

cdef extern from *:
    int popcount "__builtin_popcountll" (unsigned long long bits) nogil
    int lowest_tile "__builtin_ctzll" (unsigned long long tiles) nogil  # the lowest tile of a non-empty set
    bint multiply_overflows "__builtin_mul_overflow" (long long a, long long b, long long* product) nogil
    bint add_overflows "__builtin_add_overflow" (long long a, long long b, long long* total) nogil
    bint subtract_overflows "__builtin_sub_overflow" (long long a, long long b, long long* difference) nogil

cdef enum:
    MAX_TILES = 64  # tile sets are 64-bit masks
    MAX_PLAYERS = 4
    MAX_HAND = 17  # tiles of a hand, the winning tile included
    MAX_SETS = 5  # sets of a standard hand without declared melds
    MAX_MELDS = 144  # declared melds: sets, and tiles laid aside (every copy of every tile)
    MELD_TILES = 8  # tiles of the largest meld kind
    MAX_GROUPS = MAX_HAND + 1 + MAX_MELDS
    MAX_READINGS = 2048  # readings of the concealed tiles; a hand with more is read by the interpreter
    MAX_FANS = 192
    MAX_MASK_WORDS = 3  # 64 fans per word of a fan mask
    MAX_CONTEXT = 32
    MAX_OPTIONS = 32
    MAX_INDICATOR_KEYS = 4
    MAX_INDICATORS = 16  # indicators kept per key; a case with more is read by the interpreter
    MAX_HAND_SETS = 8
    MAX_SET_TERMS = 4
    MAX_SCORES = 16
    MAX_MELD_KINDS = 32
    MAX_SHAPES = 6
    MAX_KNITTED = 6
    MAX_LETS = 128  # `let` values, each computed once per decomposition (settlement ones per loser)
    MAX_TEXT = 256  # characters in one string of a case; a longer one is left to read_case, which refuses it
    NAME_CACHE = 256  # slots of a NameCache (a power of two)
    RESULT_COUNTS = 8  # a fan's result dict is made once per count below this (at its fixed value)
    RUN_TILES = 9  # the longest run of tiles RUN_SHAPES covers
    RUN_COPIES = 4  # the most copies of a tile RUN_SHAPES covers

# Products, quotients, powers, sums and totals stay within +-2^53; beyond it the reference interpreter answers.
cdef extern from *:
    const long long LIMIT "(9007199254740992LL)"

# Names that expressions compare, as small ints: the shapes and waits every checker knows; a spec's own
# names (suit codes, text options) follow from FIRST_SPEC_TEXT.
cdef enum Text:
    T_standard = 0
    T_seven_pairs = 1
    T_thirteen_orphans = 2
    T_honors_and_knitted = 3
    T_knitted_straight = 4
    T_loose = 5
    T_edge = 6
    T_closed = 7
    T_single = 8
    T_two_sided = 9
    T_pung_wait = 10
    T_knitted = 11
    FIRST_SPEC_TEXT = 12

# What a group of a decomposition is: a set, a pair, a single, a wild, or a spec's own meld kind (from
# FIRST_OWN_KIND).
cdef enum GroupKind:
    CHOW = 0
    PUNG = 1
    KONG = 2
    PAIR = 3
    SINGLE = 4
    KNITTED = 5
    WILD = 6
    FIRST_OWN_KIND = 7

cdef enum MeldShape:
    SHAPE_CHOW = 0
    SHAPE_PUNG = 1
    SHAPE_KONG = 2
    SHAPE_FIXED = 3  # exactly the kind's own tiles
    SHAPE_ONE_OF = 4  # one tile of a tile set (its fixed tiles, or the hand's set `meld_per_hand`)

cdef enum KeyKind:
    KEY_HAND = 0
    KEY_WIN = 1
    KEY_MELDS = 2
    KEY_OPTIONS = 3
    KEY_FLAG = 4
    KEY_COUNT = 5
    KEY_SEAT = 6
    KEY_WIND = 7
    KEY_TILES = 8
    KEY_OTHER_MELDS = 9
    KEY_SEATS = 10
    KEY_INT = 11  # a spec's own whole number in a range (context NAME int LOW..HIGH)

cdef enum OptionKind:
    OPTION_BOOL = 0
    OPTION_INT = 1
    OPTION_TEXT = 2

cdef enum SearchMode:
    SEARCH_BEST = 0  # score every decomposition, keep the best
    SEARCH_ANY = 1  # stop at the first decomposition that meets the requirements

cdef enum Source:
    SOURCE_GROUPS = 0
    SOURCE_SETS = 1
    SOURCE_CHOWS = 2
    SOURCE_PUNGS = 3
    SOURCE_KONGS = 4
    SOURCE_PAIRS = 5

cdef enum ComboAttr:
    ATTR_SUIT = 0
    ATTR_RANK = 1
    ATTR_TILE = 2

cdef enum ResultKind:  # how a `score:` result is shown
    SCORE_NUMBER = 0
    SCORE_BOOL = 1
    SCORE_TEXT = 2

# ---------------------------------------------------------------- C structs

cdef struct Meld:
    int kind  # index into the meld kinds
    int size
    int tiles[MELD_TILES]  # sorted

cdef struct Hand:
    # A valid case (dsl.cases.case.Hand) as plain C values.
    int counts[MAX_TILES]  # concealed tiles before the winning tile
    int win  # the winning tile, -1 when none is given
    int n_melds
    int n_sets  # declared melds that are sets (not tiles laid aside)
    Meld melds[MAX_MELDS]
    bint self_drawn
    int seat
    int dealer
    int discarder  # -1 on a self-drawn win
    int seat_wind  # 0..3 = E S W N, E when absent
    int round_wind
    long long context[MAX_CONTEXT]  # context values as given, 0 when absent
    long long options[MAX_OPTIONS]
    bint opened[MAX_PLAYERS]  # that seat has laid down a meld that opens the hand
    bint out[MAX_PLAYERS]  # that seat has left the hand (血战到底): it neither pays nor receives
    int red  # red fives in the hand, the winning tile and the melds
    int n_indicators[MAX_INDICATOR_KEYS]
    int indicators[MAX_INDICATOR_KEYS][MAX_INDICATORS]
    unsigned long long sets[MAX_HAND_SETS]  # the tile sets the indicators choose
    unsigned long long wild  # the wild tiles
    int n_other[MAX_PLAYERS]  # the other players' declared melds, by seat
    Meld other[MAX_PLAYERS][MAX_MELDS]

cdef struct Group:
    # One set, pair or single of a decomposition (dsl.interp.decompose.Group).
    int kind  # GroupKind
    int tile  # its lowest tile
    int size
    bint declared
    bint concealed
    bint opens
    bint with_win
    unsigned long long tiles  # mask
    int mask  # the places of it that wilds fill (pair and pung: the lowest bits)
    bint aside  # a single tile laid aside: no set

cdef struct Decomposition:
    int shape  # Text
    int wait  # Text
    unsigned long long kinds  # bit k: some group is of GroupKind k (a count over pungs with none is 0 at once)
    int n_groups
    Group groups[MAX_GROUPS]  # declared melds first, then the groups of the concealed tiles

cdef struct NameCache:
    # Names seen (by address) and their numbers: the keys and names of cases are mostly the same few interned
    # strings, looked up once each, then found by address (a reference is kept, so no other object can take
    # that address).
    PyObject* names[NAME_CACHE]
    int numbers[NAME_CACHE]

cdef struct Loser:
    int seat
    bint dealer
    bint discarder
    bint opened

cdef struct Readings:
    # The ways to read the concealed tiles left as sets and one pair.
    int n
    int size[MAX_READINGS]
    int kind[MAX_READINGS][MAX_SETS + 1]
    int tile[MAX_READINGS][MAX_SETS + 1]
    int mask[MAX_READINGS][MAX_SETS + 1]  # the places wilds fill

cdef struct Ctx

ctypedef void (*HandStep)(Ctx* c) noexcept nogil
ctypedef int (*FirstUnmet)(Ctx* c) noexcept nogil
ctypedef long long (*HandValue)(Ctx* c) noexcept nogil
ctypedef void (*LoserShare)(Ctx* c, int loser, long long* n, long long* v) noexcept nogil
ctypedef bint (*Payments)(Ctx* c) noexcept nogil
ctypedef int (*FanOf)(Ctx* c, const Group** combo, int k) noexcept nogil
ctypedef bint (*ShapeHolds)(Ctx* c, int shape) noexcept nogil

cdef struct Tables:
    # One spec's tables and functions, filled by its checker module.
    int n_tiles
    int n_players
    int hand_size
    int sets  # (hand_size - 2) // 3
    int n_fans  # hand fans 0..hand_fans-1, then loser fans
    int hand_fans
    int mask_words
    bint extended  # wilds, tile sets per hand, loose readings, tiles aside or losers' melds (codegen.Model.extended)
    int n_shapes
    int shapes[MAX_SHAPES]  # Text of each shape, in the spec's order
    bint shape_chows[MAX_SHAPES]
    # tiles
    const int* tile_suit  # Text of the suit code
    const int* tile_rank
    const int* tile_numbered
    const int* tile_copies
    const int* chow_start  # a chow may start here
    const int* suit_bit  # the bit of the tile's numbered suit, for `suits`
    const unsigned long long* near  # the tile and its neighbours within two ranks
    unsigned long long always_near  # tiles that complete a special shape
    unsigned long long flowers
    unsigned long long numbered
    unsigned long long all_tiles
    bint loose  # loose readings: any tile may complete a hand
    const int* wind_tiles  # E S W N as tiles, -1: none
    int n_knitted
    const unsigned long long* knitted  # the knitted straights
    int n_orphans
    const int* orphans
    int text_none  # the Text of "" (the suit of no tile)
    # reading cases
    const int* code_base  # per letter a..z: the tile of digit d is code_base + d for code_low <= d <= code_high
    const int* code_low
    const int* code_high
    const int* code_flowers
    const int* red_five  # the tile a red five (digit 0) is, -1: none
    int red_copies
    const int* next_tile  # NULL when the spec does not use it
    const int* previous_tile
    const int* indicator_tile
    int n_hand_sets
    const unsigned long long* hand_set_tiles
    const unsigned long long* hand_set_removed
    const int* hand_set_n_terms
    const int* hand_set_terms  # [set][MAX_SET_TERMS][2]: (indicator key, step)
    int n_wild_sets
    const int* wild_sets
    int n_meld_kinds
    const int* meld_shape
    const int* meld_group
    const int* meld_concealed
    const int* meld_opens
    const int* meld_size
    const unsigned long long* meld_fixed
    const int* meld_aside
    const int* meld_per_hand
    int n_keys
    const int* key_kind
    const int* key_slot
    const int* key_indicator
    int n_context
    int ctx_self_drawn  # context slots read_seats reads, -1 when the spec has no such key
    int ctx_seat
    int ctx_dealer
    int ctx_discarder
    int ctx_seat_wind
    const int* no_seat  # per context slot: a seat key other than seat/dealer/discarder (-1 when absent)
    int n_options
    const int* option_kind
    const long long* option_default
    # fans and exclusions
    const long long* fan_amount
    const int* fan_order
    const int* by_order
    const unsigned long long* cut  # [fan * mask_words + word]
    const int* partial_from
    const int* partial_target
    const long long* partial_times
    int n_preferred
    const int* preferred
    int n_minimum_excluded
    const int* minimum_excluded
    bint has_supersede
    long long supersede
    long long minimum
    int minimum_option  # the option that holds the minimum, -1: `minimum`
    int n_scores
    int rank_score  # the `score:` result readings are ranked by, -1: the total
    bint late_fans
    bint computed_values  # some hand fan's value is computed (else every value is its fan_amount)
    bint requirements_read_fans
    bint group_masks  # some rule reads Ctx.group_tiles (dsl.compiled.masks)
    # the spec's rules
    HandStep count_fans
    HandStep value_fans
    FirstUnmet unmet_requirement
    HandValue score_late_fans  # NULL without late fans
    HandStep score_reading  # NULL without `score:`
    bint has_settlement
    LoserShare loser_fans
    FirstUnmet unmet_settle_requirement  # NULL without settlement requirements
    Payments pay
    HandValue pot  # NULL without a pot
    # the cap on what a hand pays (`cap N`, `cap N unless one fan is more`)
    bint has_cap
    long long cap
    bint cap_unless_more
    # integer context keys: per context slot, the range of values (a case that leaves one out has the low end)
    const long long* context_low
    const long long* context_high
    # a spec's own shapes (`shape NAME: CONDITION`), tried after the built-in ones
    int n_own_shapes
    const int* own_shape_text  # Text of each shape's name
    ShapeHolds own_shape  # whether own shape k's condition holds for the reading in c.d; NULL without
    bint has_requirements  # some requirement may fail: a complete hand is not yet a win
    # runs of tiles that chows connect (a numbered suit, an honor alone), filled by Checker.link: a hand reads
    # as sets and a pair when each run does (RUN_SHAPES); runs_fit is False when a run is too long for the table
    int n_runs
    int run_first[MAX_TILES]
    int run_length[MAX_TILES]
    int run_of[MAX_TILES]  # the run of each tile
    bint runs_fit

cdef struct Ctx:
    # Everything known while one hand is scored with one winning tile.
    const Tables* t
    const Hand* h
    int win
    int mode
    bint inexact  # some arithmetic left 64-bit integers: the reference interpreter must answer
    # facts of the hand (evaluation.HandFacts)
    int counts[MAX_TILES]  # concealed tiles, winning tile included
    int n_concealed
    unsigned long long concealed_tiles
    unsigned long long hand_tiles  # the concealed tiles before the winning tile (`held_tiles`)
    int held[MAX_TILES]  # every tile, melds included
    unsigned long long held_tiles
    unsigned long long konged
    unsigned int suit_bits
    int suits
    bint opened
    long long waits[2]  # `waits`, `shape_waits`: -1 until an expression reads them
    unsigned int stamp  # changes with each decomposition scored: a `let` computed under another stamp is stale
    unsigned int let_stamp[MAX_LETS]
    long long let_value[MAX_LETS]
    # wilds: the counts left once some wild tiles are set apart as wilds, how many, the tiles they may
    # stand for; what the reading being scored substitutes
    int split[MAX_TILES]
    int jokers
    bint joker_win
    unsigned long long free
    int stack_mask[MAX_GROUPS]
    long long substituted
    # the search over decompositions
    int left[MAX_TILES]
    int n_declared
    int n_stack
    int stack_base
    int stack_kind[MAX_GROUPS]
    int stack_tile[MAX_GROUPS]
    int n_decompositions
    int first_unmet
    bint found
    Ctx* trial  # where the waits of this hand are searched (NULL: find_waits takes room of its own)
    # the tiles the decomposition's chows start on, its pungs (kongs too), its kongs and its pairs hold, in
    # layers: a tile in layer k starts more than k such groups (dsl.compiled.masks)
    unsigned long long group_tiles[4][4]
    # the readings of the concealed tiles (standard_split), their order and sort keys
    Readings readings
    int reading_order[MAX_READINGS]
    int reading_keys[MAX_READINGS][MAX_SETS + 1]
    # the decomposition being scored: occurrences, values and counted occurrences of each fan (n, v and cnt
    # take turns with best_n, best_v and best_cnt in fan_store: keeping a better decomposition swaps them)
    Decomposition d
    long long* n
    long long* v
    long long* cnt
    long long fan_store[6][MAX_FANS]
    long long total
    long long counted_fans
    long long rank
    long long scores[MAX_SCORES]
    # the best decomposition so far
    bint have_best
    Decomposition best_d
    long long* best_n
    long long* best_v
    long long* best_cnt
    long long best_total
    long long best_rank
    long long best_scores[MAX_SCORES]
    int best_held[MAX_TILES]
    unsigned long long best_held_tiles
    int best_suits
    long long best_substituted
    # settlement: losers in seat order, their shares (loser fans) and the payments
    int n_losers
    Loser losers[MAX_PLAYERS]
    long long share_n[MAX_PLAYERS][MAX_FANS]
    long long share_v[MAX_PLAYERS][MAX_FANS]
    long long share_cnt[MAX_PLAYERS][MAX_FANS]
    long long share_total[MAX_PLAYERS]
    long long payments[MAX_PLAYERS]
    int n_loser_melds[MAX_PLAYERS]
    Group loser_melds[MAX_PLAYERS][MAX_MELDS]


cdef struct Scratch:
    # What one call works in: the case read, the search of its decompositions and the search of its waits. It is
    # far too big for a thread's stack (a small one is 128 KiB), so a checker keeps one on the heap, and a call
    # that finds it in use (another thread, while this one runs Python code) takes one of its own.
    Hand hand
    Ctx ctx
    Ctx trial

cdef struct Encoded:
    # Encoded cases (docs/interface.md): C-contiguous arrays, row i of each for case i.
    Py_ssize_t n
    const unsigned char* counts  # [n][n_tiles]: the concealed tiles before the winning tile
    const short* wins  # [n]: the winning tile
    const short* melds  # [n][meld_columns][2]: (meld kind, tile), kind -1 for none; NULL without melds
    int meld_columns
    const long long* context  # [n][context_columns]: by Checker.encoded_columns; NULL without
    int context_columns
    const short* indicators  # [n][indicator_columns][indicator_length]: tiles, -1 after the last; NULL without
    int indicator_columns
    int indicator_length

cdef struct FanEntry:
    short fan
    long long count
    long long value

cdef struct Outcomes:
    # What score_rows found: per case its status (ENCODED_LEFT: scored by evaluate later) and total, and the
    # counted fans of the cases before it and its own up to ends[i].
    signed char* status
    long long* totals
    Py_ssize_t* ends
    FanEntry* entries
    Py_ssize_t room  # entries allocated; -1 when more could not be
    Py_ssize_t used

cdef enum EncodedRows:
    ENCODED_LEFT = -2  # a case score_rows leaves to the full path
    MAX_COLUMNS = 64  # context columns of encoded cases

# The flags of dsl.cases.case.refuse_impossible's rules, in the order of RULE_FLAGS (Checker.rule_slots)
cdef enum RuleFlag:
    SLOT_KONG_REPLACEMENT, SLOT_ROBBING_KONG, SLOT_LAST_TILE, SLOT_FIRST_TURN, SLOT_IPPATSU, SLOT_RIICHI, \
        SLOT_DOUBLE_RIICHI

cdef class Checker:
    """One spec's compiled checker: the interpreter's API over its Tables."""
    cdef Tables t
    cdef readonly str spec_name
    cdef readonly str spec_hash
    cdef str spec_ir  # the spec's IR as dsl.frontend.ir_json text, for the reference interpreter
    cdef tuple text_values
    cdef dict texts
    cdef tuple tile_codes
    cdef dict keys
    cdef dict meld_kinds
    cdef dict options
    cdef readonly tuple fan_names
    cdef readonly tuple fan_english
    cdef list fan_results  # [fan * RESULT_COUNTS + count]: the result dict of a fan at its fixed value, copied
    cdef dict win_result  # the keys of a winning result in their order, copied per result
    cdef tuple reasons
    cdef tuple settle_reasons
    cdef str no_shape
    cdef tuple score_names
    cdef tuple score_kinds
    cdef bint shares
    cdef object _reference
    cdef NameCache key_cache  # case keys, option names and text option values seen
    cdef NameCache option_cache
    cdef NameCache text_cache
    cdef list cached_names  # holds the names in the caches
    cdef int n_red_suits  # the letters of the suits that have a red five
    cdef int red_suits[26]
    # what refused_by looks at: the rules of refuse_impossible in order (by Rule, n_rules of them), context
    # slots (-1: the spec has no such key) and limits
    cdef int n_rules
    cdef int rule_order[16]  # MAX_RULES
    cdef int rule_slots[7]  # by RuleFlag
    cdef int slot_flowers
    cdef int flower_limit
    cdef int indicator_limit[MAX_INDICATOR_KEYS]
    cdef str unit_word  # what a total counts, in a sentence ("fan" for 番)
    cdef Scratch* scratch  # the room of a call, on the heap
    cdef bint scratch_busy
    cdef Scratch* take_scratch(self) except NULL
    cdef tuple context_columns  # the context keys of encoded cases, in column order
    cdef tuple indicator_keys
    cdef int column_key[MAX_COLUMNS]
    cdef int indicator_key[MAX_INDICATOR_KEYS]
    cdef tuple encoded_views(self, dict arrays, Encoded* e)
    cdef void score_rows(self, const Encoded* e, Scratch* s, Outcomes* out) noexcept nogil
    cdef bint read_row(self, Hand* h, const Encoded* e, Py_ssize_t i) noexcept nogil
    cdef bint read_row_context(self, Hand* h, const Encoded* e, Py_ssize_t i, bint* seat_given,
                               bint* discarder_given, bint* wind_given) noexcept nogil
    cdef bint read_row_melds(self, Hand* h, const Encoded* e, Py_ssize_t i) noexcept nogil
    cdef object encoded_scores(self, dict arrays, const Encoded* e, Outcomes* out)
    cdef Py_ssize_t score_into(self, list batch, Scratch* s, carray.array status, carray.array totals,
                               carray.array offsets, carray.array fans, carray.array counts,
                               carray.array values, dict errors) except -1
    cdef list time_parts(self, list readable)
    cdef void give_back(self, Scratch* s) noexcept

    cdef object score_hand(self, Scratch* s)
    cdef object evaluate_one(self, object case)
    cdef object evaluate_in(self, object case, Scratch* s)
    cdef int read(self, object case, Hand* h, bint with_win) except -1
    cdef bint read_options(self, object options, Hand* h) except -1
    cdef int refused_by(self, const Hand* h, bint seat_given, bint wind_given, bint discarder_given,
                        PyObject* others) except -1 nogil
    cdef str refusal(self, int why, const Hand* h, dict case)
    cdef str meld_kind_name(self, int kind)
    cdef str codes(self, const Meld* meld)
    cdef bint flag(self, const Hand* h, int which) noexcept nogil
    cdef bint has_kong(self, const Hand* h) noexcept nogil
    cdef bint opened(self, const Hand* h) noexcept nogil
    cdef bint shows(self, const Hand* h, int tile) noexcept nogil
    cdef int context_slot(self, str name)
    cdef bint read_any(self, object case, Hand* h, bint with_win) except -1
    cdef bint score(self, Ctx* c, const Hand* h) noexcept nogil
    cdef long long minimum(self, const Hand* h) noexcept nogil
    cdef list fans_of(self, const long long* v, const long long* cnt, int first, int last)
    cdef dict fan_result(self, int fan, long long value, long long count)
    cdef object score_value(self, int k, long long value)
    cdef int outcome(self, Ctx* c, const Hand* h) noexcept nogil
    cdef bint from_hand(self, object hand, Hand* h) except -1
    cdef object wait_codes(self, Scratch* s)


# ---------------------------------------------------------------- helpers the rules call

cdef inline long long groups_in(const unsigned long long* layers, int n, unsigned long long tiles) noexcept nogil:
    """How many groups of a row of Ctx.group_tiles start on these tiles."""
    cdef long long found = 0
    cdef int k
    for k in range(n):
        found += popcount(layers[k] & tiles)
    return found


cdef inline unsigned long long tile_bit(long long tile) noexcept nogil:
    """The set of one tile; empty for no tile (-1)."""
    return (1ULL << tile) if 0 <= tile < MAX_TILES else 0

cdef inline bint has_tile(unsigned long long tiles, long long tile) noexcept nogil:
    return tile >= 0 and (tiles >> tile) & 1


cdef inline long long bounded(Ctx* c, long long value) noexcept nogil:
    """The value when it is within LIMIT; else the case goes to the reference interpreter."""
    if not -LIMIT <= value <= LIMIT:
        c.inexact = True
        return 0
    return value


cdef inline long long plus(Ctx* c, long long a, long long b) noexcept nogil:
    cdef long long total
    if add_overflows(a, b, &total):
        c.inexact = True
        return 0
    return bounded(c, total)


cdef inline long long minus(Ctx* c, long long a, long long b) noexcept nogil:
    cdef long long difference
    if subtract_overflows(a, b, &difference):
        c.inexact = True
        return 0
    return bounded(c, difference)


cdef inline long long times(Ctx* c, long long a, long long b) noexcept nogil:
    cdef long long product
    if multiply_overflows(a, b, &product):
        c.inexact = True
        return 0
    return bounded(c, product)


cdef inline long long too_large(Ctx* c) noexcept nogil:
    """A number written in the spec beyond LIMIT: the reference interpreter answers."""
    c.inexact = True
    return 0


cdef inline long long divide(Ctx* c, long long a, long long b) noexcept nogil:
    """a / b when it is a whole number (the interpreter keeps other quotients as fractions)."""
    if b == 0 or a % b != 0:
        c.inexact = True
        return 0
    return bounded(c, a // b)


cdef inline int suit_of(const Ctx* c, long long tile) noexcept nogil:
    return c.t.tile_suit[tile] if tile >= 0 else c.t.text_none  # the suit of no tile (no pair)


cdef inline int rank_of(const Ctx* c, long long tile) noexcept nogil:
    return c.t.tile_rank[tile] if tile >= 0 else 0


cdef inline int next_tile(const Ctx* c, long long tile) noexcept nogil:
    """The tile an indicator points at; -1 (no pair) reads the last entry, as a Python index does."""
    return c.t.next_tile[tile if tile >= 0 else c.t.n_tiles + tile]


cdef inline int previous_tile(const Ctx* c, long long tile) noexcept nogil:
    return c.t.previous_tile[tile if tile >= 0 else c.t.n_tiles + tile]


cdef inline int pair_tile(const Ctx* c) noexcept nogil:
    """`pair`: the tile of the decomposition's first pair, -1 without one."""
    cdef int k
    for k in range(c.d.n_groups):
        if c.d.groups[k].kind == PAIR:
            return c.d.groups[k].tile
    return -1


cdef inline long long wind_tile(Ctx* c, int wind) noexcept nogil:
    if c.t.wind_tiles[wind] < 0:
        c.inexact = True  # the interpreter fails on a wind the tile set lacks; let it say so
        return 0
    return c.t.wind_tiles[wind]


cdef inline bint is_set(const Group* g) noexcept nogil:
    return g.kind != PAIR and g.kind != SINGLE and g.kind != KNITTED and g.kind != WILD and not g.aside


cdef inline void transfer(Ctx* c, int loser, long long amount) noexcept nogil:
    """The loser pays the winner."""
    c.payments[c.losers[loser].seat] = minus(c, c.payments[c.losers[loser].seat], amount)
    c.payments[c.h.seat] = plus(c, c.payments[c.h.seat], amount)


cdef inline long long paid_amount(Ctx* c) noexcept nogil:
    """`paid` (ir.Spec.paid): the total, at most the cap; under `unless one fan is more`, the whole total when
    one counted hand fan alone (value × count) is worth more than the cap."""
    cdef int i
    if not c.t.has_cap:
        return c.total
    if c.t.cap_unless_more:
        for i in range(c.t.hand_fans):
            if c.cnt[i] > 0 and times(c, c.v[i], c.cnt[i]) > c.t.cap:
                return c.total
    return c.total if c.total < c.t.cap else c.t.cap


cdef long long power(Ctx* c, long long base, long long exponent) noexcept nogil
cdef long long count_held(const Ctx* c, unsigned long long tiles) noexcept nogil
cdef long long roundup(Ctx* c, long long value, long long step) noexcept nogil
cdef long long wilds_held(const Ctx* c) noexcept nogil
cdef long long indicated(const Ctx* c, int key) noexcept nogil
cdef long long hand_waits(Ctx* c, bint any_copy) noexcept nogil
cdef int select_groups(const Ctx* c, int source, const Group** out) noexcept nogil
cdef int other_melds(const Hand* h) noexcept nogil
cdef void other_meld(const Ctx* c, int k, Group* g) noexcept nogil
cdef bint combo_same(const Ctx* c, const Group** combo, int k, int attr) noexcept nogil
cdef bint combo_distinct(const Ctx* c, const Group** combo, int k, int attr) noexcept nogil
cdef long long combo_step(const Ctx* c, const Group** combo, int k) noexcept nogil
cdef unsigned long long combo_tiles(const Group** combo, int k) noexcept nogil
cdef bint combo_numbered(const Ctx* c, const Group** combo, int k) noexcept nogil
cdef void combine(Ctx* c, int source, FanOf fan_of, const int* pair_fans, int n_pair_fans) noexcept nogil
cdef long long resolve(const Tables* t, const long long* n, const long long* v, long long* cnt, int first, int last,
                       bint* inexact) noexcept nogil
cdef void pay_liable(Ctx* c, int loser) noexcept nogil
