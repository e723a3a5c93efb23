"""A thread-safe counter and a small worker pool that runs tasks in threads.

All threads are joined before run_tasks() returns, so results are
deterministic. Some mutants only raise inside a worker thread (for example
`i >= len(tasks)` -> `i > len(tasks)` makes every worker end with an
IndexError after all tasks are done): pytest merely warns about exceptions in
threads, so such mutants survive unless the engine looks at thread errors.
"""
import threading


class Counter:
    """Integer counter whose updates are serialised by a lock."""

    def __init__(self, start=0):
        self._value = start
        self._lock = threading.Lock()

    def increment(self, amount=1):
        with self._lock:
            self._value += amount
            return self._value

    def decrement(self, amount=1):
        return self.increment(-amount)

    @property
    def value(self):
        with self._lock:
            return self._value


def run_tasks(tasks, workers=4):
    """Run the callables in tasks on `workers` threads.

    Returns (results in task order, number of tasks completed).
    """
    if workers < 1:
        raise ValueError("need at least one worker")
    results = [None] * len(tasks)
    done = Counter()
    claim_lock = threading.Lock()
    next_index = [0]

    def worker():
        while True:
            with claim_lock:
                i = next_index[0]
                if i >= len(tasks):
                    return
                next_index[0] = i + 1
            results[i] = tasks[i]()
            done.increment()

    threads = [threading.Thread(target=worker, name=f"worker-{n}") for n in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, done.value


def parallel_sum(numbers, chunks=4, workers=2):
    """Sum numbers by splitting them into chunks summed on worker threads."""
    size = max(1, -(-len(numbers) // chunks))
    parts = [numbers[i:i + size] for i in range(0, len(numbers), size)]
    results, _ = run_tasks([lambda part=part: sum(part) for part in parts], workers)
    return sum(results)
