"""Arrays lent whole from a recycled buffer are their holder's own; views of them are not."""
import gc

import numpy

from opsdk.exclusive import is_lent, lend


def test_a_lent_array_is_lent_and_its_views_are_not():
    buffer = numpy.empty(64, numpy.uint8)
    whole = lend(buffer.view(numpy.float64))
    assert is_lent(whole)
    assert not is_lent(whole[1:]) and not is_lent(buffer) and not is_lent(numpy.empty(8))


def test_the_mark_goes_with_the_array():
    # a new array at a freed one's address is not taken for the lent one
    whole = lend(numpy.empty(64, numpy.uint8).view(numpy.float64))
    key = id(whole)
    del whole
    gc.collect()
    other = numpy.empty(8)
    assert id(other) != key or not is_lent(other)
