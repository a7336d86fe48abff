// Exit 0 when node_modules holds what package-lock.json pins, 1 when it does not (missing,
// or installed from another lockfile: a pull or a branch switch changed it). Plain Node, no
// package needed: it runs before anything is installed (scripts/infra.sh, ensure_node_modules).
//
// npm records what it installed in node_modules/.package-lock.json; every package it lists
// must be the lockfile's (same version, integrity and source), and every package the lockfile
// pins must be there, except optional ones (another platform's binaries are never installed).
import { readFileSync } from 'node:fs';

function packages(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8')).packages ?? {};
  } catch {
    return null;
  }
}

const pinned = packages('package-lock.json');
const installed = packages('node_modules/.package-lock.json');
const same = (a, b) => a.version === b.version && a.integrity === b.integrity && a.resolved === b.resolved && Boolean(a.link) === Boolean(b.link);
const current =
  pinned !== null &&
  installed !== null &&
  Object.entries(pinned).every(([path, pin]) => path === '' || (installed[path] ? same(pin, installed[path]) : Boolean(pin.optional))) &&
  Object.keys(installed).every((path) => path in pinned);
process.exit(current ? 0 : 1);
