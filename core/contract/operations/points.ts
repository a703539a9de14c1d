// Pickup points that take the parcel (#21): the desk's side of POST /ext/v1/points, the same query and answer.
import { PointsQuery, PointsResponse } from '../points';

export const pointOperations = {
  /** The carrier's points of the recipient's town that take these boxes (COD/card where asked), nearest first. */
  'points:search': { input: PointsQuery, output: PointsResponse },
} as const;
