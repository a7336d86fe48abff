export { startSourceServer, offerHtml, type SourceServer, type OfferSpec, type Behaviour } from './server';
export { dsldLabel, type LabelOptions } from './labels';
export { initialDemoState, changed, demoLabel, demoOffer, DEMO_LABEL_ID, DEMO_RETAILERS, type DemoState } from './demo';
export { recordedDemoState } from './recorded';
