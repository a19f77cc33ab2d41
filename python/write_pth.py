#!/usr/bin/python3
"""Puts a build's python/ folder on the path of the Python running this (docs/python.md).

    write_pth.py BUILD/python

Writes webrank.pth, one line naming BUILD/python, into the site directory that Python reads
.pth files from: the system one for local packages (/usr/local/lib/python3.X/dist-packages on
Debian) when it is writable (root), else the user's (~/.local/lib/python3.X/site-packages).
Says so when it changes the file, and nothing otherwise.
"""
import os
import site
import sys


def main(folder):
    folder = os.path.abspath(folder)
    system = [p for p in site.getsitepackages() if p.startswith("/usr/local/")]
    candidates = system + [site.getusersitepackages()]
    for target in candidates:
        try:
            os.makedirs(target, exist_ok=True)
        except OSError:
            continue
        if not os.access(target, os.W_OK):
            continue
        path = os.path.join(target, "webrank.pth")
        try:
            with open(path, encoding="utf-8") as f:
                if f.read().strip() == folder:
                    return 0
        except OSError:
            pass
        tmp = "%s.%d.tmp" % (path, os.getpid())
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(folder + "\n")
        os.replace(tmp, path)
        print("webrank: %s now puts %s on %s's path (import webrank)" % (path, folder, sys.executable))
        return 0
    print("webrank: no writable site directory among %s; set PYTHONPATH=%s" % (candidates, folder),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
