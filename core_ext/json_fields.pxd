# The JSON field readers every game's loader uses: one argument order (value, where, bounds...) and one
# message style ("field 'a.b': <value> is not ..."), so a client gets the same kind of error from every
# game. Each reader checks one value's type and range before the value can index anything; `where` is the
# field's dotted path in the payload.

cdef str show(object value)
cdef int fail(str where, str problem) except -1
cdef dict read_object(object value, str where, tuple required, tuple optional=*)
cdef object read_int(object value, str where, object lo, object hi)
cdef bint read_bool(object value, str where) except -1
cdef int read_name(object value, str where, tuple names) except -1
cdef list read_list(object value, str where, Py_ssize_t shortest, Py_ssize_t longest)
cdef str read_str(object value, str where, Py_ssize_t longest)
