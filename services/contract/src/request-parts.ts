import { z } from 'zod';
import { MAX_PAGE_SIZE } from './decisions';

/** The parts the capabilities' request schemas are built from (requests.ts, capabilities/); not exported from the package. */

// Postgres has no year 0000 (ISO 8601's 1 BC): such a date is a bad request, never a server fault.
export const isoDate = z.iso.date().refine((d) => !d.startsWith('0000'), 'year 0000 is not a calendar year the Record can hold');
export const pageLimit = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE);
export const cursor = z.string().min(1).max(512);
// Postgres text cannot hold a NUL character: free text carrying one is a bad request, never a server fault.
export const noNul = (s: string) => !s.includes('\u0000');
export const noNulMessage = 'must not contain a NUL character';
