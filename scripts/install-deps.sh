#!/usr/bin/env bash
# Installs the Debian 12 packages bristle needs (only those missing). Run as root.
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config ccache
  libeigen3-dev libsundials-dev libtomlplusplus-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libceres-dev libboost-dev
  pybind11-dev python3-dev python3-numpy python3-scipy python3-matplotlib python3-pytest
  python3-venv python3-pip python3-distributed
  gnuplot-nox
  clang-14 libclang-rt-14-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all ${#packages[@]} packages present" >&2
fi
