#!/usr/bin/env node
// Validates rendered Kubernetes manifests offline, the way kubeconform -strict
// would, with schemas shipped in npm packages instead of downloaded ones:
//
//   1. schema: every object is checked by the JSON-schema validator that
//      kubernetes-models (or @kubernetes-models/prometheus-operator for
//      ServiceMonitor) generated from the Kubernetes OpenAPI document
//      (types, required fields, enums, formats);
//   2. strict: unknown fields (a typo such as `readOnlyRootFileSystem`) are
//      rejected by type-checking every object against the same package's
//      TypeScript interfaces, whose excess-property check plays the part of
//      additionalProperties: false;
//   3. names: metadata.name is a DNS name of the right length and no
//      kind/name pair appears twice.
//
// A kind with no known schema is an error, never skipped.
//
// Usage: node scripts/chart/validate-manifests.mjs <rendered.yaml>...
// Exit 0 when every object is valid, 1 otherwise.

import { readFileSync } from 'node:fs';
import console from 'node:console';
import process from 'node:process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import ts from 'typescript';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** apiVersion → module prefix holding one module per kind. */
function modulePrefix(apiVersion) {
  if (apiVersion.startsWith('monitoring.coreos.com/')) {
    return `@kubernetes-models/prometheus-operator/${apiVersion}`;
  }
  return `kubernetes-models/${apiVersion}`; // "v1" is the core group
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function describe(obj) {
  return `${obj?.kind ?? '?'}/${obj?.metadata?.name ?? '?'}`;
}

function loadObjects(files) {
  const objects = [];
  const problems = [];
  for (const file of files) {
    const docs = parseAllDocuments(readFileSync(file, 'utf8'), { prettyErrors: true });
    for (const doc of docs) {
      if (doc.errors.length > 0) {
        for (const e of doc.errors) problems.push(`${file}: YAML: ${e.message}`);
        continue;
      }
      const obj = doc.toJS();
      if (obj === null || obj === undefined) continue; // empty document
      if (typeof obj !== 'object' || Array.isArray(obj)) {
        problems.push(`${file}: a document is not a mapping`);
        continue;
      }
      objects.push({ file, obj });
    }
  }
  return { objects, problems };
}

async function schemaCheck({ file, obj }) {
  const problems = [];
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
    return [`${file}: ${describe(obj)}: apiVersion and kind are required`];
  }
  const specifier = `${modulePrefix(obj.apiVersion)}/${obj.kind}`;
  let Model;
  try {
    Model = (await import(specifier))[obj.kind];
  } catch {
    Model = undefined;
  }
  if (typeof Model !== 'function') {
    return [`${file}: ${describe(obj)}: no schema for ${obj.apiVersion} ${obj.kind}`];
  }
  try {
    new Model(obj).validate();
  } catch (err) {
    const details = Array.isArray(err.errors)
      ? err.errors.map((e) => `${e.instancePath || '/'} ${e.message}${e.params?.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : ''}`)
      : [String(err.message ?? err)];
    for (const d of details) problems.push(`${file}: ${describe(obj)}: schema: ${d}`);
  }
  const name = obj.metadata?.name;
  if (typeof name !== 'string' || name.length === 0) {
    problems.push(`${file}: ${describe(obj)}: metadata.name is required`);
  } else if (obj.kind === 'Service' ? !(DNS1035_LABEL.test(name) && name.length <= 63) : !(DNS1123_SUBDOMAIN.test(name) && name.length <= 253)) {
    problems.push(`${file}: ${describe(obj)}: metadata.name is not a valid ${obj.kind === 'Service' ? 'DNS-1035 label (<= 63)' : 'DNS-1123 subdomain'}`);
  }
  for (const [k, v] of Object.entries(obj.metadata?.labels ?? {})) {
    if (typeof v !== 'string' || v.length > 63 || !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(v)) {
      problems.push(`${file}: ${describe(obj)}: label ${k}=${JSON.stringify(v)} is not a valid label value`);
    }
  }
  return problems;
}

/**
 * Strict field check: one in-memory TypeScript file declares every object with
 * its interface type; excess-property and type errors map back to objects.
 */
function strictCheck(objects) {
  const fileName = path.join(repoRoot, 'scripts/chart/.rendered-manifests.ts');
  const lines = [];
  const spans = []; // [startLine, endLine, object]
  objects.forEach((entry, i) => {
    const { obj } = entry;
    if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return;
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(obj.kind)) return;
    const start = lines.length;
    lines.push(`import type { I${obj.kind} as T${i} } from ${JSON.stringify(`${modulePrefix(obj.apiVersion)}/${obj.kind}`)};`);
    for (const l of `export const o${i}: T${i} = ${JSON.stringify(obj, null, 1)};`.split('\n')) lines.push(l);
    spans.push([start, lines.length - 1, entry]);
  });
  const source = lines.join('\n');
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (f === fileName ? source : readFile(f));
  host.fileExists = ((orig) => (f) => f === fileName || orig(f))(host.fileExists.bind(host));
  host.getSourceFile = (f, lang, ...rest) =>
    f === fileName ? ts.createSourceFile(f, source, lang, true) : getSourceFile(f, lang, ...rest);
  const program = ts.createProgram([fileName], options, host);
  const problems = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0];
    if (!d.file || d.file.fileName !== fileName) {
      problems.push(`strict: ${message}`);
      continue;
    }
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    const span = spans.find(([a, b]) => line >= a && line <= b);
    const where = span ? `${span[2].file}: ${describe(span[2].obj)}` : 'manifests';
    const text = span && line === span[0] ? `no schema types for ${span[2].obj.apiVersion} ${span[2].obj.kind}` : message;
    problems.push(`${where}: strict: ${text} (near: ${lines[line].trim().slice(0, 80)})`);
  }
  return problems;
}

async function main() {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: validate-manifests.mjs <rendered.yaml>...');
    process.exit(2);
  }
  const { objects, problems } = loadObjects(files);
  const seen = new Map();
  for (const entry of objects) {
    problems.push(...(await schemaCheck(entry)));
    const key = `${entry.file}\0${entry.obj.apiVersion}\0${entry.obj.kind}\0${entry.obj.metadata?.namespace ?? ''}\0${entry.obj.metadata?.name}`;
    if (seen.has(key)) problems.push(`${entry.file}: ${describe(entry.obj)}: defined twice`);
    seen.set(key, true);
  }
  problems.push(...strictCheck(objects));

  const perFile = new Map(files.map((f) => [f, 0]));
  for (const { file } of objects) perFile.set(file, perFile.get(file) + 1);
  for (const [file, n] of perFile) console.log(`  ${file}: ${n} objects`);
  for (const p of problems) console.log(`  FAIL ${p}`);
  if (problems.length > 0) {
    console.log(`manifests: ${objects.length} objects, ${problems.length} problems`);
    process.exit(1);
  }
  console.log(`manifests: ${objects.length} objects valid (schema + strict fields)`);
}

await main();
