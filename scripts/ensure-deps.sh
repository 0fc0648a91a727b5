#!/usr/bin/env bash
# Checks for everything the build and tests need and installs what is missing: Debian packages with
# apt-get when run as root (otherwise prints the exact command), npm packages with `npm ci`.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
need() { # need PACKAGE TEST...
  local pkg=$1; shift
  "$@" >/dev/null 2>&1 || missing+=("$pkg")
}
need cmake command -v cmake
need g++ command -v g++
need emscripten command -v emcc
# The FMA builds' kernels: emcc 3.1.6's clang 14 writes relaxed SIMD's old opcodes (docs/build.md).
need clang-16 command -v clang++-16
need libeigen3-dev test -f /usr/include/eigen3/Eigen/Core
need nlohmann-json3-dev test -f /usr/include/nlohmann/json.hpp
need libgtest-dev test -d /usr/lib/x86_64-linux-gnu/cmake/GTest -o -d /usr/lib/cmake/GTest
need chromium test -x /usr/bin/chromium
# The end-to-end tests' browser: Chromium without its windows (tests/e2e/harness.mjs, HEADLESS_SHELL).
need chromium-headless-shell test -x /usr/bin/chromium-headless-shell
# The GPT's corpus: the Tang and Song poems of the fortune files (scripts/poems.mjs reads them).
need fortunes-zh test -f /usr/share/games/fortunes/tang300
# A CJK font, so Chromium draws the note's Chinese in the e2e screenshots (tests pass without it).
[[ $(id -u) == 0 ]] && need fonts-wqy-microhei test -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc

if ((${#missing[@]})); then
  cmd="apt-get install -y --no-install-recommends ${missing[*]}"
  if [[ $(id -u) == 0 ]]; then
    echo "setup: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $cmd -qq
  else
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: run: sudo apt-get update && sudo $cmd" >&2
    exit 1
  fi
fi

if [[ ! -x node_modules/.bin/vite ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
