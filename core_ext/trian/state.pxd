# Galaxy of Trian: New Order, the fixed-size state struct (see docs/rules/trian.md).
#
# Every field is a plain integer array, so clone is memcpy and equal states have equal bytes (the
# struct is memset to 0 on init and every write is field-wise). Tile ids are catalogue indices
# (core_ext/trian/catalogue.json); TR_UNKNOWN marks what an observation hides.
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, uint64_t
from orrery.core_ext.game cimport GameParams
from orrery.core_ext.rng cimport Rng
from orrery.core_ext.types cimport MAX_PLAYERS

cdef enum:
    TR_TILES = 84
    TR_MAX_FACES = 24
    TR_STACK = 42
    TR_HASH = 512          # open-addressing table of placed and frontier cells (power of two)
    TR_FRONT = 176         # frontier cells: at most 3 + 2 * 83 around 84 triangles
    TR_TILE_NODES = 6      # union-find nodes per placed tile: 3 space groups, nebula, 2 system parts
    TR_NODES = 504         # TR_TILES * TR_TILE_NODES
    TR_NEBULAS = 48        # closed-nebula records (minerals); a closed nebula has >= 2 tiles
    # TR_EVENTS: areas one tile can close (<= 3 space parts + 1 nebula + 2 system parts; no face has
    # more than 3 parts), plus emissary battles queued when a Corvette unblocks an emissary (ships)
    TR_EVENTS = 10
    TR_COLORS = 4
    TR_UNKNOWN = 255
    TR_HIDDEN = -1         # hidden int8 values in an observation

# Per seat. Race evolution (variant full): `race`, `skills`, `special_tile` (see core_ext/trian/races.pxi).
ctypedef struct TrianPlayer:
    int32_t credits
    uint8_t minerals[TR_COLORS]
    uint8_t emissaries                 # in supply (on the race board)
    uint8_t research_stations          # research stations in supply
    uint8_t space_stations             # space stations in supply
    uint8_t tokens_held                # combat tokens held (public count)
    int8_t tokens_plus                 # of which "+1" (the rest reroll); TR_HIDDEN to other seats
    uint8_t declared_tokens            # tokens declared face down in the current clash
    int8_t declared_plus               # of which "+1"; TR_HIDDEN to others until the roll reveals them
    uint8_t corvettes                  # Corvettes in supply (variant ships)
    uint8_t rogues                     # Rogues in supply (variant ships)
    uint8_t race                       # race index 0..7 (variant full), TR_UNKNOWN without races
    uint32_t skills  # active skills: bit k racial skill k of the race, bit 8 + u universal skill u
    uint8_t special_tile[4]            # special tokens on the board: placed index, TR_UNKNOWN in the supply

ctypedef struct TrianPlaced:
    int16_t x
    int16_t y
    uint8_t tile                       # catalogue id; TR_UNKNOWN to seats other than the placer
    uint8_t side                       # catalogue side shown (0/1); TR_UNKNOWN likewise
    uint8_t face                       # public: the face shown on the table
    uint8_t face_when_drawn            # public: the face that was up on the stack when it was drawn
    uint8_t rot                        # 0..2: clockwise rotation of the face's edges
    int8_t placer
    int8_t emissary                    # owner seat, or -1
    uint8_t station                    # 0 none, 1 research station, 2 space station (under the emissary)
    int8_t ship_owner                  # ship owner when ship_kind != 0 (-1 otherwise)
    uint8_t ship_kind                  # 0 none, 1 Corvette, 2 Rogue
    uint8_t ship_arrived               # 1: the ship arrived on this tile this turn
    uint8_t rogue_mined                # 1: the Rogue on this tile mined this turn
    # unit: what the emissary here is: 0 an emissary, 1 a Slave-minion, 2 the Supreme Priestess fixed
    # as an emissary (variant full)
    uint8_t unit

ctypedef struct TrianState:
    GameParams params
    int32_t turn
    int8_t mode
    int8_t turn_player
    int8_t first_player
    int8_t winner_pad
    # stacks: entries [0, len) with the top at len - 1
    uint8_t stack_tile[2][TR_STACK]
    uint8_t stack_side_up[2][TR_STACK]
    uint8_t stack_len[2]
    uint8_t stack_top_face[2]          # public: the face up on each top tile (TR_UNKNOWN when empty)
    uint8_t drawn_tile                 # the tile in hand during phase 2 (TR_UNKNOWN to others)
    uint8_t drawn_side_up              # its catalogue side that was up (TR_UNKNOWN to others)
    uint8_t drawn_face                 # public: the face it showed on the stack
    uint8_t drawn_stack                # public: 0/1, TR_UNKNOWN when no tile is in hand
    uint8_t n_discarded
    uint8_t discarded[84]              # unplaceable tiles, shown and set aside (public)
    uint8_t n_placed
    TrianPlaced placed[TR_TILES]
    # derived from the placed tiles (rebuilt on load): the placed index across side d of each placed
    # tile, -1 where none; spares the cell-index lookups of every neighbour query
    int8_t neighbour[TR_TILES][3]
    int8_t space_neighbour[TR_TILES][3]  # derived: neighbour where outer space crosses side d, else -1
    uint8_t side_space_group[TR_TILES][3]  # derived: the shown face's outer-space group on side d
    uint8_t exmitter_radius[TR_TILES]  # derived: 1 in the radius of an exmitter tile (section IX)
    # derived piece indexes (core_ext/trian/pieces.pxi): bit i of word i >> 6 stands for placed tile i
    uint64_t emissary_tiles[MAX_PLAYERS][2]  # the tiles holding seat p's emissary (or racial unit)
    uint64_t ship_tiles[2]             # the tiles holding a ship
    uint64_t extractor_tiles[2]        # the tiles showing an extractor
    # board index: cell key -> placed index (0..83) or TR_FRONT_BASE + frontier index
    uint16_t cell_key[TR_HASH]
    int16_t cell_value[TR_HASH]
    int16_t front_x[TR_FRONT]
    int16_t front_y[TR_FRONT]
    uint16_t front_required[TR_FRONT]  # required edge code per frontier cell (3 bits per side)
    uint8_t n_front
    uint8_t n_nebulas
    int16_t part_parent[TR_NODES]      # union-find over tile parts (_node): an area is a root's parts
    int16_t area_open_borders[TR_NODES]  # at a root: open borders of the area
    int16_t nebula_root[TR_NEBULAS]    # closed-nebula records: the area's root
    uint8_t nebula_minerals[TR_NEBULAS][TR_COLORS]  # minerals lying on it
    uint8_t nebula_gained[TR_NEBULAS]  # minerals gained from it this turn (at most 2)
    uint8_t bag[TR_COLORS]             # minerals in the bag (public)
    TrianPlayer players[MAX_PLAYERS]
    # this turn
    uint8_t new_tile                   # placed index of the tile added this turn, TR_UNKNOWN if none
    uint8_t actions_left               # phase 3 actions still available
    uint8_t actions_taken
    uint8_t teleport_used
    uint8_t events_pending             # events waiting to be resolved
    uint8_t events_end_turn            # after events: 0 back to phase 3, 1 end the turn
    uint8_t events_count               # events queued this turn (closed areas, battles) in event_root/kind
    uint8_t events_next                # the first of them not yet resolved
    int16_t event_root[TR_EVENTS]      # the area's union-find root
    uint8_t event_kind[TR_EVENTS]      # AREA_NEBULA, AREA_SYSTEM, AREA_SPACE, or AREA_UNBLOCKED (a battle)
    int16_t event_credits              # value of the area being resolved
    # emissary battle
    int8_t battle_order[MAX_PLAYERS]   # attacker first, then clockwise; -1 past battle_size
    uint8_t battle_size                # seats in the battle
    uint8_t battle_turn                # the index in battle_order of the seat acting
    uint8_t battle_bonus[MAX_PLAYERS]  # fixed for the whole battle (indexed by seat)
    uint8_t battle_roll[MAX_PLAYERS]   # this clash's die per seat (0 before the roll)
    uint8_t battle_rerolls[MAX_PLAYERS]  # declared rerolls still usable this clash
    uint8_t battle_stage               # 0 none, 1 declaring, 2 rerolling
    uint8_t ship_battle_on             # 1 while a ship battle is being fought
    uint8_t ship_battle_attacker       # ship battle: placed index of the attacking ship
    uint8_t ship_battle_target         # ship battle: placed index of the ship it clashes with
    # race evolution (variant full), this turn
    uint8_t evolved                    # 1: a skill was unlocked this turn (one per turn, section V.1.3)
    uint8_t race_used                  # bits: once-per-turn racial abilities already used this turn
    uint8_t mission_tile               # where an own emissary arrived this turn (expedition or teleport)
    uint8_t race_step                  # sub-step of a racial skill waiting for a decision (mode M_RACE)
    int8_t race_seat                   # the seat deciding it
    uint8_t race_arg                   # step data (a nebula record, a tile)
    uint8_t race_count                 # step data (picks left)
    uint8_t battle_warcry  # bit p: seat p spent a red mineral on Warcry in the current clash (XEMH)
    # emissary battle, after a clash (mode M_SEND_HOME): the seats that still send one emissary home
    uint8_t send_home_seats            # bit p: seat p loses one emissary of its choice or of the winner's
    int8_t send_home_winner            # the clash's winner, who chooses; -1 after a tie (each loser chooses)
    # taking emissaries back (mode M_TAKEBACK): one decision per emissary, up the galaxy's order
    uint8_t takeback_next              # the lowest placed index still offered (0 before the first pick)
    # random streams, one per hidden source (the stacks are shuffled once at setup)
    Rng rng_minerals
    Rng rng_tokens
    Rng rng_dice
