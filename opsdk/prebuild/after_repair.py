"""``python -m opsdk.prebuild.after_repair WHEEL...``: record again, in a repaired wheel, the bytes
of the C kernels compiled into it.

``auditwheel repair`` copies the shared libraries a wheel's extensions need beyond the manylinux
policy into the wheel (``libgomp`` for kernels built with OpenMP) and rewrites those extensions
to find the copies (a new ``DT_NEEDED`` name and an ``RPATH``). Their bytes then differ from what
their ``MANIFEST`` recorded at build time, and the loader (``opsdk.kernels.prebuilt``) would take
them for altered and compile the kernels from source instead. This records each changed
extension's size and digest in its MANIFEST (and the MANIFEST's new hash in the wheel's RECORD),
keeping the key, so the check still ties the build to its sources. Run it on the repaired wheel,
right after the repair (the workflow ``opsdk new-pack`` writes does).
"""
import base64
import hashlib
import os
import sys
import tempfile
import zipfile

from opsdk.kernels.digest import digest_bytes
from opsdk.kernels.prebuilt import FOLDER


def _record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _replaced(line, separator, values):
    """``line`` (``name<separator>rest``) with its rest set to ``values[name]``, if there is one."""
    name = line.split(separator, 1)[0]
    return f"{name}{separator}{values[name]}" if name in values else line


def _rerecorded(manifest, data):
    """The MANIFEST's text with its extension's size and digest set to ``data``'s, or None when
    they already match."""
    lines = manifest.decode("utf-8").splitlines()
    fields = dict(line.split(" ", 1) for line in lines if " " in line)
    digest = digest_bytes(data)
    if fields.get("digest") == digest and fields.get("size") == str(len(data)):
        return None
    new = {"size": str(len(data)), "digest": digest}
    lines = [_replaced(line, " ", new) for line in lines]
    lines.append(f"repaired extension relinked after the build (built as {fields.get('digest')})")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _manifests(names):
    """The MANIFESTs of prebuilt kernels among a wheel's names."""
    return [n for n in names if n.endswith("/MANIFEST") and n.split("/")[-3:-2] == [FOLDER]]


def refresh(wheel):
    """Set the MANIFEST of every prebuilt extension in ``wheel`` (a path) to the extension's bytes
    in it, rewriting the wheel in place; returns the MANIFESTs changed (names in the wheel).

    Raises:
        ValueError: a MANIFEST names an extension the wheel lacks, or the wheel has no RECORD.
    """
    with zipfile.ZipFile(wheel) as zf:
        infos = zf.infolist()
        contents = {info.filename: zf.read(info) for info in infos}
    changed = {}
    for name in _manifests(contents):
        fields = dict(line.split(" ", 1) for line in contents[name].decode("utf-8").splitlines() if " " in line)
        if fields.get("kind", "c") != "c":
            continue  # PTX and cubins (a CUDA build): a repair relinks no such file
        so = name.rsplit("/", 1)[0] + "/" + fields.get("so", "")
        if so not in contents:
            raise ValueError(f"{wheel}: {name} names {fields.get('so')!r}, which the wheel lacks")
        text = _rerecorded(contents[name], contents[so])
        if text is not None:
            changed[name] = contents[name] = text
    if not changed:
        return []
    records = [n for n in contents if n.endswith(".dist-info/RECORD")]
    if len(records) != 1:
        raise ValueError(f"{wheel}: expected one .dist-info/RECORD; got {len(records)}")
    hashes = {path: f"{_record_hash(text)},{len(text)}" for path, text in changed.items()}
    rows = contents[records[0]].decode("utf-8").splitlines()
    contents[records[0]] = "".join(_replaced(row, ",", hashes) + "\n" for row in rows).encode("utf-8")
    folder = os.path.dirname(os.path.abspath(wheel))
    fd, temporary = tempfile.mkstemp(suffix=".whl", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f, zipfile.ZipFile(f, "w") as out:
            for info in infos:  # same order, dates, modes and compression as before
                out.writestr(info, contents[info.filename])
        os.replace(temporary, wheel)
    except BaseException:
        os.unlink(temporary)
        raise
    return sorted(changed)


def main(argv):
    if not argv:
        print("usage: python -m opsdk.prebuild.after_repair WHEEL...", file=sys.stderr)
        return 2
    for wheel in argv:
        try:
            changed = refresh(wheel)
        except (OSError, ValueError, zipfile.BadZipFile) as error:
            print(f"opsdk: cannot update {wheel}: {error}", file=sys.stderr)
            return 1
        what = f"recorded {len(changed)} relinked kernel build(s)" if changed else "no kernel build changed"
        print(f"opsdk: {os.path.basename(wheel)}: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
