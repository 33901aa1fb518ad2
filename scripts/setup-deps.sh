#!/usr/bin/env bash
# Installs what atomlab needs on Debian/Ubuntu, only where it is missing:
# a C toolchain, CMake, the OpenCL headers and ICD loader, PoCL (OpenCL on the
# CPU), cJSON, gnuplot (heatmaps), valgrind (a memcheck test), Python 3 (the CLI
# tests read JSON with it), git and chromium (the report test loads report.html
# headless), libjpeg-turbo and a Debian wallpaper package with real photographs
# (the histogram app's photo distribution), and dict-gcide (English text for
# `atomlab app swapps`'s string match), and the Vulkan headers, glslc and Mesa's Vulkan drivers (the Vulkan
# backend, tested on lavapipe). ReFrame (reframe-hpc, from PyPI) goes into the project's own virtual environment,
# .venv at the repository root, never into the system Python: the fleet checks (reframe/) run with it.
set -euo pipefail

PACKAGES=(gcc make cmake pkg-config git python3 ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd libcjson-dev clinfo gnuplot-nox valgrind chromium
  python3-venv libjpeg-dev zlib1g-dev lomiri-wallpapers-20.04 dict-gcide libvulkan-dev glslc mesa-vulkan-drivers)

REFRAME=reframe-hpc==4.10.4

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "atomlab: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

VENV="$(cd "$(dirname "$0")/.." && pwd)/.venv"
if ! "$VENV/bin/reframe" --version >/dev/null 2>&1; then
  echo "atomlab: installing $REFRAME into $VENV" >&2
  PY=/usr/bin/python3 # the distribution's Python (python3-venv above), where there is one
  [ -x "$PY" ] || PY=python3
  "$PY" -m venv "$VENV"
  "$VENV/bin/pip" install -q "$REFRAME"
fi
