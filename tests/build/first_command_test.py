#!/usr/bin/python3
"""CTest `first_command`: the README's two commands build apart and only what each needs.

    first_command_test.py SOURCE_DIR SCRATCH_DIR

- the README's first command runs scripts/build.sh then scripts/demo.sh; build.sh, dry run in a
  fresh folder: configured with ccache as the compiler launcher, and compiles the command line
  (src/cli/main.cpp, the layers it links) but no unit test, fuzzer, Python extension, web server
  (src/serve/) nor MPI solve (src/cli/cmd_rank_mpi.cpp);
- the second command is scripts/test.sh, .ci/run runs exactly it, and it builds in a folder of
  its own (not build/, where the first command puts build/webrank).
"""
import os
import re
import shutil
import subprocess
import sys


def fail(message):
    print("first_command: FAIL: " + message)
    sys.exit(1)


def main(src, scratch):
    with open(os.path.join(src, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    block = readme.split("```sh\n", 1)[1].split("```", 1)[0].strip().splitlines()
    if len(block) != 2:
        fail("the README's first block should hold the two commands, has %r" % block)
    first, second = block
    if "scripts/build.sh" not in first or "scripts/demo.sh" not in first:
        fail("the first command should run scripts/build.sh and scripts/demo.sh: %r" % first)
    if "cmake --build" in first:
        fail("the first command builds through scripts/build.sh only: %r" % first)
    if second != "bash scripts/test.sh":
        fail("the second command should be 'bash scripts/test.sh': %r" % second)
    with open(os.path.join(src, ".ci", "run"), encoding="utf-8") as f:
        if second not in f.read():
            fail(".ci/run does not run the README's test command")

    with open(os.path.join(src, "scripts", "test.sh"), encoding="utf-8") as f:
        test_sh = f.read()
    m = re.search(r"dir=\$\{WEBRANK_TEST_BUILD_DIR:-([^}]+)\}", test_sh)
    if not m or m.group(1) in ("build", "build/"):
        fail("scripts/test.sh must build in a folder of its own, not build/")
    if 'cmake -B "$dir"' not in test_sh or 'cmake --build "$dir"' not in test_sh:
        fail("scripts/test.sh does not configure and build in its folder")

    shutil.rmtree(scratch, ignore_errors=True)
    env = dict(os.environ, WEBRANK_BUILD_DIR=scratch)
    run = subprocess.run(["bash", os.path.join(src, "scripts", "build.sh"), "--dry-run"],
                         env=env, capture_output=True, text=True)
    if run.returncode != 0:
        fail("build.sh --dry-run failed:\n" + run.stdout[-3000:] + run.stderr[-3000:])
    with open(os.path.join(scratch, "CMakeCache.txt"), encoding="utf-8") as f:
        cache = f.read()
    if not re.search(r"^CMAKE_CXX_COMPILER_LAUNCHER:\w+=ccache$", cache, re.M):
        fail("build.sh does not compile through ccache")
    compiled = sorted(set(os.path.relpath(p, src)
                          for p in re.findall(r" -c (\S+\.cpp)", run.stdout)))
    if "src/cli/main.cpp" not in compiled or "src/rank/power_iteration.cpp" not in compiled:
        fail("build.sh does not build the command line: %s" % compiled[:20])
    unwanted = [p for p in compiled
                if p.startswith(("tests/", "python/", "src/serve/", "bench/"))
                or p.endswith(("cmd_rank_mpi.cpp", "serve_run.cpp"))]
    if unwanted:
        fail("build.sh compiles what the demo does not need: %s" % unwanted)
    shutil.rmtree(scratch, ignore_errors=True)
    print("first_command: ok: %d files for build/webrank, none of tests, python, serve, mpi"
          % len(compiled))


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]))
