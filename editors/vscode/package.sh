#!/usr/bin/env bash
# Builds editors/vscode/rulec.vsix: installs exactly the locked packages (the language client is a
# runtime dependency, so it goes into the .vsix; vsce, the packager, is a dev dependency), then
# packages with @vscode/vsce. Needs Node 20 or later and npm.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
npm run --silent package
