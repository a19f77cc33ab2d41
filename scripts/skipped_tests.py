#!/usr/bin/python3
"""Lists the tests CTest's last run skipped, with why (scripts/test.sh prints it at the end).

    skipped_tests.py build-test/Testing/Temporary/LastTest.log

GoogleTest skips print "FILE:LINE: Skipped" and the reason on the next line; the Python suites
(tests/cli/wrcli.py) print "webrank-test skipped: TEST: REASON" for each skipped test.
"""
import re
import sys


def main(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        print("skipped tests: cannot read %s (%s)" % (path, e.strerror))
        return
    skipped, suite = [], None
    for i, line in enumerate(lines):
        m = re.match(r"\d+/\d+ Testing: (\S+)", line)
        if m:
            suite = m.group(1)
        elif re.search(r":\d+: Skipped$", line) and i + 1 < len(lines):
            skipped.append((suite, lines[i + 1].strip()))
        else:
            m = re.match(r"webrank-test skipped: (.*?): (.*)$", line)
            if m:
                skipped.append(("%s %s" % (suite, m.group(1)), m.group(2)))
    if not skipped:
        print("skipped tests: none")
        return
    print("skipped tests (%d), and why:" % len(skipped))
    for name, reason in skipped:
        print("  %s: %s" % (name, reason))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build-test/Testing/Temporary/LastTest.log")
