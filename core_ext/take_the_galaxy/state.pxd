# Take The Galaxy: the fixed-size state struct (see docs/rules/take_the_galaxy.md).
#
# Plain integer arrays only, so clone is memcpy and equal states have equal bytes (memset to 0 on init,
# every write field-wise). Player cards are catalogue type ids (every player holds the same 31-card
# deck), space cards are space catalogue ids (core_ext/take_the_galaxy/catalogue.json); TG_UNKNOWN marks
# what an observation hides.
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t
from orrery.core_ext.game cimport GameParams
from orrery.core_ext.rng cimport Rng
from orrery.core_ext.types cimport MAX_PLAYERS

cdef enum:
    TG_TYPES = 24          # player card types (catalogue has <= 24)
    TG_DECK = 32           # cards per player deck (catalogue has <= 32)
    TG_SPACE = 48          # space cards in the catalogue, all player counts together
    TG_HAVEN = 48          # space-card id of the starting system (never in the space deck)
    TG_EXPLORED = 5        # players + 1 at most
    TG_MAX_SYSTEMS = 4
    TG_SLOTS = 4
    TG_STACK = 4           # colonies stacked on one slot by upgrades (printed costs rise strictly)
    TG_MAX_SHIPS = 8
    TG_RENOWN_PILE = 56    # space cards a player can hold in the renown pile (48 + Haven, rounded)
    TG_RES = 3             # pooled resources: manpower, production, science (credits are cards)
    TG_UNKNOWN = 255       # hidden card in an observation
    TG_NONE = 254          # empty stack cell

ctypedef struct TgSystem:
    uint8_t card                      # space-card id, TG_HAVEN for the starting system
    uint8_t depth[TG_SLOTS]           # colonies on each slot (0 = empty), the top one is active
    uint8_t stack[TG_SLOTS][TG_STACK]  # card types bottom first; TG_NONE past depth
    uint8_t used[TG_SLOTS]            # 1: the top colony was used this turn
    uint8_t bounty[4]                 # bounty resources left on the card (M, P, S, C)

ctypedef struct TgPlayer:
    uint8_t hand[TG_TYPES]            # count per type; TG_UNKNOWN in another seat's observation
    uint8_t hand_size                 # public
    uint8_t n_draw
    uint8_t draw[TG_DECK]             # top at n_draw - 1; TG_UNKNOWN in every observation
    uint8_t n_discard
    uint8_t discard[TG_DECK]          # oldest first (public)
    uint8_t n_systems
    TgSystem systems[TG_MAX_SYSTEMS]  # oldest first; the newest is systems[n_systems - 1]
    uint8_t n_ships
    uint8_t ships[TG_MAX_SHIPS]
    uint8_t ship_used[TG_MAX_SHIPS]
    uint8_t n_sold
    uint8_t sold[TG_MAX_SHIPS]        # ships exchanged at The Next Step (out of the game)
    uint8_t n_renown
    uint8_t renown_pile[TG_RENOWN_PILE]
    int16_t tokens                    # renown tokens (may be negative)
    uint8_t frontier                  # 0 not chosen yet, 1 settlement, 2 mine

ctypedef struct TgState:
    GameParams params
    int16_t turn                      # turns begun (0 during set-up)
    uint16_t turn_steps               # choices made in the current turn (safety cap)
    uint8_t phase
    int8_t current
    uint8_t claimed                   # a card was taken from explored space this turn
    uint8_t relinquished              # a system was relinquished this turn
    uint8_t pay_left                  # cards still to discard (build payment or Space Pirates)
    uint8_t pay_then_draw             # 1: the payment is the pirates' discard; draw and reset next
    uint8_t pool[TG_RES]
    uint8_t n_space
    uint8_t space[TG_SPACE]           # top at n_space - 1; TG_UNKNOWN in every observation
    uint8_t n_explored
    uint8_t explored[TG_EXPLORED]     # oldest first
    uint8_t explored_used[TG_EXPLORED]
    uint8_t n_space_discard
    uint8_t space_discard[TG_SPACE]
    TgPlayer players[MAX_PLAYERS]
    Rng shuffle[MAX_PLAYERS]          # each player's discard-pile reshuffles (hidden source)
