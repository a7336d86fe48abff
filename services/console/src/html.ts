import escapeHtml from 'escape-html';

/**
 * Server-rendered pages from tagged templates: every interpolated value is
 * escaped unless it is itself a `Safe` fragment built by `html`.
 */
export class Safe {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = string | number | null | undefined | Safe | Part[];

function render(v: Part): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Safe) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Safe {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Safe(out);
}

const style = `
body{font-family:system-ui,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:.6rem 1.2rem;display:flex;gap:1.2rem;align-items:center}
header a{color:#cfe0ff;text-decoration:none}header .who{margin-left:auto;opacity:.8}
main{padding:1.2rem;max-width:1200px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #d8dce3;padding:.35rem .5rem;text-align:left;vertical-align:top;font-size:.92rem}td.wrap{overflow-wrap:anywhere}.nowrap{white-space:nowrap}
th{background:#eef1f5}.flash{padding:.6rem;margin-bottom:1rem;border-radius:4px}.ok{background:#e3f6e8}.err{background:#fde7e7}
.sides{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}.sides pre{background:#fff;border:1px solid #d8dce3;padding:.5rem;margin:0;white-space:pre-wrap}
.removed{background:#fbd3d3;text-decoration:line-through}.added{background:#cdf2d6;font-weight:600}
form.inline{display:inline}textarea,input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.4rem}
button{padding:.35rem .8rem;margin-top:.3rem}select{padding:.3rem}section.entry label,form.add label{display:block;margin:.3rem 0}label.check input{width:auto}
section.entry{background:#fff;border:1px solid #d8dce3;padding:.6rem;margin:.6rem 0}section.entry[data-state=retired]{opacity:.75}.retired{background:#fde7e7;padding:.4rem}details{margin:.6rem 0}.muted{color:#667}.state-unreadable,.state-overdue{color:#a00;font-weight:600}
`;

export function page(title: string, body: Safe, opts: { operator?: string | null; flash?: { kind: 'ok' | 'err'; text: string } | null; csrf?: string } = {}): string {
  const nav = opts.operator
    ? html`<a href="/">Queue</a><a href="/release">Release</a><a href="/signals">Signals</a><a href="/editions">Editions</a><a href="/sources">Sources</a><a href="/ingredients">Ingredients</a><a href="/context">Research &amp; regulatory</a>
<span class="who">Signed in as ${opts.operator}</span><form class="inline" method="post" action="/logout"><input type="hidden" name="_csrf" value="${opts.csrf ?? ''}"><button>Sign out</button></form>`
    : html``;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Evidence Record console</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${new Safe(style)}</style></head>
<body><header><strong>Evidence Record · review console</strong>${nav}</header><main>
${opts.flash ? html`<div class="flash ${opts.flash.kind}" role="status">${opts.flash.text}</div>` : ''}
<h1>${title}</h1>${body}</main></body></html>`.value;
}
