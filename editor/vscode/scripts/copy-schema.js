// Copies the generated rules schema next to the extension (package.json's jsonValidation points
// at it). Rules files are JSON with comments *and* trailing commas (the rulebook's own example
// ends a group with one); VS Code's JSON support warns about trailing commas unless the schema
// says `allowTrailingCommas`, a VS Code keyword that other validators ignore, so it is added here
// rather than to the shared schema.
'use strict';

const fs = require('fs');
const path = require('path');

const source = path.join(__dirname, '..', '..', '..', 'schemas', 'rules.schema.json');
const target = path.join(__dirname, '..', 'schemas', 'rules.schema.json');

let schema;
try {
  schema = JSON.parse(fs.readFileSync(source, 'utf8'));
} catch (error) {
  console.error(`copy-schema: cannot read ${source} (${error.message}); run \`nova generate\` in the repository first`);
  process.exit(1);
}
schema.allowTrailingCommas = true;
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, JSON.stringify(schema, null, 2) + '\n');
