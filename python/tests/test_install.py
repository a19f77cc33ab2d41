#!/usr/bin/env python3
"""The module as Python users get it: installed by pip from the wheel into build/venv.

Run:  build/venv/bin/python python/tests/test_install.py [-v]
Checks that `import webrank` in the environment loads the installed copy (the environment's
site-packages, not a build folder on a path file), that pip knows the distribution and its files
(the extension included), and that the environment's Python is the one the module was built for.
"""
import importlib.metadata
import os
import site
import sys
import unittest


class Installed(unittest.TestCase):
    def test_imported_from_the_environment(self):
        self.assertNotEqual(sys.prefix, sys.base_prefix, "not run in a virtual environment")
        import webrank
        here = os.path.realpath(os.path.dirname(webrank.__file__))
        sites = [os.path.realpath(p) for p in site.getsitepackages()]
        self.assertIn(os.path.dirname(here), sites)
        self.assertTrue(here.startswith(os.path.realpath(sys.prefix)), here)
        import networkx
        ranks = webrank.pagerank(networkx.DiGraph([(0, 1), (1, 2), (2, 0)]))
        self.assertAlmostEqual(ranks[0], 1 / 3, places=12)

    def test_pip_knows_it(self):
        dist = importlib.metadata.distribution("webrank")
        names = [str(f) for f in dist.files]
        self.assertTrue(any(n.startswith("webrank/_core.") for n in names), names)
        self.assertIn("webrank/__init__.py", names)
        for f in dist.files:
            if f.hash:  # RECORD's hash of each file matches what pip installed
                self.assertTrue(os.path.exists(f.locate()), f)
        self.assertEqual(dist.metadata["Name"], "webrank")

    def test_version_is_the_projects(self):
        # One source: project(webrank VERSION ...) in CMakeLists.txt, which the wheel is named by.
        import re

        import webrank
        top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "CMakeLists.txt")
        with open(top) as f:
            declared = re.search(r"project\(webrank VERSION ([0-9.]+)", f.read()).group(1)
        self.assertEqual(webrank.__version__, declared)
        self.assertEqual(importlib.metadata.version("webrank"), declared)

    def test_no_path_file_into_a_build(self):
        # The environment's own site directories; a webrank.pth in the system's one is left by
        # builds before the wheel (docs/python.md says how to remove it), not by this build.
        for d in site.getsitepackages():
            if os.path.realpath(d).startswith(os.path.realpath(sys.prefix)):
                self.assertFalse(os.path.exists(os.path.join(d, "webrank.pth")), d)


if __name__ == "__main__":
    unittest.main()
