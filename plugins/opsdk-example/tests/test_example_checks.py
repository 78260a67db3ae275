"""Every ``opsdk check`` case of the pack as a test: example.swish on each backend x dtype x check.

opsdk's pytest plugin (entry point ``pytest11``, active once opsdk is installed) collects the
declaration below as tests with ids like ``example.swish[c-float64-gradgradcheck]``.
"""
import opsdk.testing

test_example_pack_checks = opsdk.testing.op_checks(pack="example")


def test_opsdk_pytest_plugin_collects_the_declaration(pytestconfig):
    # without the plugin the declaration above is silently not a test: make that loud
    plugins = pytestconfig.pluginmanager
    assert plugins.hasplugin("opsdk") or plugins.hasplugin("opsdk.testing.pytest_plugin"), (
        "opsdk's pytest plugin is not active, so example.swish's checks were not collected: "
        "install opsdk (pip install -e .) or run pytest with -p opsdk.testing.pytest_plugin")
