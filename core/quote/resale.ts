// The customer's price (#21): the carrier's price with the account's resale rule for that carrier. The rule's
// arithmetic lives with the rule's schema in core/contract/pricing.ts, so the settings screen's preview and
// every quote compute the same number; the quote path imports it from here.
export { customerPrice, ruleFor } from '../contract/pricing';
