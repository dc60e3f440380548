# Included by trian.pyx: the tile catalogue (core_ext/data/trian_tiles.json) as C tables: faces, their edges,
# outer-space groups, features, and the edge code of every face in every orientation and rotation.

cdef int N_FACES = 0
cdef uint8_t TILE_FACE[TR_TILES][2]
cdef uint8_t FACE_EDGE[TR_MAX_FACES][3]
cdef uint8_t FACE_GROUP[TR_MAX_FACES][3]
cdef uint8_t FACE_FEAT[TR_MAX_FACES]
cdef uint8_t FACE_SPECIAL[TR_MAX_FACES]
cdef uint8_t FACE_HAS_NEB[TR_MAX_FACES]
cdef uint8_t FACE_HAS_SYS[TR_MAX_FACES]
cdef uint16_t OCODE[TR_MAX_FACES][2][3]   # [face][orientation: 0 up, 1 down][rotation]
cdef uint8_t SLOT_EDGE[2][3][3]           # [orientation][rotation][side] -> face edge index
cdef uint8_t CW[2][3]


CATALOGUE_PATH = Path(__file__).resolve().parent / "data" / "trian_tiles.json"
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


CATALOGUE = _load_catalogue()
FACE_NAMES = tuple(f["name"] for f in CATALOGUE["faces"])
