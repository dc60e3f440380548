# What Tiny Epic Galaxies' engine exports to its other compiled modules (cimported by features.pyx).

cdef void teg_observed_values(const void* p, int observer, double* value, double* points) noexcept nogil
cdef int teg_hidden_cards(const void* p, int observer) noexcept nogil
