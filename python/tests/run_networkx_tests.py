#!/usr/bin/python3
"""NetworkX's own PageRank test module, run against webrank's drop-ins (docs/python.md).

Debian's python3-networkx ships networkx/algorithms/link_analysis/tests/test_pagerank.py. This
runs it unchanged under pytest with webrank_nx_plugin, which replaces networkx.pagerank,
pagerank_scipy, pagerank_numpy and the private _pagerank_python loop by webrank's drop-ins
before the module is imported. Every test passes except those deselected below, each for the
reason given: they test NetworkX helpers that webrank does not replace, not PageRank.

Run:  build/venv/bin/python python/tests/run_networkx_tests.py
"""
import os
import sys

import networkx
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(os.path.dirname(networkx.__file__), "algorithms", "link_analysis", "tests",
                     "test_pagerank.py")

# test id -> why it is not run against webrank.
EXCEPTIONS = {
    "TestPageRank::test_google_matrix":
        "tests nx.google_matrix (NetworkX's dense Google matrix builder), not PageRank",
    "TestPageRank::test_dangling_matrix": "tests nx.google_matrix's dangling rows",
    "TestPageRank::test_zero_personalization_vector[google_matrix]":
        "tests nx.google_matrix (webrank.pagerank's ZeroDivisionError runs in the other cases)",
    "TestPageRankScipy::test_google_matrix": "inherited: nx.google_matrix",
    "TestPageRankScipy::test_dangling_matrix": "inherited: nx.google_matrix",
    "TestPageRankScipy::test_zero_personalization_vector[google_matrix]":
        "inherited: nx.google_matrix",
    "test_deprecation_warnings[pagerank_numpy]":
        "checks NetworkX 2.8's DeprecationWarning for its own pagerank_numpy, which webrank's "
        "drop-in (not deprecated) does not raise",
    "test_deprecation_warnings[pagerank_scipy]": "the same for pagerank_scipy",
}


def main():
    sys.path.insert(0, HERE)
    if not os.path.exists(TESTS):
        print("webrank-test skipped: networkx suite: %s not found (python3-networkx %s)"
              % (TESTS, networkx.__version__))
        return 0
    print("NetworkX %s: %s against webrank; not run:" % (networkx.__version__, TESTS))
    for test, why in EXCEPTIONS.items():
        print("  %s: %s" % (test, why))
    # Node ids relative to the module's folder, which is pytest's root here.
    args = [TESTS, "-v", "-p", "webrank_nx_plugin", "-p", "no:cacheprovider",
            "--rootdir", os.path.dirname(TESTS), "-W", "ignore::DeprecationWarning"]
    for test in EXCEPTIONS:
        args += ["--deselect", "test_pagerank.py::" + test]
    status = pytest.main(args)
    import webrank_nx_plugin

    calls = webrank_nx_plugin.CALLS
    print("webrank drop-ins called: %s" % ", ".join("%s %d" % kv for kv in sorted(calls.items())))
    if status == 0 and sum(calls.values()) < 30:
        print("FAIL: the tests passed without calling webrank's drop-ins enough")
        return 1
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
