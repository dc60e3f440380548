"""Build: compile every Cython core and kernel, and generate the gRPC code from proto/.

Everything installs under one top-level package, `orrery` (PACKAGE_DIRS maps the repository folders of the
design card to their import names), so site-packages gains exactly one package and nothing named
`service` or `search` can collide with another project's. The committed folder `src/orrery/` holds only
relative links with that installed shape (src/orrery/core_ext -> ../../core_ext, ...), so Cython, mypy,
ruff and code browsers read the repository as the `orrery.*` packages without a build step. It sits under
src/ (the usual src layout), so `python` started in the repository root still imports the installed
package, never the source folders.

Both steps happen at build time (pip install . / pip install -e . / setup.py build_ext --inplace), so no
generated file is ever committed.
"""

import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

ROOT = Path(__file__).resolve().parent
PACKAGE_DIRS = {
    "orrery": "proto/orrery",
    "orrery.core_ext": "core_ext",
    "orrery.search": "search",
    "orrery.service": "service",
    "orrery.render": "render",
    "orrery.openspiel": "openspiel",
}
COMPILED_PACKAGES = ("orrery.core_ext", "orrery.search")
# Cython finds a cimported `orrery.core_ext.game` as src/orrery/core_ext/game.pxd, and names each compiled
# module by the folders above it, so it compiles through the link tree; the .c files land beside their .pyx.
LINK_TREE = ROOT / "src" / "orrery"


def generate_protos() -> None:
    """proto/orrery/v1/x.proto -> proto/orrery/v1/x_pb2.py (package orrery.v1): the proto path is the
    Python import path."""
    protos = sorted(str(p.relative_to(ROOT / "proto")) for p in (ROOT / "proto").rglob("*.proto"))
    if not protos:
        return
    from grpc_tools import protoc  # build requirement

    out = ROOT / "proto"
    args = [
        "protoc",
        f"-I{out}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        # The descriptor set Envoy's gRPC-JSON transcoder reads (orrery gateway): built here, never committed.
        f"--descriptor_set_out={out / 'orrery' / 'v1' / 'orrery.pb'}",
        "--include_imports",
        *protos,
    ]
    if protoc.main(args) != 0:
        sys.exit("protoc failed")


def extensions() -> list[Extension]:
    missing = [p for p in COMPILED_PACKAGES if not (LINK_TREE / p.split(".", 1)[1]).is_dir()]
    if missing:
        sys.exit(f"src/orrery/ lacks the links {', '.join(missing)}: build from a checkout with its symlinks")
    exts = []
    for package in COMPILED_PACKAGES:
        folder = LINK_TREE / package.split(".", 1)[1]
        for pyx in sorted((ROOT / PACKAGE_DIRS[package]).rglob("*.pyx")):
            rel = pyx.relative_to(ROOT / PACKAGE_DIRS[package])
            module = ".".join((package, *rel.with_suffix("").parts))
            source = os.path.relpath(folder / rel, ROOT)
            exts.append(Extension(module, [source], extra_compile_args=["-O3"]))
    return cythonize(
        exts,
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
        include_path=[str(ROOT / "src")],
        nthreads=2,
    )


def packages() -> list[str]:
    found = ["orrery", "orrery.v1"]
    for package, folder in PACKAGE_DIRS.items():
        if package != "orrery":
            found += [package] + [f"{package}.{sub}" for sub in find_packages(str(ROOT / folder))]
    return found


generate_protos()
setup(
    package_dir=PACKAGE_DIRS,
    packages=packages(),
    ext_modules=extensions(),
)
