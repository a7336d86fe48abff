/**
 * A compact, readable notation for declared labels:
 *   'Caffeine Anhydrous 300 mg'        a declared ingredient with its amount
 *   'Huperzine A'                      named on the label without an amount (stored as NULL, never 0)
 *   blend('Focus Matrix', '1.2 g', 'L-Tyrosine', 'Alpha-GPC')
 *                                      a proprietary blend: only the total is declared
 */
export type Classification = 'comparable' | 'presence_only' | 'identity_only';

export interface DeclaredLine {
  declaredName: string;
  amount: number | null;
  unit: string | null;
}

export interface BlendLine {
  blend: string;
  total: number | null;
  unit: string | null;
  members: string[];
}

export type LabelLine = DeclaredLine | BlendLine;

export interface Serving {
  size: number;
  unit: string;
  servingsPerContainer: number;
  description: string;
}

export interface StateSpec {
  key: string;
  from: string;
  /** Last day this state was read; 'latest' means the product's newest read. */
  to: string;
  classification: Classification;
  serving?: Serving;
  label?: LabelLine[];
  note?: string;
}

const amountPattern = /^(.+?)\s+(\d+(?:\.\d+)?)\s*(mg|g|mcg)$/;

export function line(text: string): DeclaredLine {
  const m = amountPattern.exec(text.trim());
  if (!m) return { declaredName: text.trim(), amount: null, unit: null };
  return { declaredName: m[1]!, amount: Number(m[2]), unit: m[3]! };
}

export function blend(name: string, total: string, ...members: string[]): BlendLine {
  const m = /^(\d+(?:\.\d+)?)\s*(mg|g)$/.exec(total);
  if (!m) throw new Error(`blend total must be '<n> mg|g': ${total}`);
  return { blend: name, total: Number(m[1]), unit: m[2]!, members };
}

export function label(...lines: (string | BlendLine)[]): LabelLine[] {
  return lines.map((l) => (typeof l === 'string' ? line(l) : l));
}

export function isBlend(l: LabelLine): l is BlendLine {
  return 'blend' in l;
}

export function serving(size: number, unit: string, servingsPerContainer: number, description?: string): Serving {
  const unitText = unit === 'capsule' ? (size === 1 ? 'capsule' : 'capsules') : unit;
  return { size, unit, servingsPerContainer, description: description ?? `${size} ${unitText} per serving` };
}

export interface Revision {
  key: string;
  from: string;
  to: string;
  /** Declared name → new amount text ('2 g'); a blend name → new total. */
  set?: Record<string, string>;
  add?: string[];
  remove?: string[];
  serving?: Partial<Serving>;
  note?: string;
}

/** The next label state of a product: the previous one with the stated changes. */
export function revise(prev: StateSpec, r: Revision): StateSpec {
  let lines = (prev.label ?? []).map((l) => (isBlend(l) ? { ...l, members: [...l.members] } : { ...l }));
  for (const [name, value] of Object.entries(r.set ?? {})) {
    const target = lines.find((l) => (isBlend(l) ? l.blend : l.declaredName) === name);
    if (!target) throw new Error(`revise ${r.key}: no line named ${name}`);
    const parsed = line(`${name} ${value}`);
    if (isBlend(target)) {
      target.total = parsed.amount;
      target.unit = parsed.unit;
    } else {
      target.amount = parsed.amount;
      target.unit = parsed.unit;
    }
  }
  for (const name of r.remove ?? []) {
    const before = lines.length;
    lines = lines.filter((l) => (isBlend(l) ? l.blend : l.declaredName) !== name);
    if (lines.length === before) throw new Error(`revise ${r.key}: cannot remove missing ${name}`);
  }
  for (const text of r.add ?? []) lines.push(line(text));
  const servingNext = prev.serving ? { ...prev.serving, ...r.serving } : undefined;
  if (servingNext && r.serving && !r.serving.description) {
    const unitText = servingNext.unit === 'capsule' ? (servingNext.size === 1 ? 'capsule' : 'capsules') : servingNext.unit;
    servingNext.description = `${servingNext.size} ${unitText} per serving`;
  }
  return {
    key: r.key,
    from: r.from,
    to: r.to,
    classification: prev.classification,
    serving: servingNext,
    label: lines,
    note: r.note,
  };
}
