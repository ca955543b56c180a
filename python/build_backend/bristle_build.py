"""A small PEP 517 build backend for bristle: drives CMake and ``cmake --install``, then packs a wheel.

Debian 12 has no scikit-build-core, and the module is built by the project's own CMake files, so this
backend (stdlib only) is all that ``pip install --no-build-isolation .`` and ``pip wheel .`` need:

1. configure ``<source>/build/pip`` (or ``$BRISTLE_BUILD_DIR``, or ``--config-settings build-dir=DIR``)
   with ``-DCMAKE_BUILD_TYPE=Release -DBRISTLE_BUILD_TESTS=OFF -DBRISTLE_BUILD_BENCH=OFF`` for the
   interpreter that runs pip (ccache as compiler launcher when it is on PATH);
2. build the target ``bristle_python`` (the library and the extension; ``$BRISTLE_BUILD_JOBS`` or
   ``--config-settings jobs=N`` parallel jobs, default: the number of CPUs);
3. ``cmake --install --component python`` into a staging directory and zip it into
   ``bristle-<version>-cp3X-cp3X-<platform>.whl`` with its ``.dist-info`` (METADATA, WHEEL, RECORD).

The version has one home, ``project(bristle VERSION x.y.z)`` in CMakeLists.txt: CMake compiles it into
the extension (``bristle.__version__``) and this backend reads it from there for the wheel's name and
metadata. Name, summary, Python and numpy requirements come from pyproject.toml's [project] table.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    tomllib = None

SOURCE_DIR = Path(__file__).resolve().parents[2]

__all__ = ["build_wheel", "build_sdist", "get_requires_for_build_wheel", "get_requires_for_build_sdist",
           "prepare_metadata_for_build_wheel", "version"]


# ---- Metadata ------------------------------------------------------------------------------------

def version() -> str:
    """The project VERSION of CMakeLists.txt (the one place the version is written)."""
    text = (SOURCE_DIR / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\s*\(\s*bristle\s+VERSION\s+([0-9][0-9A-Za-z.+-]*)", text)
    if not match:
        raise RuntimeError("CMakeLists.txt: no `project(bristle VERSION x.y.z ...)` found")
    return match.group(1)


def _project() -> dict:
    path = SOURCE_DIR / "pyproject.toml"
    if tomllib is None:
        return {"name": "bristle"}
    with open(path, "rb") as f:
        return tomllib.load(f).get("project", {})


def _metadata() -> str:
    project = _project()
    lines = ["Metadata-Version: 2.1", f"Name: {project.get('name', 'bristle')}", f"Version: {version()}"]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    license = project.get("license")
    if isinstance(license, dict) and "text" in license:
        lines.append(f"License: {license['text']}")
    for dep in project.get("dependencies", []):
        lines.append(f"Requires-Dist: {dep}")
    return "\n".join(lines) + "\n"


def _tag() -> str:
    """cp311-cp311-linux_x86_64 for the running interpreter (the one the extension is built for)."""
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{impl}-{platform}"


def _wheel_file() -> str:
    return f"Wheel-Version: 1.0\nGenerator: bristle_build {version()}\nRoot-Is-Purelib: false\nTag: {_tag()}\n"


def _dist_info_name() -> str:
    return f"bristle-{version()}.dist-info"


def _write_dist_info(directory: Path) -> Path:
    info = directory / _dist_info_name()
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata(), encoding="utf-8")
    (info / "WHEEL").write_text(_wheel_file(), encoding="utf-8")
    return info


# ---- PEP 517 hooks -------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []  # cmake, a C++ compiler, pybind11 and the libraries are Debian packages, not pip's


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _write_dist_info(Path(metadata_directory)).name


def _setting(config_settings, key: str, env: str):
    if config_settings and config_settings.get(key):
        return config_settings[key]
    return os.environ.get(env) or None


def _run(cmd, **kwargs):
    print("bristle_build: " + " ".join(str(c) for c in cmd), file=sys.stderr, flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def _cmake_build_and_stage(stage: Path, config_settings) -> None:
    build_dir = Path(_setting(config_settings, "build-dir", "BRISTLE_BUILD_DIR") or SOURCE_DIR / "build" / "pip")
    if not build_dir.is_absolute():
        build_dir = SOURCE_DIR / build_dir
    jobs = _setting(config_settings, "jobs", "BRISTLE_BUILD_JOBS") or str(os.cpu_count() or 1)
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("cmake not found (Debian: apt-get install cmake ninja-build g++)")
    configure = [cmake, "-S", SOURCE_DIR, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                 "-DBRISTLE_BUILD_TESTS=OFF", "-DBRISTLE_BUILD_BENCH=OFF", "-DBRISTLE_BUILD_PYTHON=ON",
                 f"-DPython3_EXECUTABLE={sys.executable}", "-DBRISTLE_PYTHON_INSTALL_DIR=."]
    if not (build_dir / "CMakeCache.txt").exists() and shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    if shutil.which("ccache"):
        configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
    _run(configure)
    _run([cmake, "--build", build_dir, "--target", "bristle_python", "-j", jobs])
    _run([cmake, "--install", build_dir, "--component", "python", "--prefix", stage])


def _record_line(path: Path, arcname: str) -> str:
    data = path.read_bytes()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    with tempfile.TemporaryDirectory(prefix="bristle-wheel-") as tmp:
        stage = Path(tmp) / "stage"
        _cmake_build_and_stage(stage, config_settings)
        if not (stage / "bristle" / "__init__.py").exists() or not list((stage / "bristle").glob("_bristle*.so")):
            raise RuntimeError(f"cmake --install put no bristle package with its extension into {stage}")
        info = _write_dist_info(stage)
        name = f"bristle-{version()}-{_tag()}.whl"
        files = sorted(p for p in stage.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        record_name = f"{info.name}/RECORD"
        records = []
        out = Path(wheel_directory) / name
        with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as whl:
            for path in files:
                arcname = path.relative_to(stage).as_posix()
                whl.write(path, arcname)
                records.append(_record_line(path, arcname))
            records.append(f"{record_name},,")
            whl.writestr(record_name, "\n".join(records) + "\n")
    return name


def build_sdist(sdist_directory, config_settings=None):
    """The source tree without build products, .git and outputs, as bristle-<version>.tar.gz."""
    base = f"bristle-{version()}"
    skip_top = {".git", "build", "out"}

    def keep(info: tarfile.TarInfo):
        parts = Path(info.name).parts
        if len(parts) > 1 and parts[1] in skip_top:
            return None
        if "__pycache__" in parts:
            return None
        return info

    name = base + ".tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as tar:
        tar.add(SOURCE_DIR, arcname=base, filter=keep)
        pkg_info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        pkg_info.size = len(data)
        import io
        tar.addfile(pkg_info, io.BytesIO(data))
    return name
