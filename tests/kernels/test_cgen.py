"""The generated C file: #line directives point errors at the user's file and back."""

from opsdk.kernels import CSource
from opsdk.kernels.cgen import generate_c


def test_user_code_is_attributed_to_the_user_file():
    source = CSource("data/scale.c", cdef="void scale_f64(const double *x, double *y, int64_t n, double a);")
    text = generate_c(source, "int user_line_one;\n", "_m", "_m.c")
    lines = text.split("\n")
    at = lines.index(f'#line 1 "{source.path}"')
    assert lines[at + 1] == "int user_line_one;"


def test_generated_code_after_the_user_code_is_attributed_to_the_generated_file():
    source = CSource(code="int f(void) { return 1; }", cdef="int f(void);")
    lines = generate_c(source, source.read(), "_m", "_m.c").split("\n")
    (at,) = [i for i, line in enumerate(lines) if line.endswith('"_m.c"')]
    assert lines[at] == f'#line {at + 2} "_m.c"'  # the next line is line at+2 of the real file


def test_quotes_and_backslashes_in_file_names_are_escaped():
    source = CSource(code="int f(void) { return 1; }", cdef="int f(void);")
    text = generate_c(source, source.read(), "_m", 'we"ird\\name.c')
    assert '"we\\"ird\\\\name.c"' in text
