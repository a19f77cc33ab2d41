#!/usr/bin/python3
"""GML and GraphML (docs/commands.md, `import` and `export`): import and `export --format gml|graphml`, against the
files NetworkX and igraph write and read.

- Files written by NetworkX and igraph (directed, undirected, weighted, labels with quotes,
  ampersands and non-ASCII, isolated nodes) import to the web those libraries see: the same
  pages and links, and PageRank equal to NetworkX's at 1e-9 in L1.
- Our exports read back by NetworkX and igraph give the same nodes, labels, edges, weights and
  rank attributes (exactly), and by our own readers the same web and ranks.
- The shared polblogs.gml (undirected, multigraph) imports to NetworkX's graph (skipped without
  ../shared).
- Malformed files are refused with FILE:LINE.

Run:  /usr/bin/python3 tests/cli/test_graph_formats.py --webrank build/webrank [-v]
"""

import gzip
import html
import math
import os
import random
import sys
import unittest
import warnings

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402

import igraph  # noqa: E402
import networkx as nx  # noqa: E402


POLBLOGS = os.path.join(os.path.dirname(wrcli._REPO), "shared", "data", "polblogs",
                        "polblogs.gml.gz")
LABELS = ['page "quoted"', "a&b <c>", "caf\u00e9 \u00fcber", "\u65e5\u672c", "tab\tin"]


def random_graph(seed, n=60, m=240, directed=True, weighted=False):
    rnd = random.Random(seed)
    G = nx.DiGraph() if directed else nx.Graph()
    names = ["n%d" % i for i in range(n - len(LABELS))] + LABELS
    G.add_nodes_from(names)  # some stay isolated
    for _ in range(m):
        u, v = rnd.choice(names[: 3 * n // 4]), rnd.choice(names)
        G.add_edge(u, v, **({"weight": rnd.choice([0.5, 1, 2, 3.25])} if weighted else {}))
    return G


def nx_ranks(G, weighted):
    with warnings.catch_warnings():  # NetworkX 2.8 announces pagerank_scipy's removal
        warnings.simplefilter("ignore")
        return nx.pagerank(G, alpha=0.85, tol=1e-15, max_iter=100000,
                           weight="weight" if weighted else None)


class GraphFormats(WebrankTestCase):

    def webrank_ranks(self, path, *extra, db="g.db"):
        self.wr("import", path, "-o", db, "-q", *extra)
        _, ranks = self.rank(db, "--tol", "1e-14", out=db + ".tsv")
        return ranks

    def links(self, db):
        out = self.wr("export", db).out
        return sorted(tuple(line.split("\t")) for line in out.splitlines())

    def test_networkx_and_igraph_files_import_to_their_web(self):
        for directed in (True, False):
            for weighted in (False, True):
                G = random_graph(3 + directed + 2 * weighted, directed=directed, weighted=weighted)
                want = nx_ranks(G, weighted)
                extra = ["--weighted"] if weighted else []
                # NetworkX: GML keyed by label (the node names), GraphML by node id.
                nx.write_gml(G, self.path("nx.gml"))
                nx.write_graphml(G, self.path("nx.graphml"))
                # igraph: vertex names as `name` (GML) and a "name" key (GraphML).
                g = igraph.Graph.from_networkx(G, vertex_attr_hashable="name")
                g.write_gml(self.path("ig.gml"))
                g.write_graphml(self.path("ig.graphml"))
                for f in ("nx.gml", "nx.graphml", "ig.gml", "ig.graphml"):
                    db = "%s-%d%d.db" % (f, directed, weighted)
                    got = self.webrank_ranks(f, *extra, db=db)
                    self.assertEqual(set(got), set(G.nodes), f)
                    self.assertRanksClose(got, want, 1e-9, msg="%s directed=%s weighted=%s"
                                          % (f, directed, weighted))
                    links = G.number_of_edges() * (1 if directed else 2) - (
                        0 if directed else nx.number_of_selfloops(G))
                    info = self.wr("info", db, "--json").out
                    self.assertIn('"links": %d' % links, info, f)

    def test_exports_read_back_everywhere(self):
        rnd = random.Random(11)
        lines = ["%s\t%s\t%s" % (rnd.choice(LABELS + ["p%d" % i for i in range(30)]),
                                 rnd.choice(LABELS + ["p%d" % i for i in range(40)]),
                                 rnd.choice(["1", "2.5", "0.125", "7"]))
                 for _ in range(150)]
        self.write("w.tsv", "".join(line.replace("tab\tin", "tab in") + "\n" for line in lines))
        self.build("w.tsv", "w.db", extra=["--weighted"])
        _, pr = self.rank("w.db", "--tol", "1e-14")
        _, pers = self.rank("w.db", "--personalize", "p1", "--name", "from-p1", out="p.tsv")
        edges = self.links("w.db")
        for fmt in ("gml", "graphml"):
            f = self.path("w." + fmt)
            self.wr("export", "w.db", "--format", fmt, "-o", f)
            # webrank reads it back: the same web, the same ranks.
            self.wr("import", f, "--weighted", "-o", fmt + ".db", "-q")
            self.assertEqual(self.links(fmt + ".db"), edges, fmt)
            _, again = self.rank(fmt + ".db", "--tol", "1e-14", out=fmt + ".tsv")
            self.assertEqual(again, pr)
            # NetworkX and igraph: labels, weights and rank attributes exactly.
            G = nx.read_gml(f) if fmt == "gml" else nx.relabel_nodes(
                nx.read_graphml(f), lambda n, G0=nx.read_graphml(f): G0.nodes[n]["label"])
            self.assertTrue(G.is_directed())
            self.assertEqual(sorted((u, v, str(w)) for u, v, w in G.edges(data="weight")),
                             sorted((u, v, str(float(w))) for u, v, w in edges))
            key = "from_p1" if fmt == "gml" else "from-p1"
            self.assertEqual({n: d["pagerank"] for n, d in G.nodes(data=True)}, pr)
            self.assertEqual({n: d[key] for n, d in G.nodes(data=True)}, pers)
            self.assertRanksClose(nx_ranks(G, True), pr, 1e-9, msg=fmt)
            with warnings.catch_warnings():  # igraph reports the entities it leaves as they are
                warnings.simplefilter("ignore")
                g = igraph.Graph.Read_GML(f) if fmt == "gml" else igraph.Graph.Read_GraphML(f)
            self.assertTrue(g.is_directed())
            # igraph 0.10 leaves GML's numeric entities (&#233;) as they are: NetworkX needs them
            # (it reads GML as ASCII), as the GML specification does.
            labels = [html.unescape(x) for x in g.vs["label"]]
            self.assertEqual(dict(zip(labels, g.vs["pagerank"])), pr)
            ig = g.personalized_pagerank(directed=True, damping=0.85, weights="weight")
            self.assertRanksClose(dict(zip(labels, ig)), pr, 1e-9, msg="igraph " + fmt)
        # --ranks chooses the attributes; --pages and --ids do not mix with graph formats.
        out = self.wr("export", "w.db", "--format", "graphml", "--ranks", "from-p1").out
        self.assertIn('attr.name="from-p1"', out)
        self.assertNotIn('attr.name="pagerank"', out)
        self.wr("export", "w.db", "--format", "gml", "--pages", expect=2)
        self.wr("export", "w.db", "--format", "gml", "--ranks", "nosuch", expect=1)

    @unittest.skipUnless(os.path.isfile(POLBLOGS), "../shared/data/polblogs not found: skipped")
    def test_polblogs_gml_imports_as_networkx_reads_it(self):
        res = self.wr("import", POLBLOGS, "-o", "pb.db")
        self.assertIn("an undirected graph", res.err)
        G = nx.DiGraph(nx.read_gml(POLBLOGS).to_directed())  # parallel edges merged
        _, got = self.rank("pb.db", "--tol", "1e-14")
        self.assertEqual(len(got), G.number_of_nodes())
        self.assertRanksClose(got, nx_ranks(G, False), 1e-9)

    def test_malformed_files_name_file_and_line(self):
        cases = {
            "unclosed.gml": ("graph [\n  node [ id 1 ]\n  node [ id 2\n", "unclosed.gml:3:"),
            "dupid.gml": ("graph [\nnode [ id 1 ]\nnode [ id 1 ]\n]\n",
                          "dupid.gml:3: node '1' is declared twice (first on line 2)"),
            "noid.gml": ("graph [\nnode [ label \"x\" ]\n]\n", "noid.gml:2: a node without an 'id'"),
            "dangling.gml": ("graph [\nnode [ id 1 ]\nedge [ source 1 target 9 ]\n]\n",
                             "dangling.gml:3: the edge's target '9' is not a declared node"),
            "samelabel.gml": ("graph [\nnode [ id 1 label \"a\" ]\nnode [ id 2 label \"a\" ]\n]\n",
                              "samelabel.gml:3: node '2' has the label 'a' of node '1'"),
            "nograph.gml": ("Creator \"x\"\n", "no 'graph [ ... ]'"),
            "badweight.gml": ("graph [ directed 1\nnode [ id 1 ]\nedge [ source 1 target 1\n"
                              "weight -2 ] ]\n", "badweight.gml:4: weight '-2' is negative"),
            "bad.graphml": ('<graphml><graph edgedefault="directed">\n<node id="a"/>\n'
                            '<edge source="a" target="a">\n</graph></graphml>\n', "bad.graphml:4:"),
            "dangling.graphml": ('<graphml><graph edgedefault="directed">\n<node id="a"/>\n'
                                 '<edge source="a" target="b"/>\n</graph></graphml>\n',
                                 "dangling.graphml:3: the edge's target 'b' is not a declared"),
            "hyper.graphml": ('<graphml><graph>\n<hyperedge/>\n</graph></graphml>\n',
                              "hyper.graphml:2: <hyperedge> is not supported"),
        }
        for name, (text, want) in cases.items():
            self.write(name, text)
            res = self.wr("import", name, "-o", "x.db", "--weighted", expect=1)
            self.assertIn(want, res.err, name)
            self.assertFalse(os.path.exists(self.path("x.db")))

    def test_compressed_and_entities(self):
        text = ('graph [\n  directed 1\n  node [ id 10 label "a &quot;b&quot; &amp; &#233;" ]\n'
                '  node [ id 20 ]\n  # a comment\n  edge [ source 10 target 20 extra [ x 1 ] ]\n]\n')
        with gzip.open(self.path("e.gml.gz"), "wt") as f:
            f.write(text)
        self.wr("import", "e.gml.gz", "-o", "e.db", "-q")
        self.assertEqual(self.wr("export", "e.db").out, 'a "b" & \u00e9\t20\n')


if __name__ == "__main__":
    wrcli.main()
