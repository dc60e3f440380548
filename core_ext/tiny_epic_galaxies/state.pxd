# Tiny Epic Galaxies: the fixed-size state struct (see docs/rules/tiny_epic_galaxies.md).
#
# Plain integer fields only, so clone is memcpy and equal states have equal bytes (memset to 0 on init).
# Planet and mission ids are catalogue indices (core_ext/tiny_epic_galaxies/catalogue.json). Beyond the Black
# (issue 15) uses the room the base game kept: planets 40..51 and missions 12..19 in the catalogue
# arrays, the galaxy's spare bytes for its hangar, and TegBtb for the pilot and exploration decks.
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
    # Beyond the Black (issue 15)
    TEG_EXPLORE = 251       # ship location: Unexplored Space on the exploration mat
    TEG_DANGER = 250        # ship location: on a danger card's track (TegGalaxy.track_card)
    TEG_ADV = 4             # advanced ship kinds: Aurora, Intrepid, Ambition, Nexus
    TEG_PILOTS = 30
    TEG_PILOT_ROOM = 32
    TEG_PILOT_ROW = 6
    TEG_CARDS = 30          # exploration cards
    TEG_CARD_ROOM = 32
    TEG_XROW = 3            # face-up exploration cards
    TEG_BADGES = 4
    TEG_CARD_CLASSES = 16   # badge * 4 + dwarf planet points: what stays public of a face-down card

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
    # Beyond the Black (the 16 bytes the base game reserved)
    uint8_t adv[TEG_SHIPS]        # the advanced ship kind ship k has become, TEG_NONE for a normal ship
    uint8_t pilot[TEG_ADV]        # the active pilot of each advanced ship kind, TEG_NONE
    uint8_t track_card[TEG_SHIPS]  # the danger card whose track ship k is on (ship_at == TEG_DANGER)
    uint8_t ext[4]

ctypedef struct TegBtb:
    # Beyond the Black: zero (and unused) in the base game.
    uint8_t on                    # 1: the beyond_the_black variants
    uint8_t rogue_level           # solo: 0 the beginner Rogue, 1..5 the harder Rogue galaxies
    uint8_t pilot_row_size
    uint8_t pad
    uint8_t pilot_row[TEG_PILOT_ROW]   # pilot ids, TEG_NONE for an empty slot
    uint8_t xrow[TEG_XROW]        # face-up exploration cards, TEG_NONE
    uint8_t pad2[3]
    uint8_t pilot_where[TEG_PILOT_ROOM]  # PW_DECK, PW_ROW, PW_HIRED + galaxy
    uint8_t card_where[TEG_CARD_ROOM]    # CW_DECK, CW_ROW, CW_TAKEN + galaxy
    # Observations only: another galaxy's face-down cards by class (badge * 4 + dwarf points); their
    # identities read CW_DECK ("unknown") there, and determinize() deals them back.
    uint8_t hidden[TEG_GALAXIES][TEG_CARD_CLASSES]

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
    uint8_t bay[TEG_FACES]        # dice activated this turn for their actions, per face
    uint8_t hire_bay[TEG_FACES]   # dice activated this turn to hire pilots (no action), per face
    uint8_t rerolls               # rerolls made this turn
    uint8_t converter_used
    uint8_t follow_cost           # 1, or 2 under Nibiru
    uint8_t follow_bonus          # bit 0 energy, bit 1 culture: the active player's Birkomius/Bisschop
    uint8_t depth
    uint8_t pad[3]
    TegTask stack[TEG_STACK]
    TegGalaxy gal[TEG_GALAXIES]
    TegBtb btb                    # Beyond the Black
    Rng rng_dice                  # future dice (hidden from everyone)
    Rng rng_deck                  # future planet draws (the deck's order, hidden from everyone)
    Rng rng_explore               # future exploration draws (Beyond the Black)
    Rng rng_pilots                # future pilot draws (Beyond the Black)
