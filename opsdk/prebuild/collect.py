"""``python -m opsdk.prebuild.collect BUILD_LIB NAME=MODULE[:ATTR]...``: load a pack from its
build tree and compile every C source its kernels use into the tree (run by ``hooks.BuildPy`` in a child process)."""
import importlib
import os
import shutil
import sys


def _inside(path, folder):
    return os.path.commonpath([os.path.realpath(path), folder]) == folder


def pack_sources(build_lib, points):
    """The distinct CSources, with their kernels' names, of the packs at entry points ``points``
    (``name=module[:attr]``), loaded from build_lib as opsdk loads an installed pack."""
    from opsdk.kernels import all_kernels
    from opsdk.plugins import get_registry, register_pack

    for point in points:
        name, target = point.split("=", 1)
        module_name, _, attr = target.partition(":")
        module = importlib.import_module(module_name)
        if not _inside(getattr(module, "__file__", "") or "", build_lib):
            raise SystemExit(f"opsdk: {module_name} was imported from {module.__file__}, not from the "
                             f"build tree {build_lib}; another copy shadows it")
        register_pack(getattr(module, attr) if attr else module, name=name)  # runs register_ops
    kernels = {k.name: k for op in get_registry().ops() for k in op.kernels}
    kernels.update((k.name, k) for k in all_kernels())  # made without being attached to an op
    sources = {}
    for kernel in kernels.values():
        source = kernel.sources.get("c")
        if source is not None and _inside(source.origin_dir, build_lib):
            sources.setdefault(id(source), (source, []))[1].append(kernel.name)
    return list(sources.values())


def main(argv):
    from opsdk.errors import KernelBuildError
    from opsdk.kernels import prebuilt
    from opsdk.kernels.compiler import find_compiler
    from opsdk.prebuild.compile import compile_into

    build_lib, points = os.path.realpath(argv[0]), argv[1:]
    found = pack_sources(build_lib, points)
    if not found:
        print("opsdk: the pack has no C kernels to compile")
        return 0
    command = find_compiler()
    if command is None:
        print("opsdk: no C compiler ($CC, or cc/gcc/clang on PATH) to compile the pack's C kernels "
              "into the wheel; install one, or set OPSDK_PREBUILD=0 for a wheel whose kernels compile "
              "on first call", file=sys.stderr)
        return 1
    for folder in {prebuilt.folder_of(source) for source, _ in found}:
        shutil.rmtree(folder, ignore_errors=True)  # builds of earlier runs in a reused build tree
    for source, kernels in found:
        try:
            entry = compile_into(source, prebuilt.folder_of(source), command)
        except KernelBuildError as error:
            print(f"opsdk: {error}", file=sys.stderr)
            return 1
        print(f"opsdk: compiled {prebuilt.source_label(source)} ({', '.join(sorted(kernels))}) into "
              f"{os.path.relpath(entry, build_lib)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
