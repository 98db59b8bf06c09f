"""`doctor` names the Debian packages Qt's window needs when they are missing (issue 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_agent.health import _check_window_libraries
from desktop_agent.qt_platform import debian_package, missing_libraries, xcb_plugin


@pytest.mark.parametrize(
    ("soname", "package"),
    [
        ("libxcb-cursor.so.0", "libxcb-cursor0"),
        ("libxcb-icccm.so.4", "libxcb-icccm4"),
        ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
        ("libxcb-render-util.so.0", "libxcb-render-util0"),
        ("libEGL.so.1", "libegl1"),
    ],
)
def test_sonames_map_to_debian_packages(soname: str, package: str) -> None:
    assert debian_package(soname) == package


def test_a_missing_library_is_named_with_the_apt_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ldd = tmp_path / "ldd"
    fake_ldd.write_text(
        "#!/bin/sh\n"
        "echo '\tlibxcb-cursor.so.0 => not found'\n"
        "echo '\tlibxkbcommon-x11.so.0 => not found'\n"
        "echo '\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x0)'\n"
    )
    fake_ldd.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    assert xcb_plugin() is not None
    assert missing_libraries() == ["libxcb-cursor.so.0", "libxkbcommon-x11.so.0"]
    check = _check_window_libraries()
    assert not check.ok and not check.required  # the terminal chat still works
    assert "sudo apt install libxcb-cursor0 libxkbcommon-x11-0" in check.detail


def test_this_machine_has_what_the_window_needs() -> None:
    # CI installs the packages the README lists (.ci/run); the window tests need them too.
    assert missing_libraries() == []
