"""What Qt's X11 window needs from the system, checked without importing Qt.

PySide6's wheel carries Qt, but its xcb platform plugin links to X11 libraries the system must
provide (libxcb-cursor0 is the one most often missing). Without them the window fails with Qt's
generic "could not load the Qt platform plugin" error; `doctor` runs `ldd` on the plugin instead
and names the Debian packages to install.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

# A library's soname -> the Debian package that ships it, where the name does not say so.
_PACKAGES = {
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libxcb.so.1": "libxcb1",
    "libglib-2.0.so.0": "libglib2.0-0",
}
# Everything the window needs on a minimal Debian (the README and .ci/run list the same).
WINDOW_PACKAGES = (
    "libxcb-cursor0",
    "libxkbcommon-x11-0",
    "libxcb-icccm4",
    "libxcb-image0",
    "libxcb-keysyms1",
    "libxcb-randr0",
    "libxcb-render-util0",
    "libxcb-shape0",
    "libxcb-xkb1",
    "libx11-xcb1",
    "libegl1",
    "libgl1",
    "libfontconfig1",
    "libdbus-1-3",
)


def xcb_plugin() -> Path | None:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        plugin = Path(root) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.exists():
            return plugin
    return None


def missing_libraries(plugin: Path | None = None) -> list[str]:
    """Sonames the xcb plugin (and Qt's xcb library) cannot find on this system."""
    plugin = plugin or xcb_plugin()
    ldd = shutil.which("ldd")
    if plugin is None or ldd is None:
        return []
    targets = [plugin, *sorted((plugin.parents[2] / "lib").glob("libQt6XcbQpa.so*"))[:1]]
    missing: list[str] = []
    for target in targets:
        try:
            out = subprocess.run(
                [ldd, str(target)], capture_output=True, text=True, timeout=20, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for name in re.findall(r"^\s*(\S+) => not found", out, re.MULTILINE):
            if name not in missing:
                missing.append(name)
    return missing


def debian_package(soname: str) -> str:
    """libxcb-cursor.so.0 -> libxcb-cursor0 (Debian's naming rule), or the known exception."""
    if soname in _PACKAGES:
        return _PACKAGES[soname]
    found = re.match(r"(lib[\w.+-]+?)\.so\.(\d+)", soname)
    if not found:
        return soname
    base, major = found.groups()
    base = base.lower().replace("_", "-")
    return f"{base}-{major}" if base[-1].isdigit() else f"{base}{major}"
