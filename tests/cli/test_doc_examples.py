"""The examples of the documentation run as written: the README's tour (crawl, rank, top, search,
backlinks, serve on the PostgreSQL documentation the first command fetches) and the examples of
docs/commands.md on the web they build themselves, each command exiting 0.

Each example block runs in a scratch folder that looks like the checkout to it (`build/webrank`
is the binary under test, `out/pgdoc` the documentation: fetched by scripts/fetch-pgdoc.sh when
missing). `serve` is started on a free port, asked for its home page and stopped by its PID.
Blocks that need ../shared/data run only when it is there. A line that builds a target
(`bash scripts/build.sh ...`) is left out: the binary under test has its siblings built beside it.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sh_blocks(path, after=None):
    """The ```sh blocks of `path` (those after heading `after`, up to the next heading of its
    level, when given), as lists of commands (continuation lines joined)."""
    with open(os.path.join(REPO, path)) as f:
        text = f.read()
    if after:
        start = text.index(after)
        level = after.split(" ", 1)[0]
        end = text.find("\n" + level + " ", start + len(after))
        text = text[start:end if end >= 0 else len(text)]
    blocks = []
    for body in re.findall(r"```sh\n(.*?)```", text, re.S):
        commands = []
        lines = iter(body.replace("\\\n", " ").splitlines())
        for line in lines:
            if not line.strip() or line.strip().startswith("#"):
                continue
            # A here-document (`python - <<'EOF'` ... `EOF`) is one command with its lines.
            heredoc = re.search(r"<<-?'?(\w+)'?", line)
            if heredoc:
                body_lines = [line]
                for more in lines:
                    body_lines.append(more)
                    if more.strip() == heredoc.group(1):
                        break
                line = "\n".join(body_lines)
            commands.append(line)
        blocks.append(commands)
    return blocks


def text_blocks(path, after):
    """The ```text blocks of `path` after heading `after`, up to the next heading of its level."""
    with open(os.path.join(REPO, path)) as f:
        text = f.read()
    start = text.index(after)
    end = text.find("\n" + after.split(" ", 1)[0] + " ", start + len(after))
    return re.findall(r"```text\n(.*?)```", text[start:end if end >= 0 else len(text)], re.S)


def webrank_names(db):
    """The stored vectors of database `db`, by their files."""
    return sorted(n[:-len(".ranks")] for n in os.listdir(os.path.join(db, "ranks"))
                  if n.endswith(".ranks"))


class DocExamples(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="webrank-examples-")
        os.makedirs(os.path.join(self.tmp, "build"))
        os.symlink(wrcli.WEBRANK, os.path.join(self.tmp, "build", "webrank"))
        # docs/commands.md's examples run from scratch/ with ../build/webrank
        os.makedirs(os.path.join(self.tmp, "scratch"))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_block(self, commands, cwd):
        """Runs each command (each must exit 0); returns what the last one printed."""
        env = dict(os.environ, PWD=cwd)
        state = ""  # shell variables set by earlier lines (W=..., PG=...)
        printed = ""
        for command in commands:
            if command.startswith("bash scripts/build.sh"):
                continue
            serve = re.search(r"\bserve\b", command) and "--port" in command
            if serve:
                command = re.sub(r"--port \d+", "--port 0", command.split("#")[0])
                self.check_serve(state + "exec " + command, cwd, env)
                continue
            done = subprocess.run(["bash", "-c", "set -eu; " + state + command], cwd=cwd,
                                  env=env, capture_output=True, text=True, timeout=600)
            self.assertEqual(done.returncode, 0, "%s\n%s%s" % (command, done.stdout[-2000:],
                                                              done.stderr[-2000:]))
            printed = done.stdout
            if re.match(r"^\s*[A-Z]+=", command):
                state += command.split("#")[0].strip() + "; "
        return printed

    def check_serve(self, command, cwd, env):
        proc = subprocess.Popen(["bash", "-c", "set -eu; " + command], cwd=cwd, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = proc.stderr.readline()
            self.assertIn("serving", line)
            url = line.split(" on ", 1)[1].split()[0]
            with urllib.request.urlopen(url, timeout=30) as r:
                self.assertEqual(r.status, 200)
        finally:
            proc.terminate()  # its PID: bash exec'd into webrank
            proc.communicate(timeout=30)

    def link_pgdoc(self):
        """out/pgdoc of the scratch folder: the checkout's, fetched by scripts/fetch-pgdoc.sh
        when missing (skips the test when it cannot be)."""
        pg = os.path.join(REPO, "out", "pgdoc")
        if not os.path.isdir(pg):
            done = subprocess.run(["bash", os.path.join(REPO, "scripts", "fetch-pgdoc.sh")],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                self.skipTest("out/pgdoc not found and not fetched: " + done.stderr.strip())
        os.makedirs(os.path.join(self.tmp, "out"))
        os.symlink(pg, os.path.join(self.tmp, "out", "pgdoc"))

    def venv_python(self):
        """The Python of the build under test's virtual environment (skips when not built)."""
        python = os.path.join(os.path.dirname(wrcli.WEBRANK), "venv", "bin", "python")
        if not os.path.exists(python):
            self.skipTest("no build/venv beside the binary (bash scripts/build.sh webrank_venv)")
        return python

    def test_readme_tour(self):
        self.link_pgdoc()
        blocks = sh_blocks("README.md", "## A tour")
        self.assertEqual(len(blocks), 1)
        self.run_block(blocks[0], self.tmp)
        self.assertTrue(os.path.isdir(os.path.join(self.tmp, "out", "pg.db")))

    def test_readme_python(self):
        # The README's Python block as a user runs it (build/venv/bin/python, from the
        # checkout), on the tour's database (made here as the tour makes it): it prints what
        # the README shows.
        python = self.venv_python()
        os.symlink(os.path.dirname(os.path.dirname(python)), os.path.join(self.tmp, "build",
                                                                          "venv"))
        self.link_pgdoc()
        tour = sh_blocks("README.md", "## A tour")[0]
        self.run_block([c for c in tour if " crawl " in c or c.startswith("W=")], self.tmp)
        blocks = sh_blocks("README.md", "## From Python")
        self.assertEqual(len(blocks), 1)
        self.assertTrue(blocks[0][-1].startswith("build/venv/bin/python - <<'EOF'\n"),
                        blocks[0][-1])
        printed = self.run_block(blocks[0], self.tmp)
        self.assertEqual(printed, text_blocks("README.md", "## From Python")[0])
        self.assertIn("pr80", webrank_names(os.path.join(self.tmp, "out", "pg.db")))

    def test_python_notebook(self):
        # docs/python.md's "A database in a notebook", as doctest runs it (the plot left out),
        # with the Python module of the build under test.
        python = self.venv_python()
        self.link_pgdoc()
        with open(os.path.join(REPO, "docs", "python.md")) as f:
            text = f.read()
        block = text.split("## A database in a notebook", 1)[1].split("```python\n", 1)[1]
        block = block.split(">>> import matplotlib", 1)[0]
        script = ("import doctest, sys\n"
                  "t = doctest.DocTestParser().get_doctest(sys.stdin.read(), {}, 'python.md', "
                  "'docs/python.md', 0)\n"
                  "r = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)\n"
                  "r.run(t)\n"
                  "sys.exit(1 if r.failures else 0)\n")
        done = subprocess.run([python, "-W", "ignore", "-c", script], input=block, cwd=self.tmp,
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stdout[-3000:] + done.stderr[-2000:])

    def test_commands_examples(self):
        blocks = sh_blocks("docs/commands.md", "## Examples")
        self.assertTrue(blocks)
        shared = os.path.join(REPO, "..", "shared", "data")
        for commands in blocks:
            commands = [c.replace("../../shared/data", os.path.realpath(shared)) for c in commands]
            if any("shared/data" in c for c in commands) and not os.path.isdir(shared):
                print("skipped (../shared/data not found): an example block of docs/commands.md")
                continue
            # The examples start with `mkdir -p scratch && cd scratch`: run from the top.
            self.run_block([c for c in commands if not c.startswith("mkdir -p scratch")],
                           os.path.join(self.tmp, "scratch"))


if __name__ == "__main__":
    wrcli.main()
