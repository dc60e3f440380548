# Tiny Epic Galaxies: the fixed-size state struct (see docs/rules/tiny_epic_galaxies.md).
#
# Plain integer fields only, so clone is memcpy and equal states have equal bytes (memset to 0 on init).
# Planet and mission ids are catalogue indices (core_ext/data/tiny_epic_galaxies.json). The struct keeps
# room for Beyond the Black (issue 15): catalogue arrays sized TEG_PLANET_ROOM / TEG_MISSION_ROOM, and
# `ext` bytes per galaxy and per state for pilots, hangars and the exploration deck.
from libc.stdint cimport int8_t, uint8_t, int16_t, uint64_t
from orrery.core_ext.game cimport GameParams
from orrery.core_ext.rng cimport Rng

cdef enum:
    TEG_GALAXIES = 5        # seats; in solo galaxy 1 is the Rogue
    TEG_SHIPS = 4
    TEG_FACES = 6
    TEG_ROW = 6
    TEG_PLANETS = 40        # the base game's catalogue
    TEG_PLANET_ROOM = 64    # catalogue arrays and planet masks (Beyond the Black adds 12)
    TEG_MISSIONS = 12
    TEG_MISSION_ROOM = 24
    TEG_STACK = 40          # pending decisions (nested planet actions stay far below this)
    TEG_TASK_ARGS = 8
    TEG_NONE = 255          # empty row slot, no mission, no ship
    TEG_HIDDEN = 254        # a mission an observation hides
    TEG_LOCKED = 253        # ship location: not unlocked by the empire track yet
    TEG_HOME = 252          # ship location: on its galaxy mat

ctypedef struct TegGalaxy:
    int8_t energy
    int8_t culture
    int8_t empire                 # 1..6
    uint8_t pad0
    uint8_t ship_at[TEG_SHIPS]    # planet id, TEG_HOME or TEG_LOCKED
    uint8_t ship_orbit[TEG_SHIPS]  # 1: on the planet's colony track, 0: on its surface
    uint8_t ship_space[TEG_SHIPS]  # track space 0..N while in orbit
    uint8_t dealt[2]              # the two missions dealt (TEG_HIDDEN to other seats)
    uint8_t mission               # the kept one, TEG_NONE until chosen (TEG_HIDDEN to others)
    uint8_t pad1
    uint64_t once_used            # bit p: planet p's once-per-turn action used in the current turn
    uint8_t ext[16]               # reserved for Beyond the Black

ctypedef struct TegTask:
    uint8_t kind
    int8_t seat                   # the galaxy the task belongs to
    uint8_t a[TEG_TASK_ARGS]

ctypedef struct TegState:
    GameParams params
    uint8_t solo                  # 1: one player against the Rogue (galaxy 1)
    uint8_t n_gal                 # galaxies in play: players, or 2 in solo
    uint8_t row_size
    uint8_t over                  # 1: the game has ended
    int8_t active                 # whose turn (galaxy); the Rogue's turn in solo is galaxy 1
    int8_t trigger                # galaxy that first reached the end condition, -1 before
    int16_t round                 # 0 while missions are chosen, then 1, 2, ...
    uint8_t row[TEG_ROW]          # planet ids, TEG_NONE for an empty slot
    uint8_t where[TEG_PLANET_ROOM]  # W_DECK, W_ROW, W_DISCARD, or W_COLONY + galaxy
    uint8_t pool[TEG_FACES]       # inactive dice of the turn, per face
    uint8_t bay[TEG_FACES]        # dice activated this turn, per face
    uint8_t rerolls               # rerolls made this turn
    uint8_t converter_used
    uint8_t follow_cost           # 1, or 2 under Nibiru
    uint8_t follow_bonus          # bit 0 energy, bit 1 culture: the active player's Birkomius/Bisschop
    uint8_t depth
    uint8_t pad[3]
    TegTask stack[TEG_STACK]
    TegGalaxy gal[TEG_GALAXIES]
    uint8_t ext[32]               # reserved for Beyond the Black
    Rng rng_dice                  # future dice (hidden from everyone)
    Rng rng_deck                  # future planet draws (the deck's order, hidden from everyone)
