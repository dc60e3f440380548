# json_fields exports only cdef functions (json_fields.pxd): nothing callable from Python.
SHOWN_CHARS: int
