"""Samples derived from an op's own: broadcast inputs, perturbed attributes, other memory layouts,
other sizes (for compiled backends) and special points of the domain."""
from .attributes import attribute_variants, float_attributes, perturbed_values
from .broadcast import broadcast_variants
from .noncontiguous import layout_variants
from .probes import beyond_variants, probe_variants, special_points
from .sizes import DEFAULT_SIZES, size_variants
from .trial import trial

__all__ = ["attribute_variants", "float_attributes", "perturbed_values", "broadcast_variants",
           "layout_variants", "beyond_variants", "probe_variants", "special_points", "size_variants",
           "DEFAULT_SIZES", "trial"]
