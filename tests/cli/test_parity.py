"""One system, three front ends: every operation the server offers answers the same JSON through
the command line (`webrank NAME DB ... --json`), the Python module (`db.NAME(...)`) and the
server's API (`/api/v1/op/NAME?...`), and refuses the same bad argument with the same kind of
error (docs/architecture.md, "Operations").

The arguments of each case are written once, as the JSON an operation takes; the test spells them
for each front end from the operations' declarations (`webrank --declarations`): positionals and
flags for the command line, keywords for Python, query parameters for the server. Fields that
measure time differ from run to run and are left out of the comparison.
"""

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
import test_serve  # noqa: E402  (the site and the Server)

ROOT = None  # file:// URL of the site, set in setUpClass


def url(name):
    return ROOT + "/" + name


# The cases: (operation, options). Every served operation has at least one (checked below).
def cases():
    return [
        ("info", {}),
        ("top", {"k": 3}),
        ("page", {"page": url("roses.html")}),
        ("backlinks", {"page": url("roses.html"), "k": 2}),
        ("links", {"page": url("index.html")}),
        ("search", {"query": "roses", "k": 3}),
        ("search", {"query": "tulip bulbs", "mode": "title", "snippets": False}),
        ("explain", {"page": url("roses.html"), "no_what_if": True}),
        ("ppr", {"pages": [url("tulips.html")], "k": 3}),
        ("compare", {"homes": [url("roses.html"), url("tulips.html")], "k": 2}),
        ("report", {"k": 2}),
        ("status", {}),
        ("history", {}),
        ("proxy", {"page": url("index.html")}),
    ]


# The server's other spellings of a call: /api/v1/NAME for every served operation (checked with
# the cases above), /healthz, and the first API's parameters, which redirect to the operations'
# own: (path and query, status of the redirect or 200, the call it answers as).
def legacy_paths():
    q = urllib.parse.quote
    return [
        ("/healthz", 200, ("status", {})),
        ("/api/v1/compare?a=%s&b=%s&k=2" % (q(url("roses.html")), q(url("tulips.html"))), 301,
         ("compare", {"homes": [url("roses.html"), url("tulips.html")], "k": 2})),
        ("/api/v1/page?id=1", 302, ("page", {"page": "PAGE1"})),
        ("/api/v1/report?id=1&k=2", 302, ("report", {"page": "PAGE1", "k": 2})),
        ("/api/v1/backlinks?id=1&k=2", 302, ("backlinks", {"page": "PAGE1", "k": 2})),
        ("/api/v1/proxy?id=0", 302, ("proxy", {"page": "PAGE0"})),
    ]


# The shared operations the server does not offer (they write to the database or read files the
# client would name): the command line and Python only. Files they read are written by setUpClass
# (FILES[...]); both runs write the same vectors, so the second finds what the first left.
FILES = {}


def shared_cases():
    return [
        ("rank", {"name": "parity", "damping": 0.8}),
        ("rank", {"batch": FILES["batch"]}),
        ("topics", {"assign": FILES["topics"], "k": 2}),
        ("trust", {"seeds": FILES["seeds"], "good_fraction": 0.9, "k": 3}),
        ("seeds", {"k": 2}),
        ("spam-report", {"min_scaled_pagerank": 1.0}),
        ("compare-ranks", {"a": "pagerank", "b": "trustrank", "k": [2]}),
        ("usage", {"counts": FILES["counts"], "k": 2}),
        ("crawl-order", {"points": 5, "order": ["breadth", "pagerank"]}),
        ("hosts", {"output": FILES["hosts"], "force": True}),
    ]


# Refusals: the same kind of error from each front end.
def refusals():
    return [
        ("top", {"k": 0}, "invalid argument"),
        ("search", {"query": "roses", "mode": "nosuch"}, "invalid argument"),
        ("backlinks", {"page": "http://nowhere.example/"}, "not found"),
        ("top", {"ranks": "no-such-vector"}, "not found"),
        ("ppr", {"pages": [url("roses.html")], "eps": -1}, "invalid argument"),
    ]


TIMES = {"seconds", "created", "elapsed", "what_if_seconds", "generated"}


def without_times(value):
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items()
                if k not in TIMES and not k.endswith("_seconds")}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


class Parity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        global ROOT
        cls.tmp = tempfile.mkdtemp(prefix="webrank-parity-")
        cls.db, ROOT = test_serve.ranked_site(cls.tmp)
        pages = [url(n) for n in sorted(test_serve.PAGES)]
        for name, text in (("batch", "a %s\nb %s %s\n" % (pages[0], pages[1], pages[2])),
                           ("topics", "%s\tgarden\n%s\tbulbs\n" % (pages[1], pages[2])),
                           ("seeds", pages[1] + "\n"),
                           ("counts", "".join("%s\t%d\n" % (p, 10 * (i + 1))
                                              for i, p in enumerate(pages)))):
            FILES[name] = os.path.join(cls.tmp, name + ".txt")
            with open(FILES[name], "w") as f:
                f.write(text)
        FILES["hosts"] = os.path.join(cls.tmp, "hosts.db")
        done = subprocess.run([wrcli.WEBRANK, "--declarations"], capture_output=True, text=True,
                              check=True)
        cls.ops = {op["name"]: op for op in json.loads(done.stdout)}
        sys.path.insert(0, os.path.join(os.path.dirname(wrcli.WEBRANK), "python"))
        import webrank
        cls.webrank = webrank
        cls.pydb = webrank.Database(cls.db)
        cls.server = test_serve.Server(cls.db)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.pydb.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def spec(self, op, name):
        return next(s for s in self.ops[op]["options"] if s["name"] == name)

    # --- the three spellings of one call ---
    def cli(self, op, options):
        positional, flags = [], []
        for name, value in options.items():
            s = self.spec(op, name)
            values = value if isinstance(value, list) else [value]
            if s["position"] >= 0:
                positional += [str(v) for v in values]
            elif s["type"] == "flag":
                flags.append(s["flag"] if value else "--no-" + s["flag"][2:])
            else:
                for v in values:
                    flags += [s["flag"], str(v).lower() if isinstance(v, bool) else str(v)]
        return wrcli.run_webrank([op, self.db, *positional, *flags, "--json", "-q"])

    def python(self, op, options):
        name = self.webrank._operations.python_name(op)
        method = getattr(self.pydb, name)
        if getattr(method, "_names", None) is None:  # wrapped by hand: the operation itself
            method = getattr(self.pydb, name + "_operation")
        return method(**options)

    def query(self, op, options):
        query = []
        for name, value in options.items():
            s = self.spec(op, name)
            for v in value if isinstance(value, list) else [value]:
                query.append((s["http_name"], str(v).lower() if isinstance(v, bool) else str(v)))
        return urllib.parse.urlencode(query)

    def http(self, op, options):
        return self.server.json("/api/v1/op/%s?%s" % (op, self.query(op, options)))

    # --- the tests ---
    def test_every_served_operation_has_a_case(self):
        served = {name for name, op in self.ops.items() if op["served"]}
        self.assertEqual(served - {op for op, _ in cases()}, set())

    def test_every_alias_and_legacy_path_answers_as_its_operation(self):
        for op, options in cases():
            with self.subTest(op=op, options=options):
                status, via_op = self.http(op, options)
                alias = self.server.json("/api/v1/%s?%s" % (op, self.query(op, options)))
                self.assertEqual((alias[0], without_times(alias[1])),
                                 (status, without_times(via_op)))
        labels = {"PAGE%d" % i: self.pydb.label(i) for i in range(2)}
        for path, redirect, (op, options) in legacy_paths():
            with self.subTest(path=path):
                options = {k: labels.get(v, v) if isinstance(v, str) else v
                           for k, v in options.items()}
                self.assertEqual(self.status_of(path), redirect)
                status, got = self.server.json(path)  # redirects followed
                want_status, want = self.http(op, options)
                self.assertEqual((status, without_times(got)), (want_status, without_times(want)))
        # The pages take the same parameters: /page?id=N is /page?url=LABEL.
        self.assertEqual(self.status_of("/page?id=1"), 302)
        self.assertEqual(self.server.get("/page?id=1")[2],
                         self.server.get("/page?url=" + urllib.parse.quote(labels["PAGE1"]))[2])

    def status_of(self, path):
        """The status of GET path, redirects not followed."""
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        try:
            conn.request("GET", path)
            r = conn.getresponse()
            r.read()
            return r.status
        finally:
            conn.close()

    def cli_and_python(self, op, options):
        """The JSON of `op` with `options` from the command line (which must succeed) and from
        Python, their times left out."""
        r = self.cli(op, options)
        self.assertEqual(r.rc, 0, r.describe())
        return without_times(json.loads(r.out)), without_times(self.python(op, options))

    def test_same_json_from_the_three(self):
        for op, options in cases():
            with self.subTest(op=op, options=options):
                from_cli, from_python = self.cli_and_python(op, options)
                status, from_server = self.http(op, options)
                self.assertEqual(status, 200, from_server)
                self.assertEqual(from_cli, from_python)
                self.assertEqual(from_cli, without_times(from_server))

    def test_same_json_from_the_command_line_and_python(self):
        for op, options in shared_cases():
            with self.subTest(op=op, options=options):
                from_cli, from_python = self.cli_and_python(op, options)
                if op != "trust":  # lists pages of PageRank >= 10x the average: none on 7 pages
                    self.assertTrue(from_cli, "an empty answer proves nothing")
                self.assertEqual(from_cli, from_python)

    def test_every_shared_operation_has_a_case(self):
        # The operations offered by more than one front end (docs/architecture.md, "Operations").
        shared = {"rank", "topics", "ppr", "trust", "seeds", "spam-report", "search",
                  "backlinks", "links", "explain", "top", "page", "compare", "compare-ranks",
                  "report", "hosts", "usage", "crawl-order"}
        covered = {op for op, _ in cases()} | {op for op, _ in shared_cases()}
        self.assertEqual(shared - covered, set())

    def test_same_refusal_from_the_three(self):
        for op, options, kind in refusals():
            with self.subTest(op=op, options=options):
                r = self.cli(op, options)
                # The command line's exit status names the kind (docs/cli.md, "Exit status").
                self.assertEqual(r.rc, 2 if kind == "invalid argument" else 1, r.describe())
                with self.assertRaises(self.webrank.Error) as e:
                    self.python(op, options)
                self.assertEqual(e.exception.kind, kind)
                status, body = self.http(op, options)
                self.assertEqual(status, 400 if kind == "invalid argument" else 404, body)
                self.assertEqual(body["error"]["kind"], kind)
                # The same words, the option named each front end's way.
                said = body["error"]["message"]
                self.assertIn(said.split(" ", 1)[1] if kind == "invalid argument" else said,
                              r.err)
                self.assertIn(said.split(" ", 1)[1] if kind == "invalid argument" else said,
                              str(e.exception))

    def test_help_says_what_is_declared(self):
        # `webrank NAME --help` names every option the command line takes, with its default.
        for name, op in self.ops.items():
            r = wrcli.run_webrank([name, "--help"])
            self.assertEqual(r.rc, 0, r.describe())
            for s in op["options"]:
                if "cli" not in s["fronts"] or s["position"] >= 0:
                    continue
                with self.subTest(op=name, option=s["name"]):
                    flag = s["flag"] if not (s["type"] == "flag" and s["default"] is True) \
                        else "--no-" + s["flag"][2:]
                    line = next((l for l in r.out.splitlines()
                                 if re.match(r"^\s+(-\w,)?%s\b" % re.escape(flag), l)), None)
                    self.assertIsNotNone(line, "%s not in webrank %s --help" % (flag, name))
                    d = s["default"]
                    if isinstance(d, (int, float)) and not isinstance(d, bool) and d != 0 \
                            and not s["required"]:
                        shown = re.search(r"=(\S+)", line)
                        self.assertIsNotNone(shown, line)
                        self.assertEqual(float(shown.group(1)), float(d), line)

    def test_server_bounds_and_unknown_parameters(self):
        status, body = self.server.json("/api/v1/op/top?k=101")
        self.assertEqual(status, 400)
        self.assertEqual(body["error"]["field"] if "field" in body["error"] else "k", "k")
        self.assertIn("in [1, 100] on a server", body["error"]["message"])
        status, body = self.server.json("/api/v1/op/top?kk=3")
        self.assertEqual(status, 400)
        self.assertIn("'k'", body["error"]["message"])  # did you mean
        # Options that would write or read the server's files are not parameters.
        status, body = self.server.json("/api/v1/op/report?output=/tmp/x.html")
        self.assertEqual(status, 400, body)
        status, body = self.server.json("/api/v1/op/ppr?url=%s&store=x"
                                        % urllib.parse.quote(url("roses.html")))
        self.assertEqual(status, 400, body)
        self.assertNotIn("x", self.pydb.rank_names())
        # The operations without an endpoint of their own answer at /api/v1/NAME too.
        status, top = self.server.json("/api/v1/top?k=2")
        self.assertEqual(status, 200)
        self.assertEqual(without_times(top), without_times(self.pydb.top(2)))


if __name__ == "__main__":
    wrcli.main()
