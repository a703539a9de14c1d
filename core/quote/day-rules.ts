// Each carrier's kind of days and cut-off hour (#21).
// SKELETON (issue-21): the dates helper derives these from the carrier descriptors and their settings.
import type { DayRules } from './delivery-dates';

export function dayRulesFor(_carrier: string): DayRules {
  return { kind: 'calendar', cutoffHour: 24 };
}
