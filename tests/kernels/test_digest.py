"""Digests used by cache keys and manifests."""

from opsdk.kernels.digest import digest_bytes, digest_file, digest_parts


def test_parts_are_length_prefixed_so_splits_do_not_collide():
    assert digest_parts("ab", "c") != digest_parts("a", "bc")


def test_file_digest_equals_digest_of_its_bytes(tmp_path):
    path = tmp_path / "blob"
    path.write_bytes(b"\x00\x01kernel")
    assert digest_file(str(path)) == digest_bytes(b"\x00\x01kernel")
