# cython: language_level=3
"""The JSON field readers shared by every game's loader (declarations and the message style: json_fields.pxd).

JSON gives exact types: an integer field refuses bools and floats, a flag refuses 0 and 1, and every
error is a StateFormatError that names the field.
"""

from orrery.core_ext._errors import StateFormatError

SHOWN_CHARS = 40  # an untrusted value is cut to this many characters in an error message


cdef str show(object value):
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


cdef int fail(str where, str problem) except -1:
    raise StateFormatError(f"field '{where}': {problem}")


cdef dict read_object(object value, str where, tuple required, tuple optional=()):
    # an object with every required key and nothing beyond the optional ones
    if type(value) is not dict:
        fail(where, f"{show(value)} is not an object")
    for key in required:
        if key not in value:
            raise StateFormatError(f"missing field '{where}.{key}'")
    if len(<dict>value) > len(required):
        extra = [key for key in value if key not in required and key not in optional]
        if extra:
            fail(where, f"unknown keys {', '.join(show(k) for k in extra[:5])}")
    return <dict>value


cdef object read_int(object value, str where, object lo, object hi):
    if type(value) is not int or not lo <= value <= hi:
        fail(where, f"{show(value)} is not an integer in [{lo}, {hi}]")
    return value


cdef bint read_bool(object value, str where) except -1:
    if type(value) is not bool:
        fail(where, f"{show(value)} is not true or false")
    return value


cdef int read_name(object value, str where, tuple names) except -1:
    # the index of a name in `names` (an entry None stands for JSON null)
    cdef Py_ssize_t i
    for i in range(len(names)):
        if (value is None and names[i] is None) or (type(value) is str and value == names[i]):
            return <int>i
    allowed = ", ".join("null" if name is None else repr(name) for name in names)
    return fail(where, f"{show(value)} is not one of {allowed}")


cdef list read_list(object value, str where, Py_ssize_t shortest, Py_ssize_t longest):
    if type(value) is not list or not shortest <= len(<list>value) <= longest:
        fail(where, f"{show(value)} is not a list of {shortest} to {longest} entries")
    return <list>value


cdef str read_str(object value, str where, Py_ssize_t longest):
    if type(value) is not str or len(<str>value) > longest:
        fail(where, f"{show(value)} is not a string of at most {longest} characters")
    return <str>value
