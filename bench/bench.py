#!/usr/bin/python3
"""litmus benchmark (issue 3, item 7).  Standard library only.

    /usr/bin/python3 bench/bench.py LITMUS_BINARY      (or: make bench)

Environment:
    BENCH_PROGRAMS="a b c"  subset of bench/corpus (default: every program)
    BENCH_SAMPLE=N          mutants run by the process-per-mutant comparator
                            (default 120, spread over the programs; 0 = skip)
    BENCH_RESULTS=DIR       where YYYY-MM-DD.{json,txt} go (default bench/results)
    BENCH_PYTHON=PATH       interpreter with pytest (default /usr/bin/python3)

Everything is measured from the outside: the litmus CLI and its SQLite store.
docs/performance.md explains every figure.
"""

import datetime
import json
import os
import platform
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(HERE, "corpus")
PYTHON = os.environ.get("BENCH_PYTHON", "/usr/bin/python3")

DETECTED = {"killed", "timeout", "crashed", "memory"}
UNDETECTED = {"survived", "no_coverage"}
FORK_N = 200
FORK_ROUNDS = 5


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# corpus


def program_spec(name):
    """Subject files, pytest extra args and test files of one corpus program."""
    d = os.path.join(CORPUS, name)
    if name == "quix_gcd":
        subjects = [os.path.join(d, "correct_programs", "gcd.py")]
        extra = ["--correct"]
    else:
        subjects = sorted(
            os.path.join(d, f) for f in os.listdir(d)
            if f.endswith(".py") and not f.startswith("test_") and f != "conftest.py")
        extra = []
    tests = sorted(f for f in os.listdir(d) if f.startswith("test_") and f.endswith(".py"))
    return {"name": name, "dir": d, "subjects": subjects, "extra": extra, "tests": tests}


def corpus_programs():
    wanted = os.environ.get("BENCH_PROGRAMS", "").split()
    allp = sorted(p for p in os.listdir(CORPUS)
                  if os.path.isdir(os.path.join(CORPUS, p)) and not p.startswith((".", "_"))
                  and not p.startswith("patch")  # patch-triage corpora
                  and p not in ("projects",  # project shapes (e2e t04xx)
                                "java"))  # Java programs (dataset --lang java)
    if not wanted:
        return allp
    bad = [p for p in wanted if p not in allp]
    if bad:
        sys.exit("bench: unknown program(s): %s" % " ".join(bad))
    return wanted


# --------------------------------------------------------------------------
# litmus runs


def rel(p):
    return os.path.relpath(p, ROOT)


def run_litmus(litmus, spec, workdir, tag, jobs=None, subjects=None):
    db = os.path.join(workdir, "%s-%s.db" % (spec["name"], tag))
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
    cmd = [litmus, "score"] + [rel(s) for s in (subjects or spec["subjects"])]
    cmd += ["--tests", rel(spec["dir"]), "--db", db, "--no-progress"]
    if jobs is not None:
        cmd += ["--jobs", str(jobs)]
    if spec["extra"]:
        cmd += ["--"] + spec["extra"]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        log("bench: litmus failed (exit %d): %s\n%s%s" % (
            p.returncode, " ".join(cmd), p.stdout[-2000:], p.stderr[-2000:]))
        raise SystemExit(3)
    r = read_db(db, wall, cmd)
    r["exit"] = p.returncode
    r["summary"] = [l for l in p.stdout.splitlines() if "mutants in" in l or "mutation score" in l]
    return r


def read_db(db, wall, cmd):
    con = sqlite3.connect(db)
    meta = dict(con.execute("SELECT key, value FROM meta"))
    cols = [r[1] for r in con.execute("PRAGMA table_info(tests)")]
    cov = "coverage" if "coverage" in cols else "NULL"
    tests = con.execute("SELECT idx, nodeid, baseline_ms, outcome, %s FROM tests ORDER BY idx" % cov).fetchall()
    rows = con.execute(
        "SELECT m.id, m.file, m.start, m.end_off, m.replacement, m.line, m.op, m.original,"
        " r.verdict, r.duration_ms, r.tests_run, r.peak_rss_kb, r.killed_by, m.end_line"
        " FROM mutants m LEFT JOIN results r ON r.mutant_id = m.id"
        " ORDER BY m.file, m.start, m.id").fetchall()
    sources = {path: bytes(src) for path, src in con.execute("SELECT path, source FROM files")}
    con.close()
    mutants = [dict(id=r[0], file=r[1], start=r[2], end_off=r[3], replacement=r[4], line=r[5],
                    op=r[6], original=r[7], verdict=r[8] or "none", duration_ms=r[9] or 0.0,
                    tests_run=r[10] or 0, rss_kb=r[11] or 0, killed_by=r[12],
                    end_line=r[13] or r[5]) for r in rows]

    def fnum(key, default=0.0):
        try:
            return float(meta[key])
        except (KeyError, ValueError):
            return default

    verdicts = {}
    for m in mutants:
        verdicts[m["verdict"]] = verdicts.get(m["verdict"], 0) + 1
    return {
        "cmd": " ".join(cmd), "db": db, "wall_s": wall,
        "startup_s": fnum("run_startup_s"), "baseline_s": fnum("run_baseline_s"),
        "mutants_s": fnum("run_mutants_s"), "mutants_run": int(fnum("run_mutants_run")),
        "zygote_rss_kb": int(fnum("run_zygote_peak_rss_kb")),
        "engine_rss_kb": int(fnum("run_engine_peak_rss_kb")),
        "jobs": int(fnum("run_jobs", 1)) or 1,
        "timeout_rechecks": int(fnum("run_timeout_rechecks")),
        "mutants": mutants, "tests": tests, "sources": sources, "verdicts": verdicts,
    }


# --------------------------------------------------------------------------
# floor


FORK_SNIPPET = r"""
import os, sys, time, pytest
n, rounds = int(sys.argv[1]), int(sys.argv[2])
out = []
for _ in range(rounds):
    t = time.perf_counter()
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    out.append((time.perf_counter() - t) / n * 1000.0)
print(" ".join("%.6f" % x for x in out))
"""


def measure_fork():
    p = subprocess.run([PYTHON, "-c", FORK_SNIPPET, str(FORK_N), str(FORK_ROUNDS)],
                       stdout=subprocess.PIPE, check=True, text=True)
    rounds = [float(x) for x in p.stdout.split()]
    return statistics.median(rounds), rounds


def parse_coverage(text):
    """tests.coverage "FILE:1-4,9\nFILE2:..." -> {realpath: set(lines)}."""
    out = {}
    for line in (text or "").splitlines():
        path, _, spans = line.rpartition(":")
        if not path:
            continue
        lines = out.setdefault(os.path.realpath(path), set())
        for span in spans.split(","):
            if not span:
                continue
            a, _, b = span.partition("-")
            lines.update(range(int(a), int(b or a) + 1))
    return out


def selected_ms(run, m, passing, prefix):
    """In-process time on the original of the tests the mutant ran.

    With per-test coverage in the store (tests.coverage): the passing tests that
    cover one of the mutant's lines, fastest first (litmus's selection order),
    and of those the first `tests_run`.  Without it: the first `tests_run`
    passing tests in baseline order.  Either way, an approximation: the store
    records how many tests ran, not which."""
    n = m["tests_run"]
    if run["has_coverage"]:
        f = os.path.realpath(m["file"])
        lines = set(range(m["line"] or 0, (m["end_line"] or m["line"] or 0) + 1))
        cands = sorted((t["ms"], t["idx"]) for t in passing if t["cov"].get(f, set()) & lines)
        if len(cands) >= n:
            return sum(ms for ms, _ in cands[:n])
        # fewer covering tests than were run: fall through to baseline order
    return prefix[min(n, len(passing))]


def floor_of(run, fork_ms):
    """Floor of one litmus run, in seconds (see docs/performance.md)."""
    passing = [{"idx": t[0], "ms": t[2] or 0.0, "cov": parse_coverage(t[4])}
               for t in run["tests"] if t[3] == "passed"]
    run["has_coverage"] = any(t[4] for t in run["tests"])
    prefix = [0.0]
    for t in passing:
        prefix.append(prefix[-1] + t["ms"])
    baseline_ms = prefix[-1]
    per_mutant_ms = 0.0      # fork + in-process time of its tests on the original
    timeout_extra_ms = 0.0   # what timeouts cost beyond that (their limit)
    n_run = 0
    for m in run["mutants"]:
        if m["tests_run"] <= 0:
            continue
        n_run += 1
        cost = fork_ms + selected_ms(run, m, passing, prefix)
        per_mutant_ms += cost
        if m["verdict"] == "timeout":
            timeout_extra_ms += max(0.0, m["duration_ms"] - cost)
    jobs = run["jobs"]
    child = sorted(m["duration_ms"] for m in run["mutants"]
                   if m["tests_run"] > 0 and m["verdict"] in ("killed", "survived"))
    floor_s = (baseline_ms + per_mutant_ms / jobs) / 1000.0
    floor_to_s = (baseline_ms + (per_mutant_ms + timeout_extra_ms) / jobs) / 1000.0
    return {"floor_s": floor_s, "floor_with_timeouts_s": floor_to_s,
            "tests_baseline_s": baseline_ms / 1000.0, "floor_mutants_run": n_run,
            "per_mutant_floor_ms": per_mutant_ms / n_run if n_run else None,
            "child_ms": child, "coverage_selection": run["has_coverage"]}


# --------------------------------------------------------------------------
# process-per-mutant comparator


def copy_program(spec, dest):
    shutil.copytree(spec["dir"], dest,
                    ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.pyc"))


def run_pytest(spec, workdir, timeout):
    cmd = [PYTHON, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"] + spec["tests"] + spec["extra"]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.Popen(cmd, cwd=workdir, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        return "timeout", None
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        raise
    try:
        os.killpg(p.pid, signal.SIGKILL)  # stray grandchildren, if any
    except ProcessLookupError:
        pass
    if rc == 0:
        return "survived", rc
    if rc in (1, 2):
        return "killed", rc
    if rc < 0:
        return "crashed", rc
    return "error", rc


def comparator_baseline(spec, tmp):
    """Wall time of pytest on an unmodified copy (also checks that it passes)."""
    dest = os.path.join(tmp, "base-" + spec["name"])
    copy_program(spec, dest)
    t0 = time.perf_counter()
    verdict, rc = run_pytest(spec, dest, 120)
    wall = time.perf_counter() - t0
    shutil.rmtree(dest, ignore_errors=True)
    if verdict != "survived":
        log("bench: comparator baseline of %s did not pass (%s, exit %s)" % (spec["name"], verdict, rc))
    return wall


def comparator_mutant(spec, m, source, tmp, timeout, seq):
    t0 = time.perf_counter()
    dest = os.path.join(tmp, "m%04d" % seq)
    copy_program(spec, dest)
    relpath = os.path.relpath(os.path.realpath(m["file"]), os.path.realpath(spec["dir"]))
    mutated = source[:m["start"]] + m["replacement"].encode("utf-8") + source[m["end_off"]:]
    with open(os.path.join(dest, relpath), "wb") as f:
        f.write(mutated)
    verdict, rc = run_pytest(spec, dest, timeout)
    shutil.rmtree(dest, ignore_errors=True)
    return verdict, rc, time.perf_counter() - t0


def pick_sample(runs, names, total):
    """Deterministic: round-robin quotas over programs, evenly spaced mutants within each."""
    pools = {n: runs[n]["mutants"] for n in names}
    quota = {n: 0 for n in names}
    left = min(total, sum(len(p) for p in pools.values()))
    while left > 0:
        for n in names:
            if left > 0 and quota[n] < len(pools[n]):
                quota[n] += 1
                left -= 1
    sample = []
    for n in names:
        pool, q = pools[n], quota[n]
        for i in range(q):
            sample.append((n, pool[int((i + 0.5) * len(pool) / q)]))
    return sample


def litmus_class(v):
    if v in DETECTED:
        return "detected"
    if v in UNDETECTED:
        return "not detected"
    return "other"


def comparator_class(v):
    if v in ("killed", "timeout", "crashed"):
        return "detected"
    if v == "survived":
        return "not detected"
    return "other"


# --------------------------------------------------------------------------
# report


def fmt_ratio(x):
    if x is None:
        return "-"
    return "%.0fx" % x if x >= 100 else ("%.1fx" % x if x >= 10 else "%.2fx" % x)


def safe_div(a, b):
    return a / b if b else None


def machine_info():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    def git(*a):
        try:
            return subprocess.run(["git"] + list(a), cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True).stdout.strip()
        except OSError:
            return ""
    pyv = subprocess.run([PYTHON, "-c", "import sys, pytest; print(sys.version.split()[0], pytest.__version__)"],
                         stdout=subprocess.PIPE, text=True).stdout.split()
    return {"cores": os.cpu_count(), "cpu": cpu, "kernel": platform.release(),
            "python": pyv[0] if pyv else "", "pytest": pyv[1] if len(pyv) > 1 else "",
            "commit": git("rev-parse", "--short", "HEAD"),
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}


def _terminate(signum, frame):
    raise SystemExit(128 + signum)


def main():
    signal.signal(signal.SIGTERM, _terminate)
    if len(sys.argv) != 2:
        sys.exit("usage: bench.py LITMUS_BINARY")
    litmus_src = os.path.abspath(sys.argv[1])
    if not os.access(litmus_src, os.X_OK):
        sys.exit("bench: %s is not executable" % litmus_src)
    names = corpus_programs()
    sample_n = int(os.environ.get("BENCH_SAMPLE", "120"))
    results_dir = os.environ.get("BENCH_RESULTS", os.path.join(HERE, "results"))
    specs = {n: program_spec(n) for n in names}
    t_bench = time.perf_counter()
    started = datetime.datetime.now()

    tmp = tempfile.mkdtemp(prefix="litmus-bench-")
    try:
        # a private copy, so that a rebuild during the bench does not swap binaries
        litmus = os.path.join(tmp, "litmus")
        shutil.copy2(litmus_src, litmus)
        machine = machine_info()

        log("bench: fork cost (%d x %d forks of a python that imported pytest)" % (FORK_ROUNDS, FORK_N))
        fork_ms, fork_rounds = measure_fork()

        runs, runs1 = {}, {}
        for n in names:
            log("bench: litmus %-18s (default jobs)" % n)
            runs[n] = run_litmus(litmus, specs[n], tmp, "jN")
        for n in names:
            log("bench: litmus %-18s (--jobs 1)" % n)
            runs1[n] = run_litmus(litmus, specs[n], tmp, "j1", jobs=1)

        multi = None
        if "linalg" in names and len(specs["linalg"]["subjects"]) > 1:
            # back to back (and twice, keeping the faster), so that load changes
            # on the machine hit both sides alike
            sep, both = [], None
            for rep in range(2):
                log("bench: litmus linalg, all files in one call (%d/2)" % (rep + 1))
                r = run_litmus(litmus, specs["linalg"], tmp, "multi")
                if both is None or r["wall_s"] < both["wall_s"]:
                    both = r
            for s in specs["linalg"]["subjects"]:
                best = None
                for rep in range(2):
                    log("bench: litmus linalg, %s alone (%d/2)" % (os.path.basename(s), rep + 1))
                    r = run_litmus(litmus, specs["linalg"], tmp, "only-" + os.path.basename(s), subjects=[s])
                    if best is None or r["wall_s"] < best["wall_s"]:
                        best = r
                sep.append((os.path.basename(s), best))
            multi = {
                "files": [os.path.basename(s) for s in specs["linalg"]["subjects"]],
                "one_call": {"mutants": len(both["mutants"]), "wall_s": both["wall_s"],
                             "startup_s": both["startup_s"], "baseline_s": both["baseline_s"]},
                "separate": [{"file": f, "mutants": len(r["mutants"]), "wall_s": r["wall_s"],
                              "startup_s": r["startup_s"], "baseline_s": r["baseline_s"]} for f, r in sep],
            }
            multi["separate_wall_s"] = sum(x["wall_s"] for x in multi["separate"])
            multi["separate_startup_s"] = sum(x["startup_s"] + x["baseline_s"] for x in multi["separate"])

        # ---------------- per-program figures
        per = []
        for n in names:
            row = {"program": n}
            for tag, r in (("", runs[n]), ("j1_", runs1[n])):
                fl = floor_of(r, fork_ms)
                row.update({
                    tag + "mutants": len(r["mutants"]), tag + "mutants_run": r["mutants_run"],
                    tag + "jobs": r["jobs"], tag + "wall_s": r["wall_s"],
                    tag + "mutants_per_s": safe_div(len(r["mutants"]), r["wall_s"]),
                    tag + "startup_s": r["startup_s"], tag + "baseline_s": r["baseline_s"],
                    tag + "mutants_s": r["mutants_s"],
                    tag + "marginal_ms": safe_div(r["mutants_s"] * 1000.0, r["mutants_run"]),
                    tag + "floor_s": fl["floor_s"], tag + "floor_with_timeouts_s": fl["floor_with_timeouts_s"],
                    tag + "wall_over_floor": safe_div(r["wall_s"], fl["floor_s"]),
                    tag + "zygote_rss_kb": r["zygote_rss_kb"], tag + "engine_rss_kb": r["engine_rss_kb"],
                })
            row["tests_baseline_s"] = floor_of(runs[n], fork_ms)["tests_baseline_s"]
            row["verdicts"] = runs[n]["verdicts"]
            row["exit"], row["j1_exit"] = runs[n]["exit"], runs1[n]["exit"]
            row["summary"] = runs[n]["summary"]
            row["no_result"] = [m["id"] for m in runs[n]["mutants"] if m["verdict"] == "none"]
            row["j1_no_result"] = [m["id"] for m in runs1[n]["mutants"] if m["verdict"] == "none"]
            v1 = {m["id"]: m["verdict"] for m in runs1[n]["mutants"]}
            diff = [(m["id"], m["verdict"], v1.get(m["id"], "missing")) for m in runs[n]["mutants"]
                    if v1.get(m["id"], "missing") != m["verdict"]]
            row["jobs_verdict_diffs"] = diff
            row["max_child_rss_kb"] = max([m["rss_kb"] for m in runs[n]["mutants"]] or [0])
            per.append(row)

        def total(tag):
            rs = runs if tag == "" else runs1
            t = {}
            t["mutants"] = sum(len(rs[n]["mutants"]) for n in names)
            t["mutants_run"] = sum(rs[n]["mutants_run"] for n in names)
            t["wall_s"] = sum(rs[n]["wall_s"] for n in names)
            t["startup_s"] = sum(rs[n]["startup_s"] for n in names)
            t["baseline_s"] = sum(rs[n]["baseline_s"] for n in names)
            t["mutants_s"] = sum(rs[n]["mutants_s"] for n in names)
            t["mutants_per_s"] = safe_div(t["mutants"], t["wall_s"])
            t["marginal_ms"] = safe_div(t["mutants_s"] * 1000.0, t["mutants_run"])
            fls = [floor_of(rs[n], fork_ms) for n in names]
            t["floor_s"] = sum(f["floor_s"] for f in fls)
            t["floor_with_timeouts_s"] = sum(f["floor_with_timeouts_s"] for f in fls)
            t["wall_over_floor"] = safe_div(t["wall_s"], t["floor_s"])
            t["wall_minus_startup_over_floor"] = safe_div(t["wall_s"] - t["startup_s"], t["floor_s"])
            t["wall_over_floor_with_timeouts"] = safe_div(t["wall_s"], t["floor_with_timeouts_s"])
            t["jobs"] = max(rs[n]["jobs"] for n in names)
            child = sorted(x for f in fls for x in f["child_ms"])
            t["child_median_ms"] = statistics.median(child) if child else None
            t["floor_uses_coverage"] = sum(1 for f in fls if f["coverage_selection"])
            t["timeout_rechecks"] = sum(rs[n]["timeout_rechecks"] for n in names)
            nr = sum(f["floor_mutants_run"] for f in fls)
            t["floor_per_mutant_ms"] = (sum(f["per_mutant_floor_ms"] * f["floor_mutants_run"] for f in fls
                                            if f["floor_mutants_run"]) / nr) if nr else None
            return t

        tot, tot1 = total(""), total("j1_")
        verdicts = {}
        for n in names:
            for k, c in runs[n]["verdicts"].items():
                verdicts[k] = verdicts.get(k, 0) + c

        # ---------------- comparator
        comp = None
        if sample_n > 0:
            base_wall = {}
            for n in names:
                log("bench: comparator baseline %s" % n)
                base_wall[n] = comparator_baseline(specs[n], tmp)
            sample = pick_sample(runs, names, sample_n)
            rows = []
            for i, (n, m) in enumerate(sample):
                source = runs[n]["sources"].get(m["file"])
                if source is None:
                    with open(m["file"], "rb") as f:
                        source = f.read()
                timeout = 10.0 * base_wall[n] + 5.0
                cv, rc, wall = comparator_mutant(specs[n], m, source, tmp, timeout, i)
                log("bench: comparator %3d/%d %-16s %s litmus=%-9s comparator=%-8s %.2fs" % (
                    i + 1, len(sample), n, m["id"], m["verdict"], cv, wall))
                rows.append({"program": n, "id": m["id"], "file": rel(m["file"]), "line": m["line"],
                             "op": m["op"], "original": m["original"], "replacement": m["replacement"],
                             "litmus": m["verdict"], "comparator": cv, "exit": rc, "wall_s": wall,
                             "timeout_s": timeout})
            # stratified extrapolation: mean cost of the program's sampled mutants x its mutants
            extrap = 0.0
            for n in names:
                ws = [r["wall_s"] for r in rows if r["program"] == n]
                if ws:
                    extrap += statistics.mean(ws) * len(runs[n]["mutants"])
            sampled_programs = {r["program"] for r in rows}
            all_in_sampled = sum(len(runs[n]["mutants"]) for n in sampled_programs)
            per_mutant = extrap / all_in_sampled if all_in_sampled else None
            whole = (extrap * tot["mutants"] / all_in_sampled if all_in_sampled else 0.0) + sum(base_wall.values())
            agree = disagree = 0
            dis, other = [], []
            pairs = {}
            for r in rows:
                lc, cc = litmus_class(r["litmus"]), comparator_class(r["comparator"])
                key = "%s/%s" % (r["litmus"], r["comparator"])
                pairs[key] = pairs.get(key, 0) + 1
                if lc == "other" or cc == "other":
                    other.append(r)
                elif lc == cc:
                    agree += 1
                else:
                    disagree += 1
                    dis.append(r)
            comp = {
                "sample": len(rows), "requested": sample_n,
                "baseline_wall_s": base_wall,
                "sample_wall_s": sum(r["wall_s"] for r in rows),
                "sample_mean_s": statistics.mean([r["wall_s"] for r in rows]) if rows else None,
                "per_mutant_s": per_mutant,
                "whole_run_s": whole,
                "marginal_ratio": safe_div(per_mutant, (tot["marginal_ms"] or 0) / 1000.0),
                "marginal_ratio_jobs1": safe_div(per_mutant, (tot1["marginal_ms"] or 0) / 1000.0),
                "whole_ratio": safe_div(whole, tot["wall_s"]),
                "whole_ratio_jobs1": safe_div(whole, tot1["wall_s"]),
                "agree": agree, "disagree": disagree,
                "agreement": safe_div(agree, agree + disagree),
                "disagreements": dis, "other": other, "verdict_pairs": pairs, "rows": rows,
            }

        rss = {
            "engine_peak_kb": max(runs[n]["engine_rss_kb"] for n in names),
            "engine_peak_program": max(names, key=lambda n: runs[n]["engine_rss_kb"]),
            "zygote_peak_kb": max(runs[n]["zygote_rss_kb"] for n in names),
            "zygote_peak_program": max(names, key=lambda n: runs[n]["zygote_rss_kb"]),
            "child_peak_kb": max(r["max_child_rss_kb"] for r in per),
        }
        jobs_diffs = [(r["program"],) + d for r in per for d in r["jobs_verdict_diffs"]]

        report = {
            "date": started.strftime("%Y-%m-%d"), "started": started.isoformat(timespec="seconds"),
            "machine": machine, "litmus": litmus_src, "programs": names,
            "fork_ms": fork_ms, "fork_rounds_ms": fork_rounds,
            "totals": tot, "totals_jobs1": tot1, "verdicts": verdicts,
            "per_program": per, "multi_file": multi, "comparator": comp, "rss": rss,
            "jobs_verdict_diffs": jobs_diffs,
            "bench_wall_s": time.perf_counter() - t_bench,
        }
        text = render(report)
        os.makedirs(results_dir, exist_ok=True)
        base = os.path.join(results_dir, report["date"])
        with open(base + ".json", "w") as f:
            json.dump(report, f, indent=1, sort_keys=False)
            f.write("\n")
        with open(base + ".txt", "w") as f:
            f.write(text)
        sys.stdout.write(text)
        log("bench: wrote %s.json and %s.txt" % (rel(base), rel(base)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def render(R):
    L = []
    p = L.append
    t, t1, c, m = R["totals"], R["totals_jobs1"], R["comparator"], R["machine"]
    p("litmus benchmark  %s  (%d cores, %s; python %s, pytest %s; litmus %s%s)" % (
        R["started"], m["cores"] or 0, m["cpu"], m["python"], m["pytest"], m["commit"],
        "+dirty" if m["dirty"] else ""))
    p("corpus: %d programs, %d mutants (%d run); bench took %.0f s" % (
        len(R["programs"]), t["mutants"], t["mutants_run"], R["bench_wall_s"]))
    p("")
    p("HEADLINE (ratios)")
    if c:
        p("  marginal cost per mutant, comparator / litmus:  %s  (--jobs %d)   %s  (--jobs 1)   target >= 100x" % (
            fmt_ratio(c["marginal_ratio"]), t["jobs"], fmt_ratio(c["marginal_ratio_jobs1"])))
        p("  whole run, comparator / litmus:                 %s  (--jobs %d)   %s  (--jobs 1)   target >= 50x" % (
            fmt_ratio(c["whole_ratio"]), t["jobs"], fmt_ratio(c["whole_ratio_jobs1"])))
        p("  verdict agreement on sampled mutants:           %d/%d = %.1f%%  (%d disagreements, %d not comparable)   target 100%%" % (
            c["agree"], c["agree"] + c["disagree"], 100.0 * (c["agreement"] or 0), c["disagree"], len(c["other"])))
    p("  litmus wall / floor:                            %s  (--jobs %d)   %s  (--jobs 1)   target <= 1.5x" % (
        fmt_ratio(t["wall_over_floor"]), t["jobs"], fmt_ratio(t1["wall_over_floor"])))
    p("    same, start-up left out of the wall:          %s  (--jobs %d)   %s  (--jobs 1)" % (
        fmt_ratio(t["wall_minus_startup_over_floor"]), t["jobs"], fmt_ratio(t1["wall_minus_startup_over_floor"])))
    p("    same, timeouts charged at their limit:        %s  (--jobs %d)   %s  (--jobs 1)" % (
        fmt_ratio(t["wall_over_floor_with_timeouts"]), t["jobs"], fmt_ratio(t1["wall_over_floor_with_timeouts"])))
    r = R["rss"]
    p("  peak RSS: litmus %.1f MB (target <= 30 + store), zygote %.1f MB (target <= 80), largest mutant child %.1f MB" % (
        r["engine_peak_kb"] / 1024.0, r["zygote_peak_kb"] / 1024.0, r["child_peak_kb"] / 1024.0))
    p("  verdicts --jobs %d vs --jobs 1: %s" % (
        t["jobs"], "identical" if not R["jobs_verdict_diffs"] else "%d differ" % len(R["jobs_verdict_diffs"])))
    p("")
    p("LITMUS TOTALS            --jobs %-3d  --jobs 1" % t["jobs"])
    for label, key, f in (("mutants", "mutants", "%9d"), ("mutants run", "mutants_run", "%9d"),
                          ("wall s", "wall_s", "%9.2f"), ("mutants/s", "mutants_per_s", "%9.1f"),
                          ("start-up s", "startup_s", "%9.2f"), ("baseline s", "baseline_s", "%9.2f"),
                          ("mutant phase s", "mutants_s", "%9.2f"), ("marginal ms/mutant", "marginal_ms", "%9.2f"),
                          ("floor s", "floor_s", "%9.2f"), ("floor+timeouts s", "floor_with_timeouts_s", "%9.2f")):
        p("  %-20s %s  %s" % (label, f % (t[key] or 0), f % (t1[key] or 0)))
    p("  floor per run mutant (fork + its tests on the original): %.2f ms mean; "
      "litmus child time of killed/survived mutants: %.2f ms median (results.duration_ms)" % (
          t["floor_per_mutant_ms"] or 0, t["child_median_ms"] or 0))
    p("  floor: tests of a mutant = %s" % (
        "covering tests, fastest first, first tests_run of them (tests.coverage)"
        if t["floor_uses_coverage"] == len(R["programs"]) else
        "first tests_run passing tests in baseline order (no tests.coverage in %d programs)" % (
            len(R["programs"]) - t["floor_uses_coverage"])))
    p("  timeout re-checks (meta run_timeout_rechecks): %d" % t["timeout_rechecks"])
    p("  fork cost (floor) %.3f ms  (median of %s ms, %d forks each)" % (
        R["fork_ms"], ", ".join("%.3f" % x for x in R["fork_rounds_ms"]), FORK_N))
    p("  verdicts: " + ", ".join("%s %d" % (k, v) for k, v in sorted(R["verdicts"].items(), key=lambda kv: -kv[1])))
    p("")
    p("PER PROGRAM (--jobs %d unless marked j1)" % t["jobs"])
    p("  %-16s %4s %4s %6s %6s %7s %8s %7s %7s %6s | %6s %8s %6s" % (
        "program", "mut", "run", "wall", "mut/s", "st+bl", "marg.ms", "floor", "w/flr", "tmout",
        "j1wall", "j1marg", "j1w/f"))
    for row in R["per_program"]:
        p("  %-16s %4d %4d %6.2f %6.1f %7.3f %8.2f %7.3f %7s %6d | %6.2f %8.2f %6s" % (
            row["program"], row["mutants"], row["mutants_run"], row["wall_s"], row["mutants_per_s"] or 0,
            row["startup_s"] + row["baseline_s"], row["marginal_ms"] or 0, row["floor_s"],
            fmt_ratio(row["wall_over_floor"]), row["verdicts"].get("timeout", 0),
            row["j1_wall_s"], row["j1_marginal_ms"] or 0, fmt_ratio(row["j1_wall_over_floor"])))
    p("  (st+bl = start-up + baseline from meta; marg.ms = run_mutants_s / mutants run; "
      "tmout = timeout verdicts)")
    missing = [(r["program"], "jobs %d" % t["jobs"], r["no_result"]) for r in R["per_program"] if r["no_result"]]
    missing += [(r["program"], "jobs 1", r["j1_no_result"]) for r in R["per_program"] if r["j1_no_result"]]
    if missing:
        p("  mutants with no row in results after litmus exited (verdict 'none'):")
        for prog, tag, ids in missing:
            p("    %s (%s): %s" % (prog, tag, " ".join(ids)))
    if R["jobs_verdict_diffs"]:
        p("  verdicts that differ between --jobs %d and --jobs 1:" % t["jobs"])
        for prog, mid, a, b in R["jobs_verdict_diffs"]:
            p("    %s %s  jobs%d=%s  jobs1=%s" % (prog, mid, t["jobs"], a, b))
    p("")
    mf = R["multi_file"]
    if mf:
        p("MANY FILES IN ONE CALL (linalg: %s; programs of the corpus cannot share a call, their tests conflict)" % (
            " + ".join(mf["files"])))
        o = mf["one_call"]
        p("  one call:    %3d mutants  wall %.2f s  start-up+baseline %.3f s" % (
            o["mutants"], o["wall_s"], o["startup_s"] + o["baseline_s"]))
        for s in mf["separate"]:
            p("  %-12s %3d mutants  wall %.2f s  start-up+baseline %.3f s" % (
                s["file"] + ":", s["mutants"], s["wall_s"], s["startup_s"] + s["baseline_s"]))
        p("  separate calls together: wall %.2f s, start-up+baseline %.3f s  (one call saves %.3f s of start-up)" % (
            mf["separate_wall_s"], mf["separate_startup_s"],
            mf["separate_startup_s"] - o["startup_s"] - o["baseline_s"]))
        p("")
    if c:
        p("PROCESS-PER-MUTANT COMPARATOR (copy folder, apply mutant, python3 -m pytest -x -q -p no:cacheprovider)")
        p("  sample: %d mutants (BENCH_SAMPLE=%d), %.1f s; mean %.3f s per sampled mutant" % (
            c["sample"], c["requested"], c["sample_wall_s"], c["sample_mean_s"] or 0))
        p("  cost per mutant (stratified by program): %.3f s   vs litmus marginal %.2f ms (--jobs %d), %.2f ms (--jobs 1)" % (
            c["per_mutant_s"] or 0, t["marginal_ms"] or 0, t["jobs"], t1["marginal_ms"] or 0))
        p("  whole run extrapolated: %.1f s (per-mutant cost x %d mutants + %.1f s of baseline pytest runs)"
          "   vs litmus %.2f s (--jobs %d), %.2f s (--jobs 1)" % (
              c["whole_run_s"], t["mutants"], sum(c["baseline_wall_s"].values()), t["wall_s"], t["jobs"], t1["wall_s"]))
        p("  verdict pairs litmus/comparator: " + ", ".join(
            "%s %d" % kv for kv in sorted(c["verdict_pairs"].items(), key=lambda kv: -kv[1])))
        if c["disagreements"]:
            p("  disagreements (mutant id, litmus verdict, comparator verdict):")
            for d in c["disagreements"]:
                p("    %s  %-9s %-9s %s:%s %s: %r -> %r  (comparator %.2f s, limit %.1f s)" % (
                    d["id"], d["litmus"], d["comparator"], d["file"], d["line"], d["op"],
                    d["original"], d["replacement"], d["wall_s"], d["timeout_s"]))
        else:
            p("  disagreements: none")
        if c["other"]:
            p("  not comparable (equivalent/invalid/error in litmus, or comparator error):")
            for d in c["other"]:
                p("    %s  %-11s %-9s %s:%s %s: %r -> %r" % (
                    d["id"], d["litmus"], d["comparator"], d["file"], d["line"], d["op"],
                    d["original"], d["replacement"]))
    return "\n".join(L) + "\n"


if __name__ == "__main__":
    main()
