#!/bin/sh
# Installs headless Chromium from the Debian packages, for the picture tests
# (tests/it/cli.rs: `svg_*` and `html_*`), which are skipped without it.
set -e
command -v chromium >/dev/null 2>&1 && exit 0
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
