// Checks udtc's Bicep extensions against the reference library,
// @azure/bicep-types (pinned in package.json / package-lock.json).
//
// usage: node check.js DIR...
//
// Each DIR is a `bicep` output directory (golden/<case>/bicep): every
// subdirectory holding index.json is one extension, with its archive at
// DIR/<name>.tgz. For each extension it checks that
//   - every element of types.json starts with "$type", every reference
//     resolves to a type of the right kind, no property has flags 3 or 6,
//     and no two elements are identical;
//   - rebuilding the types with the library's TypeFactory and writing them
//     with writeTypesJson gives the JSON of types.json (the same value, key
//     order included), and types.json is that JSON laid out as udtc writes
//     it: one type per line, each as JSON.stringify writes it unindented;
//   - buildIndex + writeIndexJson give index.json byte for byte, its
//     settings.name is "radius" + the extension's name, and every resource
//     key names its ResourceType;
//   - writeIndexMarkdown gives index.md byte for byte, and every link of
//     index.md has its anchor in types.md;
//   - the archive is a gzipped tar holding only types.tgz, itself holding
//     index.json and types.json (bare names, regular files, sorted) equal to
//     the files on disk.
// It prints one line per failure and a summary, and exits 1 on any failure
// or when it found no extension at all.
'use strict';

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const bt = require('@azure/bicep-types');

const K = bt.TypeBaseKind;

function fail(msg) {
  throw new Error(msg);
}

function checkReferences(types) {
  const kindOf = (ref, where) => {
    if (!(ref instanceof bt.TypeReference)) fail(`${where}: not a type reference`);
    if (!Number.isInteger(ref.index) || ref.index < 0 || ref.index >= types.length) {
      fail(`${where}: reference #/${ref.index} does not resolve`);
    }
    return types[ref.index].type;
  };
  const valueKinds = new Set([K.StringType, K.IntegerType, K.BooleanType, K.AnyType, K.NullType,
    K.StringLiteralType, K.UnionType, K.ArrayType, K.ObjectType]);
  const value = (ref, where) => {
    const k = kindOf(ref, where);
    if (!valueKinds.has(k)) fail(`${where}: refers to a ${k}, want a value type`);
  };
  types.forEach((t, i) => {
    const at = `#/${i} (${t.type})`;
    switch (t.type) {
      case K.UnionType:
        if (!Array.isArray(t.elements) || t.elements.length < 2) fail(`${at}: a union needs two elements`);
        t.elements.forEach((e, j) => {
          const k = kindOf(e, `${at} element ${j}`);
          if (k !== K.StringLiteralType) fail(`${at} element ${j}: refers to a ${k}, want StringLiteralType`);
        });
        break;
      case K.ArrayType:
        value(t.itemType, `${at} itemType`);
        break;
      case K.ObjectType:
        for (const [name, p] of Object.entries(t.properties)) {
          value(p.type, `${at} property ${name}`);
          if (!Number.isInteger(p.flags) || p.flags < 0 || p.flags > 31) fail(`${at} property ${name}: bad flags ${p.flags}`);
          if ((p.flags & 3) === 3 || (p.flags & 6) === 6) fail(`${at} property ${name}: forbidden flags ${p.flags}`);
        }
        if (t.additionalProperties !== undefined) value(t.additionalProperties, `${at} additionalProperties`);
        break;
      case K.ResourceType: {
        const k = kindOf(t.body, `${at} body`);
        if (k !== K.ObjectType) fail(`${at} body: refers to a ${k}, want ObjectType`);
        break;
      }
      case K.StringType:
      case K.IntegerType:
      case K.BooleanType:
      case K.AnyType:
      case K.StringLiteralType:
        break;
      default:
        fail(`${at}: udtc never writes this kind`);
    }
  });
}

// rebuild adds every type to a TypeFactory in file order, the way a
// generator using the library would, and returns the factory's types.
function rebuild(types) {
  const f = new bt.TypeFactory();
  types.forEach((t, i) => {
    let r;
    switch (t.type) {
      case K.StringType: r = f.addStringType(t.sensitive, t.minLength, t.maxLength, t.pattern); break;
      case K.IntegerType: r = f.addIntegerType(t.minValue, t.maxValue); break;
      case K.BooleanType: r = f.addBooleanType(); break;
      case K.AnyType: r = f.addAnyType(); break;
      case K.StringLiteralType: r = f.addStringLiteralType(t.value); break;
      case K.UnionType: r = f.addUnionType(t.elements); break;
      case K.ArrayType: r = f.addArrayType(t.itemType, t.minLength, t.maxLength); break;
      case K.ObjectType: {
        const props = {};
        for (const [name, p] of Object.entries(t.properties)) {
          props[name] = { type: p.type, flags: p.flags, description: p.description };
        }
        r = f.addObjectType(t.name, props, t.additionalProperties, t.sensitive);
        break;
      }
      case K.ResourceType: r = f.addResourceType(t.name, t.body, t.readableScopes, t.writableScopes, t.functions); break;
      default: fail(`#/${i}: unexpected kind ${t.type}`);
    }
    if (r.index !== i) fail(`#/${i} (${t.type}): the library's factory shares it with #/${r.index} (a duplicate)`);
  });
  return f.types;
}

// untar parses a ustar archive: [{name, typeflag, data}].
function untar(buf) {
  const entries = [];
  let off = 0;
  while (off + 512 <= buf.length) {
    const hdr = buf.subarray(off, off + 512);
    if (hdr.every(b => b === 0)) break;
    const field = (s, n) => hdr.subarray(s, s + n).toString('latin1').replace(/\0.*$/s, '');
    const prefix = field(345, 155);
    const name = (prefix ? prefix + '/' : '') + field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const typeflag = field(156, 1) || '0';
    entries.push({ name, typeflag, data: buf.subarray(off + 512, off + 512 + size) });
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

function checkArchive(file, want) {
  const outer = untar(zlib.gunzipSync(fs.readFileSync(file)));
  if (outer.length !== 1 || outer[0].name !== 'types.tgz') {
    fail(`${file}: want one entry types.tgz, got [${outer.map(e => e.name).join(', ')}]`);
  }
  if (outer[0].typeflag !== '0') fail(`${file}: types.tgz is not a regular file`);
  const inner = untar(zlib.gunzipSync(outer[0].data));
  const names = inner.map(e => e.name);
  if (names.join(',') !== 'index.json,types.json') fail(`${file}: types.tgz holds [${names.join(', ')}], want [index.json, types.json]`);
  for (const e of inner) {
    if (e.typeflag !== '0') fail(`${file}: ${e.name} is not a regular file`);
    if (!e.data.equals(want[e.name])) fail(`${file}: ${e.name} differs from the file on disk`);
  }
}

function checkExtension(dir, name) {
  const ext = path.join(dir, name);
  const read = f => fs.readFileSync(path.join(ext, f));
  const typesText = read('types.json').toString('utf8');
  const indexText = read('index.json').toString('utf8');

  const raw = JSON.parse(typesText);
  if (!Array.isArray(raw)) fail('types.json is not an array');
  raw.forEach((t, i) => {
    if (Object.keys(t)[0] !== '$type') fail(`#/${i}: "$type" is not the first key`);
  });
  const seen = new Map();
  raw.forEach((t, i) => {
    const key = JSON.stringify(t);
    if (seen.has(key)) fail(`#/${i} is identical to #/${seen.get(key)}`);
    seen.set(key, i);
  });

  const types = bt.readTypesJson(typesText);
  checkReferences(types);
  const rewritten = bt.writeTypesJson(rebuild(types));
  if (rewritten !== JSON.stringify(raw, null, 2)) fail('writeTypesJson does not reproduce the JSON of types.json');
  const layout = raw.length === 0 ? '[]' : '[\n' + raw.map(t => JSON.stringify(t)).join(',\n') + '\n]';
  if (typesText !== layout) fail('types.json is not one type per line, each as JSON.stringify writes it');

  const index = bt.readIndexJson(indexText);
  if (bt.writeIndexJson(index) !== indexText) fail('writeIndexJson does not reproduce index.json');
  const built = bt.buildIndex([{ relativePath: 'types.json', types }], msg => fail(msg), index.settings);
  if (bt.writeIndexJson(built) !== indexText) fail('buildIndex + writeIndexJson do not reproduce index.json');
  // Radius's manifest-to-bicep names an extension "radius" + its name (docs/bicep.md).
  if (!index.settings || index.settings.name !== 'radius' + name) fail(`settings.name is not radius${name}`);
  for (const [key, r] of Object.entries(index.resources)) {
    const t = types[r.index];
    if (r.relativePath !== 'types.json' || !t || t.type !== K.ResourceType || t.name !== key) {
      fail(`index resource ${key} does not name its ResourceType`);
    }
  }

  const indexMd = read('index.md').toString('utf8');
  if (bt.writeIndexMarkdown(index) !== indexMd) fail('writeIndexMarkdown does not reproduce index.md');
  const typesMd = read('types.md').toString('utf8');
  for (const m of indexMd.matchAll(/\]\(types\.md#([^)]+)\)/g)) {
    if (!typesMd.includes(`<a id="${m[1]}"></a>`)) fail(`index.md links to types.md#${m[1]}, which has no such anchor`);
  }

  checkArchive(path.join(dir, name + '.tgz'), { 'index.json': read('index.json'), 'types.json': read('types.json') });
}

function main(dirs) {
  let passed = 0;
  let failed = 0;
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) {
      console.log(`bicep-compat: ${dir}: no such directory`);
      failed++;
      continue;
    }
    for (const name of fs.readdirSync(dir).sort()) {
      if (!fs.existsSync(path.join(dir, name, 'index.json'))) continue;
      try {
        checkExtension(dir, name);
        passed++;
      } catch (e) {
        console.log(`bicep-compat: FAIL ${path.join(dir, name)}: ${e.message}`);
        failed++;
      }
    }
  }
  console.log(`bicep-compat: ${passed} passed, ${failed} failed`);
  if (passed + failed === 0) {
    console.log('bicep-compat: found no extension to check');
    return 1;
  }
  return failed > 0 ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
