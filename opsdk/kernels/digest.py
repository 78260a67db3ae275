"""Content hashing for cache keys and manifests."""

try:
    # hashlib loads OpenSSL (about 5 ms); the builtin blake2 keeps a cached load under that budget
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - CPython always ships _blake2
    from hashlib import blake2b


def digest_bytes(data):
    """Hex blake2b-256 of bytes."""
    return blake2b(data, digest_size=32).hexdigest()


def digest_file(path):
    """Hex blake2b-256 of a file's content."""
    with open(path, "rb") as f:
        return digest_bytes(f.read())


def digest_parts(*parts):
    """Hex blake2b-256 of strings, each length-prefixed so no two part lists collide."""
    h = blake2b(digest_size=32)
    for part in parts:
        data = part.encode("utf-8", "surrogateescape")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()
