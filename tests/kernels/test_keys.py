"""Cache keys: every input that changes the compiled extension changes the key."""

from opsdk.kernels import CSource
from opsdk.kernels.keys import build_key, local_headers, source_key


def _key(source, code=None):
    return source_key(source, source.read() if code is None else code)


def _inline(tmp_path, code, **options):
    folder = tmp_path / "src"
    folder.mkdir(exist_ok=True)
    path = folder / "k.c"
    path.write_text(code)
    return CSource(str(path), cdef=options.pop("cdef", "int f(void);"), **options)


def test_same_inputs_give_the_same_key(tmp_path):
    source = _inline(tmp_path, "int f(void) { return 1; }")
    assert _key(source) == _key(source)


def test_source_text_changes_the_key(tmp_path):
    source = _inline(tmp_path, "int f(void) { return 1; }")
    assert _key(source) != _key(source, "int f(void) { return 2; }")


def test_local_header_content_changes_the_key(tmp_path):
    source = _inline(tmp_path, '#include "h.h"\nint f(void) { return V; }')
    header = tmp_path / "src" / "h.h"
    header.write_text("#define V 1\n")
    first = _key(source)
    header.write_text("#define V 2\n")
    assert _key(source) != first


def test_headers_included_by_headers_are_followed(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.h").write_text('#include "b.h"\n')
    (tmp_path / "src" / "b.h").write_text("#define B 1\n")
    found = local_headers('#include "a.h"\n', str(tmp_path / "src"))
    assert [p.rsplit("/", 1)[-1] for p, _ in found] == ["a.h", "b.h"]


def test_system_and_missing_headers_are_ignored(tmp_path):
    assert local_headers('#include <stdio.h>\n#include "nowhere.h"\n', str(tmp_path)) == []


def test_headers_are_found_in_include_dirs(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "x.h").write_text("#define X 1\n")
    found = local_headers('#include "x.h"\n', str(tmp_path), (str(tmp_path / "inc"),))
    assert found == [(str(tmp_path / "inc" / "x.h"), "#define X 1\n")]


def test_flags_change_the_key(tmp_path):
    code = "int f(void) { return 1; }"
    plain = _inline(tmp_path, code)
    assert _key(plain) != _key(_inline(tmp_path, code, extra_compile_args=("-O3",)))
    assert _key(plain) != _key(_inline(tmp_path, code, openmp=True))
    assert _key(plain) != _key(_inline(tmp_path, code, define_macros=(("N", "1"),)))


def test_cdef_changes_the_key(tmp_path):
    code = "int f(void) { return 1; } int g(void) { return 2; }"
    assert _key(_inline(tmp_path, code)) != _key(_inline(tmp_path, code, cdef="int f(void); int g(void);"))


def test_compiler_identity_changes_the_key():
    assert build_key("abc", "gcc 12") != build_key("abc", "gcc 13")


def test_the_prebuilt_key_does_not_depend_on_where_the_package_is(tmp_path):
    from opsdk.kernels.keys import prebuilt_key

    shared = tmp_path / "mm"
    (shared / "lib").mkdir(parents=True)
    (shared / "lib" / "shared.h").write_text("#define S 1\n")
    keys = []
    for place in ("aa", "zz"):  # one sorts before the include dir, the other after it
        folder = tmp_path / place
        folder.mkdir()
        (folder / "local.h").write_text("#define L 2\n")
        (folder / "k.c").write_text('#include "local.h"\n#include "lib/shared.h"\nint f(void) { return L + S; }\n')
        source = CSource(str(folder / "k.c"), cdef="int f(void);", include_dirs=(str(shared),))
        keys.append(prebuilt_key(source, source.read()))
    assert keys[0] == keys[1]
