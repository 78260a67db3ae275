"""after_repair: a wheel whose prebuilt extension auditwheel relinked records the new bytes, so
the loader still takes the build for the one its MANIFEST describes."""
import base64
import hashlib
import zipfile

from opsdk.kernels.digest import digest_bytes
from opsdk.kernels.entries import read_entry
from opsdk.prebuild.after_repair import main, refresh

ENTRY = "pk/_opsdk_prebuilt/0123abcd"
SO = "_opsdk_0123abcd.abi3.so"


def _hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def write_wheel(path, built, shipped):
    """A wheel whose extension was ``built`` (recorded in its MANIFEST) and is now ``shipped``."""
    manifest = (f"so {SO}\nsize {len(built)}\ndigest {digest_bytes(built)}\nkey 0123abcd\n"
                f"source csrc/k.c\n").encode()
    files = {f"{ENTRY}/{SO}": shipped, f"{ENTRY}/MANIFEST": manifest, "pk/__init__.py": b""}
    record = "".join(f"{n},{_hash(d)},{len(d)}\n" for n, d in files.items()) + "pk-1.dist-info/RECORD,,\n"
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in {**files, "pk-1.dist-info/RECORD": record.encode()}.items():
            zf.writestr(name, data)
    return path


def test_a_relinked_extension_is_recorded_again(tmp_path):
    wheel = write_wheel(tmp_path / "pk-1-cp310-abi3-linux_x86_64.whl", b"built", b"relinked!")
    assert refresh(wheel) == [f"{ENTRY}/MANIFEST"]
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(tmp_path / "site")
        manifest = zf.read(f"{ENTRY}/MANIFEST")
        record = zf.read("pk-1.dist-info/RECORD").decode()
    assert b"key 0123abcd\n" in manifest and b"source csrc/k.c\n" in manifest  # the key stays
    assert read_entry(str(tmp_path / "site" / ENTRY)).data == b"relinked!"
    assert f"{ENTRY}/MANIFEST,{_hash(manifest)},{len(manifest)}" in record.splitlines()


def test_a_wheel_whose_extensions_match_is_left_as_it_was(tmp_path):
    wheel = write_wheel(tmp_path / "pk.whl", b"same", b"same")
    before = wheel.read_bytes()
    assert refresh(wheel) == []
    assert wheel.read_bytes() == before


def test_a_manifest_naming_a_missing_extension_is_an_error_naming_both(tmp_path, capsys):
    wheel = tmp_path / "pk.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr(f"{ENTRY}/MANIFEST", f"so {SO}\nsize 1\ndigest x\n")
    assert main([str(wheel)]) == 1
    assert f"{ENTRY}/MANIFEST names '{SO}', which the wheel lacks" in capsys.readouterr().err


def test_no_wheel_is_a_usage_error():
    assert main([]) == 2


def test_a_cuda_build_beside_the_extension_is_left_alone(tmp_path):
    wheel = write_wheel(tmp_path / "pk.whl", b"same", b"same")
    with zipfile.ZipFile(wheel, "a") as zf:  # PTX and cubins: no file a repair relinks
        zf.writestr("pk/_opsdk_prebuilt/c0de/MANIFEST", "kind cuda\nkey c0de\nsm_90 _opsdk_c0de.sm_90.cubin 3 d\n")
    before = wheel.read_bytes()
    assert refresh(wheel) == []
    assert wheel.read_bytes() == before
