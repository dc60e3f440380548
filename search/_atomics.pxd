# The wall clock and relaxed atomic flag access shared by the compiled search modules (_kernel,
# _timeshare): inline C, so a clock read or a cancel-flag poll is one instruction sequence, no call.

cdef extern from *:
    """
    #include <time.h>
    static inline double orrery_wall_time(void) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    static inline int orrery_load_flag(const int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void orrery_store_flag(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    double orrery_wall_time() noexcept nogil
    int orrery_load_flag(const int* p) noexcept nogil
    void orrery_store_flag(int* p, int v) noexcept nogil
