# Included by engine.pyx: the designed catalogue, loaded from JSON into C arrays at import.
#
# The loader checks the catalogue's own rules (the per-player-count numbering reproduces the
# "Random Play" counts, the deck fits the struct, effects use the pool's resources), so a bad edit of
# the data file fails at import rather than in a game.

cdef int N_TYPES = 0
cdef int DECK_SIZE = 0
cdef int8_t CARD_KIND[TG_TYPES]
cdef int8_t CARD_COST[TG_TYPES]
cdef int8_t CARD_IN[TG_TYPES][TG_RES]      # transforming input (pool resources only)
cdef int8_t CARD_OUT[TG_TYPES][4]          # output M, P, S, C
cdef int8_t CARD_OUT_RENOWN[TG_TYPES]      # renown tokens per use (Monument)
cdef int8_t CARD_RENOWN[TG_TYPES]
cdef int8_t CARD_COPIES[TG_TYPES]
cdef int8_t CARD_SETUP[TG_TYPES]
cdef int8_t CARD_FRONTIER[2]               # type of Frontier Settlement, Frontier Mine
cdef double CARD_VALUE[TG_TYPES]           # net card units per use (evaluate and the policy)

cdef int N_SPACE = 0
cdef int8_t SPACE_KIND[TG_SPACE + 1]
cdef int8_t SPACE_SECTOR[TG_SPACE + 1]
cdef int8_t SPACE_PLAYERS[TG_SPACE + 1]
cdef int8_t SPACE_RENOWN[TG_SPACE + 1]
cdef int8_t SYS_NSLOTS[TG_SPACE + 1]
cdef int8_t SYS_SLOT[TG_SPACE + 1][TG_SLOTS]
cdef int8_t SYS_HAZARDS[TG_SPACE + 1]
cdef int8_t SYS_BOUNTY[TG_SPACE + 1][4]
cdef int8_t ANOM_SCIENCE[TG_SPACE + 1]
cdef int16_t EVENT_EFFECT[TG_SPACE + 1]
cdef int8_t EVENT_OPPORTUNITY[TG_SPACE + 1]
cdef int8_t EVENT_SOLVE[TG_SPACE + 1][TG_RES]
# set-up counts [players][sector][kind]
cdef int8_t SETUP_COUNT[5][3][3]

cdef int MIGRATION_M, INVESTORS_RP, INVESTORS_C, GUILD_P, GUILD_S, RACE_RP, NEXT_RP, BURST_HZ, MECH_OFF
cdef int SOLO_SCALE
cdef int MAX_SYSTEMS_RULE
cdef int HAZARD_RESOURCE

CATALOGUE_PATH = Path(__file__).resolve().parent / "catalogue.json"


def _res_vector(dict d, tuple allowed, str where):
    out = [0, 0, 0, 0, 0]   # M, P, S, C, renown
    for key, value in d.items():
        if key not in allowed or not isinstance(value, int) or not 0 < value <= 9:
            raise RuntimeError(f"{CATALOGUE_PATH}: {where}: bad resource {key!r}: {value!r}")
        out[("manpower", "production", "science", "credits", "renown").index(key)] = value
    return out


def _load_catalogue():
    global N_TYPES, DECK_SIZE, N_SPACE, SOLO_SCALE, MAX_SYSTEMS_RULE, HAZARD_RESOURCE
    global MIGRATION_M, INVESTORS_RP, INVESTORS_C, GUILD_P, GUILD_S, RACE_RP, NEXT_RP, BURST_HZ, MECH_OFF
    data = json.loads(CATALOGUE_PATH.read_text())
    cards = data["player_cards"]
    if len(cards) > TG_TYPES:
        raise RuntimeError(f"{CATALOGUE_PATH}: at most {TG_TYPES} player card types")
    N_TYPES = len(cards)
    DECK_SIZE = sum(c["copies"] for c in cards)
    if DECK_SIZE > TG_DECK:
        raise RuntimeError(f"{CATALOGUE_PATH}: a player deck holds at most {TG_DECK} cards")
    frontier = 0
    for t, c in enumerate(cards):
        CARD_KIND[t] = KIND_NAMES.index(c["kind"])
        CARD_COST[t] = c["cost"]
        vin = _res_vector(c["in"], ("manpower", "production", "science"), c["name"])
        vout = _res_vector(c["out"], ("manpower", "production", "science", "credits", "renown"), c["name"])
        for r in range(TG_RES):
            CARD_IN[t][r] = vin[r]
        for r in range(4):
            CARD_OUT[t][r] = vout[r]
        CARD_OUT_RENOWN[t] = vout[4]
        CARD_RENOWN[t] = c["renown"]
        CARD_COPIES[t] = c["copies"]
        CARD_SETUP[t] = c["setup"]
        CARD_VALUE[t] = _effect_value(vin, vout)
        if c.get("frontier"):
            if frontier >= 2:
                raise RuntimeError(f"{CATALOGUE_PATH}: exactly two frontier colonies")
            CARD_FRONTIER[frontier] = t
            frontier += 1
        if CARD_KIND[t] == KIND_SHIP and CARD_RENOWN[t] != 0:
            raise RuntimeError(f"{c['name']}: ships confer no renown")
    if frontier != 2 or sum(c["setup"] for c in cards) != 8:
        raise RuntimeError(f"{CATALOGUE_PATH}: 8 marked player cards, two of them frontier colonies")
    if CARD_KIND[CARD_FRONTIER[0]] != KIND_CIV or CARD_KIND[CARD_FRONTIER[1]] != KIND_MINING:
        raise RuntimeError(f"{CATALOGUE_PATH}: the frontier colonies are a civilization and a mining colony")
    space = [("system", x) for x in data["systems"]] + [("anomaly", x) for x in data["anomalies"]] + \
        [("event", x) for x in data["events"]]
    if len(space) != TG_SPACE:
        raise RuntimeError(f"{CATALOGUE_PATH}: expected {TG_SPACE} space cards")
    N_SPACE = len(space)
    for i, (kind, x) in enumerate(space + [("system", data["starting_system"])]):
        _load_space_card(i, kind, x)
    for n in range(1, 5):
        for sec in range(3):
            want = data["setup_counts"][str(n)][SECTOR_NAMES[sec]]
            for k in range(3):
                # JSON lists [systems, events, anomalies] like the rulebook; kinds: system, anomaly, event
                SETUP_COUNT[n][sec][k] = want[(0, 2, 1)[k]]
                got = sum(1 for i in range(N_SPACE) if SPACE_SECTOR[i] == sec and SPACE_KIND[i] == k
                          and SPACE_PLAYERS[i] <= n)
                if got != SETUP_COUNT[n][sec][k]:
                    raise RuntimeError(f"{CATALOGUE_PATH}: {n} players, {SECTOR_NAMES[sec]}: {got} "
                                       f"{SPACE_KIND_NAMES[k]} cards numbered, the set-up needs "
                                       f"{SETUP_COUNT[n][sec][k]}")
    numbers = data["event_numbers"]
    MIGRATION_M = numbers["migration_manpower"]
    INVESTORS_RP = numbers["investors_renown"]
    INVESTORS_C = numbers["investors_credits"]
    GUILD_P = numbers["guildship_production"]
    GUILD_S = numbers["guildship_science"]
    RACE_RP = numbers["race_renown"]
    NEXT_RP = numbers["next_step_renown"]
    BURST_HZ = numbers["burst_hazards"]
    MECH_OFF = numbers["mech_discount"]
    SOLO_SCALE = data["solo"]["return_scale"]
    MAX_SYSTEMS_RULE = data["max_systems"]
    HAZARD_RESOURCE = ("manpower", "production", "science").index(next(iter(data["hazard_cost"])))
    if MAX_SYSTEMS_RULE > TG_MAX_SYSTEMS:
        raise RuntimeError(f"{CATALOGUE_PATH}: at most {TG_MAX_SYSTEMS} systems")
    return data


def _effect_value(vin, vout):
    # Card units per use (1 card = 1 credit = 2 production = 3 manpower; 1 science ~ 1 card;
    # 1 renown token ~ 1.5 cards late in the game): what the playout policy and evaluate() weigh.
    weights = (1.0 / 3.0, 0.5, 1.0, 1.0, 1.5)
    return sum(w * o for w, o in zip(weights, vout)) - sum(w * i for w, i in zip(weights, vin))


def _load_space_card(int i, str kind, dict x):
    SPACE_KIND[i] = SPACE_KIND_NAMES.index(kind)
    SPACE_SECTOR[i] = SECTOR_NAMES.index(x.get("sector", "core"))
    SPACE_PLAYERS[i] = x.get("players", 1)
    SPACE_RENOWN[i] = x["renown"]
    SYS_NSLOTS[i] = 0
    SYS_HAZARDS[i] = 0
    ANOM_SCIENCE[i] = 0
    EVENT_EFFECT[i] = 0
    EVENT_OPPORTUNITY[i] = 0
    for k in range(TG_SLOTS):
        SYS_SLOT[i][k] = -1
    for r in range(4):
        SYS_BOUNTY[i][r] = 0
    for r in range(TG_RES):
        EVENT_SOLVE[i][r] = 0
    if kind == "system":
        slots = x["slots"]
        if not 1 <= len(slots) <= TG_SLOTS or set(slots) - {"B", "D"}:
            raise RuntimeError(f"{x['name']}: 1-4 slots, each B or D")
        SYS_NSLOTS[i] = len(slots)
        for k, letter in enumerate(slots):
            SYS_SLOT[i][k] = SLOT_B if letter == "B" else SLOT_D
        SYS_HAZARDS[i] = x["hazards"]
        b = _res_vector(x["bounty"], ("manpower", "production", "science", "credits"), x["name"])
        for r in range(4):
            SYS_BOUNTY[i][r] = b[r]
    elif kind == "anomaly":
        ANOM_SCIENCE[i] = x["science"]
    else:
        EVENT_EFFECT[i] = _EFFECTS[x["effect"]]
        EVENT_OPPORTUNITY[i] = 1 if x["opportunity"] else 0
        v = _res_vector(x["solve"], ("manpower", "production", "science"), x["name"])
        for r in range(TG_RES):
            EVENT_SOLVE[i][r] = v[r]


CATALOGUE = _load_catalogue()
CARD_NAMES = tuple(c["name"] for c in CATALOGUE["player_cards"])
SPACE_NAMES = tuple(
    x["name"] for x in CATALOGUE["systems"] + CATALOGUE["anomalies"] + CATALOGUE["events"]
) + (CATALOGUE["starting_system"]["name"],)
CARD_IDS = {name: t for t, name in enumerate(CARD_NAMES)}
SPACE_IDS = {name: i for i, name in enumerate(SPACE_NAMES)}
