#!/usr/bin/env bash
# Builds editors/vscode/rulec.vsix: installs exactly the locked packages (the language client is a
# runtime dependency, so it goes into the .vsix; vsce, the packager, and vscode-textmate, which the
# tests run the grammar in, are dev dependencies, left out of it), then
# packages with @vscode/vsce. Needs Node 20 or later and npm.
set -euo pipefail
cd "$(dirname "$0")"
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 20 ]; then
    echo "package.sh: @vscode/vsce needs Node 20 or later; found $(node --version 2>/dev/null || echo none)" >&2
    exit 1
fi
npm ci --no-audit --no-fund --loglevel=error
npm run --silent package
