"""``python -m opsdk.prebuild.collect BUILD_LIB NAME=MODULE[:ATTR]... [--cuda-archs=80,90]``: load a
pack from its build tree and compile every C and CUDA source its kernels use into the tree (run
by ``hooks.BuildPy`` in a child process)."""
import importlib
import os
import shutil
import sys


def _inside(path, folder):
    return os.path.commonpath([os.path.realpath(path), folder]) == folder


def pack_kernels(build_lib, points):
    """{name: Kernel} of the packs at entry points ``points`` (``name=module[:attr]``), loaded from
    build_lib as opsdk loads an installed pack."""
    from opsdk.kernels import all_kernels
    from opsdk.packs.loading import get_registry, register_pack

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
    return kernels


def sources_of(kernels, build_lib, backend):
    """The distinct sources of one backend (``"c"``, ``"cuda"``) among kernels that lie in
    build_lib, each with its kernels' names."""
    sources = {}
    for kernel in kernels.values():
        source = kernel.sources.get(backend)
        if source is not None and _inside(source.origin_dir, build_lib):
            sources.setdefault(id(source), (source, []))[1].append(kernel.name)
    return list(sources.values())


def pack_sources(build_lib, points):
    """The distinct CSources, with their kernels' names, of the packs at entry points ``points``."""
    return sources_of(pack_kernels(build_lib, points), build_lib, "c")


def _arguments(argv):
    """(build_lib, entry points, CUDA architectures or None) of the command line."""
    archs, rest = None, []
    for arg in argv:
        if arg.startswith("--cuda-archs="):
            from opsdk.env import cuda_archs

            archs = cuda_archs(arg.split("=", 1)[1])
        else:
            rest.append(arg)
    return os.path.realpath(rest[0]), rest[1:], archs


def main(argv):
    from opsdk.kernels import prebuilt

    build_lib, points, archs = _arguments(argv)
    kernels = pack_kernels(build_lib, points)
    c_found, cuda_found = sources_of(kernels, build_lib, "c"), sources_of(kernels, build_lib, "cuda")
    for folder in {prebuilt.folder_of(source) for source, _ in (*c_found, *cuda_found)}:
        shutil.rmtree(folder, ignore_errors=True)  # builds of earlier runs in a reused build tree
    return _compile_c(build_lib, c_found) or _compile_cuda(build_lib, cuda_found, archs)


def _compile_c(build_lib, found):
    from opsdk.errors import KernelBuildError
    from opsdk.kernels import prebuilt
    from opsdk.kernels.compiler import find_compiler
    from opsdk.prebuild.compile import compile_into

    if not found:
        print("opsdk: the pack has no C kernels to compile")
        return 0
    command = find_compiler()
    if command is None:
        print("opsdk: no C compiler ($CC, or cc/gcc/clang on PATH) to compile the pack's C kernels "
              "into the wheel; install one, or set OPSDK_PREBUILD=0 for a wheel whose kernels compile "
              "on first call", file=sys.stderr)
        return 1
    for source, kernels in found:
        try:
            entry = compile_into(source, prebuilt.folder_of(source), command)
        except KernelBuildError as error:
            print(f"opsdk: {error}", file=sys.stderr)
            return 1
        print(f"opsdk: compiled {prebuilt.source_label(source)} ({', '.join(sorted(kernels))}) into "
              f"{os.path.relpath(entry, build_lib)}")
    return 0


def _compile_cuda(build_lib, found, archs):
    """Compile the CUDA sources with nvcc; without nvcc (or with no architecture asked for) say so
    on stderr in one line and leave them to compile at run time."""
    from opsdk.env import setting
    from opsdk.errors import KernelBuildError
    from opsdk.kernels import prebuilt
    from opsdk.kernels.nvcc import find_nvcc
    from opsdk.kernels.prebuilt_cuda import DEFAULT_ARCHS
    from opsdk.prebuild.compile_cuda import aot_blocker, compile_cuda_into

    if not found:
        return 0
    archs = setting("OPSDK_CUDA_ARCHS") if archs is None else archs
    archs = DEFAULT_ARCHS if archs is None else archs
    if not archs:
        print("opsdk: no CUDA architecture asked for (OPSDK_CUDA_ARCHS=none): the wheel ships the pack's "
              "CUDA kernels as sources, compiled by CuPy on first call", file=sys.stderr)
        return 0
    nvcc = find_nvcc()
    if nvcc is None:
        print("opsdk: no nvcc (not on PATH, nor under $CUDA_HOME/bin or $CUDA_PATH/bin): the wheel ships "
              "the pack's CUDA kernels as sources, compiled by CuPy on first call", file=sys.stderr)
        return 0
    for source, kernels in found:
        label, names = prebuilt.source_label(source), ", ".join(sorted(kernels))
        blocker = aot_blocker(source)
        if blocker:
            print(f"opsdk: {label} ({names}) ships as source, compiled by CuPy on first call: {blocker}",
                  file=sys.stderr)
            continue
        try:
            entry, targets = compile_cuda_into(source, prebuilt.folder_of(source), nvcc, archs)
        except KernelBuildError as error:
            print(f"opsdk: {error}", file=sys.stderr)
            return 1
        print(f"opsdk: compiled {label} ({names}) into {os.path.relpath(entry, build_lib)}: "
              f"{' '.join(targets)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
