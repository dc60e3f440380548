# The time-sharing pool (see _timeshare.pyx): a slot table guarded by one pthread mutex, worked by a
# few threads that never take the GIL.

cdef extern from "<pthread.h>" nogil:
    ctypedef struct pthread_mutex_t:
        pass
    ctypedef struct pthread_cond_t:
        pass
    int pthread_mutex_init(pthread_mutex_t*, void*)
    int pthread_mutex_destroy(pthread_mutex_t*)
    int pthread_mutex_lock(pthread_mutex_t*)
    int pthread_mutex_unlock(pthread_mutex_t*)
    int pthread_cond_init(pthread_cond_t*, void*)
    int pthread_cond_destroy(pthread_cond_t*)
    int pthread_cond_wait(pthread_cond_t*, pthread_mutex_t*)
    int pthread_cond_signal(pthread_cond_t*)
    int pthread_cond_broadcast(pthread_cond_t*)

cdef enum:
    SLOT_FREE = 0
    SLOT_WAITING = 1     # has a searcher that wants more time
    SLOT_RUNNING = 2     # a worker is running it now
    SLOT_DONE = 3        # stopped: waiting for finished() to collect it

ctypedef struct Slot:
    void* searcher           # borrowed Searcher; the pool's _tasks keeps it alive until collected
    int* cancel              # the CancelFlag's value, or NULL
    double stop_at           # wall time (time.time()) at which it stops
    double last_run          # when it last ended a quantum (0: never ran)
    long long min_iterations  # it runs at least this many in all, even past stop_at
    long long task_id
    int state                # SLOT_*
    int stopped_by           # 0: time, 1: cancel, 2: pool closed

cdef class TimeSharedPool:
    cdef pthread_mutex_t lock
    cdef pthread_cond_t wake     # a search became runnable, or the pool is closing
    cdef Slot* slots
    cdef readonly int capacity
    cdef readonly int threads
    cdef double quantum_s
    cdef int notify_fd           # the pipe's write end: one byte when searches have finished
    cdef bint closing
    cdef bint initialised
    cdef long long next_id
    cdef dict _tasks             # task id -> (Searcher, CancelFlag), alive while in a slot
    cdef list _workers
    cdef object _read_fd
    cdef int _nice

    cdef void _end_all(self)
    cdef void _work(self) noexcept nogil
    cdef int _next_slot(self, double now) noexcept nogil
