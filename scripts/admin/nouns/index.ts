import type { Noun } from '../cli';
import { capture } from './capture';
import { candidate } from './candidate';
import { signal } from './signal';
import { edition } from './edition';
import { outbox } from './outbox';
import { alert } from './alert';
import { org } from './org';
import { account } from './account';
import { key } from './key';
import { plan } from './plan';
import { state } from './state';
import { config } from './config';
import { operator } from './operator';
import { product } from './product';
import { source } from './source';
import { monitor } from './monitor';
import { research, regulatory } from './context';
import { ingredient } from './ingredient';

/** Every noun of the operator CLI. Add a noun by adding its module here. */
export const nouns: Noun[] = [
  config,
  capture,
  state,
  candidate,
  signal,
  edition,
  outbox,
  alert,
  org,
  account,
  key,
  plan,
  operator,
  product,
  source,
  monitor,
  research,
  regulatory,
  ingredient,
];
