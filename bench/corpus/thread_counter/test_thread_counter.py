import threading

import pytest

from thread_counter import Counter, parallel_sum, run_tasks


@pytest.fixture
def counter():
    return Counter()


def test_counter_basics(counter):
    assert counter.value == 0
    assert counter.increment() == 1
    assert counter.increment(5) == 6
    assert counter.decrement(2) == 4
    assert Counter(10).value == 10


def test_counter_is_thread_safe(counter):
    def hammer():
        for _ in range(2000):
            counter.increment()

    threads = [threading.Thread(target=hammer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counter.value == 8000


@pytest.mark.parametrize("workers", [1, 2, 4, 9], ids=lambda w: f"{w}-workers")
def test_run_tasks_keeps_order(workers):
    tasks = [lambda n=n: n * n for n in range(8)]
    results, completed = run_tasks(tasks, workers=workers)
    assert results == [n * n for n in range(8)]
    assert completed == 8


def test_run_no_tasks():
    assert run_tasks([]) == ([], 0)


def test_bad_worker_count():
    with pytest.raises(ValueError):
        run_tasks([lambda: 1], workers=0)


def test_parallel_sum():
    assert parallel_sum(list(range(101))) == 5050
    assert parallel_sum([]) == 0
