# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""A time-sharing pool: a few threads that take turns over many searches, without the GIL.

The service runs many short searches at once (say 16 clients with 100 ms budgets on 2 cores). With one
OS thread per search, each search stops at its deadline only when the OS next schedules its thread,
and with many threads that can be tens of milliseconds late. Here one thread per core runs the
searches in turn, a quantum each (the least recently run first), and every time a thread picks its
next search it first ends each waiting search whose stop time has passed or whose cancel flag is set:
a search ends on time whether or not it got the CPU lately. The loop never takes the GIL, so the
turns cost nothing while the event loop holds it; finished searches are announced by a byte on a
pipe, which the owner's event loop watches, and collected with finished().

Python's executors need the GIL to hand each task over, which is exactly what the event loop holds
most of the time under load, so there was no library to use: this is pthreads and a slot table.
"""
from libc.stdlib cimport calloc, free
from posix.unistd cimport write

from orrery.search._atomics cimport orrery_wall_time, orrery_load_flag
from orrery.search._kernel cimport Searcher, CancelFlag

import os
import threading


STOPPED_BY = ("time", "cancel", "closed")


cdef class TimeSharedPool:
    def __cinit__(self):
        self.slots = NULL
        self.initialised = False

    def __init__(self, int threads, int capacity, *, double quantum_ms=2.0, int nice=0):
        """`threads` worker threads (one per core) sharing up to `capacity` searches at once, each
        running for `quantum_ms` per turn; the workers' nice value is raised by `nice` (Linux)."""
        if threads < 1 or capacity < 1:
            raise ValueError(f"threads and capacity must be >= 1, got {threads} and {capacity}")
        if not quantum_ms > 0.0:
            raise ValueError(f"quantum_ms must be > 0, got {quantum_ms}")
        self.slots = <Slot*>calloc(capacity, sizeof(Slot))
        if self.slots == NULL:
            raise MemoryError()
        pthread_mutex_init(&self.lock, NULL)
        pthread_cond_init(&self.wake, NULL)
        self.initialised = True
        self.capacity = capacity
        self.threads = threads
        self.quantum_s = quantum_ms / 1000.0
        self._nice = nice
        self._tasks = {}
        self.next_id = 1
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, False)
        os.set_blocking(write_fd, False)   # a full pipe already says "something finished"
        self._read_fd = read_fd
        self.notify_fd = write_fd
        self._workers = [threading.Thread(target=self._worker_main, name=f"orrery-timeshare_{i}",
                                          daemon=True) for i in range(threads)]
        for worker in self._workers:
            worker.start()

    def __dealloc__(self):
        if self.initialised:
            pthread_cond_destroy(&self.wake)
            pthread_mutex_destroy(&self.lock)
        free(self.slots)

    @property
    def fileno(self):
        """The pipe's read end: readable when a search has finished (for loop.add_reader)."""
        return self._read_fd

    @property
    def idle(self):
        """True when no search is in the pool."""
        return not self._tasks

    def submit(self, Searcher searcher not None, double stop_at, CancelFlag cancel=None,
               long long min_iterations=0):
        """Run `searcher` in turns until the wall time `stop_at` (and at least `min_iterations` in
        all), or until `cancel` is set. Returns a task id for finished(). RuntimeError when the pool
        is full or closed."""
        cdef int i, free_slot = -1
        cdef long long task_id = 0
        cdef int* flag = &cancel.value if cancel is not None else NULL
        if self.closing:
            raise RuntimeError("the time-sharing pool is closed")
        # The workers hold the lock only between quanta, for microseconds, and never want the GIL:
        # taking it with the GIL held cannot deadlock.
        pthread_mutex_lock(&self.lock)
        for i in range(self.capacity):
            if self.slots[i].state == SLOT_FREE:
                free_slot = i
                break
        if free_slot >= 0:
            task_id = self.next_id
            self.next_id += 1
            self.slots[free_slot].searcher = <void*>searcher
            self.slots[free_slot].cancel = flag
            self.slots[free_slot].stop_at = stop_at
            self.slots[free_slot].last_run = 0.0   # new searches go first: every answer gets a start
            self.slots[free_slot].min_iterations = min_iterations
            self.slots[free_slot].stopped_by = 0
            self.slots[free_slot].task_id = task_id
            self.slots[free_slot].state = SLOT_WAITING
            pthread_cond_signal(&self.wake)
        pthread_mutex_unlock(&self.lock)
        if free_slot < 0:
            raise RuntimeError(f"the time-sharing pool is full ({self.capacity} searches)")
        self._tasks[task_id] = (searcher, cancel)
        return task_id

    def finished(self):
        """Collect the searches that have stopped: a list of (task id, "time" | "cancel" |
        "closed"). Reading it also empties the notification pipe."""
        cdef int i
        cdef list done = []
        if self._read_fd is not None:
            try:
                while os.read(self._read_fd, 4096):
                    pass
            except BlockingIOError:
                pass
        pthread_mutex_lock(&self.lock)
        for i in range(self.capacity):
            if self.slots[i].state == SLOT_DONE:
                done.append((self.slots[i].task_id, STOPPED_BY[self.slots[i].stopped_by]))
                self.slots[i].state = SLOT_FREE
                self.slots[i].searcher = NULL
                self.slots[i].cancel = NULL
        pthread_mutex_unlock(&self.lock)
        for task_id, _ in done:
            self._tasks.pop(task_id, None)
        return done

    def close(self):
        """Stop the workers and close the pipe (stop watching fileno first); searches still in the
        pool end as "closed": collect them with finished(). Idempotent."""
        if self.closing:
            return
        with nogil:
            pthread_mutex_lock(&self.lock)
            self.closing = True
            pthread_cond_broadcast(&self.wake)
            pthread_mutex_unlock(&self.lock)
        for worker in self._workers:
            worker.join()
        self._end_all()
        os.close(self.notify_fd)
        os.close(self._read_fd)
        self._read_fd = None

    cdef void _end_all(self):
        cdef int i
        pthread_mutex_lock(&self.lock)
        for i in range(self.capacity):
            if self.slots[i].state == SLOT_WAITING:
                self.slots[i].state = SLOT_DONE
                self.slots[i].stopped_by = 2
        pthread_mutex_unlock(&self.lock)

    def _worker_main(self):
        if self._nice > 0 and hasattr(os, "setpriority"):
            tid = threading.get_native_id()
            try:
                os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + self._nice)
            except OSError:
                pass
        with nogil:
            self._work()

    cdef void _work(self) noexcept nogil:
        cdef int pick
        cdef Slot* slot
        cdef long long more
        cdef double until, now
        pthread_mutex_lock(&self.lock)
        while not self.closing:
            pick = self._next_slot(orrery_wall_time())
            if pick < 0:
                pthread_cond_wait(&self.wake, &self.lock)
                continue
            slot = &self.slots[pick]
            slot.state = SLOT_RUNNING
            now = orrery_wall_time()
            more = -1
            until = now + self.quantum_s
            if until > slot.stop_at:
                until = slot.stop_at
            if now >= slot.stop_at:   # out of time but short of min_iterations: just those
                more = slot.min_iterations - (<Searcher>slot.searcher).iterations
                if more < 0:   # (-1 would mean "no limit")
                    more = 0
                until = 0.0
            pthread_mutex_unlock(&self.lock)
            (<Searcher>slot.searcher)._run_loop(more, until, 0.0, slot.cancel)
            pthread_mutex_lock(&self.lock)
            slot.last_run = orrery_wall_time()
            slot.state = SLOT_WAITING   # the next pick decides whether it is done
            pthread_cond_signal(&self.wake)   # another worker may have found nothing to run
        pthread_mutex_unlock(&self.lock)

    cdef int _next_slot(self, double now) noexcept nogil:
        """Under the lock: end every waiting search that is out of time or cancelled (announcing
        them on the pipe), then return the waiting slot that ran least recently, or -1."""
        cdef int i, pick = -1, ended = 0
        cdef Slot* slot
        cdef char byte = 1
        for i in range(self.capacity):
            slot = &self.slots[i]
            if slot.state != SLOT_WAITING or slot.searcher == NULL:
                continue
            if slot.cancel != NULL and orrery_load_flag(slot.cancel):
                slot.state = SLOT_DONE
                slot.stopped_by = 1
                ended += 1
                continue
            if now >= slot.stop_at and (<Searcher>slot.searcher).iterations >= slot.min_iterations:
                slot.state = SLOT_DONE
                ended += 1
                continue
            if pick < 0 or slot.last_run < self.slots[pick].last_run:
                pick = i
        if ended:
            write(self.notify_fd, &byte, 1)   # a full pipe is fine: the reader drains it all
        return pick
