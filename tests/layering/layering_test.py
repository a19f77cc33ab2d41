#!/usr/bin/env python3
"""The layers of src/ keep to their declared dependencies (docs/architecture.md).

CMake declares each layer's dependencies once (webrank_layer in CMakeLists.txt) and passes them
here. Two checks, each of which a lower layer reaching into a higher one fails:
  * includes: a file of layer L (src/L/ or its public headers, include/webrank/L/) includes only
    headers of L and of the layers L may use (directly or through one of them), private
    (src/M/...) or public (webrank/M/...); a front end (cli, serve, python) includes only its own
    folder and include/webrank/;
  * symbols: every webrank symbol a layer's static library uses is defined in that library or in
    one of the layers it may use (a call through a public header into a higher layer fails).
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def closure(deps):
    """Layer -> every layer it may use, itself included."""
    out = {}

    def visit(layer, seen):
        for d in deps.get(layer, ()):
            if d not in seen:
                seen.add(d)
                visit(d, seen)
        return seen

    for layer in deps:
        out[layer] = visit(layer, {layer})
    return out


def check_includes(src, allowed, front_ends):
    problems = []
    folders = set(os.listdir(src))
    for root, _, files in os.walk(src):
        for name in files:
            if not name.endswith((".cpp", ".hpp", ".h", ".cc")):
                continue
            path = os.path.join(root, name)
            layer = os.path.relpath(path, src).split(os.sep)[0]
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                top = inc.split("/")[0]
                if top == "webrank":
                    if layer not in front_ends:
                        problems += check_public(path, layer, inc, allowed)
                    continue
                if layer in front_ends:
                    if "/" in inc and top in folders:
                        problems.append(f"{path}: front end includes {inc} (only include/webrank/"
                                        " and its own folder)")
                    continue
                if top not in folders:
                    continue  # a file of the same folder, or a system header in quotes
                if layer not in allowed:
                    problems.append(f"{path}: folder {layer} is not a declared layer")
                elif top not in allowed[layer]:
                    problems.append(f"{path}: layer {layer} includes {inc}, of layer {top}, "
                                    f"which it may not use (it may use: "
                                    f"{', '.join(sorted(allowed[layer] - {layer}))})")
    return problems


def check_public(path, layer, inc, allowed):
    """A public header webrank/M/NAME.hpp included by layer `layer`: M must be a layer it may
    use. webrank/NAME.hpp (no layer folder) gathers every layer: front ends only."""
    parts = inc.split("/")
    if len(parts) < 3:
        return [f"{path}: layer {layer} includes {inc}, which gathers every layer (front ends "
                "only)"]
    if layer not in allowed:
        return [f"{path}: folder {layer} is not a declared layer"]
    if parts[1] not in allowed[layer]:
        return [f"{path}: layer {layer} includes {inc}, a public header of layer {parts[1]}, "
                f"which it may not use (it may use: "
                f"{', '.join(sorted(allowed[layer] - {layer}))})"]
    return []


def check_public_headers(include, allowed):
    """include/webrank/L/*.hpp are held to layer L's dependencies, as src/L/ is."""
    problems = []
    for layer in sorted(os.listdir(include)):
        folder = os.path.join(include, layer)
        if not os.path.isdir(folder):
            continue
        if layer not in allowed:
            problems.append(f"{folder}: public headers of {layer}, not a declared layer")
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                for inc in INCLUDE.findall(f.read()):
                    if inc.startswith("webrank/"):
                        problems += check_public(path, layer, inc, allowed)
    return problems


def symbols(lib, flag):
    out = subprocess.run(["nm", flag, "--format=posix", lib], capture_output=True, text=True,
                         check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] and "7webrank" in parts[0] and not parts[0].endswith(":"):
            names.add(parts[0])
    return names


def check_symbols(libs, allowed):
    defined = {layer: symbols(path, "--defined-only") for layer, path in libs.items()}
    problems = []
    for layer, path in libs.items():
        for sym in sorted(symbols(path, "--undefined-only")):
            if any(sym in defined[d] for d in allowed[layer] if d in defined):
                continue
            owners = [other for other, names in defined.items() if sym in names]
            if owners:
                demangled = subprocess.run(["c++filt", sym], capture_output=True,
                                           text=True).stdout.strip()
                problems.append(f"layer {layer} uses {demangled}, defined in layer "
                                f"{', '.join(owners)}, which it may not use")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--layers", required=True, help="name:dep,dep;name:...")
    ap.add_argument("--include", help="include/webrank/, public headers grouped by layer")
    ap.add_argument("--front-ends", default="cli,serve,python")
    ap.add_argument("--front-end-dir", action="append", default=[],
                    help="a front end outside src/ (python/src): includes only include/webrank/ "
                         "and its own files")
    ap.add_argument("libs", nargs="*", help="name=path of each layer's static library")
    a = ap.parse_args()
    deps = {}
    for item in a.layers.split(";"):
        if item:
            name, _, ds = item.partition(":")
            deps[name] = [d for d in ds.split(",") if d]
    allowed = closure(deps)
    front_ends = set(a.front_ends.split(","))
    problems = check_includes(a.src, allowed, front_ends)
    if a.include:
        problems += check_public_headers(a.include, allowed)
    for folder in a.front_end_dir:
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if not name.endswith((".cpp", ".hpp")):
                continue
            with open(path, encoding="utf-8") as f:
                for inc in INCLUDE.findall(f.read()):
                    if "/" in inc and inc.split("/")[0] != "webrank":
                        problems.append(f"{path}: front end includes {inc} (only "
                                        "include/webrank/ and its own folder)")
                    elif "/" not in inc and not os.path.exists(os.path.join(folder, inc)):
                        problems.append(f"{path}: includes {inc}, not a file of its folder")
    libs = dict(x.split("=", 1) for x in a.libs)
    problems += check_symbols(libs, allowed)
    for p in problems:
        print(p)
    print(f"{len(deps)} layers, {len(libs)} libraries checked: "
          f"{'ok' if not problems else str(len(problems)) + ' problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
