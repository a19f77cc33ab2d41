"""Shared helpers for the black-box CLI tests of `webrank` (tests/cli/test_*.py).

Not a test file itself.  Each test file does

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import wrcli
    ...
    if __name__ == "__main__":
        wrcli.main()

and is run as  /usr/bin/python3 tests/cli/FILE.py --webrank PATH_TO_BINARY [unittest args]
(the binary defaults to $WEBRANK_BIN, then to <repo>/build/webrank).

Only the standard library and numpy are used here.
"""

import atexit
import hashlib
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

import numpy as np

WEBRANK = None          # absolute path of the binary, set by main()
TIMEOUT = 120           # seconds per webrank invocation

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# --------------------------------------------------------------------------------------------
# command line of the test files
# --------------------------------------------------------------------------------------------
def _strip_webrank_arg(argv):
    path = os.environ.get("WEBRANK_BIN") or None
    rest = [argv[0]]
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--webrank":
            if i + 1 >= len(argv):
                sys.exit("--webrank needs a path")
            path = argv[i + 1]
            i += 2
            continue
        if a.startswith("--webrank="):
            path = a.split("=", 1)[1]
            i += 1
            continue
        rest.append(a)
        i += 1
    if path is None:
        path = os.path.join(_REPO, "build", "webrank")
    return path, rest


def main():
    global WEBRANK
    path, rest = _strip_webrank_arg(sys.argv)
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.stderr.write("webrank binary not found or not executable: %r "
                         "(use --webrank PATH or WEBRANK_BIN)\n" % path)
        sys.exit(2)
    WEBRANK = os.path.abspath(path)
    # webrank remembers verified databases under $XDG_CACHE_HOME/webrank: a directory of this
    # run's own, not the user's cache.
    cache = tempfile.mkdtemp(prefix="webrank-test-cache-")
    atexit.register(shutil.rmtree, cache, True)
    os.environ["XDG_CACHE_HOME"] = cache
    program = unittest.main(module="__main__", argv=rest, exit=False)
    # Every skip with its reason, in a form scripts/test.sh collects into its summary.
    for test, reason in program.result.skipped:
        sys.stderr.write("webrank-test skipped: %s: %s\n" % (test.id().split(".", 1)[-1], reason))
    # 1 on any failure or error, 0 otherwise (as unittest.main would exit)
    sys.exit(0 if program.result.wasSuccessful() else 1)


# --------------------------------------------------------------------------------------------
# running the binary
# --------------------------------------------------------------------------------------------
class Result:
    def __init__(self, argv, proc):
        self.argv = argv
        self.rc = proc.returncode
        self.out_bytes = proc.stdout
        self.err_bytes = proc.stderr
        self.out = proc.stdout.decode("utf-8", "replace")
        self.err = proc.stderr.decode("utf-8", "replace")

    def describe(self):
        return ("command: %s\nexit: %s\n--- stdout ---\n%s\n--- stderr ---\n%s"
                % (" ".join(_quote(a) for a in self.argv), self.rc,
                   self.out[-3000:], self.err[-3000:]))


def _quote(a):
    a = str(a)
    if a and re.fullmatch(r"[\w@%+=:,./-]+", a):
        return a
    return "'" + a.replace("'", "'\"'\"'") + "'"


def run_webrank(args, cwd=None, input=None):
    argv = [WEBRANK] + [str(a) for a in args]
    proc = subprocess.run(argv, cwd=cwd, input=input, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=TIMEOUT)
    return Result(["webrank"] + [str(a) for a in args], proc)


def declared_default(operation, option):
    """The default of `option` of `operation` as the binary declares it (`webrank
    --declarations`): tests check the declared defaults rather than copies of them."""
    ops = json.loads(run_webrank(["--declarations"]).out)
    for op in ops:
        if op["name"] == operation:
            for o in op["options"]:
                if o["name"] == option:
                    return o["default"]
    raise KeyError("%s has no option %s" % (operation, option))


def crashed(rc):
    """A negative code (killed by a signal) or >= 128 (shell-style signal code) is a crash."""
    return rc < 0 or rc >= 128


# --------------------------------------------------------------------------------------------
# rank files
# --------------------------------------------------------------------------------------------
def json_lines(text):
    """The JSON objects among the lines of `text` (--progress json output), in order."""
    return [json.loads(x) for x in text.splitlines() if x.startswith("{")]


def read_rank_file(path):
    """Parse `label<TAB>rank` lines; returns the list of (label, value_string) in file order."""
    with open(path, "rb") as f:
        data = f.read().decode("utf-8")
    rows = []
    for n, line in enumerate(data.split("\n"), 1):
        if line == "":
            continue
        if line.endswith("\r"):
            line = line[:-1]
        if "\t" not in line:
            raise AssertionError("%s:%d: no TAB in rank line %r" % (path, n, line))
        label, value = line.rsplit("\t", 1)
        rows.append((label, value))
    return rows


def ranks_dict(rows):
    d = {}
    for label, value in rows:
        if label in d:
            raise AssertionError("label %r appears twice in the rank file" % label)
        d[label] = float(value)
    return d


def l1(a, b):
    """L1 distance between two label->value dicts with identical key sets."""
    if set(a) != set(b):
        only_a = sorted(set(a) - set(b))[:5]
        only_b = sorted(set(b) - set(a))[:5]
        raise AssertionError("label sets differ: only in first %r, only in second %r"
                             % (only_a, only_b))
    return math.fsum(abs(a[k] - b[k]) for k in a)


def max_abs(a, b):
    l1(a, b)  # key check
    return max(abs(a[k] - b[k]) for k in a) if a else 0.0


def worst(a, b, n=3):
    ks = sorted(a, key=lambda k: -abs(a[k] - b.get(k, 0.0)))[:n]
    return ", ".join("%r: got %.17g want %.17g" % (k, a[k], b.get(k, float("nan"))) for k in ks)


# --------------------------------------------------------------------------------------------
# file-system snapshots (for "nothing half-written")
# --------------------------------------------------------------------------------------------
def snapshot(root):
    """relative path -> sha256 (files) or '<dir>' for every entry under root (root included)."""
    snap = {}
    if not os.path.exists(root):
        return None
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        snap[rel + "/"] = "<dir>"
        for fn in filenames:
            p = os.path.join(dirpath, fn)
            if os.path.islink(p):
                snap[os.path.join(rel, fn)] = "<link>" + os.readlink(p)
                continue
            h = hashlib.sha256()
            with open(p, "rb") as f:
                h.update(f.read())
            snap[os.path.join(rel, fn)] = h.hexdigest()
    return snap


def stored_vector(db, name):
    """The stored rank vector NAME of database DB, as float64 numpy values by page id."""
    with open(os.path.join(db, "ranks", name + ".json")) as f:
        meta = json.load(f)
    dtype = np.float32 if meta["precision"] == "float" else np.float64
    return np.fromfile(os.path.join(db, "ranks", name + ".ranks"), dtype=dtype,
                       count=meta["pages"], offset=64).astype(np.float64)


def build_class_web(cls, prefix, write_edges):
    """For a test class's setUpClass: a temporary directory `cls.shared` (removed after the
    class) holding web.db, built from the edge list write_edges(path) writes to web.tsv."""
    tmp = tempfile.TemporaryDirectory(prefix=prefix)
    cls.addClassCleanup(tmp.cleanup)
    cls.shared = tmp.name
    edges = os.path.join(cls.shared, "web.tsv")
    write_edges(edges)
    res = run_webrank(["build", edges, "-o", os.path.join(cls.shared, "web.db"), "-q"])
    assert res.rc == 0, res.describe()


def list_dir(root):
    return sorted(os.listdir(root))


# --------------------------------------------------------------------------------------------
# reference solver (numpy only)
# --------------------------------------------------------------------------------------------
def reference_pagerank(labels, links, d, E=None, W="E", tol=1e-15, max_iter=1000000):
    """Fixed point of  R = (1-d) E + d (M R + (sum of dangling R) W).

    labels: list of page labels; links: dict (src, dst) -> weight (duplicates already merged);
    E: dict label -> weight (normalized here; None = uniform); W: "E", "uniform", "leak" or a
    dict label -> weight.  Dense direct solve for small graphs (d < 1 or d == 1), otherwise a
    float64 power iteration to `tol`.  Returns dict label -> value.
    """
    idx = {l: i for i, l in enumerate(labels)}
    n = len(labels)
    src = np.array([idx[u] for (u, v) in links], dtype=np.int64)
    dst = np.array([idx[v] for (u, v) in links], dtype=np.int64)
    w = np.array([float(x) for x in links.values()], dtype=np.float64)
    out = np.bincount(src, weights=w, minlength=n) if len(w) else np.zeros(n)
    dangling = out == 0
    if E is None:
        e = np.full(n, 1.0 / n)
    else:
        e = np.array([float(E.get(l, 0.0)) for l in labels])
        e /= e.sum()
    if isinstance(W, dict):
        wv = np.array([float(W.get(l, 0.0)) for l in labels])
        wv /= wv.sum()
    elif W == "E":
        wv = e
    elif W == "uniform":
        wv = np.full(n, 1.0 / n)
    elif W == "leak":
        wv = np.zeros(n)
    else:
        raise ValueError(W)
    coef = np.zeros(len(w))
    if len(w):
        coef = w / out[src]
    if n <= 600:
        M = np.zeros((n, n))
        np.add.at(M, (dst, src), coef)
        M[:, dangling] += wv[:, None]
        if d == 1.0:
            A = np.eye(n) - M
            A[-1, :] = 1.0
            rhs = np.zeros(n)
            rhs[-1] = 1.0
            r = np.linalg.solve(A, rhs)
        else:
            r = np.linalg.solve(np.eye(n) - d * M, (1 - d) * e)
        return dict(zip(labels, r.tolist()))
    r = e.copy() if W != "leak" else e.copy()
    for _ in range(max_iter):
        nr = np.bincount(dst, weights=coef * r[src], minlength=n)
        nr = d * (nr + r[dangling].sum() * wv) + (1 - d) * e
        delta = np.abs(nr - r).sum()
        r = nr
        if delta < tol:
            break
    return dict(zip(labels, r.tolist()))


# --------------------------------------------------------------------------------------------
# base test case
# --------------------------------------------------------------------------------------------
class WebrankTestCase(unittest.TestCase):
    maxDiff = 4000

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="webrank-test-")
        self.addCleanup(self._tmp.cleanup)
        self.dir = self._tmp.name

    # -- files
    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, content):
        p = self.path(name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        mode = "wb" if isinstance(content, (bytes, bytearray)) else "w"
        kw = {} if mode == "wb" else {"encoding": "utf-8", "newline": ""}
        with open(p, mode, **kw) as f:
            f.write(content)
        return p

    # -- running
    def wr(self, *args, expect=0, input=None, cwd=None):
        """Run webrank with args in cwd (default: the test's temp dir); fail on a crash, and
        on an exit code != expect unless expect is None."""
        res = run_webrank(args, cwd=cwd or self.dir, input=input)
        if crashed(res.rc):
            self.fail("webrank crashed (signal)\n" + res.describe())
        ok = (expect,) if not isinstance(expect, tuple) else expect
        if expect is not None and res.rc not in ok:
            self.fail("expected exit %s\n%s" % (" or ".join(map(str, ok)), res.describe()))
        return res

    def build(self, inputs, db="db", extra=(), input=None):
        if isinstance(inputs, str):
            inputs = [inputs]
        self.wr("build", *inputs, "-o", db, *extra, input=input)
        return db

    def rank(self, db, *extra, out="ranks.tsv", expect=0):
        """Run `webrank rank DB --out OUT extra...`; returns (rows, dict)."""
        outp = self.path(out)
        if os.path.exists(outp):
            os.unlink(outp)
        res = self.wr("rank", db, "--out", out, *extra, expect=expect)
        self.assertTrue(os.path.isfile(outp), "rank did not write --out\n" + res.describe())
        rows = read_rank_file(outp)
        return rows, ranks_dict(rows)

    def assertRanksClose(self, got, want, tol, metric="l1", msg=""):
        dist = l1(got, want) if metric == "l1" else max_abs(got, want)
        if not dist <= tol:
            self.fail("%s distance %.3g > %.3g %s\nworst: %s"
                      % (metric, dist, tol, msg, worst(got, want)))


def pages_of(test, db):
    """`webrank export DB --pages` as {url: row}."""
    out = test.wr("export", db, "--pages").out
    return {r[0]: r for r in (line.split("\t") for line in out.splitlines()[1:] if line)}


def links_of(test, db):
    """`webrank export DB`'s links, sorted."""
    out = test.wr("export", db).out
    return sorted(tuple(line.split("\t")) for line in out.splitlines() if line)


def kill_crawl_when(proc, ready):
    """Kills `proc`, a crawl started with --progress json and stderr=PIPE, with SIGKILL at its
    first progress line for which ready(progress) holds (or once its stderr ends), and reaps it.
    Each progress line (at most 5 a second) wakes the loop: no timer."""
    try:
        for line in proc.stderr:
            if line.startswith("{") and ready(json.loads(line)):
                break
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
        proc.stderr.close()
