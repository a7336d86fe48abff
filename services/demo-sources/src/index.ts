export { startSourceServer, offerHtml, type SourceServer, type OfferSpec, type Behaviour } from './server';
export { dsldLabel, type LabelOptions } from './labels';
