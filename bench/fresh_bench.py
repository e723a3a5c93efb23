#!/usr/bin/python3
"""Times module- and class-level mutants: fresh import vs re-execution.
See bench/fresh_bench.sh.  Standard library only."""
import ast
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT = [os.path.join(ROOT, "tests", "fixtures", n) for n in (
    "fresh_lazy",
    "fresh_namedtuple", "fresh_ordering", "fresh_registry", "fresh_subclass",
    "fresh_comprehension", "fresh_multiline", "fresh_isinstance")] + [
    os.path.join(HERE, "corpus", n) for n in ("lru_cache", "expr_parser")]
RAN = ("killed", "survived", "timeout", "crashed", "memory")


def function_lines(path):
    """Lines inside function bodies (mutants there are swapped, not
    re-imported, unless they run at import)."""
    with open(path, "rb") as f:
        tree = ast.parse(f.read())
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            body = node.body if isinstance(node.body, list) else [node.body]
            lines.update(range(body[0].lineno, node.end_lineno + 1))
    return lines


def run(litmus, project, db, fresh):
    env = dict(os.environ, LITMUS_FRESH="1" if fresh else "0")
    subprocess.run([litmus, "score", ".", "--tests", ".", "--db", db,
                    "--no-progress", "--jobs", "1"], cwd=project, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT m.id, m.file, m.line, r.verdict, r.duration_ms FROM mutants m"
        " JOIN results r ON r.mutant_id = m.id").fetchall()
    con.close()
    return rows


def main():
    litmus = os.path.abspath(sys.argv[1])
    programs = [os.path.abspath(p) for p in sys.argv[2:]] or DEFAULT
    work = tempfile.mkdtemp(prefix="litmus-fresh-bench-")
    all_old, all_new = [], []
    print("%-22s %8s %10s %10s %7s" % ("program", "mutants", "old ms",
                                        "new ms", "ratio"))
    try:
        for prog in programs:
            name = os.path.basename(prog)
            copy = os.path.join(work, name)
            shutil.copytree(prog, copy, ignore=shutil.ignore_patterns(
                "__pycache__", ".pytest_cache"))
            times = {}
            for fresh in (False, True):
                db = os.path.join(work, "%s-%d.db" % (name, fresh))
                for mid, path, line, verdict, ms in run(litmus, copy, db, fresh):
                    times.setdefault(mid, {})[fresh] = (path, line, verdict, ms)
            inside = {}
            old, new = [], []
            for mid, t in times.items():
                if len(t) != 2:
                    continue
                path, line = t[True][0], t[True][1]
                if path not in inside:
                    inside[path] = function_lines(path)
                if line in inside[path]:
                    continue
                if t[False][2] in RAN and t[True][2] in RAN:
                    old.append(t[False][3])
                    new.append(t[True][3])
            if not old:
                print("%-22s %8d %10s %10s %7s" % (name, 0, "-", "-", "-"))
                continue
            mo, mn = statistics.median(old), statistics.median(new)
            all_old += old
            all_new += new
            print("%-22s %8d %10.1f %10.1f %7.2f" % (name, len(old), mo, mn,
                                                    mn / mo))
        if all_old:
            mo, mn = statistics.median(all_old), statistics.median(all_new)
            print("%-22s %8d %10.1f %10.1f %7.2f" % ("all", len(all_old), mo,
                                                    mn, mn / mo))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
