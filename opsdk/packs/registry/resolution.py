"""The errors name lookups raise: close names to try, and packs that failed to load."""

from ...errors import AmbiguousOpError, OpNotFoundError


def _failed_packs_note(failures, pack=None):
    relevant = [f for f in failures if pack is None or f.pack == pack]
    if not relevant:
        return ""
    listed = "; ".join(f"{f.pack} ({f.stage}: {type(f.error).__name__}: {f.error})"
                       for f in relevant[:3])
    more = f" and {len(relevant) - 3} more" if len(relevant) > 3 else ""
    return f"; note: pack(s) that failed to load: {listed}{more} (see `opsdk doctor`)"


def not_found(name, known_names, failures):
    """OpNotFoundError for ``name``, suggesting close registered names and naming failed packs."""
    import difflib  # only a failed lookup pays for it

    close = difflib.get_close_matches(name, known_names, n=3, cutoff=0.6)
    hint = f"; did you mean: {', '.join(close)}?" if close else ""
    pack = name.split(".", 1)[0] if "." in name else None
    return OpNotFoundError(f"no op named '{name}' is registered{hint}; expected: a qualified name "
                           f"'pack.op' or a short name registered by one pack; got: '{name}'"
                           f"{_failed_packs_note(failures, pack)}", name=name)


def ambiguous(name, qualnames):
    """AmbiguousOpError for a short ``name`` that several packs register."""
    return AmbiguousOpError(f"op name '{name}' is ambiguous: {len(qualnames)} packs register it; "
                            f"expected: one of the qualified names {', '.join(sorted(qualnames))}; "
                            f"got: '{name}'")
