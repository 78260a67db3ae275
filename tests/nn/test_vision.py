"""nn.PixelShuffle, PixelUnshuffle, ChannelShuffle: Paddle's parameter names, as keywords."""
import opsdk


def test_the_factor_is_taken_by_paddles_names():
    x = opsdk.arange(16, dtype="float32").reshape([1, 4, 2, 2])
    up = opsdk.nn.PixelShuffle(upscale_factor=2)(x)
    assert up.shape == [1, 1, 4, 4]
    assert opsdk.nn.PixelUnshuffle(downscale_factor=2)(up).tolist() == x.tolist()
    assert opsdk.nn.ChannelShuffle(groups=2)(x)[0, 1].tolist() == x[0, 2].tolist()
    assert "upscale_factor=2" in repr(opsdk.nn.PixelShuffle(upscale_factor=2))
