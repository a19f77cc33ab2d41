#!/usr/bin/python3
"""Bad input, bad usage, damaged databases and non-convergence, through the command line.

Run:  /usr/bin/python3 tests/cli/test_errors.py --webrank build/webrank [-v] [-k NAME]

Every failing case requires (docs/cli-contract.md):
  * the exit status: 1 for bad input / I/O / damaged database, 2 for usage errors, 3 for
    non-convergence; never a crash (killed by a signal, or a status >= 128);
  * for status 1 a stderr line starting `webrank: error: `, naming the file and the line
    (`FILE:LINE`) or, for compressed-stream and database damage, the word "byte" and a number;
  * nothing half-written: a failed `build -o DB` leaves no DB directory and no stray files
    beside it; a failed `build --force` over an existing DB leaves that DB byte-for-byte
    untouched; a failed `rank --out F` leaves no F and does not modify the DB.
"""

import gzip
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
import unittest

sys.dont_write_bytecode = True  # keep tests/cli free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase, snapshot, list_dir, read_rank_file, ranks_dict  # noqa: E402

GOOD = "# a good web\nA\tB\nB\tC\nC\tA\nC\tD\nE\n"
GOOD_W = "# a good weighted web\nA\tB\t1\nB\tC\t2.5\nC\tA\t1\nC\tD\t0.5\nE\n"
BYTE_RE = re.compile(r"bytes?\s*(?:range|offset|at|position|pos)?\s*[:=\[(]?\s*\d+|\d+\s*bytes?\b",
                     re.I)


def located(stderr, name, line):
    """stderr names `name` (possibly with a directory in front) followed by `:line`."""
    return re.search(re.escape(name) + r":%d(?!\d)" % line, stderr) is not None


class ErrorCase(WebrankTestCase):

    def assertErrorMessage(self, res, name=None, line=None, byte=False, either=False):
        """rc-1 message checks: `webrank: error: ` prefix, the file name, FILE:LINE and/or a
        byte offset (either=True: FILE:LINE or a byte offset)."""
        d = res.describe()
        self.assertRegex(res.err, r"(?m)^webrank: error: ", "no `webrank: error: ` line\n" + d)
        if name is not None:
            self.assertIn(name, res.err, "stderr does not name %r\n%s" % (name, d))
        has_line = line is not None and located(res.err, name, line)
        has_byte = BYTE_RE.search(res.err) is not None
        if either:
            self.assertTrue(has_line or has_byte,
                            "stderr gives neither %s:%s nor a byte offset\n%s" % (name, line, d))
        else:
            if line is not None:
                self.assertTrue(has_line, "stderr lacks %s:%d\n%s" % (name, line, d))
            if byte:
                self.assertTrue(has_byte, "stderr lacks a byte offset (\"byte\" and a "
                                          "number)\n%s" % d)


# --------------------------------------------------------------------------------------------
class BuildErrors(ErrorCase):

    def expect_build_failure(self, files, inputs, name=None, line=None, byte=False,
                             either=False, weighted=False, rc=1, extra=()):
        """files: name -> content to write.  Runs `build INPUTS -o out.db` (fresh) and
        `build INPUTS -o good.db --force` (over a good DB); both must fail cleanly."""
        for fn, content in files.items():
            self.write(fn, content)
        flags = list(extra) + (["--weighted"] if weighted else [])
        # a good DB to be protected
        self.write("good-input.tsv", GOOD)
        self.wr("build", "good-input.tsv", "-o", "good.db")
        good_snap = snapshot(self.path("good.db"))
        self.assertTrue(good_snap)
        before = list_dir(self.dir)

        res = self.wr("build", *inputs, "-o", "out.db", *flags, expect=rc)
        if rc == 1:
            self.assertErrorMessage(res, name, line, byte, either)
        else:
            self.assertTrue(res.err.strip(), "usage error without a message\n" + res.describe())
        self.assertFalse(os.path.exists(self.path("out.db")),
                         "a failed build left the DB directory behind\n" + res.describe())
        self.assertEqual(list_dir(self.dir), before,
                         "a failed build left stray files\n" + res.describe())

        res = self.wr("build", *inputs, "-o", "good.db", "--force", *flags, expect=rc)
        self.assertEqual(snapshot(self.path("good.db")), good_snap,
                         "a failed build --force modified the existing DB\n" + res.describe())
        self.assertEqual(list_dir(self.dir), before,
                         "a failed build --force left stray files\n" + res.describe())
        return res

    def bad_file(self, bad_line, weighted=False):
        """A file whose line 5 is `bad_line` (line 1 a comment, line 3 blank, more after)."""
        w = "\t1" if weighted else ""
        return ("# header comment\nA\tB%s\n\nB\tC%s\n%s\nC\tA%s\nC\tD%s\n"
                % (w, w, bad_line, w, w))

    def line_case(self, bad_line, weighted=False, name="bad.tsv"):
        self.expect_build_failure({name: self.bad_file(bad_line, weighted)}, [name],
                                  name=name, line=5, weighted=weighted)

    # -- malformed lines
    def test_four_fields_tab(self):
        self.line_case("A\tB\t1\t2", weighted=True)

    def test_four_fields_blanks(self):
        self.line_case("A B 1 2", weighted=True)

    def test_three_fields_unweighted_with_empty_middle(self):
        self.line_case("A\t\tB")

    def test_empty_destination_field(self):
        self.line_case("A\t\t2", weighted=True)

    def test_weight_not_a_number(self):
        self.line_case("A\tB\tabc", weighted=True)

    def test_weight_trailing_garbage(self):
        self.line_case("A\tB\t1.5x", weighted=True)

    def test_negative_weight(self):
        self.line_case("A\tB\t-1", weighted=True)

    def test_nan_weight(self):
        self.line_case("A\tB\tnan", weighted=True)

    def test_inf_weight(self):
        self.line_case("A\tB\tinf", weighted=True)

    def test_minus_inf_weight(self):
        self.line_case("A\tB\t-inf", weighted=True)

    def test_overflowing_weight(self):
        self.line_case("A\tB\t1e999", weighted=True)

    def test_weight_without_weighted_flag(self):
        self.line_case("A\tB\t1.5", weighted=False)

    def test_error_in_second_input_names_that_file(self):
        self.write("first.tsv", GOOD)
        self.expect_build_failure({"second.tsv": self.bad_file("A\tB\t7")},
                                  ["first.tsv", "second.tsv"], name="second.tsv", line=5)

    def test_error_line_in_gzip_input(self):
        # a syntax error inside a valid compressed file is still reported as FILE:LINE
        self.expect_build_failure({"bad.gz": gzip.compress(self.bad_file("A\tB\t-3",
                                                                         True).encode())},
                                  ["bad.gz"], name="bad.gz", line=5, weighted=True)

    # -- empty / unreadable
    def test_empty_file(self):
        self.expect_build_failure({"empty.tsv": ""}, ["empty.tsv"], name="empty.tsv")

    def test_only_comments(self):
        self.expect_build_failure({"comments.tsv": "# one\n% two\n\n   # three\n"},
                                  ["comments.tsv"], name="comments.tsv")

    def test_nonexistent_file(self):
        self.expect_build_failure({}, ["no-such-file.tsv"], name="no-such-file.tsv")

    def test_directory_as_input(self):
        os.mkdir(self.path("a-directory"))
        self.expect_build_failure({}, ["a-directory"], name="a-directory")

    def test_unreadable_file(self):
        if os.geteuid() == 0:
            self.skipTest("running as root: chmod 000 does not prevent reading")
        self.write("secret.tsv", GOOD)
        os.chmod(self.path("secret.tsv"), 0)
        self.addCleanup(os.chmod, self.path("secret.tsv"), stat.S_IRUSR | stat.S_IWUSR)
        self.expect_build_failure({}, ["secret.tsv"], name="secret.tsv")

    # -- damaged compressed streams
    def big_text(self):
        return "".join("p%d\tp%d\n" % (i, (i * 7919) % 3000) for i in range(3000)).encode()

    def test_truncated_gzip(self):
        z = gzip.compress(self.big_text(), mtime=0)
        self.expect_build_failure({"trunc.gz": z[: len(z) // 2]}, ["trunc.gz"],
                                  name="trunc.gz", byte=True)

    def test_gzip_without_trailer(self):
        z = gzip.compress(self.big_text(), mtime=0)
        self.expect_build_failure({"notrailer.gz": z[:-4]}, ["notrailer.gz"],
                                  name="notrailer.gz", byte=True)

    def test_gzip_bad_crc(self):
        z = bytearray(gzip.compress(self.big_text(), mtime=0))
        z[-8] ^= 0xFF  # CRC32 of the trailer
        self.expect_build_failure({"badcrc.gz": bytes(z)}, ["badcrc.gz"], name="badcrc.gz",
                                  byte=True)

    def zstd_bytes(self):
        if shutil.which("zstd") is None:
            self.skipTest("zstd command not found")
        return subprocess.run(["zstd", "-q", "-c", "-"], input=self.big_text(),
                              stdout=subprocess.PIPE, check=True, timeout=120).stdout

    def test_corrupted_zstd_middle(self):
        z = bytearray(self.zstd_bytes())
        for k in range(8):
            z[len(z) // 2 + k] ^= 0x5A
        # garbage may decode into bad lines before the stream error: FILE:LINE or byte N
        self.expect_build_failure({"corrupt.zst": bytes(z)}, ["corrupt.zst"],
                                  name="corrupt.zst", either=True)

    def test_corrupted_zstd_checksum(self):
        z = bytearray(self.zstd_bytes())
        self.assertTrue(z[4] & 0x04, "zstd frame without a content checksum")
        z[-1] ^= 0xFF  # last byte of the content checksum
        self.expect_build_failure({"badsum.zst": bytes(z)}, ["badsum.zst"],
                                  name="badsum.zst", byte=True)

    def test_truncated_zstd(self):
        z = self.zstd_bytes()
        self.expect_build_failure({"trunc.zst": z[: len(z) // 2]}, ["trunc.zst"],
                                  name="trunc.zst", byte=True)

    # -- usage
    def test_usage_no_output(self):
        self.write("good.tsv", GOOD)
        res = self.wr("build", "good.tsv", expect=2)
        self.assertTrue(res.err.strip())

    def test_usage_unknown_flag(self):
        self.write("in.tsv", GOOD)
        self.expect_build_failure({}, ["in.tsv", "--no-such-flag"], rc=2)

    def test_existing_db_refused_without_force(self):
        self.write("in.tsv", GOOD)
        self.wr("build", "in.tsv", "-o", "db")
        snap = snapshot(self.path("db"))
        res = self.wr("build", "in.tsv", "-o", "db", expect=None)
        self.assertIn(res.rc, (1, 2), res.describe())
        self.assertEqual(snapshot(self.path("db")), snap)
        # and --force replaces it on success
        self.write("in2.tsv", GOOD + "X\tA\n")
        self.wr("build", "in2.tsv", "-o", "db", "--force")
        rows, r = self.rank("db")
        self.assertIn("X", r)


# --------------------------------------------------------------------------------------------
class RankErrors(ErrorCase):

    def setUp(self):
        super().setUp()
        self.write("web.tsv", GOOD)
        self.wr("build", "web.tsv", "-o", "db")

    def expect_rank_failure(self, args, rc=1, files=None, name=None, line=None, text=None):
        for fn, content in (files or {}).items():
            self.write(fn, content)
        snap = snapshot(self.path("db"))
        before = list_dir(self.dir)
        res = self.wr("rank", "db", "--out", "out.tsv", *args, expect=rc)
        if rc == 1:
            self.assertErrorMessage(res, name, line)
        else:
            self.assertTrue(res.err.strip(), "usage error without a message\n" + res.describe())
        if text is not None:
            self.assertIn(text, res.err, res.describe())
        self.assertFalse(os.path.exists(self.path("out.tsv")),
                         "a failed rank left --out behind\n" + res.describe())
        self.assertEqual(list_dir(self.dir), before, "stray files\n" + res.describe())
        self.assertEqual(snapshot(self.path("db")), snap,
                         "a failed rank modified the DB\n" + res.describe())

    def test_good_db_ranks(self):
        rows, r = self.rank("db")
        self.assertEqual(sorted(r), list("ABCDE"))

    # --source
    def test_source_negative_weight(self):
        self.expect_rank_failure(["--source", "e.tsv"], files={"e.tsv": "A\t1\nB\t2\nC\t-1\n"},
                                 name="e.tsv", line=3)

    def test_source_all_zero(self):
        self.expect_rank_failure(["--source", "e.tsv"], files={"e.tsv": "A\t0\nB\t0\n"},
                                 name="e.tsv")

    def test_source_unknown_label(self):
        self.expect_rank_failure(["--source", "e.tsv"],
                                 files={"e.tsv": "A\t1\nNOPE-LABEL\t2\n"}, name="e.tsv", line=2,
                                 text="NOPE-LABEL")

    def test_source_malformed_three_fields(self):
        self.expect_rank_failure(["--source", "e.tsv"], files={"e.tsv": "A\t1\nB\t1\t2\n"},
                                 name="e.tsv", line=2)

    def test_source_malformed_weight(self):
        self.expect_rank_failure(["--source", "e.tsv"], files={"e.tsv": "A\t1\nB\tabc\n"},
                                 name="e.tsv", line=2)

    def test_source_nan_weight(self):
        self.expect_rank_failure(["--source", "e.tsv"], files={"e.tsv": "A\t1\nB\tnan\n"},
                                 name="e.tsv", line=2)

    def test_source_missing_file(self):
        self.expect_rank_failure(["--source", "missing-e.tsv"], name="missing-e.tsv")

    def test_dangling_weights_unknown_label(self):
        self.expect_rank_failure(["--dangling-weights", "w.tsv"],
                                 files={"w.tsv": "A\t1\nGHOST\t1\n"}, name="w.tsv", line=2,
                                 text="GHOST")

    def test_personalize_unknown_label(self):
        # an unknown label is bad input relative to the DB (like an unknown --source label)
        self.expect_rank_failure(["--personalize", "UNKNOWN-PAGE"], rc=1, text="UNKNOWN-PAGE")

    def test_missing_database(self):
        res = self.wr("rank", "no-such.db", "--out", "out.tsv", expect=1)
        self.assertErrorMessage(res, "no-such.db")
        self.assertFalse(os.path.exists(self.path("out.tsv")))
        self.assertFalse(os.path.exists(self.path("no-such.db")))

    # usage errors
    def test_damping_above_one(self):
        self.expect_rank_failure(["--damping", "1.5"], rc=2)

    def test_damping_negative(self):
        self.expect_rank_failure(["--damping", "-0.1"], rc=2)

    def test_damping_nan(self):
        self.expect_rank_failure(["--damping", "nan"], rc=2)

    def test_tol_nan(self):
        self.expect_rank_failure(["--tol", "nan"], rc=2)

    def test_negative_tol(self):
        self.expect_rank_failure(["--tol", "-1"], rc=2)

    def test_unknown_method(self):
        self.expect_rank_failure(["--method", "magic"], rc=2)

    def test_unknown_dangling_mode(self):
        self.expect_rank_failure(["--dangling", "everywhere"], rc=2)

    def test_unknown_precision(self):
        self.expect_rank_failure(["--precision", "half"], rc=2)

    def test_max_iter_not_a_number(self):
        self.expect_rank_failure(["--max-iter", "abc"], rc=2)

    def test_unknown_flag(self):
        self.expect_rank_failure(["--no-such-flag"], rc=2)


# --------------------------------------------------------------------------------------------
class Convergence(ErrorCase):

    def test_not_converged_exits_3_and_writes_out(self):
        self.write("web.tsv", "B\tC\nC\tB\nD\tA\nD\tB\nE\tB\nE\tD\nE\tF\nF\tB\nF\tE\n"
                              "G\tB\nG\tE\nH\tB\nH\tE\n")
        self.wr("build", "web.tsv", "-o", "db")
        res = self.wr("rank", "db", "--max-iter", "2", "--tol", "1e-15", "--out", "r.tsv",
                      expect=3)
        self.assertRegex(res.err, r"(?i)converge", "no convergence warning\n" + res.describe())
        self.assertTrue(os.path.isfile(self.path("r.tsv")), "--out not written\n" + res.describe())
        r = ranks_dict(read_rank_file(self.path("r.tsv")))
        self.assertEqual(sorted(r), list("ABCDEFGH"))
        self.assertAlmostEqual(sum(r.values()), 1.0, delta=1e-9)
        # and it did stop early: 2 iterations are far from the fixed point here
        rows, full = self.rank("db", "--tol", "1e-14", out="full.tsv")
        self.assertGreater(wrcli.l1(r, full), 1e-6)


# --------------------------------------------------------------------------------------------
def is_manifest(rel):
    base = os.path.basename(rel).lower()
    return base.endswith(".json") or "manifest" in base


class DamagedDatabase(ErrorCase):
    """Damage one file of a freshly built DB at a time; `check`, `info` and `rank` must all
    exit 1 naming the file (and, except for the manifest, a byte offset or range)."""

    def setUp(self):
        super().setUp()
        lines = ["# small web"]
        for i in range(60):
            lines.append("http://site%d.example/page %d\thttp://site%d.example/page %d\t%d"
                         % (i % 5, i, (i * 7) % 5, (i * 13) % 60, 1 + i % 4))
        lines.append("http://lonely.example/")
        self.write("web.tsv", "\n".join(lines) + "\n")
        self.wr("build", "web.tsv", "-o", "pristine.db", "--weighted")
        self.files = []
        root = self.path("pristine.db")
        for dirpath, _, filenames in os.walk(root):
            for fn in filenames:
                self.files.append(os.path.relpath(os.path.join(dirpath, fn), root))
        self.files.sort()
        self.assertTrue(self.files, "empty DB directory")
        self.n = 0

    def fresh_copy(self):
        self.n += 1
        dst = "case%d.db" % self.n
        shutil.copytree(self.path("pristine.db"), self.path(dst))
        return dst

    def check_damaged(self, db, rel, byte):
        base = os.path.basename(rel)
        for cmd in (["check", db], ["info", db], ["rank", db, "--out", "r.tsv"]):
            with self.subTest(file=rel, command=cmd[0]):
                res = self.wr(*cmd, expect=None)
                self.assertEqual(res.rc, 1, "damaged %s not detected\n%s" % (rel, res.describe()))
                self.assertErrorMessage(res, base, byte=byte)
                self.assertFalse(os.path.exists(self.path("r.tsv")),
                                 "rank on a damaged DB wrote --out")

    def test_pristine_db_is_accepted(self):
        self.wr("check", "pristine.db")
        self.wr("info", "pristine.db")
        self.wr("info", "pristine.db", "--json")
        self.rank("pristine.db")

    def test_truncated_files(self):
        for rel in self.files:
            size = os.path.getsize(self.path(os.path.join("pristine.db", rel)))
            if size == 0:
                continue
            # losing the last byte of a JSON manifest may only drop its final newline (still
            # the same document), so the manifest is only cut in half
            cuts = {size // 2} if is_manifest(rel) else {size // 2, size - 1}
            for cut in sorted(cuts):
                db = self.fresh_copy()
                with open(self.path(os.path.join(db, rel)), "r+b") as f:
                    f.truncate(cut)
                self.check_damaged(db, rel, byte=not is_manifest(rel))

    def test_flipped_byte(self):
        for rel in self.files:
            if is_manifest(rel):
                continue
            p = os.path.join("pristine.db", rel)
            size = os.path.getsize(self.path(p))
            if size == 0:
                continue
            db = self.fresh_copy()
            with open(self.path(os.path.join(db, rel)), "r+b") as f:
                f.seek(size // 2)
                b = f.read(1)
                f.seek(size // 2)
                f.write(bytes([b[0] ^ 0xFF]))
            self.check_damaged(db, rel, byte=True)

    def test_deleted_file(self):
        for rel in self.files:
            db = self.fresh_copy()
            os.unlink(self.path(os.path.join(db, rel)))
            self.check_damaged(db, rel, byte=False)

    def test_corrupt_manifest(self):
        manifests = [rel for rel in self.files if is_manifest(rel)]
        if not manifests:
            self.skipTest("no manifest JSON file in the DB: %r" % self.files)
        for rel in manifests:
            with open(self.path(os.path.join("pristine.db", rel)), "rb") as f:
                data = f.read()
            mid = len(data) // 2
            for label, content in (("garbage-in-middle", data[:mid] + b"\x00}{!" + data[mid:]),
                                   ("empty", b""), ("empty-object", b"{}"),
                                   ("array", b"[]"), ("not-json", b"hello\n")):
                with self.subTest(manifest=rel, damage=label):
                    db = self.fresh_copy()
                    with open(self.path(os.path.join(db, rel)), "wb") as f:
                        f.write(content)
                    self.check_damaged(db, rel, byte=False)


# --------------------------------------------------------------------------------------------
class ExternalBuild(ErrorCase):
    """`build --memory-budget`: past the budget, links are sorted in runs inside the temporary
    output directory and merged; the database is the same, and the runs never outlive the build,
    not even an interrupted one."""

    expect_build_failure = BuildErrors.expect_build_failure

    def big_web(self, lines):
        return "".join("%d\t%d\n" % (i * 7919 % 50000, i * 104729 % 49999) for i in range(lines))

    def test_same_database_past_the_budget(self):
        self.write("web.tsv", self.big_web(200000) + "lonely\n")
        self.wr("build", "web.tsv", "-o", "memory.db")
        res = self.wr("build", "web.tsv", "-o", "disk.db", "--memory-budget", "1M")
        self.assertIn("sorted runs merged", res.err, res.describe())
        self.assertEqual(list_dir(self.path("memory.db")), list_dir(self.path("disk.db")))
        for name in list_dir(self.path("memory.db")):
            with open(self.path("memory.db/" + name), "rb") as a, \
                    open(self.path("disk.db/" + name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)

    def test_bad_budget_is_a_usage_error(self):
        self.write("in.tsv", GOOD)
        self.expect_build_failure({}, ["in.tsv", "--memory-budget", "4X"], rc=2)
        for bad in ("-1", "lots", "0"):
            self.wr("build", "in.tsv", "-o", "out.db", "--memory-budget", bad, expect=2)

    def test_degree_order_past_the_budget(self):
        self.write("web.tsv", self.big_web(50000))
        res = self.expect_build_failure({}, ["web.tsv", "--memory-budget", "1K",
                                             "--order", "degree"], rc=2)
        self.assertIn("--memory-budget", res.err, res.describe())

    def test_interrupted_external_build_leaves_nothing(self):
        self.write("web.tsv", self.big_web(3000000))
        before = list_dir(self.dir)
        # A budget that spills a run every few hundred thousand links, not every few thousand:
        # a run file created while the signal handler empties the directory would survive it.
        proc = subprocess.Popen([wrcli.WEBRANK, "build", "web.tsv", "-o", "out.db", "-q",
                                 "--memory-budget", "70M"], cwd=self.dir,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            spilled = False
            for _ in range(3000):  # until a run of links is on disk (at most 30 s)
                tmp = [d for d in os.listdir(self.dir) if "webrank-tmp" in d]
                if tmp and any(f.startswith(".links-run")
                               for f in os.listdir(self.path(tmp[0]))):
                    spilled = True
                    break
                if proc.poll() is not None:
                    break
                time.sleep(0.01)
            self.assertTrue(spilled, "no run of links appeared in the temporary directory")
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        self.assertNotEqual(proc.returncode, 0)
        self.assertEqual(list_dir(self.dir), before, "an interrupted build left files behind")


if __name__ == "__main__":
    wrcli.main()
