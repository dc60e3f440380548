# Included by engine.pyx: the tile catalogue (core_ext/trian/catalogue.json) as C tables: faces, their edges,
# outer-space groups, system parts, features, and the edge code of every face in every orientation and
# rotation; and the one mapping between a tile's parts and the union-find nodes.

cdef int N_FACES = 0
cdef uint8_t TILE_FACE[TR_TILES][2]
cdef uint8_t FACE_EDGE[TR_MAX_FACES][3]
cdef uint8_t FACE_GROUP[TR_MAX_FACES][3]
cdef uint8_t FACE_FEAT[TR_MAX_FACES]
cdef uint8_t FACE_SPECIAL[TR_MAX_FACES]
cdef uint8_t FACE_HAS_NEB[TR_MAX_FACES]
cdef uint8_t FACE_HAS_SYS[TR_MAX_FACES]
cdef uint8_t FACE_HAS_SPACE[TR_MAX_FACES]   # an outer-space edge (`S` or `P`): where a ship may stand
cdef uint8_t FACE_HAS_SYS2[TR_MAX_FACES]    # a second planetary-system part, separate from the first
cdef uint8_t FACE_SYS_PART[TR_MAX_FACES][3]  # per edge: K_SYSTEM or K_SYSTEM2 on a `P` edge, else 0
cdef uint16_t OCODE[TR_MAX_FACES][2][3]   # [face][orientation: 0 up, 1 down][rotation]
cdef uint8_t SLOT_EDGE[2][3][3]           # [orientation][rotation][side] -> face edge index
cdef uint8_t CW[2][3]


cdef inline int _node(int i, int part) noexcept nogil:
    # the union-find node of part `part` (a space group, K_NEBULA, K_SYSTEM, K_SYSTEM2) of placed tile i
    return i * TR_TILE_NODES + part


cdef inline int _node_tile(int node) noexcept nogil:
    return node // TR_TILE_NODES


cdef inline int _node_part(int node) noexcept nogil:
    return node % TR_TILE_NODES


cdef inline bint _is_system_part(int part) noexcept nogil:
    return part == K_SYSTEM or part == K_SYSTEM2


CATALOGUE_PATH = Path(__file__).resolve().parent / "catalogue.json"
_EDGE_LETTERS = {"S": E_SPACE, "P": E_PATH, "N": E_NEBULA, "G": E_GAS}
_FEATURES = {"none": F_NONE, "planet": F_PLANET, "extractor": F_EXTRACTOR, "outpost": F_OUTPOST,
             "teleport": F_TELEPORT, "exmitter": F_EXMITTER}


def _load_catalogue():
    global N_FACES
    data = json.loads(CATALOGUE_PATH.read_text())
    faces = data["faces"]
    tiles = data["tiles"]
    if len(tiles) != TR_TILES or len(faces) > TR_MAX_FACES:
        raise RuntimeError(f"{CATALOGUE_PATH}: expected {TR_TILES} tiles and <= {TR_MAX_FACES} faces")
    N_FACES = len(faces)
    CW[0][0] = D_RIGHT  # up triangle, clockwise from the apex
    CW[0][1] = D_VERT
    CW[0][2] = D_LEFT
    CW[1][0] = D_VERT  # down triangle, clockwise from top-left
    CW[1][1] = D_RIGHT
    CW[1][2] = D_LEFT
    for o in range(2):
        for r in range(3):
            for i in range(3):
                SLOT_EDGE[o][r][CW[o][(i + r) % 3]] = i
    for f, face in enumerate(faces):
        for i, letter in enumerate(face["edges"]):
            FACE_EDGE[f][i] = _EDGE_LETTERS[letter]
            FACE_GROUP[f][i] = face["space_groups"][i]
        FACE_FEAT[f] = _FEATURES[face["feature"]]
        FACE_SPECIAL[f] = 1 if face["special"] else 0
        FACE_HAS_NEB[f] = 1 if "N" in face["edges"] else 0
        FACE_HAS_SYS[f] = 1 if "P" in face["edges"] else 0
        FACE_HAS_SPACE[f] = 1 if "S" in face["edges"] or "P" in face["edges"] else 0
        _load_system_parts(f, face)
        if FACE_FEAT[f] == F_EXTRACTOR and not FACE_HAS_NEB[f]:
            raise RuntimeError(f"face {face['name']}: an extractor must sit on a nebula part")
        if FACE_FEAT[f] == F_PLANET and not FACE_HAS_SYS[f]:
            raise RuntimeError(f"face {face['name']}: a planet needs a starlight path edge")
        for o in range(2):
            for r in range(3):
                code = 0
                for i in range(3):
                    code |= (FACE_EDGE[f][i] + 1) << (3 * CW[o][(i + r) % 3])
                OCODE[f][o][r] = code
    for t, (a, b) in enumerate(tiles):
        if FACE_SPECIAL[a] and FACE_SPECIAL[b]:
            raise RuntimeError(f"tile {t}: at most one special side")
        TILE_FACE[t][0] = a
        TILE_FACE[t][1] = b
    return data


def _load_system_parts(int f, dict face):
    # `system_parts` (optional, default all 0): per edge, which of the face's two planetary-system parts a
    # `P` edge belongs to; part 0 holds the planet, part 1 is a second system never joined to the first
    # on this face (the rulebook's figure "2 planetary systems worth 4 € each", section VI.1.B)
    parts = face.get("system_parts", [0, 0, 0])
    if len(parts) != 3 or any(x not in (0, 1) for x in parts):
        raise RuntimeError(f"face {face['name']}: system_parts must be three 0/1 values")
    FACE_HAS_SYS2[f] = 0
    for i in range(3):
        FACE_SYS_PART[f][i] = 0
        if FACE_EDGE[f][i] == E_PATH:
            FACE_SYS_PART[f][i] = K_SYSTEM2 if parts[i] else K_SYSTEM
            if parts[i]:
                FACE_HAS_SYS2[f] = 1
        elif parts[i]:
            raise RuntimeError(f"face {face['name']}: only a starlight-path edge has a system part")
    if FACE_HAS_SYS2[f] and K_SYSTEM not in [FACE_SYS_PART[f][i] for i in range(3)]:
        raise RuntimeError(f"face {face['name']}: a second system part needs a first one")


CATALOGUE = _load_catalogue()
FACE_NAMES = tuple(f["name"] for f in CATALOGUE["faces"])
