// Pickup points that take the parcel (#21): the query (the recipient's town, the boxes, COD and card payment
// where asked) and a point as every carrier's directory is mapped to it. One source for POST /ext/v1/points,
// the desk's points:search and the point a clerk carries into copy and export.
import { z } from 'zod';
import { Location, MAX_CARRIER_CODE_LENGTH } from './v1';
import { MAX_COD_KOPECKS, MAX_PLACES, Place } from './quote-ext';

export const MAX_POINTS = 200;

export const PointsQuery = z
  .strictObject({
    carrier: z.string().min(1).max(MAX_CARRIER_CODE_LENGTH),
    to: Location,
    places: z.array(Place).min(1).max(MAX_PLACES),
    /** Cash on delivery asked: only points that take it. */
    cod_kopecks: z.int().min(0).max(MAX_COD_KOPECKS).default(0),
    /** The recipient pays by card: only points with a card terminal. */
    card: z.boolean().default(false),
    limit: z.int().min(1).max(MAX_POINTS).default(50),
  })
  .meta({ id: 'PointsQuery' });
export type PointsQuery = z.output<typeof PointsQuery>;
export type PointsQueryInput = z.input<typeof PointsQuery>;

export const PointKind = z.enum(['pvz', 'postamat', 'post_office']).meta({ id: 'PointKind' });

export const PickupPoint = z
  .object({
    carrier: z.string(),
    /** The carrier's own code of the point (what its order API takes). */
    code: z.string(),
    kind: PointKind,
    name: z.string(),
    address: z.string(),
    /** Opening hours as the carrier words them (Russian). */
    hours: z.string(),
    lat: z.number().nullable(),
    lon: z.number().nullable(),
    /** Straight-line distance from the town's centre (the city table's point); null without coordinates. */
    distance_km: z.number().min(0).nullable(),
    /** The point's limits as the carrier publishes them; null: not published (not: unlimited). */
    max_weight_grams: z.int().nullable(),
    /** Its largest box, sides in cm sorted longest first; null: not published. */
    max_dimensions_cm: z.tuple([z.number(), z.number(), z.number()]).nullable(),
    cod: z.boolean(),
    card: z.boolean(),
  })
  .meta({ id: 'PickupPoint' });
export type PickupPoint = z.output<typeof PickupPoint>;

export const PointsResponse = z
  .object({
    /** Nearest first. */
    points: z.array(PickupPoint),
    /** Points of the town left out because they cannot take this parcel. */
    filtered_out: z.int().min(0),
    /** When the directory these came from was fetched (ISO timestamp). */
    directory_fetched_at: z.string().nullable(),
  })
  .meta({ id: 'PointsResponse' });
export type PointsResponse = z.output<typeof PointsResponse>;
