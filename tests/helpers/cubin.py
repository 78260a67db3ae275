"""The kernels a PTX or cubin file holds, read with the CUDA toolchain where it has cuobjdump, else
from the file itself (PTX's ``.entry`` lines; a cubin's ELF sections ``.text.<kernel>``)."""
import re
import shutil
import struct
import subprocess


def ptx_kernels(text):
    """The kernels (``.entry`` names) a PTX text defines."""
    return set(re.findall(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$][\w$]*)", text, re.M))


def elf_header(data):
    """(machine, section names) of a 64-bit little-endian ELF file's bytes."""
    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, "not a 64-bit little-endian ELF file"
    machine = struct.unpack_from("<H", data, 0x12)[0]
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strings_at, strings_size = headers[shstrndx][4], headers[shstrndx][5]
    strings = data[strings_at:strings_at + strings_size]
    names = [strings[h[0]:strings.index(b"\0", h[0])].decode() for h in headers]
    return machine, names


EM_CUDA = 190  # the ELF machine number of a cubin


def cubin_kernels(path):
    """The kernels a cubin file holds (cuobjdump's symbol list where cuobjdump is installed)."""
    tool = shutil.which("cuobjdump")
    if tool:
        done = subprocess.run([tool, "--dump-elf-symbols", path], capture_output=True, text=True, check=True)
        return set(re.findall(r"STT_FUNC\s+STB_GLOBAL\s+\S+\s+(?:\S+\s+)?(\w+)\s*$", done.stdout, re.M))
    with open(path, "rb") as f:
        machine, sections = elf_header(f.read())
    assert machine == EM_CUDA, f"{path}: ELF machine {machine}, not a cubin"
    return {name[len(".text."):] for name in sections if name.startswith(".text.")}


def cubin_arch(path):
    """The ``sm_XY`` a cubin is built for (its ELF flags hold the architecture number)."""
    with open(path, "rb") as f:
        data = f.read(0x40)
    flags = struct.unpack_from("<I", data, 0x30)[0]
    # CUDA 12.8 and later store it in bits 8-15 (ELF ABI version 8 and up), earlier ones in bits 0-7
    version = data[8]
    return f"sm_{(flags >> 8) & 0xFF if version >= 8 else flags & 0xFF}"
