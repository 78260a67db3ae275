"""``opsdk build``: compile every C kernel of the installed packs into the cache, compile-check CUDA ones."""
import time

import click

# a command-line usage problem (an unknown pack), as click's own usage errors
REFUSED = 2


def _select(registry, packs):
    """The kernels to build: those of the chosen packs' ops, or of every loaded op and kernel."""
    from ..kernels import all_kernels

    chosen = {}
    ops = [op for op in registry.ops() if not packs or op.pack in packs]
    for op in ops:
        for kernel in op.kernels:
            chosen.setdefault(kernel.name, kernel)
    if not packs:
        # kernels a pack made without attaching them to an op are still its kernels
        for kernel in all_kernels():
            chosen.setdefault(kernel.name, kernel)
    return [chosen[name] for name in sorted(chosen)]


def _build_c(kernel):
    """(result, detail) of compiling (or loading from the cache) one kernel's C source."""
    from ..errors import BackendUnavailableError, KernelBuildError
    from ..kernels import cache_info

    before = cache_info().entries
    started = time.perf_counter()
    try:
        kernel.build_c()
    except (KernelBuildError, BackendUnavailableError) as error:
        return "FAILED", str(error)
    took = time.perf_counter() - started
    how = "compiled" if cache_info().entries > before else "cached"
    return "ok", f"{how} in {took:.2f} s"


def _check_cuda(kernel):
    """(result, detail) of compile-checking one kernel's CUDA source with nvcc."""
    from ..errors import KernelBuildError

    started = time.perf_counter()
    try:
        checked = kernel.check_cuda()
    except KernelBuildError as error:
        return "FAILED", str(error)
    if not checked.checked:
        return "skipped", checked.reason
    return "ok", f"nvcc --ptx in {time.perf_counter() - started:.2f} s"


@click.command("build", short_help="Compile C kernels into the cache; compile-check CUDA sources.")
@click.option("--pack", "packs", multiple=True, metavar="PACK",
              help="Only this pack's kernels (repeat for several; default: every loaded pack).")
def build_cmd(packs):
    """Compile every C kernel into the cache and compile-check every CUDA kernel with nvcc.

    Afterwards C kernels load from the cache (in milliseconds, even without a compiler), and
    CUDA syntax errors show up on machines without a GPU. Exits 1 if anything failed.
    """
    from ..errors import CompilerSettingError
    from ..kernels import cache_problem
    from ..kernels.compiler import find_compiler
    from ..packs.loading import get_registry
    from .cache_cmd import refuse

    problem = cache_problem()
    if problem is not None:
        refuse(problem, "cannot build: ")
    try:
        find_compiler()
    except CompilerSettingError as error:
        click.echo(f"Error: {error}", err=True)
        raise SystemExit(REFUSED) from None
    registry = get_registry()
    failed_packs = {f.pack: f for f in registry.failures()}
    for name in packs:
        if name in failed_packs:
            from ..printable import printable

            click.echo(printable(f"Error: pack '{name}' failed to load, so its kernels cannot be "
                                 f"built: {failed_packs[name]}"), err=True)
            raise SystemExit(1)
        if not registry.has_pack(name):
            known = ", ".join(p.name for p in registry.packs()) or "(none)"
            click.echo(f"Error: no op pack named '{name}' is loaded; expected: one of {known}; "
                       f"got: '{name}'", err=True)
            raise SystemExit(REFUSED)
    results, checked_sources = [], {}
    for kernel in _select(registry, packs):
        if "c" in kernel.backends:
            results.append((kernel.name, "c", *_build_c(kernel)))
        if "cuda" in kernel.backends:
            # kernels often share one .cu file: nvcc checks it once
            source = kernel.sources["cuda"]
            if id(source) in checked_sources:
                first, (result, _) = checked_sources[id(source)]
                results.append((kernel.name, "cuda", result, f"same source as {first}"))
            else:
                checked_sources[id(source)] = (kernel.name, _check_cuda(kernel))
                results.append((kernel.name, "cuda", *checked_sources[id(source)][1]))
    if not results:
        click.echo("No C or CUDA kernels to build" + (f" in pack(s) {', '.join(packs)}." if packs else "."))
    width = max((len(name) for name, *_ in results), default=0)
    for name, backend, result, detail in results:
        first, *rest = detail.splitlines() or [""]
        click.echo(f"{name:<{width}}  {backend:<4}  {result:<7}  {first}")
        if result == "FAILED":
            click.echo("\n".join(f"    {line}" for line in rest))
    failures = sum(1 for *_, result, _ in results if result == "FAILED")
    skipped = sum(1 for *_, result, _ in results if result == "skipped")
    if results:
        click.echo(f"\n{len(results) - failures - skipped} ok, {skipped} skipped, {failures} failed.")
    if not packs and failed_packs:
        click.echo(f"Note: {len(failed_packs)} pack(s) failed to load and were not built: "
                   f"{', '.join(failed_packs)} (see `opsdk doctor`).", err=True)
    if failures:
        raise SystemExit(1)
