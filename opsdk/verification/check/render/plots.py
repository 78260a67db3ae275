"""Inline SVG plots of derivative data (matplotlib, the optional extra ``opsdk[report]``)."""
import io

EXTRA = "pip install 'opsdk[report]'"


def missing_dependency():
    """None when plots can be drawn, else what to install (one sentence)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        return f"--html draws its plots with matplotlib, which is not installed; expected: {EXTRA}"
    return None


def _figure():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    # text as paths: the SVG needs no font, so the page looks the same everywhere, offline
    matplotlib.rcParams.update({"svg.fonttype": "path", "svg.hashsalt": "opsdk"})
    return plt


def _svg(plt, fig):
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # the XML prolog and DOCTYPE do not belong inside HTML


def _which(order):
    return "d²y/dx²" if order == 2 else "dy/dx"


def curve_svg(curve, title):
    """The analytic and numeric derivative along the domain, the worst point marked."""
    plt = _figure()
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    ax.plot(curve.x, curve.numeric, label="numeric (central differences)", color="#1f77b4", lw=2)
    ax.plot(curve.x, curve.analytic, label="analytic (the op's backward)", color="#d62728", lw=1.2,
            ls="--")
    i = curve.worst
    ax.plot([curve.x[i]], [curve.analytic[i]], "o", color="#d62728", ms=7, mfc="none", mew=2)
    ax.annotate(f"worst: x={curve.x[i]:.4g}\nanalytic {curve.analytic[i]:.4g}\nnumeric {curve.numeric[i]:.4g}",
                (curve.x[i], curve.analytic[i]), xytext=(10, 10), textcoords="offset points", fontsize=8)
    ax.set_xlabel(curve.argument)
    ax.set_ylabel(_which(curve.order))
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return _svg(plt, fig)


def error_map_svg(error_map, title):
    """|analytic − numeric| per Jacobian element as a heat map, the worst element marked."""
    plt = _figure()
    rows, cols = error_map.errors.shape
    fig, ax = plt.subplots(figsize=(min(8.0, 2.5 + 0.25 * cols), min(6.0, 1.5 + 0.25 * rows)))
    image = ax.imshow(error_map.errors, cmap="magma", aspect="auto", interpolation="nearest")
    fig.colorbar(image, ax=ax, label="|analytic − numeric|")
    r, c = error_map.worst
    ax.plot([c], [r], "s", ms=9, mfc="none", mec="#00e5ff", mew=2)
    ax.set_xlabel(f"element of {error_map.argument} {error_map.input_shape} (flattened)")
    ax.set_ylabel(f"element of the {'gradient' if error_map.order == 2 else 'output'} "
                  f"{error_map.output_shape} (flattened)")
    ax.set_title(f"{title}\n{error_map.sample}: worst at [{r}, {c}]: analytic {error_map.analytic:.4g}, "
                 f"numeric {error_map.numeric:.4g}", fontsize=9)
    return _svg(plt, fig)
