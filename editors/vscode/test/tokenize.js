// Tokenizes files with the extension's TextMate grammar as VS Code does (vscode-textmate on the
// Oniguruma regular expressions, the dev dependencies), for tests/test_vscode_extension.py.
// Usage: node test/tokenize.js FILE...; prints a JSON list per file of
// [line, start, end, scopes] with start and end counted in code points (not UTF-16 units).
'use strict';

const fs = require('fs');
const path = require('path');
const oniguruma = require('vscode-oniguruma');
const textmate = require('vscode-textmate');

const GRAMMAR = path.join(__dirname, '..', 'syntaxes', 'rulec.tmLanguage.json');

async function main(files) {
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => (scopeName === 'source.rulec'
      ? textmate.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf-8'), GRAMMAR) : null),
  });
  const grammar = await registry.loadGrammar('source.rulec');
  const out = [];
  for (const file of files) {
    const tokens = [];
    let state = textmate.INITIAL;
    fs.readFileSync(file, 'utf-8').split('\n').forEach((line, n) => {
      const result = grammar.tokenizeLine(line, state);
      const points = (units) => Array.from(line.slice(0, units)).length;
      for (const t of result.tokens) {
        tokens.push([n, points(t.startIndex), points(Math.min(t.endIndex, line.length)), t.scopes]);
      }
      state = result.ruleStack;
    });
    out.push(tokens);
  }
  process.stdout.write(JSON.stringify(out));
}

main(process.argv.slice(2)).catch((e) => { console.error(e); process.exit(1); });
