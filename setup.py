"""Build: compile every Cython core and kernel, and generate the gRPC code from proto/.

Both happen at build time (pip install . / pip install -e . / setup.py build_ext --inplace), so no
generated file is ever committed.
"""

import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

ROOT = Path(__file__).resolve().parent
COMPILED_PACKAGES = ("core_ext", "search")


def generate_protos() -> None:
    """proto/<pkg>/v1/x.proto -> <pkg>/v1/x_pb2.py: the proto path is the Python import path."""
    protos = sorted(str(p.relative_to(ROOT / "proto")) for p in (ROOT / "proto").rglob("*.proto"))
    if not protos:
        return
    from grpc_tools import protoc  # build requirement

    args = [
        "protoc",
        f"-I{ROOT / 'proto'}",
        f"--python_out={ROOT}",
        f"--pyi_out={ROOT}",
        f"--grpc_python_out={ROOT}",
        *protos,
    ]
    if protoc.main(args) != 0:
        sys.exit("protoc failed")
    for proto in protos:  # every folder of generated code is a package
        folder = ROOT / Path(proto).parent
        while folder != ROOT:
            (folder / "__init__.py").touch()
            folder = folder.parent


def extensions() -> list[Extension]:
    exts = []
    for package in COMPILED_PACKAGES:
        for pyx in sorted((ROOT / package).rglob("*.pyx")):
            rel = pyx.relative_to(ROOT)
            module = ".".join(rel.with_suffix("").parts)
            exts.append(Extension(module, [str(rel)], extra_compile_args=["-O3"]))
    return cythonize(
        exts,
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
        include_path=[str(ROOT)],
        nthreads=2,
    )


generate_protos()
setup(
    packages=find_packages(include=["core_ext*", "search*", "service*", "orrery*"]),
    ext_modules=extensions(),
)
