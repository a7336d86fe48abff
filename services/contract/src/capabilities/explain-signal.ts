import { example } from '../openapi-examples';
import { EmptyQuery, SignalPath } from '../requests';
import { defineCapability } from './define';

const { product, signal } = example;

export const explainSignal = defineCapability({
  name: 'explain_signal',
  method: 'GET', path: '/api/v1/signals/:signal_id', scope: 'signals:read', cost: 'signal', service: 'signals', tool: 'signals.explain', readOnly: true,
  description: 'One confirmed change: before and after state, observation window, evidence, release date and permanent address.',
  params: SignalPath, query: EmptyQuery, body: null,
  answer: {},
  refusals: ['not_found'],
  paged: false,
  examples: {
    answer: { product, signals: [signal] },
  },
  mcp: {
    title: 'Explain one Signal',
    use: 'Cite the signal_url as the permanent address. An unreleased or invented id answers not_found.',
    arguments: { signal_id: 'Signal id: sig_ followed by 12 lowercase letters or digits, from signals.list, products.history or a signal_url.' },
  },
});
