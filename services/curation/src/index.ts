/**
 * Curation: how the Record changes. Readings become history states and price
 * observations, candidates are opened and reviewed, Signals are released,
 * corrected and withdrawn (and their outbox events published), ledger
 * editions are opened and closed. One implementation, used by the operator
 * CLI, the console, the demo seed and the tests.
 */
export { CaptureBundle, CaptureInput, LabelInput, MAX_LABEL_STATEMENTS, MAX_OTHER_INGREDIENTS, MAX_OTHER_INGREDIENT_FORMS, MAX_STATEMENT_CHARS, SourceFacts } from './bundle';
export { importCaptures, placeCapture, planCapture, writeCapture, contentOf, dateOf, newestStateReadFrom, insertState, insertCapture, type NewestState, type CapturePlan, type ImportResult, type PlacedCapture } from './captures';
export { rederiveStateIn } from './rederivation';
export { placeLabelVersion, type LabelVersionPlacement } from './label-versions';
export { refreshDepth } from './depth';
export { labelOf, labelSide, rederivesTheSame, sameLabel, formulaDiffers, servingDiffers, type LabelContent, type OtherServing } from './labels';
export { openCandidate, openCandidateIn, listCandidates, approveCandidate, refuseCandidate, type ApproveInput, type OpenCandidateInput } from './candidates';
export { openLabelCandidates, listPriceBefore, listPriceMoves, openPriceCandidate, type ListPriceBefore, type SourceEvent } from './candidate-rules';
export { releaseSignals, releaseEventId, type ReleaseInput, type ReleaseResult } from './release';
export { correctSignal, withdrawSignal, correctionNoticeId, type CorrectionInput, type CorrectionResult } from './corrections';
export { publishNow, releaseAndPublish, correctAndPublish, withdrawAndPublish, type AmendedSignal, type NatsTarget, type PublishNowResult } from './publish';
export { CurationRefused, NotFound } from './errors';
export { publicText, operatorText, MIN_PUBLIC_TEXT } from './text';
export {
  listStates,
  showCandidate,
  openCandidateQueue,
  listUnreleasedSignals,
  listReleasedSignals,
  listAlerts,
  listEditions,
  declaredLines,
  diffLines,
  type CandidateDetail,
  type DiffLine,
  type QueueItem,
  type UnreleasedSignal,
} from './reads';
export { openEdition, closeEdition, sealEdition, EditionRefused, type CloseResult } from './editions';
export { computeEditionDocument, composeEditionDocument, type EditionDocument } from './edition-document';
export { editionRows, editionRow, editionEntry, type EditionEntry, type EditionRow } from './edition-rows';
export { editionIdOf, periodEnd, periodStart, dataAsOf, utcToday } from './period';
export { addProduct, addProductIn, retireProduct, AddProductInput, type AddedProduct } from './catalogue';
export {
  addContext,
  correctContext,
  retireContext,
  listContext,
  contextIndex,
  contextKindOf,
  contextDate,
  type AddContextInput,
  type ContextCorrection,
  type ContextEntry,
  type ContextFields,
  type ContextKind,
  type CorrectContextInput,
  type RetireContextInput,
} from './context';
export { referenceDomains, referenceDomainOf, referenceUrl, type ReferenceDomain } from './references';
export { ingredientCatalogue, type CatalogueEntry } from './ingredient-catalogue';
export { identify, indexOfCatalogue, normaliseUnii, bareName, plainName, suggestionsFor, type DeclaredIdentifiers, type Identity, type IdentityBasis, type IdentityIndex, type Suggestion } from './identity-rules';
export {
  loadIdentityIndex,
  identityStamp,
  reidentifyLines,
  applyCatalogueIn,
  applyIngredientCatalogue,
  addIngredient,
  aliasIngredient,
  listUnidentified,
  listIngredients,
  AddIngredientInput,
  AliasIngredientInput,
  type CatalogueApplied,
  type IdentityChange,
  type UnidentifiedName,
  type IngredientListed,
} from './ingredient-identity';
export {
  addOperator,
  verifyCredential,
  credentialOperatorId,
  listOperators,
  disableOperator,
  enableOperator,
  type Operator,
  type OperatorListing,
  type OperatorRef,
} from './operators';
export { listDeadLetters, showAlert, replayAlert, ReplayRefused, type AlertView } from './alerts';
export { curationSettings } from './settings';
