#!/usr/bin/python3
"""`webrank partition` and `mpirun -np P webrank rank-mpi PARTS`: the distributed power iteration.

Every vector equals the single-machine one to 1e-12 in L1 (1, 2 and 4 processes on this machine,
--oversubscribe; power, paper, leak, personalized, custom dangling weights, float, weighted);
the parts hold exactly each range's backlinks and the remote pages they come from, balanced by
links; errors (process count, method, a database changed since, a damaged part) stop every
process with one message; kill -9 during `partition` leaves the old parts and the database as
they were; the plain webrank links no MPI.

mpirun refuses to run as root unless told: the tests set OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM).
Run:  /usr/bin/python3 tests/cli/test_mpi.py --webrank build/webrank [-v]
"""

import json
import os
import random
import shutil
import signal
import subprocess
import sys

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402

MPIRUN = shutil.which("mpirun")


def random_web(seed, n=3000, m=24000, weighted=False):
    """Host-clustered enough that parts have both local and remote backlinks; the last tenth of
    the pages is dangling; a few isolated pages."""
    rnd = random.Random(seed)
    lines = []
    for _ in range(m):
        u = rnd.randrange(9 * n // 10)
        v = min(n - 1, max(0, u + rnd.randint(-40, 40))) if rnd.random() < 0.7 else rnd.randrange(n)
        lines.append("p%d\tp%d" % (u, v) + ("\t%d" % rnd.randint(1, 4) if weighted else ""))
    lines += ["lonely%d" % i for i in range(5)]
    return "\n".join(lines) + "\n"


def section(path, dtype):
    with open(path, "rb") as f:
        f.seek(32)
        count = int(np.frombuffer(f.read(8), dtype=np.uint64)[0])
    return np.fromfile(path, dtype=dtype, count=count, offset=64)


class Distributed(WebrankTestCase):
    @classmethod
    def setUpClass(cls):
        def write(path):
            with open(path, "w") as f:
                f.write(random_web(1))
        wrcli.build_class_web(cls, "webrank-mpi-", write)

    def setUp(self):
        super().setUp()
        if MPIRUN is None:
            self.skipTest("mpirun not found (scripts/install-deps.sh installs openmpi-bin)")

    def mpirun(self, np_, *args, expect=0):
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
        argv = [MPIRUN, "-np", str(np_), "--oversubscribe", wrcli.WEBRANK, "rank-mpi"]
        argv += [str(a) for a in args]
        proc = subprocess.run(argv, cwd=self.dir, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=120)
        res = wrcli.Result(["mpirun", "-np", str(np_), "webrank", "rank-mpi"] +
                           [str(a) for a in args], proc)
        if expect is not None and res.rc != expect:
            self.fail("expected exit %s\n%s" % (expect, res.describe()))
        return res

    def db(self):
        return os.path.join(self.shared, "web.db")

    def partition(self, parts, out, db=None, *extra):
        res = self.wr("partition", db or self.db(), "-n", parts, "-o", out, "--json", *extra)
        return json.loads(res.out)

    def assertSameVector(self, db, a, b, tol=1e-12):
        x, y = wrcli.stored_vector(db, a), wrcli.stored_vector(db, b)
        self.assertEqual(len(x), len(y))
        self.assertLessEqual(float(np.abs(x - y).sum()), tol, "%s vs %s" % (a, b))

    def test_one_two_four_processes(self):
        self.wr("rank", self.db(), "--name", "single", "-q")
        for p in (1, 2, 4):
            parts = self.path("parts%d" % p)
            self.partition(p, parts)
            self.mpirun(p, parts, "--name", "mpi%d" % p, "-q")
            self.assertSameVector(self.db(), "single", "mpi%d" % p)
            with open(os.path.join(self.db(), "ranks", "mpi%d.json" % p)) as f:
                meta = json.load(f)
            self.assertEqual(meta["processes"], p)
            sent = meta["bytes_sent_per_iteration"]
            self.assertEqual(len(sent), p)
            if p == 1:
                self.assertEqual(sent, [0])
            else:
                self.assertTrue(all(b > 0 for b in sent), sent)
        self.wr("check", self.db(), "--ranks", "mpi4")

    def test_variants(self):
        parts = self.path("parts")
        self.partition(3, parts)
        self.write("dw.tsv", "p3\t2\np2999\t1\n")
        variants = {
            "paper": ("--method", "paper"),
            "leak-pers": ("--dangling", "leak", "--personalize", "p10", "--personalize", "p2000"),
            "dw-auto": ("--dangling-weights", self.path("dw.tsv"), "--method", "auto"),
            "float": ("--precision", "float", "--tol", "1e-6", "--dangling", "uniform"),
        }
        for name, opts in variants.items():
            # auto runs power on several machines
            single = opts[:2] + ("--method", "power") if name == "dw-auto" else opts
            self.wr("rank", self.db(), "--name", "s-" + name, "-q", *single)
            self.mpirun(3, parts, "--name", "m-" + name, "-q", *opts)
            self.assertSameVector(self.db(), "s-" + name, "m-" + name,
                                  tol=1e-6 if name == "float" else 1e-12)

    def test_weighted_web(self):
        self.write("w.tsv", random_web(2, weighted=True))
        self.build("w.tsv", "w.db", extra=("--weighted",))
        self.partition(4, self.path("wparts"), self.path("w.db"))
        self.wr("rank", "w.db", "--name", "single", "-q")
        self.mpirun(4, "wparts", "--name", "mpi", "--progress", "json")
        self.assertSameVector(self.path("w.db"), "single", "mpi")

    def test_parts_hold_the_backlinks_and_remote_pages(self):
        report = self.partition(4, self.path("parts"))
        with open(self.path("parts/manifest.json")) as f:
            manifest = json.load(f)
        b = manifest["boundaries"]
        self.assertEqual(b[0], 0)
        self.assertEqual(b[-1], report["pages"])
        links = [p["links"] for p in report["parts"]]
        self.assertEqual(sum(links), report["links"])
        mean = (report["links"] + report["pages"]) / 4
        for p in report["parts"]:
            self.assertLessEqual(p["links"] + p["pages"], 1.1 * mean + 100, report)
        # Backlink sources by page, from the database itself.
        db_off = section(os.path.join(self.db(), "bwd.offsets"), np.uint64)
        db_src = section(os.path.join(self.db(), "bwd.sources"), np.uint32)
        for k in range(4):
            prefix = self.path("parts/part-%05d." % k)
            off = section(prefix + "bwd.offsets", np.uint64)
            src = section(prefix + "bwd.sources", np.uint32)
            lo, hi = b[k], b[k + 1]
            self.assertTrue(np.array_equal(off, db_off[lo:hi + 1] - db_off[lo]))
            self.assertTrue(np.array_equal(src, db_src[db_off[lo]:db_off[hi]]))
            remote = section(prefix + "remote.pages", np.uint32)
            want = np.unique(src[(src < lo) | (src >= hi)])
            self.assertTrue(np.array_equal(remote, want))
            self.assertEqual(len(remote), report["parts"][k]["remote_pages"])

    def test_errors_stop_every_process_with_one_message(self):
        parts = self.path("parts")
        self.partition(2, parts)
        res = self.mpirun(3, parts, "--name", "x", expect=None)
        self.assertNotEqual(res.rc, 0)
        self.assertEqual(res.err.count("webrank: error:"), 1, res.err)
        self.assertIn("mpirun -np 2", res.err)
        res = self.mpirun(2, parts, "--name", "x", "--method", "gauss-seidel", expect=None)
        self.assertEqual(res.err.count("webrank: error:"), 1, res.err)
        self.assertIn("--method gauss-seidel", res.err)
        res = self.mpirun(2, parts, "--name", "x", "--personalize", "nobody", expect=None)
        self.assertIn("nobody", res.err)
        # A damaged part: the process reading it names the file, every process stops.
        victim = os.path.join(parts, "part-00001.bwd.sources")
        with open(victim, "r+b") as f:
            f.seek(100)
            byte = f.read(1)
            f.seek(100)
            f.write(bytes([byte[0] ^ 0x40]))
        res = self.mpirun(2, parts, "--name", "x", expect=None)
        self.assertNotEqual(res.rc, 0)
        self.assertIn("part-00001.bwd.sources", res.err)
        self.assertEqual(res.err.count("webrank: error:"), 1, res.err)
        self.assertFalse(os.path.exists(os.path.join(self.db(), "ranks", "x.ranks")))

    def test_parts_of_another_version_are_refused(self):
        self.write("a.tsv", "a\tb\nb\tc\nc\ta\n")
        self.build("a.tsv", "a.db")
        self.partition(2, self.path("ap"), self.path("a.db"))
        self.write("b.tsv", "a\tb\nb\tc\nc\tb\n")
        self.build("b.tsv", "a.db", extra=("--force",))
        res = self.mpirun(2, "ap", "--name", "x", expect=None)
        self.assertIn("another version", res.err)

    def test_partition_output_is_atomic(self):
        parts = self.path("parts")
        self.partition(2, parts)
        res = self.wr("partition", self.db(), "-n", "3", "-o", parts, expect=1)
        self.assertIn("--force", res.err)
        os.makedirs(self.path("notparts"))
        self.write("notparts/keep.txt", "mine")
        res = self.wr("partition", self.db(), "-n", "2", "-o", "notparts", "--force", expect=1)
        self.assertIn("not a parts directory", res.err)
        self.wr("partition", self.db(), "-n", "0", "-o", "p0", expect=2)
        # kill -9 while parts are written: the old parts and the database stay as they were.
        self.write("big.tsv", random_web(3, n=20000, m=400000))
        self.build("big.tsv", "big.db")
        self.partition(2, parts, self.path("big.db"), "--force")
        before_parts, before_db = wrcli.snapshot(parts), wrcli.snapshot(self.path("big.db"))
        argv = [wrcli.WEBRANK, "partition", self.path("big.db"), "-n", "2000", "-o", parts,
                "--force", "--progress", "json"]
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            line = p.stderr.readline()
            self.assertIn(b"parts_written", line)
            p.send_signal(signal.SIGKILL)
        finally:
            p.wait()
            p.stderr.close()
        self.assertEqual(wrcli.snapshot(parts), before_parts)
        self.assertEqual(wrcli.snapshot(self.path("big.db")), before_db)
        # The next partition to the same place removes what the killed one left.
        self.partition(2, parts, self.path("big.db"), "--force")
        self.assertEqual([n for n in os.listdir(self.dir) if "webrank-tmp" in n], [])

    def test_plain_webrank_links_no_mpi(self):
        out = subprocess.run(["ldd", wrcli.WEBRANK], stdout=subprocess.PIPE, text=True).stdout
        self.assertNotIn("libmpi", out)
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(wrcli.WEBRANK),
                                                    "webrank-mpi")))


if __name__ == "__main__":
    wrcli.main()
