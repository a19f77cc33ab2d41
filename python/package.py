#!/usr/bin/python3
"""Packages the built module as a wheel and installs it in a virtual environment (docs/python.md).

    package.py wheel PACKAGE_DIR VERSION DIST_DIR   # DIST_DIR/webrank-VERSION-TAG.whl
    package.py venv VENV_DIR WHEEL                  # VENV_DIR, with the wheel installed by pip
    package.py tag                                  # the wheel's tag for the running Python

The wheel holds PACKAGE_DIR (build/python/webrank: the pybind11 extension _core and the
pure-Python files beside it) as the package `webrank`, tagged for the Python running this
script (the extension is built for that interpreter only). It is written with the standard
library (zipfile and the wheel format's three metadata files), so no build backend nor network
is needed. The environment is made with --system-site-packages: the module uses the NumPy (and
NetworkX, SciPy, igraph) of the Python it was built for. Nothing outside the two folders named
is written.
"""
import base64
import hashlib
import os
import subprocess
import sys
import sysconfig
import zipfile


def tag():
    version = "cp%d%d" % sys.version_info[:2]
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "%s-%s-%s" % (version, version, platform)


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def wheel(package_dir, version, dist_dir):
    os.makedirs(dist_dir, exist_ok=True)
    name = "webrank-%s-%s.whl" % (version, tag())
    info = "webrank-%s.dist-info" % version
    files = []
    for entry in sorted(os.listdir(package_dir)):
        path = os.path.join(package_dir, entry)
        if os.path.isfile(path) and not entry.endswith(".pyc"):
            with open(path, "rb") as f:
                files.append(("webrank/" + entry, f.read()))
    if not any(n.startswith("webrank/_core.") for n, _ in files):
        sys.exit("package.py: no extension _core in %s (build the webrank_python target)"
                 % package_dir)
    metadata = ("Metadata-Version: 2.1\nName: webrank\nVersion: %s\n"
                "Summary: PageRank and link databases (webrank's Python module)\n"
                "Requires-Python: ==%d.%d.*\nRequires-Dist: numpy\n" % (version,
                                                                        *sys.version_info[:2]))
    wheel_info = ("Wheel-Version: 1.0\nGenerator: webrank python/package.py\n"
                  "Root-Is-Purelib: false\nTag: %s\n" % tag())
    files.append((info + "/METADATA", metadata.encode()))
    files.append((info + "/WHEEL", wheel_info.encode()))
    record = "".join(record_line(n, d) + "\n" for n, d in files) + info + "/RECORD,,\n"
    files.append((info + "/RECORD", record.encode()))
    out = os.path.join(dist_dir, name)
    tmp = out + ".%d.tmp" % os.getpid()
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in files:
            z.writestr(zipfile.ZipInfo(n, date_time=(2020, 1, 1, 0, 0, 0)), d,
                       zipfile.ZIP_DEFLATED)
    os.replace(tmp, out)
    print("webrank: wrote %s" % out)


def venv(venv_dir, wheel_path):
    python = os.path.join(venv_dir, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv_dir],
                       check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                    "--force-reinstall", "--disable-pip-version-check", wheel_path], check=True)
    print("webrank: installed %s in %s (%s -c 'import webrank')"
          % (os.path.basename(wheel_path), venv_dir, python))


if __name__ == "__main__":
    if sys.argv[1:2] == ["tag"]:
        print(tag())
    elif sys.argv[1:2] == ["wheel"] and len(sys.argv) == 5:
        wheel(*sys.argv[2:])
    elif sys.argv[1:2] == ["venv"] and len(sys.argv) == 4:
        venv(*sys.argv[2:])
    else:
        sys.exit(__doc__)
